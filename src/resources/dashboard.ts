// ods_dashboard: a dashboard document under a uid. The document is JSON text, as users
// copy it from the UI (or as the typed builder writes it). The service versions every
// write: the version this configuration last wrote is kept in state, and an update sends
// it back, so that a change someone made in the UI since is never overwritten silently:
// the service refuses (412) and the apply says who changed it and when, unless
// `overwrite` is set.
import { OdsApiError, type DashboardWrite, type OdsClient } from "../api";
import { bool, num, str, type EmbeddedReference } from "./attributes";
import type { ResourceKind, ValidationIssue, Values } from "./kind";
import { organizationApi, wireShape, type WireObject } from "./api-binding";
import { comparableDocument, documentProblems, documentText, EVERYONE, parseDocument } from "./dashboard-document";
import { isReference } from "./validate";
import { isPlaceholder, withPlaceholders } from "./placeholders";
import { datasetsInQuery } from "./named-datasets";

const UID = /^[A-Za-z0-9_-]{1,128}$/;

/** The monitors a document's MonitorList charts name, by id. */
function objectsNamed(text: string): EmbeddedReference[] {
  const doc = parseDocument(text).doc;
  const ids = new Set<string>();
  const charts = doc?.charts;
  if (Array.isArray(charts)) {
    for (const c of charts as { type?: unknown; monitors?: unknown }[]) {
      if (c?.type === "MonitorList" && Array.isArray(c.monitors)) for (const m of c.monitors) if (typeof m === "string" && m !== "") ids.add(m);
    }
  }
  const named: EmbeddedReference[] = [...ids].map((value) => ({ value, ref: { typeName: "ods_monitor", attribute: "id" } }));
  // The owner is a user id, which differs between organizations: export and compare see through it.
  const owner = doc?.owner;
  // The service keeps owners in lower case: everyone is "x-axiom-everyone" as read back.
  if (typeof owner === "string" && owner !== "" && owner.toLowerCase() !== EVERYONE.toLowerCase()) named.push({ value: owner, ref: { typeName: "ods_user", attribute: "id" } });
  return named;
}

/**
 * The document's problems, each naming its chart or layout item. Parts known only after
 * apply (a monitor's id) are placeholders: the rest is checked all the same.
 */
function validateDashboard(values: Values): ValidationIssue[] {
  const text = values.dashboard;
  if (typeof text !== "string") return [];
  const checked = withPlaceholders(text, true);
  const { doc, error } = parseDocument(checked);
  // Text that is JSON only once its expressions are known (a whole `${jsonencode(...)}`) is checked then.
  if (!doc) return checked === text ? [{ path: ["dashboard"], message: error! }] : [];
  const issues = documentProblems(doc).map((message) => ({ path: ["dashboard"], message }));
  const uid = values.uid;
  if (typeof doc.uid === "string" && !isPlaceholder(doc.uid) && typeof uid === "string" && !isReference(uid) && doc.uid !== uid) {
    issues.push({ path: ["dashboard"], message: `the document's "uid" ${JSON.stringify(doc.uid)} differs from the resource's uid ${JSON.stringify(uid)}` });
  }
  return issues;
}

/** The service's refusal of a write based on an old version, said as who changed what and when. */
async function explainConflict(client: OdsClient, uid: string, sentVersion: unknown, err: OdsApiError): Promise<Error> {
  const current = await client.getDashboard(uid).catch(() => undefined);
  const who = current ? `${current.updatedBy} at ${current.updatedAt} (now version ${current.version}` : `someone (the service answered ${err.status}`;
  const since = typeof sentVersion === "number" ? `; this configuration last wrote version ${sentVersion})` : ")";
  return new Error(
    `dashboard "${uid}" was changed by ${who}${since}. Nothing was written. Copy their change into the configuration, or set overwrite = true to replace it.`,
  );
}

/**
 * Someone wrote the dashboard since this configuration did (its live version is not the
 * one in state): the update would be refused (412) unless `overwrite` is set, and with it
 * their change is replaced. Said at plan, and by `ods drift`, the way the apply would.
 */
function dashboardConflict(last: Values, live: Values, declared: Values): { refused: boolean; message: string } | undefined {
  if (typeof last.version !== "number" || typeof live.version !== "number" || last.version === live.version) return undefined;
  const who = `dashboard "${String(live.uid ?? last.uid)}" was changed by ${String(live.updated_by ?? "someone")} at ${String(live.updated_at ?? "an unknown time")} (now version ${live.version}; this configuration last wrote version ${last.version})`;
  if (declared.overwrite === true) return { refused: false, message: `${who}; overwrite = true, so apply will replace their change` };
  return { refused: true, message: `${who}; apply will refuse this dashboard unless overwrite = true. Copy their change into the configuration, or set overwrite = true to replace it` };
}

const shape = wireShape<DashboardWrite>("dashboard", { dashboard: true, uid: true, version: true, overwrite: true, message: true });

const api = organizationApi<DashboardWrite>({
  list: (c) => c.listAllDashboards(),
  read: (c, uid) => c.getDashboard(uid),
  create: async (c, body) => (await c.createDashboard(body)).dashboard,
  update: async (c, uid, body) => {
    try {
      return (await c.updateDashboard(uid, body)).dashboard;
    } catch (err) {
      if (err instanceof OdsApiError && (err.status === 412 || err.status === 409)) throw await explainConflict(c, uid, body.version, err);
      throw err;
    }
  },
  remove: (c, uid) => c.deleteDashboard(uid),
}, { create: shape });

export const dashboard: ResourceKind = {
  typeName: "ods_dashboard",
  description: "A dashboard: charts and their layout, as a JSON document under a uid.",
  schemaVersion: 0,
  attributes: {
    id: str("The dashboard's uid.", { computed: true }),
    uid: str("Unique id of the dashboard, used in its URL: letters, digits, \"-\" and \"_\" (at most 128).", {
      required: true,
      forcesReplacement: true,
      checks: [(v) => (typeof v === "string" && !UID.test(v) ? `a uid of 1 to 128 letters, digits, "-" or "_", got "${v}"` : undefined)],
    }),
    dashboard: str("The dashboard document as JSON text, as the UI shows it (or as DashboardBuilder writes it).", {
      required: true,
      normalize: comparableDocument,
      document: true,
      referencesInText: objectsNamed,
    }),
    overwrite: bool("Replace the dashboard even when someone changed it since this configuration last wrote it.", {
      optional: true,
      engineOnly: true,
      default: false,
    }),
    version: num("The version this configuration last wrote; an update based on an older one is refused.", { computed: true, writeVersion: true, changesOnWrite: true }),
    updated_by: str("Who wrote the current version.", { computed: true, changesOnWrite: true }),
    updated_at: str("When the current version was written.", { computed: true, timestamp: true, changesOnWrite: true }),
  },
  naturalKey: ["uid"],
  creation: "create",
  deletion: "delete",
  validate: validateDashboard,
  versionConflict: dashboardConflict,
  importIdFormat: "the dashboard uid",
  datasetsNamed: (values) => {
    const { doc } = typeof values.dashboard === "string" ? parseDocument(values.dashboard) : {};
    const charts = Array.isArray(doc?.charts) ? (doc.charts as { query?: { apl?: unknown } }[]) : [];
    return charts.flatMap((c) => (typeof c?.query?.apl === "string" ? datasetsInQuery(c.query.apl) : []));
  },
  api: {
    ...api,
    idOf: (live: WireObject) => String(live.uid),
    // The document comes back as an object with the service's fields in it: kept as text.
    normalizeLive: (live) => ({
      ...live,
      id: live.uid,
      dashboard: typeof live.dashboard === "object" && live.dashboard !== null ? documentText(live.dashboard as Record<string, unknown>) : live.dashboard,
    }),
    shapeBody: (body, operation, { values, last }) => {
      const out: WireObject = { ...body, overwrite: values.overwrite === true };
      if (typeof body.dashboard === "string") out.dashboard = parseDocument(body.dashboard).doc ?? body.dashboard;
      const version = last?.version;
      if (operation === "update" && typeof version === "number") out.version = version;
      return out;
    },
  },
};
