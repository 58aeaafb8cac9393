// ods_view: a saved view, a named query over datasets. Roles and tokens grant access to
// one view by its name (view_capabilities), so the name is the natural key.
import { listOf, str } from "./attributes";
import { datasetName, nonEmpty } from "./checks";
import type { PlanCheck, ResourceKind } from "./kind";
import type { ViewInput } from "../api";
import { organizationApi, wireShape } from "./api-binding";
import { compileQuery } from "./query-check";

/** The query is compiled by the service at plan time, as a starred query's is. */
const viewQueryCompiles: PlanCheck = {
  title: "Invalid query",
  checks: "the service compiles the view's query",
  needs: ["apl_query"],
  answerDependsOnlyOnValues: true,
  async check(client, values) {
    const apl = values.apl_query;
    if (typeof apl !== "string") return undefined;
    const err = await compileQuery(client, apl);
    if (!err) return undefined;
    return { attribute: "apl_query", line: err.detail?.line, column: err.detail?.column, message: err.detail?.message ?? err.serviceMessage };
  },
};

export const view: ResourceKind = {
  typeName: "ods_view",
  description: "A saved view: a named query over datasets, shared with the organization.",
  schemaVersion: 0,
  attributes: {
    id: str("Assigned by the service.", { computed: true }),
    name: str("Unique name of the view; roles and tokens grant access to it by this name.", { required: true, checks: [nonEmpty] }),
    apl_query: str("The view's query (compiled by the service at plan time).", { required: true, checks: [nonEmpty] }),
    datasets: listOf("string", "Datasets the view reads.", {
      optional: true,
      serverDefault: [],
      checks: [datasetName],
      refersTo: { typeName: "ods_dataset", attribute: "name" },
    }),
    description: str("What the view shows.", { optional: true, serverDefault: "" }),
    shared_by_org: str("The id of the organization the view is shared by.", { computed: true }),
    shared_by_org_name: str("The name of that organization.", { computed: true }),
  },
  naturalKey: ["name"],
  creation: "create",
  deletion: "delete",
  planCheck: viewQueryCompiles,
  warnsOfStrayDatasets: true,
  importIdFormat: "the view id",
  api: organizationApi({
    list: (c) => c.listViews(),
    read: (c, id) => c.getView(id),
    create: (c, body) => c.createView(body),
    update: (c, id, body) => c.updateView(id, body),
    remove: (c, id) => c.deleteView(id),
  }, { create: wireShape<ViewInput>("view", { name: true, aplQuery: true, datasets: true, description: true }) }),
};
