// A small web-access dataset with fixed times, and helpers that run the engine and
// read its answers back as plain rows.

import { expect } from "vitest";
import {
  DEFAULT_QUERY_LIMITS,
  QueryError,
  runAplQuery,
  type AplFormat,
  type QueryDataset,
  type QueryFieldMeta,
  type QueryLimits,
  type StoredEvent,
} from "../../src/emulator/query";
import { columnarOf } from "../../src/emulator/query/columns";

export const START = "2024-01-01T00:00:00Z";
export const END = "2024-01-01T00:05:00Z";

function meta(name: string, type: string, unit = ""): QueryFieldMeta {
  return { name, type, unit, description: "", hidden: false };
}

export const WEB_FIELDS: QueryFieldMeta[] = [
  meta("status", "integer"),
  meta("method", "string"),
  meta("req.path", "string"),
  meta("duration", "float", "ms"),
  meta("user", "string"),
  meta("ok", "boolean"),
  meta("seq", "integer"),
];

function event(seq: number, time: string, data: Record<string, unknown>): StoredEvent {
  return { _rowId: `r${seq}`, _sysTime: time.replace(/Z$/, ".5Z"), _time: time, data: { seq, ...data } };
}

/** Six events inside [START, END), one just before and one exactly at END (both outside). */
export const WEB_EVENTS: StoredEvent[] = [
  event(0, "2023-12-31T23:59:59Z", { status: 200, method: "GET", "req.path": "/old", duration: 1, user: "zed", ok: true }),
  event(1, "2024-01-01T00:00:05Z", { status: 200, method: "GET", "req.path": "/api/users", duration: 12.5, user: "alice", ok: true }),
  event(2, "2024-01-01T00:00:40Z", { status: 201, method: "POST", "req.path": "/api/orders", duration: 250, user: "bob", ok: true }),
  event(3, "2024-01-01T00:01:10Z", { status: 404, method: "GET", "req.path": "/api/users/7", duration: 30, user: "alice", ok: false }),
  event(4, "2024-01-01T00:02:30Z", { status: 200, method: "GET", "req.path": "/health", duration: 1, ok: true }),
  event(5, "2024-01-01T00:03:00Z", { status: 500, method: "DELETE", "req.path": "/api/orders/9", duration: 900.25, user: "carol", ok: false }),
  event(6, "2024-01-01T00:03:59Z", { status: 200, method: "GET", "req.path": "/API/Users", duration: 15, user: "bob", ok: true }),
  event(7, "2024-01-01T00:05:00Z", { status: 200, method: "GET", "req.path": "/late", duration: 2, user: "zed", ok: true }),
];

/**
 * With ODS_TEST_QUERY_COLUMNAR=1 (`npm run test:query-columnar`) the datasets carry a time
 * index and columns, so every query here that can run vectorized does, against the same
 * expected answers.
 */
function maybeColumnar(d: QueryDataset): QueryDataset {
  if (process.env.ODS_TEST_QUERY_COLUMNAR !== "1") return d;
  return { ...d, ...columnarOf(d.events) };
}

export const WEB: QueryDataset = maybeColumnar({
  name: "web-logs",
  fields: WEB_FIELDS,
  events: WEB_EVENTS,
  virtualFields: [
    { name: "slow", expression: "duration > 100", type: "boolean", unit: "", description: "" },
    { name: "path_len", expression: "strlen(['req.path'])", type: "integer", unit: "", description: "" },
    { name: "status_class", expression: "strcat(tostring(status / 100), 'xx')", type: "", unit: "", description: "" },
  ],
});

export const EMPTY: QueryDataset = { name: "empty", fields: [meta("status", "integer")], events: [], virtualFields: [] };

export function lookupOf(...datasets: QueryDataset[]): (name: string) => QueryDataset | undefined {
  return (name) => datasets.find((d) => d.name === name);
}

export interface TabularField {
  name: string;
  type: string;
  agg?: { name: string; fields?: string[] };
}

export interface TabularTable {
  name: string;
  sources: { name: string }[];
  fields: TabularField[];
  order: { field: string; desc: boolean }[];
  groups: { name: string }[];
  range: { field: string; start: string; end: string };
  buckets?: { field: string; size: number };
  columns: unknown[][];
}

export interface Status {
  elapsedTime: number;
  rowsExamined: number;
  rowsMatched: number;
  numGroups: number;
  isPartial: boolean;
  minBlockTime: string;
  maxBlockTime: string;
  minCursor: string;
  maxCursor: string;
  continuationToken?: string;
  messages: { code: string; priority: string; count: number; msg: string }[];
  [key: string]: unknown;
}

export interface Tabular {
  format: string;
  status: Status;
  tables: TabularTable[];
  datasetNames: string[];
  fieldsMetaMap: Record<string, QueryFieldMeta[]>;
}

export interface LegacyGroup {
  id: number;
  group: Record<string, unknown>;
  aggregations: { op: string; value: unknown }[];
}

export interface Legacy {
  format?: string;
  status: Status;
  matches: { _rowId: string; _sysTime: string | null; _time: string | null; data: Record<string, unknown> }[];
  buckets: { series: { startTime: string; endTime: string; groups: LegacyGroup[] }[]; totals: LegacyGroup[] };
  fieldsMeta: QueryFieldMeta[];
  datasetNames?: string[];
  fieldsMetaMap?: Record<string, QueryFieldMeta[]>;
}

export interface RunOptions {
  startTime?: string;
  endTime?: string;
  limits?: Partial<QueryLimits>;
  datasets?: QueryDataset[];
}

function run(apl: string, format: AplFormat, opts: RunOptions): unknown {
  const has = (k: keyof RunOptions): boolean => Object.prototype.hasOwnProperty.call(opts, k);
  return runAplQuery(
    { apl, startTime: has("startTime") ? opts.startTime : START, endTime: has("endTime") ? opts.endTime : END },
    format,
    lookupOf(...(opts.datasets ?? [WEB, EMPTY, MIXED])),
    { ...DEFAULT_QUERY_LIMITS, ...opts.limits },
  );
}

export function tabular(apl: string, opts: RunOptions = {}): Tabular {
  return run(apl, "tabular", opts) as Tabular;
}

export function legacy(apl: string, opts: RunOptions = {}): Legacy {
  return run(apl, "legacy", opts) as Legacy;
}

/** Table "0" as row objects, in row order. */
export function rows(result: Tabular, table = 0): Record<string, unknown>[] {
  const t = result.tables[table];
  const n = t.columns[0]?.length ?? 0;
  return Array.from({ length: n }, (_, i) => Object.fromEntries(t.fields.map((f, c) => [f.name, t.columns[c][i]])));
}

/** One column of table "0" by name. */
export function column(result: Tabular, name: string): unknown[] {
  const t = result.tables[0];
  const at = t.fields.findIndex((f) => f.name === name);
  if (at < 0) throw new Error(`no column ${name} in ${t.fields.map((f) => f.name).join(", ")}`);
  return t.columns[at];
}

/** `seq` of the rows a query returns, the quickest way to say which events matched. */
export function seqs(apl: string, opts: RunOptions = {}): unknown[] {
  return column(tabular(apl, opts), "seq");
}

/** Runs `fn` and returns the QueryError it throws (failing when it throws none). */
export function queryError(fn: () => unknown): QueryError {
  try {
    fn();
  } catch (err) {
    if (err instanceof QueryError) return err;
    throw err;
  }
  throw new Error("expected a QueryError");
}

/**
 * A legacy answer as rows: the matches' `data` (with `_time` when asked), or for a
 * summary the totals' group keys and aggregations (`op` as the column name).
 */
export function legacyRows(result: Legacy, withTime = false): Record<string, unknown>[] {
  if (result.buckets.totals.length > 0) {
    return result.buckets.totals.map((g) => ({ ...g.group, ...Object.fromEntries(g.aggregations.map((a) => [a.op, a.value])) }));
  }
  return result.matches.map((m) => (withTime ? { _time: m._time, ...m.data } : { ...m.data }));
}

/**
 * Runs a query in both layouts and expects the same rows from each: tabular table "0"
 * in order (with exactly these columns), and the legacy matches or summary totals.
 */
export function expectRows(apl: string, expected: Record<string, unknown>[], opts: RunOptions = {}): Tabular {
  const t = tabular(apl, opts);
  expect(rows(t)).toEqual(expected);
  const withTime = expected.some((r) => "_time" in r);
  expect(legacyRows(legacy(apl, opts), withTime)).toEqual(expected);
  return t;
}

function mixedEvent(seq: number, time: string, data: Record<string, unknown>): StoredEvent {
  return { _rowId: `m${seq}`, _sysTime: time, _time: time, data: { seq, ...data } };
}

/** Arrays, JSON text, mixed types and missing fields. */
export const MIXED: QueryDataset = maybeColumnar({
  name: "mixed",
  fields: [meta("seq", "integer"), meta("name", "string"), meta("tags", "array"), meta("payload", "string"), meta("v", "integer|float|string"), meta("n", "integer")],
  events: [
    mixedEvent(1, "2024-01-01T00:00:10Z", { name: "a", tags: ["x", "y"], payload: '{"code": 1, "msg": "ok", "list": [10, 20]}', v: 1, n: 10 }),
    mixedEvent(2, "2024-01-01T00:01:10Z", { name: "b", tags: [], payload: "not json", v: 2.5, n: 20 }),
    mixedEvent(3, "2024-01-01T00:02:10Z", { name: "c", v: "3" }),
    mixedEvent(4, "2024-01-01T00:03:10Z", { tags: ["z"], payload: "[1, 2, 3]", n: 40 }),
  ],
  virtualFields: [],
});
