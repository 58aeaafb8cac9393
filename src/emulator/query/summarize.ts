// Grouping and aggregation. With a time-bucket key (bin(_time, ...)), the same pass
// also aggregates per group over the whole range: the "totals" that the legacy layout
// shows in buckets.totals and the tabular layout in its `_totals` table.
//
// Output order is deterministic: time bucket ascending, then the first aggregation
// descending, then the other keys ascending (the service's default for charts and tops).

import { createAggregator, type AggregationName, type Aggregator } from "./aggregations";
import type { CompiledExpr, OrderSpec, Row } from "./table";
import { compareForSort, DateTimeValue, TimespanValue, valueKey, type Value } from "./values";

export interface GroupKeySpec {
  name: string;
  expr: CompiledExpr;
}

export interface AggregationSpec {
  name: string;
  fn: AggregationName;
  /** The arguments evaluated per row (count() has none). */
  args: CompiledExpr[];
  /** Constant arguments (a percentile's 95, make_list's maximum). */
  consts?: Value[];
  /** Fields the argument reads, for the tabular `agg.fields`. */
  fields: string[];
  /** What the legacy layout shows as `op` when it differs from the column name. */
  label?: string;
  /** arg_max/arg_min: the columns the result array fills, in order. */
  spread?: string[];
}

/** A summarize output computed from aggregations (`round(avg(x), 2)`), per group. */
export interface ComputedSpec {
  name: string;
  expr: CompiledExpr;
}

export interface SummarizeResult {
  rows: Row[];
  totals: Row[] | null;
}

interface Group {
  keys: Value[];
  aggregators: Aggregator[];
  /** Set when the results were computed elsewhere (the vectorized path): aggregators is then empty. */
  results?: Value[];
}

const newAggregators = (aggs: AggregationSpec[]): Aggregator[] => aggs.map((a) => createAggregator(a.fn, a.consts ?? []));

/**
 * Adds one row's argument values to the group of `keyValues` (all but index `skip`).
 * The arrays are the caller's scratch space, reused per row: a group copies its keys
 * once, and aggregators copy what they keep.
 */
function feed(groups: Map<string, Group>, keyValues: Value[], skip: number, aggs: AggregationSpec[], argValues: Value[][]): void {
  // One key (or none) needs no joined id: building strings per row is the cost here.
  const n = keyValues.length - (skip >= 0 ? 1 : 0);
  let id = "";
  if (n === 1) id = valueKey(keyValues[skip === 0 ? 1 : 0]);
  else if (n > 1) for (let i = 0; i < keyValues.length; i++) if (i !== skip) id += `${valueKey(keyValues[i])}\u0000`;
  let g = groups.get(id);
  if (!g) {
    g = { keys: keyValues.filter((_, i) => i !== skip), aggregators: newAggregators(aggs) };
    groups.set(id, g);
  }
  for (let i = 0; i < aggs.length; i++) g.aggregators[i].add(argValues[i]);
}

function toRows(groups: Map<string, Group>, keyNames: string[], aggs: AggregationSpec[], computed: ComputedSpec[]): Row[] {
  const rows: Row[] = [];
  for (const g of groups.values()) {
    const values = new Map<string, Value>();
    keyNames.forEach((k, i) => values.set(k, g.keys[i]));
    aggs.forEach((a, i) => {
      const result = g.results ? g.results[i] : g.aggregators[i].result();
      if (!a.spread) values.set(a.name, result);
      else a.spread.forEach((col, j) => values.set(col, Array.isArray(result) ? (result[j] ?? null) : null));
    });
    const row: Row = { values, origin: null };
    for (const c of computed) values.set(c.name, c.expr.evaluate(row));
    rows.push(row);
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

/** A list or bag: compareTotal orders two of them by their value keys. */
const isDynamic = (v: Value): v is object => typeof v === "object" && v !== null && !(v instanceof DateTimeValue) && !(v instanceof TimespanValue);

function sortGroups(rows: Row[], order: OrderSpec[], tieBreak: string[]): void {
  const keys = [...order, ...tieBreak.map((field) => ({ field, desc: false }))];
  // Each row's sort values read once, not per comparison (thousands of groups sort here),
  // and a list's or bag's value key made once (a backtest sorts groups by week-long lists).
  const decorated = rows.map((row) => ({ row, values: keys.map((k) => row.values.get(k.field) ?? null), valueKeys: [] as (string | undefined)[] }));
  const keyOf = (d: (typeof decorated)[number], i: number): string => (d.valueKeys[i] ??= valueKey(d.values[i]!));
  decorated.sort((a, b) => {
    for (let i = 0; i < keys.length; i++) {
      const x = a.values[i]!;
      const y = b.values[i]!;
      const desc = keys[i]!.desc;
      // Numbers, times and strings (most keys and aggregations) compare directly, lists
      // and bags by their keys; the rest as compareForSort does.
      let c: number;
      if (typeof x === "number" && typeof y === "number" && x === x && y === y) c = desc ? y - x : x - y;
      else if (x instanceof DateTimeValue && y instanceof DateTimeValue) c = desc ? y.ms - x.ms : x.ms - y.ms;
      else if (typeof x === "string" && typeof y === "string") c = x === y ? 0 : (x < y) !== desc ? -1 : 1;
      else if (isDynamic(x) && isDynamic(y)) {
        const kx = keyOf(a, i);
        const ky = keyOf(b, i);
        c = kx < ky ? -1 : kx > ky ? 1 : 0;
        if (desc) c = -c;
      } else c = compareForSort(x, y, desc, !desc);
      if (c !== 0) return c;
    }
    return 0;
  });
  for (let i = 0; i < rows.length; i++) rows[i] = decorated[i]!.row;
}

/**
 * One summarize, fed a row at a time (so that the rows need not all be in memory);
 * `timeKey` names the time-bucket key, if any. `outputs` are the names of the
 * aggregation columns in the order the default sort looks at them.
 */
export class Summarizer {
  private readonly main = new Map<string, Group>();
  private readonly totals: Map<string, Group> | null;
  private readonly timeIndex: number;

  constructor(
    private readonly keys: GroupKeySpec[],
    private readonly aggs: AggregationSpec[],
    private readonly timeKey: string | null,
    private readonly computed: ComputedSpec[] = [],
    private readonly outputs: string[] = aggs.map((a) => a.name),
  ) {
    this.totals = timeKey === null ? null : new Map<string, Group>();
    this.timeIndex = keys.findIndex((k) => k.name === timeKey);
    this.keyBuf = keys.map(() => null);
    this.argBufs = aggs.map((a) => a.args.map(() => null));
  }

  /** Scratch arrays for one row's key and argument values. */
  private readonly keyBuf: Value[];
  private readonly argBufs: Value[][];

  add(row: Row): void {
    const { keys, aggs, keyBuf, argBufs } = this;
    for (let i = 0; i < keys.length; i++) keyBuf[i] = keys[i].expr.evaluate(row);
    for (let i = 0; i < aggs.length; i++) {
      const args = aggs[i].args;
      for (let j = 0; j < args.length; j++) argBufs[i][j] = args[j].evaluate(row);
    }
    feed(this.main, keyBuf, -1, aggs, argBufs);
    if (this.totals) feed(this.totals, keyBuf, this.timeIndex, aggs, argBufs);
  }

  /**
   * A group whose aggregations the vectorized path computed: `keys` as `add` would have
   * evaluated them (all keys for the main table, all but the time key for the totals).
   */
  putGroup(table: "main" | "totals", keys: Value[], results: Value[]): void {
    const groups = table === "main" ? this.main : this.totals;
    if (!groups) return;
    // The caller's groups are distinct already: a running number is their id (ids of
    // rows fed by `add` are value keys, which never start with \u0001).
    groups.set(`\u0001${groups.size}`, { keys, aggregators: [], results });
  }

  finish(): SummarizeResult {
    const { keys, aggs, timeKey, main, totals, computed } = this;
    // Without any key, aggregating nothing still answers one row (count() is 0).
    if (keys.length === 0 && main.size === 0) main.set("", { keys: [], aggregators: newAggregators(aggs) });
    const keyNames = keys.map((k) => k.name);
    const otherKeys = keyNames.filter((k) => k !== timeKey);
    const rows = toRows(main, keyNames, aggs, computed);
    sortGroups(rows, summarizeOrder(timeKey, otherKeys, this.outputs), otherKeys);
    let totalRows: Row[] | null = null;
    if (totals) {
      if (otherKeys.length === 0 && totals.size === 0) totals.set("", { keys: [], aggregators: newAggregators(aggs) });
      totalRows = toRows(totals, otherKeys, aggs, computed);
      sortGroups(totalRows, summarizeOrder(null, otherKeys, this.outputs), otherKeys);
    }
    return { rows, totals: totalRows };
  }
}
