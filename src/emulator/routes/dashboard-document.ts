// The dashboard document, checked as the service's contract describes it
// (API-CONTRACT-MONITORS.md, Dashboards), and the form the service answers it in: keys
// in its own order, the owner in lower case, its own uid, id and version inside, and
// empty chart overrides dropped. Every 400 names the chart or layout item at fault.
import { badRequest } from "../errors";
import { normalizeTimestamp } from "../time";
import { isObject, type JsonObject } from "../validate";

export const EVERYONE = "X-AXIOM-EVERYONE";
export const UID = /^[A-Za-z0-9_-]{1,128}$/;

const QUERY_CHARTS = ["TimeSeries", "Heatmap", "LogStream", "Pie", "Scatter", "Table", "TopK", "Statistic"];
const CHART_TYPES = [...QUERY_CHARTS, "Note", "MonitorList", "SmartFilter", "Spacer"];
const REFRESH_TIMES = [15, 60, 300];
const TOP_LEVEL = ["name", "owner", "description", "charts", "layout", "refreshTime", "schemaVersion", "timeWindowStart", "timeWindowEnd", "against", "againstTimestamp", "uid"];
/** Fields the service writes into a document it answers; a document read back may be sent again. */
const SERVICE_FIELDS = ["id", "version", "createdAt", "createdBy", "updatedAt", "updatedBy"];
const MAX_ITEMS = 200;
const TIME_WINDOW = /^(qr-now(-\d+[smhdw])?|\d{1,15})$/;
const AGAINST = /^-(\d+)(h|d)$/;

function str(doc: JsonObject, key: string, where: string, opts: { required?: boolean; min?: number; max?: number } = {}): string | undefined {
  const v = doc[key];
  if (v === undefined || v === null) {
    if (opts.required) throw badRequest(`${where}"${key}" is required`);
    return undefined;
  }
  if (typeof v !== "string") throw badRequest(`${where}"${key}" must be a string`);
  if (opts.min !== undefined && v.length < opts.min) throw badRequest(`${where}"${key}" must have at least ${opts.min} character(s)`);
  if (opts.max !== undefined && v.length > opts.max) throw badRequest(`${where}"${key}" must have at most ${opts.max} characters, got ${v.length}`);
  return v;
}

function int(item: JsonObject, key: string, where: string, min: number, max: number, required: boolean): void {
  const v = item[key];
  if (v === undefined || v === null) {
    if (required) throw badRequest(`${where}"${key}" is required`);
    return;
  }
  if (typeof v !== "number" || !Number.isFinite(v) || v < min || v > max) throw badRequest(`${where}"${key}" must be a number from ${min} to ${max}, got ${JSON.stringify(v)}`);
}

function checkChart(chart: unknown, index: number, ids: Set<string>): void {
  if (!isObject(chart)) throw badRequest(`charts[${index}] must be an object`);
  const id = str(chart, "id", `charts[${index}]: `, { required: true, min: 1 })!;
  const where = `chart "${id}": `;
  if (ids.has(id)) throw badRequest(`${where}another chart has the same id`);
  ids.add(id);
  const type = str(chart, "type", where, { required: true });
  if (!CHART_TYPES.includes(type!)) throw badRequest(`${where}"type" must be one of ${CHART_TYPES.join(", ")}, got ${JSON.stringify(type)}`);
  str(chart, "name", where, { min: 1, max: 500 });
  if (QUERY_CHARTS.includes(type!)) {
    const query = chart.query;
    if (!isObject(query)) throw badRequest(`${where}a ${type} chart needs "query": {"apl": ...}`);
    str(query, "apl", `${where}query.`, { required: true, min: 1 });
  }
  if (type === "Note") str(chart, "text", where, { required: true });
  if (type === "MonitorList" && chart.monitors !== undefined) {
    if (!Array.isArray(chart.monitors) || chart.monitors.some((m) => typeof m !== "string")) throw badRequest(`${where}"monitors" must be an array of monitor ids`);
  }
}

function checkLayoutItem(item: unknown, index: number, ids: Set<string>): void {
  if (!isObject(item)) throw badRequest(`layout[${index}] must be an object`);
  const i = str(item, "i", `layout[${index}]: `, { required: true, min: 1 })!;
  const where = `layout item "${i}": `;
  if (!ids.has(i)) throw badRequest(`${where}names no chart ("i" must be the id of a chart)`);
  int(item, "x", where, 0, 11, true);
  int(item, "y", where, 0, Number.MAX_SAFE_INTEGER, true);
  int(item, "w", where, 1, 12, true);
  int(item, "h", where, 1, 100, true);
  for (const key of ["minW", "maxW"]) int(item, key, where, 1, 12, false);
  for (const key of ["minH", "maxH"]) int(item, key, where, 1, 100, false);
  if (item.static !== undefined && typeof item.static !== "boolean") throw badRequest(`${where}"static" must be a boolean`);
}

function list(doc: JsonObject, key: string): unknown[] {
  const v = doc[key];
  if (!Array.isArray(v)) throw badRequest(`dashboard."${key}" is required and must be an array`);
  if (v.length > MAX_ITEMS) throw badRequest(`dashboard."${key}" has ${v.length} items; at most ${MAX_ITEMS}`);
  return v;
}

/** Checks a dashboard document; answers it without the fields the service writes itself. */
export function checkDocument(value: unknown): JsonObject {
  if (!isObject(value)) throw badRequest(`"dashboard" is required and must be an object`);
  const doc: JsonObject = {};
  for (const [key, v] of Object.entries(value)) {
    if (SERVICE_FIELDS.includes(key)) continue;
    if (!TOP_LEVEL.includes(key)) throw badRequest(`dashboard has an unknown field ${JSON.stringify(key)}`);
    doc[key] = v;
  }
  const where = "dashboard.";
  str(doc, "name", where, { required: true, min: 1, max: 100 });
  str(doc, "owner", where, { required: true, min: 1 });
  str(doc, "description", where, { max: 1000 });
  const ids = new Set<string>();
  list(doc, "charts").forEach((c, i) => checkChart(c, i, ids));
  list(doc, "layout").forEach((item, i) => checkLayoutItem(item, i, ids));
  if (!REFRESH_TIMES.includes(doc.refreshTime as number)) throw badRequest(`dashboard."refreshTime" must be 15, 60 or 300 (seconds), got ${JSON.stringify(doc.refreshTime)}`);
  if (doc.schemaVersion !== 2) throw badRequest(`dashboard."schemaVersion" must be 2, got ${JSON.stringify(doc.schemaVersion)}`);
  for (const key of ["timeWindowStart", "timeWindowEnd"]) {
    const v = doc[key];
    if ((typeof v !== "string" && typeof v !== "number") || !TIME_WINDOW.test(String(v))) {
      throw badRequest(`dashboard."${key}" must be "qr-now", "qr-now-<duration>" such as "qr-now-1h", or epoch milliseconds, got ${JSON.stringify(v)}`);
    }
  }
  const against = str(doc, "against", where);
  if (against !== undefined) {
    const m = AGAINST.exec(against);
    const hours = m ? Number(m[1]) * (m[2] === "d" ? 24 : 1) : 0;
    if (!m || hours < 1 || hours > 90 * 24) throw badRequest(`dashboard."against" must be from "-1h" to "-90d", got ${JSON.stringify(against)}`);
  }
  const againstTimestamp = str(doc, "againstTimestamp", where);
  if (againstTimestamp !== undefined && normalizeTimestamp(againstTimestamp) === undefined) throw badRequest(`dashboard."againstTimestamp" must be an RFC 3339 timestamp`);
  if (against !== undefined && againstTimestamp !== undefined) throw badRequest(`dashboard: set "against" or "againstTimestamp", not both`);
  const uid = str(doc, "uid", where);
  if (uid !== undefined && !UID.test(uid)) throw badRequest(`dashboard."uid" must match ${UID.source}`);
  return doc;
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (!isObject(value)) return value;
  const out: JsonObject = {};
  for (const key of Object.keys(value).sort()) out[key] = sortedKeys(value[key]);
  return out;
}

function isEmptyObject(v: unknown): boolean {
  return isObject(v) && Object.keys(v).length === 0;
}

/** The document as the service stores and answers it. */
export function storedDocument(doc: JsonObject, ids: { id: string; uid: string; version: number }): JsonObject {
  const charts = (doc.charts as JsonObject[]).map((chart) => {
    const { overrides, ...rest } = chart;
    return isEmptyObject(overrides) || overrides === undefined ? rest : chart;
  });
  const owner = String(doc.owner);
  // User ids are case-insensitive; the service keeps them in lower case.
  return sortedKeys({ ...doc, charts, owner: owner.toLowerCase(), ...ids }) as JsonObject;
}
