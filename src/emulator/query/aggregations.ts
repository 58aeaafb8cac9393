// Aggregation functions shared by `summarize` and the legacy query's `aggregations`.
// Each group owns one Aggregator per aggregation; rows are fed one value at a time.

import { compareTotal, valueKey, type Value, type ValueType } from "./values";

export type AggregationName = "count" | "countif" | "sum" | "avg" | "min" | "max" | "dcount";

export interface Aggregator {
  add(v: Value): void;
  result(): Value;
}

interface AggregationDef {
  /** Number of arguments in the query language (`count()` has none). */
  args: number;
  resultType: (argType: ValueType) => ValueType;
  create: () => Aggregator;
}

/** count() counts rows; its caller feeds `true` per row. countif feeds the predicate. */
function counting(): Aggregator {
  let n = 0;
  return {
    add: (v) => {
      if (v === true) n++;
    },
    result: () => n,
  };
}

function summing(mean: boolean): Aggregator {
  let sum = 0;
  let n = 0;
  return {
    add: (v) => {
      if (typeof v === "number" && Number.isFinite(v)) {
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
    add: (v) => {
      if (v !== null && (best === null || sign * compareTotal(v, best) > 0)) best = v;
    },
    result: () => best,
  };
}

function distinctCounting(): Aggregator {
  const seen = new Set<string>();
  return {
    add: (v) => {
      if (v !== null) seen.add(valueKey(v));
    },
    result: () => seen.size,
  };
}

const DEFS: Readonly<Record<AggregationName, AggregationDef>> = {
  count: { args: 0, resultType: () => "integer", create: counting },
  countif: { args: 1, resultType: () => "integer", create: counting },
  sum: { args: 1, resultType: (t) => (t === "integer" ? "integer" : t === "float" ? "float" : "dynamic"), create: () => summing(false) },
  avg: { args: 1, resultType: () => "float", create: () => summing(true) },
  min: { args: 1, resultType: (t) => t, create: () => extreme(-1) },
  max: { args: 1, resultType: (t) => t, create: () => extreme(1) },
  dcount: { args: 1, resultType: () => "integer", create: distinctCounting },
};

export function isAggregationName(name: string): name is AggregationName {
  return Object.prototype.hasOwnProperty.call(DEFS, name);
}

export function aggregationArgCount(name: AggregationName): number {
  return DEFS[name].args;
}

export function aggregationResultType(name: AggregationName, argType: ValueType): ValueType {
  return DEFS[name].resultType(argType);
}

export function createAggregator(name: AggregationName): Aggregator {
  return DEFS[name].create();
}
