// The dashboard document as the model checks and compares it (API-CONTRACT-MONITORS.md,
// Dashboards). Users paste it from the UI as JSON text; the service answers it with its
// own fields added (ids, versions, timestamps), keys in its own order, the owner in lower
// case and empty overrides dropped. The comparable form leaves all of that out, so that
// a plan after an apply is empty. Shared by the ods_dashboard kind and the typed builder.
import { isPlaceholder } from "./placeholders";

export const QUERY_CHART_TYPES: readonly string[] = ["TimeSeries", "Heatmap", "LogStream", "Pie", "Scatter", "Table", "TopK", "Statistic"];
export const CHART_TYPES: readonly string[] = [...QUERY_CHART_TYPES, "Note", "MonitorList", "SmartFilter", "Spacer"];
export const REFRESH_TIMES: readonly number[] = [15, 60, 300];
/** The width of the layout grid, in columns. */
export const GRID_COLUMNS = 12;
export const EVERYONE = "X-AXIOM-EVERYONE";

/** Fields the service writes into the document it answers. */
const SERVICE_FIELDS = new Set(["id", "uid", "version", "createdAt", "createdBy", "updatedAt", "updatedBy"]);
const TIME_WINDOW = /^(qr-now(-\d+[smhdw])?|\d{1,15})$/;

type Json = Record<string, unknown>;

/** A value known only after apply (a placeholder, see placeholders.ts): its checks wait. */
const unknownPart = isPlaceholder;

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The document of JSON text, or the parse error. */
export function parseDocument(text: string): { doc?: Json; error?: string } {
  try {
    const doc = JSON.parse(text) as unknown;
    return isObject(doc) ? { doc } : { error: "the document must be a JSON object" };
  } catch (err) {
    return { error: `the document is not valid JSON: ${(err as Error).message}` };
  }
}

function inRange(v: unknown, min: number, max: number): boolean {
  if (unknownPart(v)) return true;
  return typeof v === "number" && Number.isFinite(v) && v >= min && v <= max;
}

function chartProblems(chart: unknown, index: number, ids: Set<string>): string[] {
  if (!isObject(chart) || typeof chart.id !== "string" || chart.id === "") return [`charts[${index}] needs an "id" (a non-empty string)`];
  const where = `chart "${chart.id}"`;
  const out: string[] = [];
  if (ids.has(chart.id) && !unknownPart(chart.id)) out.push(`${where}: another chart has the same id`);
  ids.add(chart.id);
  const type = chart.type;
  if (unknownPart(type)) return out;
  if (typeof type !== "string" || !CHART_TYPES.includes(type)) {
    out.push(`${where}: unknown chart type ${JSON.stringify(type)}; expected one of ${CHART_TYPES.join(", ")}`);
    return out;
  }
  if (QUERY_CHART_TYPES.includes(type) && !(isObject(chart.query) && typeof chart.query.apl === "string" && chart.query.apl.trim() !== "")) {
    out.push(`${where}: a ${type} chart needs "query": {"apl": "..."}`);
  }
  if (chart.name !== undefined && !unknownPart(chart.name) && !(typeof chart.name === "string" && chart.name.length >= 1 && chart.name.length <= 500)) out.push(`${where}: "name" must have 1 to 500 characters`);
  if (type === "Note" && typeof chart.text !== "string") out.push(`${where}: a Note chart needs "text"`);
  return out;
}

function layoutProblems(item: unknown, index: number, ids: ReadonlySet<string>): string[] {
  if (!isObject(item) || typeof item.i !== "string" || item.i === "") return [`layout[${index}] needs "i" (the id of a chart)`];
  const where = `layout item "${item.i}"`;
  const out: string[] = [];
  const anyUnknown = unknownPart(item.i) || [...ids].some(unknownPart);
  if (!ids.has(item.i) && !anyUnknown) out.push(`${where} names no chart ("i" must be the id of a chart)`);
  if (!inRange(item.w, 1, GRID_COLUMNS)) out.push(`${where}: width "w" must be from 1 to ${GRID_COLUMNS}, got ${JSON.stringify(item.w)}`);
  if (!inRange(item.x, 0, GRID_COLUMNS - 1)) out.push(`${where}: "x" must be from 0 to ${GRID_COLUMNS - 1}, got ${JSON.stringify(item.x)}`);
  if (!inRange(item.y, 0, Number.MAX_SAFE_INTEGER)) out.push(`${where}: "y" must be a number >= 0, got ${JSON.stringify(item.y)}`);
  if (!inRange(item.h, 1, 100)) out.push(`${where}: height "h" must be from 1 to 100, got ${JSON.stringify(item.h)}`);
  return out;
}

/** What is wrong with a document, each problem naming its chart or layout item. */
export function documentProblems(doc: Json): string[] {
  const out: string[] = [];
  if (!unknownPart(doc.name) && !(typeof doc.name === "string" && doc.name.length >= 1 && doc.name.length <= 100)) out.push(`"name" is required: 1 to 100 characters`);
  if (!(typeof doc.owner === "string" && doc.owner !== "")) out.push(`"owner" is required: a user id, or "${EVERYONE}" for everyone`);
  if (doc.description !== undefined && !unknownPart(doc.description) && !(typeof doc.description === "string" && doc.description.length <= 1000)) out.push(`"description" must have at most 1000 characters`);
  const ids = new Set<string>();
  if (!Array.isArray(doc.charts)) out.push(`"charts" is required: an array of charts`);
  else doc.charts.forEach((c, i) => out.push(...chartProblems(c, i, ids)));
  if (!Array.isArray(doc.layout)) out.push(`"layout" is required: an array of layout items`);
  else doc.layout.forEach((item, i) => out.push(...layoutProblems(item, i, ids)));
  if (!unknownPart(doc.refreshTime) && !REFRESH_TIMES.includes(doc.refreshTime as number)) out.push(`"refreshTime" must be 15, 60 or 300 (seconds), got ${JSON.stringify(doc.refreshTime)}`);
  if (!unknownPart(doc.schemaVersion) && doc.schemaVersion !== 2) out.push(`"schemaVersion" must be 2, got ${JSON.stringify(doc.schemaVersion)}`);
  for (const key of ["timeWindowStart", "timeWindowEnd"]) {
    const v = doc[key];
    if (unknownPart(v)) continue;
    if (!((typeof v === "string" || typeof v === "number") && TIME_WINDOW.test(String(v)))) {
      out.push(`"${key}" must be "qr-now", "qr-now-<duration>" such as "qr-now-1h", or epoch milliseconds, got ${JSON.stringify(v)}`);
    }
  }
  return out;
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (!isObject(value)) return value;
  const out: Json = {};
  for (const key of Object.keys(value).sort()) out[key] = sortedKeys(value[key]);
  return out;
}

/** The document without what the service adds or respells: its comparable content. */
export function documentContent(doc: Json): Json {
  const out: Json = {};
  for (const [key, v] of Object.entries(doc)) if (!SERVICE_FIELDS.has(key)) out[key] = v;
  if (typeof out.owner === "string") out.owner = out.owner.toLowerCase();
  if (Array.isArray(out.charts)) {
    out.charts = out.charts.map((chart) => {
      if (!isObject(chart) || !isObject(chart.overrides) || Object.keys(chart.overrides).length > 0) return chart;
      const { overrides: _empty, ...rest } = chart;
      return rest;
    });
  }
  return sortedKeys(out) as Json;
}

/** The comparable form of document text; text that is not a JSON object compares as itself. */
export function comparableDocument(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const { doc } = parseDocument(value);
  return doc ? JSON.stringify(documentContent(doc)) : value;
}

/** Document text as the engines keep a live document: its content, keys sorted, indented. */
export function documentText(doc: Json): string {
  return JSON.stringify(documentContent(doc), null, 2);
}
