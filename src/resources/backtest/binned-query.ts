// Turns a monitor's query into one binned aggregation over the whole backtest range, so
// that every check of the schedule can be computed from its rows instead of one query per
// check. Which rewrite applies depends on how the check windows sit on a grid of bins.
import { finalSummarize, type SummarizeItem } from "../apl-split";

/** The monitor fields the backtest reads, with their wire names. */
export interface BacktestMonitor {
  name: string;
  type: "Threshold" | "MatchEvent" | "AnomalyDetection";
  aplQuery: string;
  operator?: string;
  threshold?: number;
  intervalMinutes: number;
  rangeMinutes: number;
  secondDelay?: number;
  alertOnNoData?: boolean;
  notifyByGroup?: boolean;
  resolvable?: boolean;
  triggerAfterNPositiveResults?: number;
  triggerFromNRuns?: number;
  compareDays?: number;
  tolerance?: number;
  columnName?: string;
}

/** How one value column of the binned rows becomes a check's value. */
export interface ValueColumn {
  /** The column name the monitor's own query gives this value (what `columnName` picks). */
  name: string;
  /** Columns of the binned query combined into the value, and how. */
  parts: string[];
  combine: "sum" | "min" | "max" | "avg" | "last";
  /**
   * What the aggregation gives over no events (0 for a count or a sum, else nothing): a
   * summarize without `by` keys answers one row even then, so that is data, not "no data".
   */
  empty: number | null;
}

export type BinnedMode =
  /** The query bins by time itself: each row is one point of the series the monitor sees. */
  | "series"
  /** Every check window is exactly one bin of the range's size: any aggregation works. */
  | "aligned"
  /** Windows span several bins; each aggregation is rebuilt from per-bin parts. */
  | "decomposed"
  /** A match monitor: matched events counted per bin. */
  | "match";

export interface BinnedQuery {
  mode: BinnedMode;
  /**
   * The query without its time range (sent with startTime/endTime). Its answer has one
   * row per group: the group's key columns and `__bt_points`, the list of its bins as
   * `[time, value columns...]`, so that a week of bins fits in the service's row limit.
   */
  apl: string;
  /** The columns of each point after its time, in order. */
  pointColumns: string[];
  binSeconds: number;
  values: ValueColumn[];
  /** True when the monitor's summarize has no `by` keys at all: every window has a value. */
  keyless: boolean;
  /** Set when the result only approximates the service (bin_auto, bins cut by windows). */
  approximate?: string;
}

export class BacktestUnsupported extends Error {}

const TIME_BIN = /^(bin|floor)\s*\(\s*_time\s*,\s*([\s\S]+)\)$/i;
const TIME_BIN_AUTO = /^bin_auto\s*\(\s*_time\s*\)$/i;

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** A timespan literal as seconds (`5m`, `300s`, `1h`); undefined for anything else. */
export function timespanSeconds(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)\s*$/i.exec(text);
  if (!m) return undefined;
  const unit = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86400 }[m[2].toLowerCase() as "ms" | "s" | "m" | "h" | "d"];
  return Number(m[1]) * unit;
}

/** The name the service gives an unnamed aggregation: count() is count_, avg(x) avg_x. */
export function aggregationName(item: SummarizeItem, index: number): string {
  if (item.alias) return item.alias;
  const call = item.call;
  if (!call) return `Column${index + 1}`;
  const fieldArgs = call.args.filter((a) => /^[A-Za-z_][A-Za-z0-9_.]*$/.test(a) || /^-?\d+(\.\d+)?$/.test(a));
  if (call.args.length === 0 || fieldArgs.length !== call.args.length || call.fn.endsWith("if")) return `${call.fn}_`;
  return [call.fn, ...call.args.map((a) => a.replace(/\./g, "_"))].join("_");
}

interface Part {
  expression: string;
  combine: "sum" | "min" | "max";
}

/** The per-bin parts an aggregation is rebuilt from; undefined when it cannot be. */
function decompose(item: SummarizeItem): { parts: Part[]; combine: ValueColumn["combine"] } | undefined {
  const call = item.call;
  if (!call) return undefined;
  const [a, b] = call.args;
  switch (call.fn) {
    case "count":
      return call.args.length === 0 ? { parts: [{ expression: "count()", combine: "sum" }], combine: "sum" } : undefined;
    case "countif":
      return { parts: [{ expression: `countif(${a})`, combine: "sum" }], combine: "sum" };
    case "sum":
      return { parts: [{ expression: `sum(${a})`, combine: "sum" }], combine: "sum" };
    case "sumif":
      return { parts: [{ expression: `sumif(${a}, ${b})`, combine: "sum" }], combine: "sum" };
    case "min":
    case "max":
      return { parts: [{ expression: `${call.fn}(${a})`, combine: call.fn }], combine: call.fn };
    case "minif":
    case "maxif": {
      const fn = call.fn.slice(0, 3) as "min" | "max";
      return { parts: [{ expression: `${call.fn}(${a}, ${b})`, combine: fn }], combine: fn };
    }
    case "avg":
      return {
        parts: [{ expression: `sum(${a})`, combine: "sum" }, { expression: `countif(isnotnull(${a}))`, combine: "sum" }],
        combine: "avg",
      };
    case "avgif":
      return {
        parts: [{ expression: `sumif(${a}, ${b})`, combine: "sum" }, { expression: `countif((${b}) and isnotnull(${a}))`, combine: "sum" }],
        combine: "avg",
      };
    default:
      return undefined;
  }
}

/** The name a `by` key's column gets: its alias, the field it names, or one we give it. */
function keyColumn(key: SummarizeItem, index: number): { text: string; column: string } {
  if (key.alias) return { text: `${key.alias} = ${key.expression}`, column: key.alias };
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(key.expression)) return { text: key.expression, column: key.expression };
  return { text: `__bt_g${index} = ${key.expression}`, column: `__bt_g${index}` };
}

/** Folds the binned rows into one row per group (see BinnedQuery.apl). */
function packed(binned: string, columns: string[], groups: string[]): string {
  const by = groups.length > 0 ? ` by ${groups.join(", ")}` : "";
  return `${binned}\n| summarize __bt_points = make_list(pack_array(_time, ${columns.join(", ")}))${by}`;
}

const ZERO_WHEN_EMPTY = new Set(["count", "countif", "sum", "sumif", "dcount", "dcountif"]);

function emptyValue(item: SummarizeItem): number | null {
  return item.call && ZERO_WHEN_EMPTY.has(item.call.fn) ? 0 : null;
}

function spanLiteral(seconds: number): string {
  return seconds % 60 === 0 ? `${seconds / 60}m` : `${seconds}s`;
}

/** Builds the one binned query a monitor's backtest runs. Throws BacktestUnsupported with the reason. */
export function binnedQuery(monitor: BacktestMonitor): BinnedQuery {
  const range = monitor.rangeMinutes * 60;
  const interval = monitor.intervalMinutes * 60;
  const delay = monitor.secondDelay ?? 0;
  const grid = gcd(gcd(range, interval), delay);

  if (monitor.type === "MatchEvent") {
    if (finalSummarize(monitor.aplQuery)) throw new BacktestUnsupported("a match monitor's query cannot aggregate");
    return {
      mode: "match",
      apl: packed(`${monitor.aplQuery.trimEnd()}\n| summarize __bt_count = count() by _time = bin(_time, ${spanLiteral(grid)})`, ["__bt_count"], []),
      pointColumns: ["__bt_count"],
      binSeconds: grid,
      values: [{ name: "count", parts: ["__bt_count"], combine: "sum", empty: 0 }],
      keyless: false,
    };
  }

  const summary = finalSummarize(monitor.aplQuery);
  if (!summary) throw new BacktestUnsupported("the query does not end in a summarize stage");
  const timeKeys = summary.keys.filter((k) => TIME_BIN.test(k.expression) || TIME_BIN_AUTO.test(k.expression));
  const groupKeys = summary.keys.filter((k) => !timeKeys.includes(k)).map(keyColumn);
  const byGroups = groupKeys.map((g) => `, ${g.text}`).join("");
  const groups = groupKeys.map((g) => g.column);
  const named = summary.aggregations.map((a, i) => ({ name: aggregationName(a, i), text: a.expression, empty: emptyValue(a) }));
  const keyless = summary.keys.length === 0;
  const wholeValues = (bin: number) => ({
    apl: packed(
      `${summary.prefix}\n| summarize ${named.map((a) => `${a.name} = ${a.text}`).join(", ")} by _time = bin(_time, ${spanLiteral(bin)})${byGroups}`,
      named.map((a) => a.name),
      groups,
    ),
    pointColumns: named.map((a) => a.name),
    binSeconds: bin,
    values: named.map((a): ValueColumn => ({ name: a.name, parts: [a.name], combine: "last", empty: a.empty })),
    keyless,
  });

  if (timeKeys.length > 0) {
    const timeKey = timeKeys[0].expression;
    const binned = TIME_BIN.exec(timeKey);
    let bin = binned ? timespanSeconds(binned[2]) : undefined;
    let approximate: string | undefined;
    if (bin === undefined) {
      bin = grid;
      approximate = binned
        ? `the bin size ${binned[2].trim()} is not a plain timespan; bins of ${spanLiteral(grid)} are used`
        : `bin_auto's bins depend on the range; bins of ${spanLiteral(grid)} are used (use bin in a monitor)`;
    } else if (range % bin !== 0 || interval % bin !== 0 || delay % bin !== 0) {
      approximate = `windows of ${monitor.rangeMinutes}m every ${monitor.intervalMinutes}m cut bins of ${spanLiteral(bin)}`;
    }
    return { mode: "series", ...wholeValues(bin), ...(approximate ? { approximate } : {}) };
  }

  if (interval % range === 0 && delay % range === 0) return { mode: "aligned", ...wholeValues(range) };

  const values: ValueColumn[] = [];
  const partTexts: string[] = [];
  const partColumns: string[] = [];
  summary.aggregations.forEach((a, i) => {
    const d = decompose(a);
    if (!d) {
      throw new BacktestUnsupported(
        `${a.expression} cannot be rebuilt from bins: windows of ${monitor.rangeMinutes}m every ${monitor.intervalMinutes}m overlap or are offset`,
      );
    }
    const parts = d.parts.map((p, j) => {
      const column = `__bt_${i}_${j}`;
      partTexts.push(`${column} = ${p.expression}`);
      partColumns.push(column);
      return column;
    });
    values.push({ name: aggregationName(a, i), parts, combine: d.combine, empty: emptyValue(a) });
  });
  return {
    mode: "decomposed",
    apl: packed(`${summary.prefix}\n| summarize ${partTexts.join(", ")} by _time = bin(_time, ${spanLiteral(grid)})${byGroups}`, partColumns, groups),
    pointColumns: partColumns,
    binSeconds: grid,
    values,
    keyless,
  };
}
