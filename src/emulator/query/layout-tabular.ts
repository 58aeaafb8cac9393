// The tabular layout (`format=tabular`): column-oriented tables. Table "0" is the
// result; a time-series summarize adds a "_totals" table of the per-group totals
// over the whole range, as the service does.

import type { Outcome } from "./execute";
import { blocksMatched, commonStatus, fieldsMetaMap, type CommonStatus } from "./layout-common";
import { summarizeOrder } from "./summarize";
import type { Plan } from "./plan";
import type { ColumnSpec, OrderSpec, Row } from "./table";
import { formatIsoTime } from "./time";
import type { QueryFieldMeta } from "./types";
import { toJson, typeNameOfValue, type Value } from "./values";

export interface TabularField {
  name: string;
  type: string;
  agg?: { name: string; fields?: string[] };
}

export interface TabularTable {
  name: string;
  sources: { name: string }[];
  fields: TabularField[];
  order: OrderSpec[];
  groups: { name: string }[];
  range: { field: string; start: string; end: string };
  /** Present when the table is a time series: the bucket width in nanoseconds. */
  buckets?: { field: string; size: number };
  columns: unknown[][];
}

export interface TabularResult {
  format: "tabular";
  status: CommonStatus & { blocksCached: number; blocksMatched: number };
  tables: TabularTable[];
  datasetNames: string[];
  fieldsMetaMap: Record<string, QueryFieldMeta[]>;
}

/**
 * A column's type: the dataset's metadata type for a field passed through, the static
 * type of a computed column, or (when that is unknown) the types its values have.
 */
function columnTypeName(col: ColumnSpec, values: readonly Value[]): string {
  if (col.metaType !== undefined) return col.metaType;
  if (col.type !== "dynamic") return col.type;
  const names = new Set<string>();
  for (const v of values) {
    const n = typeNameOfValue(v);
    if (n !== null) names.add(n);
  }
  if (names.has("float")) names.delete("integer");
  return names.size === 0 ? "unknown" : [...names].sort().join("|");
}

function field(col: ColumnSpec, values: readonly Value[]): TabularField {
  const f: TabularField = { name: col.name, type: columnTypeName(col, values) };
  // As the service: `agg: {name: "count"}`, with `fields` only when the aggregation reads one.
  if (col.agg) f.agg = col.agg.fields.length > 0 ? col.agg : { name: col.agg.name };
  return f;
}

interface TableSpec {
  name: string;
  columns: ColumnSpec[];
  rows: Row[];
  order: OrderSpec[];
  groups: string[];
  buckets?: TabularTable["buckets"];
}

function table(plan: Plan, out: Outcome, spec: TableSpec): TabularTable {
  const cells = spec.columns.map((c) => spec.rows.map((r) => r.values.get(c.name) ?? null));
  return {
    name: spec.name,
    sources: plan.datasets.map((d) => ({ name: d.name })),
    fields: spec.columns.map((c, i) => field(c, cells[i])),
    order: spec.order,
    groups: spec.groups.map((g) => ({ name: g })),
    range: { field: "_time", start: formatIsoTime(out.range.startMs), end: formatIsoTime(out.range.endMs) },
    ...(spec.buckets ? { buckets: spec.buckets } : {}),
    columns: cells.map((col) => col.map(toJson)),
  };
}

export function tabularLayout(plan: Plan, out: Outcome): TabularResult {
  const s = plan.summary;
  const series = s && s.timeKey !== null && s.totalsColumns && out.totals ? s : null;
  const tables: TabularTable[] = [];
  let buckets: TabularTable["buckets"];
  if (series && series.timeKey !== null) {
    const bucketMs = series.bucket === "auto" ? out.autoBinMs : (series.bucket ?? 0);
    buckets = { field: series.timeKey, size: Math.round(bucketMs * 1e6) };
  }
  tables.push(table(plan, out, { name: "0", columns: plan.columns, rows: out.rows, order: plan.order, groups: plan.groups, buckets }));
  if (series && series.totalsColumns && out.totals) {
    const otherKeys = series.keys.filter((k) => k !== series.timeKey);
    const order = summarizeOrder(null, otherKeys, series.aggregations);
    tables.push(table(plan, out, { name: "_totals", columns: series.totalsColumns, rows: out.totals, order, groups: otherKeys }));
  }
  return {
    format: "tabular",
    status: { ...commonStatus(out), blocksCached: 0, blocksMatched: blocksMatched(out) },
    tables,
    datasetNames: plan.datasets.map((d) => d.name),
    fieldsMetaMap: fieldsMetaMap(plan.datasets),
  };
}
