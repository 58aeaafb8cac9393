// How a backtest reads in a plan: one summary line, a sparkline with the threshold
// marked (text), a chart GitHub renders (markdown), and the JSON object.
import type { BacktestAlert, BacktestResult } from "./evaluate";

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

/** The series squeezed to at most `width` points, keeping each bucket's largest value. */
function downsample(series: (number | null)[], width: number): (number | null)[] {
  if (series.length <= width) return series;
  const out: (number | null)[] = [];
  for (let i = 0; i < width; i++) {
    const bucket = series.slice(Math.floor((i * series.length) / width), Math.floor(((i + 1) * series.length) / width));
    const numbers = bucket.filter((v): v is number => v !== null);
    out.push(numbers.length === 0 ? null : Math.max(...numbers));
  }
  return out;
}

/**
 * Two lines: the values as blocks (a space where there was no data), and under them a
 * `^` where a check was in alert, with the threshold's level named at the end.
 */
export function sparkline(result: BacktestResult, threshold: number | undefined): string[] {
  const values = downsample(result.series, WIDTH);
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

function alertMarks(result: BacktestResult, width: number): string {
  const times = result.times;
  if (times.length === 0) return "";
  const start = times[0];
  const end = times[times.length - 1];
  const column = (t: number) => (end === start ? 0 : Math.min(width - 1, Math.floor(((t - start) / (end - start)) * width)));
  const marks = Array.from({ length: width }, () => " ");
  for (const a of result.alerts) {
    const from = column(Date.parse(a.opened));
    const to = a.closed ? column(Date.parse(a.closed)) : width - 1;
    for (let i = from; i <= Math.max(from, to); i++) marks[i] = "^";
  }
  return marks.join("");
}

function formatNumber(v: number): string {
  return Number.isInteger(v) ? String(v) : v.toFixed(2);
}

/** A small chart in GitHub's Mermaid dialect: the values and the threshold as two lines. */
export function markdownChart(result: BacktestResult, threshold: number | undefined): string {
  const values = downsample(result.series, WIDTH).map((v) => (v === null ? 0 : Number(v.toFixed(3))));
  const lines = ["```mermaid", "xychart-beta", `  x-axis "last ${result.days}d" 1 --> ${values.length}`, `  line [${values.join(", ")}]`];
  if (threshold !== undefined) lines.push(`  line [${values.map(() => threshold).join(", ")}]`);
  lines.push("```");
  return lines.join("\n");
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
