// Data sources of views and dashboards: one by id or name (a view) or by uid (a
// dashboard), and lists filtered by name, as for the other kinds.
import type { Dashboard, OdsClient } from "../api";
import { type Attributes, num, str } from "./attributes";
import type { WireObject } from "./api-binding";
import { documentText } from "./dashboard-document";
import { byIdOrName, listDataSource } from "./data-sources";
import type { DataSourceKind } from "./kind";
import { view } from "./view";
import { fromWire } from "./wire";

export const dataView = byIdOrName("view", "ods_view", view.attributes, (c) => view.api.list(c));
export const dataViews = listDataSource({ typeName: "ods_views", plural: "views", kind: view, perDataset: false, description: "Every view of the organization" });

const dashboardAttrs: Attributes = {
  uid: str("The dashboard's uid.", { computed: true }),
  name: str("The dashboard's name (from its document).", { computed: true }),
  dashboard: str("The document as JSON text, without the fields the service adds.", { computed: true }),
  version: num("The current version.", { computed: true }),
  updated_by: str("Who wrote the current version.", { computed: true }),
  updated_at: str("When the current version was written.", { computed: true }),
};

/** A dashboard as the data sources show it: its name lifted out of the document. */
function dashboardItem(d: Dashboard): WireObject {
  const doc = d.dashboard;
  return { uid: d.uid, name: typeof doc.name === "string" ? doc.name : "", dashboard: documentText(doc), version: d.version, updatedBy: d.updatedBy, updatedAt: d.updatedAt };
}

export const dataDashboard: DataSourceKind = {
  typeName: "ods_dashboard",
  description: "A dashboard, by uid.",
  attributes: { ...dashboardAttrs, uid: str("The dashboard's uid.", { required: true }) },
  api: {
    read: async (c: OdsClient, config) => fromWire(dashboardAttrs, dashboardItem(await c.getDashboard(String(config.uid)))),
  },
};

export const dataDashboards = listDataSource({
  typeName: "ods_dashboards",
  plural: "dashboards",
  kind: { attributes: dashboardAttrs, api: { list: async (c) => (await c.listAllDashboards()).map(dashboardItem) } },
  perDataset: false,
  description: "Every dashboard of the organization",
});
