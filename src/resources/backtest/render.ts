// How a backtest reads in a plan: one summary line, a sparkline with the threshold
// marked (text), a chart GitHub and GitLab render (markdown), and the JSON object.
import type { MermaidChart } from "../kind";
import type { BacktestAlert, BacktestResult } from "./evaluate";
import { axisRange, chartName, mermaidChart, SWATCH, type ChartSeries } from "./mermaid";

/** What a plan holds for one monitor: the new definition's replay, and the live one's when it exists. */
export interface MonitorBacktest {
  backtest?: BacktestResult;
  /** Why the new definition could not be replayed. */
  skipped?: string;
  live?: BacktestResult & { history?: number };
  liveSkipped?: string;
}

const BLOCKS = "▁▂▃▄▅▆▇█";
const WIDTH = 60;

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function groupCount(alerts: BacktestAlert[]): number {
  return new Set(alerts.map((a) => JSON.stringify(a.group))).size;
}

/** `backtest 7d: would have opened 3 alerts (2 groups), 41 min in alert; live definition: 12 alerts, history 12` */
export function backtestSummary(b: MonitorBacktest): string {
  const parts: string[] = [];
  const r = b.backtest;
  if (r) {
    let text: string;
    if (r.notifications !== undefined) text = `backtest ${r.days}d: would have sent ${plural(r.notifications, "notification")}`;
    else {
      const groups = groupCount(r.alerts);
      const byGroup = r.alerts.some((a) => a.group !== null);
      text = `backtest ${r.days}d: would have opened ${plural(r.alerts.length, "alert")}${byGroup ? ` (${plural(groups, "group")})` : ""}, ${r.minutesInAlert} min in alert`;
    }
    text += ` (${plural(r.queries, "query")})`;
    if (r.approximate) text += ` [approximate: ${r.approximate}]`;
    parts.push(text);
  } else if (b.skipped) {
    parts.push(`backtest skipped: ${b.skipped}`);
  }
  if (b.live) {
    const l = b.live;
    const count = l.notifications !== undefined ? plural(l.notifications, "notification") : plural(l.alerts.length, "alert");
    parts.push(`live definition: ${count}${l.history !== undefined ? `, history ${l.history}` : ""}`);
  } else if (b.liveSkipped) {
    parts.push(`live definition not replayed: ${b.liveSkipped}`);
  }
  return parts.join("; ");
}

/**
 * The series squeezed to at most `width` points, keeping in each bucket the value most in
 * alert (the smallest for a monitor that alerts below its threshold, else the largest).
 */
function downsample(series: (number | null)[], width: number, lowIsWorse = false): (number | null)[] {
  if (series.length === width) return series;
  const out: (number | null)[] = [];
  for (let i = 0; i < width; i++) {
    // A shorter series (a live definition checked less often) repeats its values.
    const from = Math.floor((i * series.length) / width);
    const bucket = series.slice(from, Math.max(from + 1, Math.floor(((i + 1) * series.length) / width)));
    const numbers = bucket.filter((v): v is number => v !== null);
    out.push(numbers.length === 0 ? null : lowIsWorse ? Math.min(...numbers) : Math.max(...numbers));
  }
  return out;
}

/**
 * Two lines: the values as blocks (a space where there was no data), and under them a
 * `^` where a check was in alert, with the threshold's level named at the end.
 */
export function sparkline(result: BacktestResult, threshold: number | undefined): string[] {
  const values = downsample(result.series, Math.min(WIDTH, result.series.length));
  const numbers = values.filter((v): v is number => v !== null);
  if (numbers.length === 0) return ["(no data in the range)"];
  const lo = Math.min(...numbers, threshold ?? Infinity);
  const hi = Math.max(...numbers, threshold ?? -Infinity);
  const level = (v: number) => (hi === lo ? 0 : Math.round(((v - lo) / (hi - lo)) * (BLOCKS.length - 1)));
  const line = values.map((v) => (v === null ? " " : BLOCKS[level(v)])).join("");
  const marks = alertMarks(result, values.length);
  const legend = `min ${formatNumber(Math.min(...numbers))}, max ${formatNumber(Math.max(...numbers))}` +
    (threshold !== undefined ? `, threshold ${formatNumber(threshold)} at ${BLOCKS[level(threshold)]}` : "");
  return [`${line}  ${legend}`, marks.trimEnd() === "" ? "" : marks.trimEnd()].filter((l) => l !== "");
}

/** Which of `width` equal columns of the range had an alert open (of any group). */
function alertColumns(result: BacktestResult, width: number): boolean[] {
  const times = result.times;
  const columns = Array.from({ length: width }, () => false);
  if (times.length === 0) return columns;
  const start = times[0];
  const end = times[times.length - 1];
  const column = (t: number) => (end === start ? 0 : Math.max(0, Math.min(width - 1, Math.floor(((t - start) / (end - start)) * width))));
  for (const a of result.alerts) {
    const from = column(Date.parse(a.opened));
    const to = a.closed ? column(Date.parse(a.closed)) : width - 1;
    for (let i = from; i <= Math.max(from, to); i++) columns[i] = true;
  }
  return columns;
}

function alertMarks(result: BacktestResult, width: number): string {
  return alertColumns(result, width)
    .map((open) => (open ? "^" : " "))
    .join("");
}

function formatNumber(v: number): string {
  return Number.isInteger(v) ? String(v) : v.toFixed(2);
}

/** What the pull-request chart of a monitor's backtest is drawn from. */
export interface BacktestChartInput {
  /** The monitor's name, for the title. */
  name: string;
  /** Above, Below, ...: which values are worse, and the threshold's legend. */
  operator?: string;
  /** Undefined for a monitor without one (a Match monitor). */
  threshold?: number;
  result: BacktestResult;
  /** The live definition of a changed monitor: its replay and threshold. */
  live?: { result: BacktestResult; threshold?: number };
}

const LOW_IS_WORSE = new Set(["Below", "BelowOrEqual"]);

/** `alerts Above 3`: the operator is one of the model's words (anything else is left out of the legend). */
function thresholdLegend(operator: string | undefined, threshold: number): string {
  const op = operator !== undefined && /^[A-Za-z]+$/.test(operator) ? `${operator} ` : "";
  return `${op}${formatNumber(threshold)}`;
}

function sameValues(a: readonly (number | null)[], b: readonly (number | null)[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/**
 * The backtest as a chart for a pull-request comment: the value over the window, the
 * threshold, a full-height bar where the new definition would have been in alert and, for
 * a changed monitor, a half-height bar where the live one would have been, its threshold
 * when it differs, and its values when its query differs.
 */
export function markdownChart(input: BacktestChartInput): MermaidChart {
  const { result, live, threshold } = input;
  const low = LOW_IS_WORSE.has(input.operator ?? "");
  const values = downsample(result.series, Math.min(WIDTH, result.series.length), low);
  const width = values.length;
  const liveValues = live ? downsample(live.result.series, width, low) : undefined;
  const liveOwnValues = liveValues && !sameValues(liveValues, values) ? liveValues : undefined;
  const liveThreshold = live?.threshold !== undefined && live.threshold !== threshold ? live.threshold : undefined;
  const numbers = [...values, ...(liveOwnValues ?? [])].filter((v): v is number => v !== null);
  const y = axisRange([...numbers, ...[threshold, liveThreshold].filter((v): v is number => v !== undefined)]);
  const filled = (vs: (number | null)[]) => vs.map((v) => v ?? y.min);
  const flat = (v: number) => values.map(() => v);
  const bars = (r: BacktestResult, height: number) => alertColumns(r, width).map((open) => (open ? height : y.min));
  const series: ChartSeries[] = [
    { kind: "bar", values: bars(result, y.max), swatch: SWATCH.red, legend: "in alert (full height)" },
    ...(live ? [{ kind: "bar" as const, values: bars(live.result, y.min + (y.max - y.min) / 2), swatch: SWATCH.yellow, legend: "live definition in alert (half height)", live: true }] : []),
    { kind: "line", values: filled(values), swatch: SWATCH.blue, legend: "value (the check most in alert; no data drawn at the bottom)" },
    ...(threshold !== undefined ? [{ kind: "line" as const, values: flat(threshold), swatch: SWATCH.black, legend: `threshold: alerts ${thresholdLegend(input.operator, threshold)}` }] : []),
    ...(liveOwnValues ? [{ kind: "line" as const, values: filled(liveOwnValues), swatch: SWATCH.purple, legend: "live definition's value", live: true }] : []),
    ...(liveThreshold !== undefined ? [{ kind: "line" as const, values: flat(liveThreshold), swatch: SWATCH.brown, legend: `live threshold: ${thresholdLegend(input.operator, liveThreshold)}`, live: true }] : []),
  ];
  return mermaidChart({
    title: `${chartName(input.name)}: backtest ${result.days}d`,
    xAxis: { label: "days before the plan", min: -result.days, max: 0 },
    yAxis: { label: "monitor value", min: y.min, max: y.max },
    series,
  });
}

/** The JSON form: `days`, `checks`, `queries`, `alerts`, `series` (and `live` likewise). */
export function backtestJson(b: MonitorBacktest): Record<string, unknown> {
  const pick = (r: BacktestResult & { history?: number }) => ({
    days: r.days,
    checks: r.checks,
    queries: r.queries,
    alerts: r.alerts,
    series: r.series,
    ...(r.notifications !== undefined ? { notifications: r.notifications } : {}),
    ...(r.history !== undefined ? { history: r.history } : {}),
    ...(r.approximate ? { approximate: r.approximate } : {}),
  });
  return {
    ...(b.backtest ? { backtest: pick(b.backtest) } : { backtest: null, skipped: b.skipped }),
    ...(b.live ? { live: pick(b.live) } : b.liveSkipped ? { liveSkipped: b.liveSkipped } : {}),
  };
}
