// Grouping and aggregation. With a time-bucket key (bin(_time, ...)), the same pass
// also aggregates per group over the whole range: the "totals" that the legacy layout
// shows in buckets.totals and the tabular layout in its `_totals` table.
//
// Output order is deterministic: time bucket ascending, then the first aggregation
// descending, then the other keys ascending (the service's default for charts and tops).

import { charge, valueBytes } from "./budget";
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

/** A value that is its own group id: equal exactly when their value keys are (SameValueZero: NaN is NaN, -0 is 0). */
const isPrimitive = (v: Value): v is null | boolean | number | string => v === null || typeof v !== "object";

/** Charges a new group to the running query's memory: its keys, its lookup entry, its aggregators. */
function chargeGroup(keys: readonly Value[], aggregations: number): void {
  let bytes = 96 + 48 * aggregations;
  for (const k of keys) bytes += valueBytes(k);
  charge(bytes);
}

/**
 * The groups of one table, in the order they were first seen. A group of one plain key
 * (a string, number, boolean or null) is found by that value itself; any other by its
 * value key (a string per row is what grouping costs on the row path).
 */
class GroupTable {
  readonly list: Group[] = [];
  private readonly byValue = new Map<null | boolean | number | string, Group>();
  private readonly byKey = new Map<string, Group>();

  /** The group of `keyValues` (all but index `skip`); a new one is made with `make`. */
  find(keyValues: Value[], skip: number, aggs: AggregationSpec[]): Group {
    const n = keyValues.length - (skip >= 0 ? 1 : 0);
    if (n === 1) {
      const v = keyValues[skip === 0 ? 1 : 0];
      if (isPrimitive(v)) {
        let g = this.byValue.get(v);
        if (!g) this.byValue.set(v, (g = this.add(keyValues, skip, aggs)));
        return g;
      }
    }
    let id = "";
    if (n === 1) id = valueKey(keyValues[skip === 0 ? 1 : 0]);
    else if (n > 1) for (let i = 0; i < keyValues.length; i++) if (i !== skip) id += `${valueKey(keyValues[i])}\u0000`;
    let g = this.byKey.get(id);
    if (!g) this.byKey.set(id, (g = this.add(keyValues, skip, aggs)));
    return g;
  }

  /** A group already known to be distinct from every other (the vectorized path's). */
  put(g: Group): void {
    chargeGroup(g.keys, g.results?.length ?? 0);
    this.list.push(g);
  }

  get size(): number {
    return this.list.length;
  }

  private add(keyValues: Value[], skip: number, aggs: AggregationSpec[]): Group {
    chargeGroup(keyValues, aggs.length);
    const g: Group = { keys: skip < 0 ? keyValues.slice() : keyValues.filter((_, i) => i !== skip), aggregators: newAggregators(aggs) };
    this.list.push(g);
    return g;
  }
}

/**
 * Adds one row's argument values to the group of `keyValues` (all but index `skip`).
 * The arrays are the caller's scratch space, reused per row: a group copies its keys
 * once, and aggregators copy what they keep.
 */
function feed(groups: GroupTable, keyValues: Value[], skip: number, aggs: AggregationSpec[], argValues: Value[][]): void {
  const g = groups.find(keyValues, skip, aggs);
  for (let i = 0; i < aggs.length; i++) g.aggregators[i].add(argValues[i]);
}

function toRows(groups: GroupTable, keyNames: string[], aggs: AggregationSpec[], computed: ComputedSpec[]): Row[] {
  const rows: Row[] = new Array(groups.size);
  for (let r = 0; r < groups.list.length; r++) {
    const g = groups.list[r];
    const values = new Map<string, Value>();
    for (let i = 0; i < keyNames.length; i++) values.set(keyNames[i], g.keys[i]);
    for (let i = 0; i < aggs.length; i++) {
      const a = aggs[i];
      const result = g.results ? g.results[i] : g.aggregators[i].result();
      if (!a.spread) values.set(a.name, result);
      else a.spread.forEach((col, j) => values.set(col, Array.isArray(result) ? (result[j] ?? null) : null));
    }
    const row: Row = { values, origin: null };
    for (const c of computed) values.set(c.name, c.expr.evaluate(row));
    rows[r] = row;
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

/**
 * One sort key's values, read once per row (not per comparison: thousands of groups sort
 * here), as numbers when every row's is a number or every row's a datetime.
 */
type SortColumn =
  | { kind: "number"; desc: boolean; at: Float64Array }
  | { kind: "string"; desc: boolean; at: string[] }
  | { kind: "mixed"; desc: boolean; at: Value[]; valueKeys: (string | undefined)[] };

function sortColumn(rows: Row[], field: string, desc: boolean): SortColumn {
  const at: Value[] = new Array(rows.length);
  let numbers = true;
  let times = true;
  let strings = true;
  for (let i = 0; i < rows.length; i++) {
    const v = (at[i] = rows[i].values.get(field) ?? null);
    numbers &&= typeof v === "number" && v === v;
    times &&= v instanceof DateTimeValue;
    strings &&= typeof v === "string";
  }
  if (numbers || times) {
    const xs = new Float64Array(at.length);
    for (let i = 0; i < at.length; i++) xs[i] = numbers ? (at[i] as number) : (at[i] as DateTimeValue).ms;
    return { kind: "number", desc, at: xs };
  }
  if (strings) return { kind: "string", desc, at: at as string[] };
  return { kind: "mixed", desc, at, valueKeys: [] };
}

/** Sign of row a against row b on one key: numbers, times and strings directly, lists and bags by their value keys, the rest as compareForSort does. */
function compareOn(col: SortColumn, a: number, b: number): number {
  const desc = col.desc;
  switch (col.kind) {
    case "number":
      return desc ? col.at[b] - col.at[a] : col.at[a] - col.at[b];
    case "string": {
      const x = col.at[a];
      const y = col.at[b];
      return x === y ? 0 : (x < y) !== desc ? -1 : 1;
    }
    case "mixed": {
      const x = col.at[a];
      const y = col.at[b];
      if (typeof x === "number" && typeof y === "number" && x === x && y === y) return desc ? y - x : x - y;
      if (x instanceof DateTimeValue && y instanceof DateTimeValue) return desc ? y.ms - x.ms : x.ms - y.ms;
      if (typeof x === "string" && typeof y === "string") return x === y ? 0 : (x < y) !== desc ? -1 : 1;
      if (isDynamic(x) && isDynamic(y)) {
        // A list's or bag's value key is made once (a backtest sorts groups by week-long lists).
        const kx = (col.valueKeys[a] ??= valueKey(x));
        const ky = (col.valueKeys[b] ??= valueKey(y));
        const c = kx < ky ? -1 : kx > ky ? 1 : 0;
        return desc ? -c : c;
      }
      return compareForSort(x, y, desc, !desc);
    }
  }
}

function sortGroups(rows: Row[], order: OrderSpec[], tieBreak: string[]): void {
  if (rows.length < 2) return;
  const keys = [...order, ...tieBreak.map((field) => ({ field, desc: false }))];
  const columns = keys.map((k) => sortColumn(rows, k.field, k.desc));
  const index = rows.map((_, i) => i);
  // Rows equal on every key keep their order (the order their groups were first seen).
  index.sort((a, b) => {
    for (let i = 0; i < columns.length; i++) {
      const c = compareOn(columns[i], a, b);
      if (c !== 0) return c;
    }
    return a - b;
  });
  const sorted = index.map((i) => rows[i]);
  for (let i = 0; i < rows.length; i++) rows[i] = sorted[i];
}

/**
 * One summarize, fed a row at a time (so that the rows need not all be in memory);
 * `timeKey` names the time-bucket key, if any. `outputs` are the names of the
 * aggregation columns in the order the default sort looks at them.
 */
export class Summarizer {
  private readonly main = new GroupTable();
  private readonly totals: GroupTable | null;
  private readonly timeIndex: number;

  constructor(
    private readonly keys: GroupKeySpec[],
    private readonly aggs: AggregationSpec[],
    private readonly timeKey: string | null,
    private readonly computed: ComputedSpec[] = [],
    private readonly outputs: string[] = aggs.map((a) => a.name),
  ) {
    this.totals = timeKey === null ? null : new GroupTable();
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
    groups?.put({ keys, aggregators: [], results });
  }

  finish(): SummarizeResult {
    const { keys, aggs, timeKey, main, totals, computed } = this;
    // Without any key, aggregating nothing still answers one row (count() is 0).
    if (keys.length === 0 && main.size === 0) main.find([], -1, aggs);
    const keyNames = keys.map((k) => k.name);
    const otherKeys = keyNames.filter((k) => k !== timeKey);
    const rows = toRows(main, keyNames, aggs, computed);
    sortGroups(rows, summarizeOrder(timeKey, otherKeys, this.outputs), otherKeys);
    let totalRows: Row[] | null = null;
    if (totals) {
      if (otherKeys.length === 0 && totals.size === 0) totals.find([], -1, aggs);
      totalRows = toRows(totals, otherKeys, aggs, computed);
      sortGroups(totalRows, summarizeOrder(null, otherKeys, this.outputs), otherKeys);
    }
    return { rows, totals: totalRows };
  }
}
