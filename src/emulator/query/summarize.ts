// Grouping and aggregation. With a time-bucket key (bin(_time, ...)), the same pass
// also aggregates per group over the whole range: the "totals" that the legacy layout
// shows in buckets.totals and the tabular layout in its `_totals` table.
//
// Output order is deterministic: time bucket ascending, then the first aggregation
// descending, then the other keys ascending (the service's default for charts and tops).

import { createAggregator, type AggregationName, type Aggregator } from "./aggregations";
import type { CompiledExpr, OrderSpec, Row } from "./table";
import { compareForSort, valueKey, type Value } from "./values";

export interface GroupKeySpec {
  name: string;
  expr: CompiledExpr;
}

export interface AggregationSpec {
  name: string;
  fn: AggregationName;
  /** The argument (count() has none). */
  arg: CompiledExpr | null;
  /** Fields the argument reads, for the tabular `agg.fields`. */
  fields: string[];
  /** What the legacy layout shows as `op` when it differs from the column name. */
  label?: string;
}

export interface SummarizeResult {
  rows: Row[];
  totals: Row[] | null;
}

interface Group {
  keys: Value[];
  aggregators: Aggregator[];
}

function feed(groups: Map<string, Group>, keyValues: Value[], aggs: AggregationSpec[], row: Row): void {
  const id = keyValues.map(valueKey).join("\u0000");
  let g = groups.get(id);
  if (!g) {
    g = { keys: keyValues, aggregators: aggs.map((a) => createAggregator(a.fn)) };
    groups.set(id, g);
  }
  aggs.forEach((a, i) => g.aggregators[i].add(a.arg ? a.arg.evaluate(row) : true));
}

function toRows(groups: Map<string, Group>, keyNames: string[], aggs: AggregationSpec[]): Row[] {
  const rows: Row[] = [];
  for (const g of groups.values()) {
    const values = new Map<string, Value>();
    keyNames.forEach((k, i) => values.set(k, g.keys[i]));
    aggs.forEach((a, i) => values.set(a.name, g.aggregators[i].result()));
    rows.push({ values, origin: null });
  }
  return rows;
}

/** The default order of summarize output, as order metadata and as a comparator. */
export function summarizeOrder(timeKey: string | null, otherKeys: string[], aggNames: string[]): OrderSpec[] {
  const order: OrderSpec[] = [];
  if (timeKey !== null) order.push({ field: timeKey, desc: false });
  if (aggNames.length > 0) order.push({ field: aggNames[0], desc: true });
  else for (const k of otherKeys) order.push({ field: k, desc: false });
  return order;
}

function sortGroups(rows: Row[], order: OrderSpec[], tieBreak: string[]): void {
  const keys = [...order, ...tieBreak.map((field) => ({ field, desc: false }))];
  rows.sort((a, b) => {
    for (const k of keys) {
      const c = compareForSort(a.values.get(k.field) ?? null, b.values.get(k.field) ?? null, k.desc, !k.desc);
      if (c !== 0) return c;
    }
    return 0;
  });
}

/** Runs one summarize over all rows; `timeKey` names the time-bucket key, if any. */
export function summarize(input: readonly Row[], keys: GroupKeySpec[], aggs: AggregationSpec[], timeKey: string | null): SummarizeResult {
  const main = new Map<string, Group>();
  const totals = timeKey === null ? null : new Map<string, Group>();
  const timeIndex = keys.findIndex((k) => k.name === timeKey);
  for (const row of input) {
    const keyValues = keys.map((k) => k.expr.evaluate(row));
    feed(main, keyValues, aggs, row);
    if (totals) feed(totals, keyValues.filter((_, i) => i !== timeIndex), aggs, row);
  }
  // Without any key, aggregating nothing still answers one row (count() is 0).
  if (keys.length === 0 && main.size === 0) main.set("", { keys: [], aggregators: aggs.map((a) => createAggregator(a.fn)) });

  const keyNames = keys.map((k) => k.name);
  const otherKeys = keyNames.filter((k) => k !== timeKey);
  const rows = toRows(main, keyNames, aggs);
  const aggNames = aggs.map((a) => a.name);
  sortGroups(rows, summarizeOrder(timeKey, otherKeys, aggNames), otherKeys);
  let totalRows: Row[] | null = null;
  if (totals) {
    if (otherKeys.length === 0 && totals.size === 0) totals.set("", { keys: [], aggregators: aggs.map((a) => createAggregator(a.fn)) });
    totalRows = toRows(totals, otherKeys, aggs);
    sortGroups(totalRows, summarizeOrder(null, otherKeys, aggNames), otherKeys);
  }
  return { rows, totals: totalRows };
}
