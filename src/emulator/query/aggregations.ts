// Aggregation functions shared by `summarize`, `make-series` and the legacy query's
// `aggregations`. Each group owns one Aggregator per aggregation; rows are fed one at a
// time as the values of the aggregation's row arguments (constant arguments such as a
// percentile's 95 are given once, when the aggregator is made).
//
// Results are exact where the service estimates (percentile, dcount, topk, histogram):
// on the small datasets of local tests an exact answer is the one the estimate targets.

import { charge, valueBytes } from "./budget";
import { compareTotal, valueKey, type Bag, type Value, type ValueType } from "./values";

export type AggregationName =
  | "count"
  | "countif"
  | "sum"
  | "sumif"
  | "avg"
  | "avgif"
  | "min"
  | "minif"
  | "max"
  | "maxif"
  | "dcount"
  | "dcountif"
  | "make_list"
  | "make_list_if"
  | "make_set"
  | "make_set_if"
  | "percentile"
  | "percentiles_array"
  | "stdev"
  | "stdevif"
  | "variance"
  | "varianceif"
  | "histogram"
  | "topk"
  | "arg_max"
  | "arg_min";

export interface Aggregator {
  /** The values of the row arguments for one row (count() gets none). */
  add(args: readonly Value[]): void;
  result(): Value;
}

interface AggregationDef {
  /** Arguments evaluated per row; then constant arguments (min..max of them). */
  rowArgs: number;
  constArgs: [number, number];
  resultType: (argType: ValueType) => ValueType;
  create: (consts: readonly Value[]) => Aggregator;
}

/** make_list and make_set keep at most this many items unless told otherwise. */
const DEFAULT_MAX_ITEMS = 1_048_576;

const isNumber = (v: Value): v is number => typeof v === "number" && Number.isFinite(v);

function counting(): Aggregator {
  let n = 0;
  return {
    add: () => {
      n++;
    },
    result: () => n,
  };
}

function summing(mean: boolean): Aggregator {
  let sum = 0;
  let n = 0;
  return {
    add: ([v]) => {
      if (isNumber(v)) {
        sum += v;
        n++;
      }
    },
    // sum of nothing is 0 (a count-like total); the mean of nothing is unknown.
    result: () => (mean ? (n === 0 ? null : sum / n) : sum),
  };
}

function extreme(sign: 1 | -1): Aggregator {
  let best: Value = null;
  return {
    add: ([v]) => {
      if (v !== null && (best === null || sign * compareTotal(v, best) > 0)) best = v;
    },
    result: () => best,
  };
}

function distinctCounting(): Aggregator {
  const seen = new Set<string>();
  return {
    add: ([v]) => {
      if (v === null) return;
      const k = valueKey(v);
      if (seen.has(k)) return;
      charge(24 + k.length);
      seen.add(k);
    },
    result: () => seen.size,
  };
}

function maxItems(consts: readonly Value[]): number {
  const m = consts[0];
  return isNumber(m) && m > 0 ? Math.floor(m) : DEFAULT_MAX_ITEMS;
}

/** make_list: every non-null value in input order; make_set: each distinct value once. */
function listing(distinct: boolean, consts: readonly Value[]): Aggregator {
  const limit = maxItems(consts);
  const items: Value[] = [];
  const seen = new Set<string>();
  return {
    add: ([v]) => {
      if (v === null || items.length >= limit) return;
      if (distinct) {
        const k = valueKey(v);
        if (seen.has(k)) return;
        charge(24 + k.length);
        seen.add(k);
      }
      // Each item is charged whole, even one the list shares: the answer carries it whole.
      charge(8 + valueBytes(v));
      items.push(v);
    },
    result: () => items.slice(),
  };
}

/** Nearest-rank percentile of sorted numbers: the smallest value with at least p% at or below it. */
function nearestRank(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((Math.min(100, Math.max(0, p)) / 100) * sorted.length);
  return sorted[Math.max(0, rank - 1)];
}

function collectingNumbers(finish: (sorted: number[]) => Value): Aggregator {
  const values: number[] = [];
  return {
    add: ([v]) => {
      if (!isNumber(v)) return;
      charge(8);
      values.push(v);
    },
    result: () => finish(values.slice().sort((a, b) => a - b)),
  };
}

/** Sample variance (n - 1), as the language's variance and stdev; 0 for one value. */
function spread(root: boolean): Aggregator {
  let n = 0;
  let mean = 0;
  let m2 = 0;
  return {
    add: ([v]) => {
      if (!isNumber(v)) return;
      n++;
      const d = v - mean;
      mean += d / n;
      m2 += d * (v - mean);
    },
    result: () => {
      if (n === 0) return null;
      const variance = n === 1 ? 0 : m2 / (n - 1);
      return root ? Math.sqrt(variance) : variance;
    },
  };
}

/** `histogram(x, bins)`: `bins` equal-width bins from min to max, as [{value, count}]. */
function histogram(consts: readonly Value[]): Aggregator {
  const bins = isNumber(consts[0]) && consts[0] >= 1 ? Math.floor(consts[0]) : 100;
  return collectingNumbers((sorted) => {
    if (sorted.length === 0) return [];
    const lo = sorted[0];
    const hi = sorted[sorted.length - 1];
    const width = hi === lo ? 1 : (hi - lo) / bins;
    const counts = new Map<number, number>();
    for (const v of sorted) {
      const i = Math.min(bins - 1, Math.floor((v - lo) / width));
      counts.set(i, (counts.get(i) ?? 0) + 1);
    }
    return [...counts.entries()].map(([i, count]): Bag => ({ value: lo + i * width, count }));
  });
}

/** `topk(x, k)`: the k most frequent values as [{key, count}], most frequent first, ties by key. */
function topk(consts: readonly Value[]): Aggregator {
  const k = isNumber(consts[0]) && consts[0] >= 1 ? Math.floor(consts[0]) : 10;
  const counts = new Map<string, { key: Value; count: number }>();
  return {
    add: ([v]) => {
      if (v === null) return;
      const id = valueKey(v);
      const e = counts.get(id);
      if (e) e.count++;
      else {
        charge(48 + id.length + valueBytes(v));
        counts.set(id, { key: v, count: 1 });
      }
    },
    result: () =>
      [...counts.values()]
        .sort((a, b) => b.count - a.count || compareTotal(a.key, b.key))
        .slice(0, k)
        .map((e): Bag => ({ key: e.key, count: e.count })),
  };
}

/**
 * arg_max(x, cols...) / arg_min: the other arguments' values on the row where x is
 * largest (smallest); the first such row wins a tie. The result is [x, col1, ...].
 */
function argExtreme(sign: 1 | -1): Aggregator {
  let best: Value[] | null = null;
  return {
    add: (args) => {
      const v = args[0];
      if (v === null) return;
      if (best === null || sign * compareTotal(v, best[0]) > 0) best = args.slice();
    },
    result: () => best,
  };
}

/**
 * The `*if` form: the last row argument is the predicate; a row counts only when it is
 * true. The inner aggregations read their value as args[0], so the predicate can stay.
 */
function conditional(inner: Aggregator): Aggregator {
  return {
    add: (args) => {
      if (args[args.length - 1] === true) inner.add(args);
    },
    result: () => inner.result(),
  };
}

const numberType = (t: ValueType): ValueType => (t === "integer" ? "integer" : t === "float" ? "float" : "dynamic");
const same = (t: ValueType): ValueType => t;
const fixed = (t: ValueType) => (): ValueType => t;

function plain(rowArgs: number, resultType: AggregationDef["resultType"], create: AggregationDef["create"], consts: [number, number] = [0, 0]): AggregationDef {
  return { rowArgs, constArgs: consts, resultType, create };
}

function ifForm(def: AggregationDef): AggregationDef {
  return { ...def, rowArgs: def.rowArgs + 1, create: (c) => conditional(def.create(c)) };
}

const BASE = {
  count: plain(0, fixed("integer"), counting),
  sum: plain(1, numberType, () => summing(false)),
  avg: plain(1, fixed("float"), () => summing(true)),
  min: plain(1, same, () => extreme(-1)),
  max: plain(1, same, () => extreme(1)),
  // dcount(x, accuracy): an exact count can ignore the accuracy.
  dcount: plain(1, fixed("integer"), distinctCounting, [0, 1]),
  make_list: plain(1, fixed("dynamic"), (c) => listing(false, c), [0, 1]),
  make_set: plain(1, fixed("dynamic"), (c) => listing(true, c), [0, 1]),
  stdev: plain(1, fixed("float"), () => spread(true)),
  variance: plain(1, fixed("float"), () => spread(false)),
};

const DEFS: Readonly<Record<AggregationName, AggregationDef>> = {
  ...BASE,
  countif: ifForm(BASE.count),
  sumif: ifForm(BASE.sum),
  avgif: ifForm(BASE.avg),
  minif: ifForm(BASE.min),
  maxif: ifForm(BASE.max),
  dcountif: ifForm(BASE.dcount),
  make_list_if: ifForm(BASE.make_list),
  make_set_if: ifForm(BASE.make_set),
  stdevif: ifForm(BASE.stdev),
  varianceif: ifForm(BASE.variance),
  percentile: plain(1, same, (c) => collectingNumbers((s) => nearestRank(s, isNumber(c[0]) ? c[0] : 50)), [1, 1]),
  percentiles_array: plain(
    1,
    fixed("dynamic"),
    (c) => collectingNumbers((s) => (s.length === 0 ? null : c.map((p) => nearestRank(s, isNumber(p) ? p : 50)))),
    [1, 64],
  ),
  histogram: plain(1, fixed("dynamic"), histogram, [1, 1]),
  topk: plain(1, fixed("dynamic"), topk, [1, 1]),
  // arg_max/arg_min take their extra columns as row arguments; the compiler lays them out.
  arg_max: plain(1, same, () => argExtreme(1)),
  arg_min: plain(1, same, () => argExtreme(-1)),
};

export function isAggregationName(name: string): name is AggregationName {
  return Object.prototype.hasOwnProperty.call(DEFS, name);
}

/** Row arguments, then the allowed range of constant arguments. */
export function aggregationArity(name: AggregationName): { rowArgs: number; constArgs: [number, number] } {
  return { rowArgs: DEFS[name].rowArgs, constArgs: DEFS[name].constArgs };
}

export function aggregationResultType(name: AggregationName, argType: ValueType): ValueType {
  return DEFS[name].resultType(argType);
}

export function createAggregator(name: AggregationName, consts: readonly Value[] = []): Aggregator {
  return DEFS[name].create(consts);
}
