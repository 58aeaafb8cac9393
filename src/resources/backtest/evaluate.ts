// Replays a monitor's schedule over binned rows: the value of each check, whether it
// crossed, N of M, no data, and the alerts that follow. Written from the service's
// documented behaviour, independently of the emulator's monitor engine, so that a test
// holding the two to each other can catch either one being wrong.
import type { BacktestMonitor, BinnedQuery, ValueColumn } from "./binned-query";

export type Row = Record<string, unknown>;

export interface BacktestAlert {
  opened: string;
  /** When the alert closed, if the monitor is resolvable and it closed within the range. */
  closed: string | null;
  /** The group's key values, for monitors that notify by group. */
  group: Record<string, unknown> | null;
}

export interface BacktestResult {
  days: number;
  /** How many checks of the schedule fell in the range. */
  checks: number;
  queries: number;
  alerts: BacktestAlert[];
  /** The monitor-level value of each check (the group most in alert); null: no data. */
  series: (number | null)[];
  /** Check times, epoch milliseconds, one per entry of `series`. */
  times: number[];
  minutesInAlert: number;
  /** Match monitors: notifications after the service's caps. */
  notifications?: number;
  approximate?: string;
}

const MINUTE = 60_000;
const DAY = 86_400_000;
const MATCH_PER_MINUTE = 10;
const MATCH_PER_DAY = 500;
/** The state keys of the monitor as a whole and of its no-data alert (no group's key looks like them). */
const WHOLE = "";
const NO_DATA = "\u0000no data";
/** The one group of a summarize without `by` keys. */
const KEYLESS = "[]";

/** Check times of the schedule that end inside (start, end]: multiples of the interval since the epoch. */
export function checkTimes(monitor: BacktestMonitor, startMs: number, endMs: number): number[] {
  const step = monitor.intervalMinutes * MINUTE;
  const times: number[] = [];
  for (let t = Math.floor(startMs / step) * step + step; t <= endMs; t += step) times.push(t);
  return times;
}

export function crosses(operator: string | undefined, value: number, threshold: number): boolean {
  switch (operator) {
    case "Below":
      return value < threshold;
    case "BelowOrEqual":
      return value <= threshold;
    case "AboveOrEqual":
      return value >= threshold;
    case "AboveOrBelow":
      // Outside the band [-|threshold|, |threshold|], as the project's emulator adopts.
      return Math.abs(value) > Math.abs(threshold);
    case "Above":
    default:
      return value > threshold;
  }
}

/** Which value is "most in alert" for the operator: the one a chart of the monitor should show. */
function worst(operator: string | undefined, values: number[]): number {
  if (operator === "Below" || operator === "BelowOrEqual") return Math.min(...values);
  if (operator === "AboveOrBelow") return values.reduce((a, b) => (Math.abs(b) > Math.abs(a) ? b : a));
  return Math.max(...values);
}

interface Bin {
  time: number;
  group: string;
  row: Row;
}

function groupColumns(rows: Row[], query: BinnedQuery): string[] {
  const valueColumns = new Set(query.values.flatMap((v) => [v.name, ...v.parts]));
  const names = new Set<string>();
  for (const row of rows) for (const k of Object.keys(row)) if (k !== "_time" && !valueColumns.has(k)) names.add(k);
  return [...names].sort();
}

function combine(column: ValueColumn, rows: Row[]): number | null {
  const numbers = (part: string) => rows.map((r) => r[part]).filter((v): v is number => typeof v === "number" && Number.isFinite(v));
  switch (column.combine) {
    case "sum": {
      const xs = numbers(column.parts[0]);
      return xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0);
    }
    case "min":
    case "max": {
      const xs = numbers(column.parts[0]);
      return xs.length === 0 ? null : column.combine === "min" ? Math.min(...xs) : Math.max(...xs);
    }
    case "avg": {
      const sum = numbers(column.parts[0]).reduce((a, b) => a + b, 0);
      const count = numbers(column.parts[1]).reduce((a, b) => a + b, 0);
      return count === 0 ? null : sum / count;
    }
    case "last": {
      const xs = numbers(column.parts[0]);
      return xs.length === 0 ? null : xs[xs.length - 1];
    }
  }
}

/**
 * The values one group shows at one check: a series query shows every point in the
 * window, the other modes one value per value column.
 */
function checkValues(query: BinnedQuery, monitor: BacktestMonitor, bins: Bin[]): number[] {
  const columns = monitor.columnName ? query.values.filter((v) => v.name === monitor.columnName) : query.values;
  if (bins.length === 0) return columns.map((c) => c.empty).filter((v): v is number => v !== null);
  const rows = bins.map((b) => b.row);
  if (query.mode === "series") {
    return rows.flatMap((r) => columns.map((c) => combine(c, [r]))).filter((v): v is number => v !== null);
  }
  return columns.map((c) => combine(c, rows)).filter((v): v is number => v !== null);
}

function alertState(monitor: BacktestMonitor) {
  const n = Math.max(1, monitor.triggerAfterNPositiveResults ?? 1);
  const m = Math.max(n, monitor.triggerFromNRuns ?? n);
  const recent: boolean[] = [];
  let open: BacktestAlert | undefined;
  let openedAt = 0;
  return {
    /** Feeds one check; answers the alert it opened or closed, if any. */
    step(time: number, positive: boolean, group: Record<string, unknown> | null, alerts: BacktestAlert[]): number {
      recent.push(positive);
      if (recent.length > m) recent.shift();
      const triggered = recent.filter(Boolean).length >= n;
      if (triggered && !open) {
        open = { opened: new Date(time).toISOString(), closed: null, group };
        openedAt = time;
        alerts.push(open);
      } else if (!triggered && open) {
        if (monitor.resolvable) open.closed = new Date(time).toISOString();
        open = undefined;
        return time - openedAt;
      }
      return 0;
    },
    openSince(): number | undefined {
      return open ? openedAt : undefined;
    },
  };
}

/** Replays the schedule of `monitor` over the rows of its binned query. */
export function evaluate(
  monitor: BacktestMonitor,
  query: BinnedQuery,
  rows: Row[],
  range: { startMs: number; endMs: number; days: number; queries: number },
): BacktestResult {
  const groups = groupColumns(rows, query);
  const bins: Bin[] = rows
    .map((row) => ({ time: Date.parse(String(row._time)), group: JSON.stringify(groups.map((g) => row[g] ?? null)), row }))
    .filter((b) => Number.isFinite(b.time))
    .sort((a, b) => a.time - b.time);
  const times = checkTimes(monitor, range.startMs, range.endMs);
  const delay = (monitor.secondDelay ?? 0) * 1000;
  const span = monitor.rangeMinutes * MINUTE;
  const inWindow = (t: number, shiftMs = 0) => {
    const from = t - delay - span - shiftMs;
    const to = t - delay - shiftMs;
    return bins.slice(lowerBound(bins, from), lowerBound(bins, to));
  };

  const result: BacktestResult = { days: range.days, checks: times.length, queries: range.queries, alerts: [], series: [], times, minutesInAlert: 0 };
  if (query.approximate) result.approximate = query.approximate;

  if (monitor.type === "MatchEvent") {
    // Each run matches the events after those an earlier run looked at; a run sends at
    // most 10 (one minute's cap), a day at most 500.
    let notifications = 0;
    let matchedUntil = -Infinity;
    const perDay = new Map<number, number>();
    for (const t of times) {
      const end = t - delay;
      const from = Math.max(end - span, matchedUntil);
      matchedUntil = Math.max(matchedUntil, end);
      const matched = from >= end ? 0 : bins.slice(lowerBound(bins, from), lowerBound(bins, end)).reduce((n, b) => n + (combine(query.values[0], [b.row]) ?? 0), 0);
      result.series.push(matched);
      const day = Math.floor(t / DAY);
      const sent = Math.min(matched, MATCH_PER_MINUTE, MATCH_PER_DAY - (perDay.get(day) ?? 0));
      perDay.set(day, (perDay.get(day) ?? 0) + sent);
      notifications += sent;
    }
    result.notifications = notifications;
    return result;
  }

  const threshold = monitor.threshold ?? 0;
  const byGroup = monitor.notifyByGroup === true && groups.length > 0;
  const states = new Map<string, ReturnType<typeof alertState>>();
  const stateOf = (key: string) => {
    let s = states.get(key);
    if (!s) states.set(key, (s = alertState(monitor)));
    return s;
  };
  let inAlertMs = 0;

  for (const t of times) {
    const window = inWindow(t);
    const perGroup = new Map<string, Bin[]>();
    for (const b of window) {
      const list = perGroup.get(b.group);
      if (list) list.push(b);
      else perGroup.set(b.group, [b]);
    }
    // Each group's verdict: its value most past the threshold crosses, or (anomaly) its
    // mean deviates from the mean of the same window on earlier days.
    if (query.keyless && perGroup.size === 0) perGroup.set(KEYLESS, []);
    const verdicts = new Map<string, { crossing: boolean; value: number }>();
    for (const [key, groupBins] of perGroup) {
      const values = checkValues(query, monitor, groupBins);
      if (values.length === 0) continue;
      if (monitor.type === "AnomalyDetection") {
        const current = values.reduce((a, b) => a + b, 0) / values.length;
        const mean = expected(monitor, query, inWindow, t, key);
        if (mean !== undefined) verdicts.set(key, { crossing: deviates(monitor, current, mean), value: current });
      } else {
        const value = worst(monitor.operator, values);
        verdicts.set(key, { crossing: crosses(monitor.operator, value, threshold), value });
      }
    }
    const noData = verdicts.size === 0;
    result.series.push(noData ? null : worst(monitor.operator, [...verdicts.values()].map((v) => v.value)));
    const group = (key: string): Record<string, unknown> => Object.fromEntries(groups.map((g, i) => [g, (JSON.parse(key) as unknown[])[i]]));
    const steps = new Map<string, boolean>();
    if (byGroup) {
      for (const [key, v] of verdicts) steps.set(key, v.crossing);
    } else if (!noData) {
      const crossing = monitor.type === "AnomalyDetection"
        ? [...verdicts.values()].some((v) => v.crossing)
        : crosses(monitor.operator, worst(monitor.operator, [...verdicts.values()].map((v) => v.value)), threshold);
      steps.set(WHOLE, crossing);
    }
    // No data is an alert of its own, beside the groups' (whose values then count as not crossing).
    if (monitor.alertOnNoData) steps.set(NO_DATA, noData);
    for (const key of new Set([...states.keys(), ...steps.keys()])) {
      const alertGroup = key === WHOLE || key === NO_DATA ? null : group(key);
      inAlertMs += stateOf(key).step(t, steps.get(key) === true, alertGroup, result.alerts);
    }
  }
  for (const s of states.values()) {
    const since = s.openSince();
    if (since !== undefined) inAlertMs += range.endMs - since;
  }
  result.minutesInAlert = Math.round(inAlertMs / MINUTE);
  return result;
}

/** The index of the first bin at or after `time` (bins are sorted by time). */
function lowerBound(bins: Bin[], time: number): number {
  let lo = 0;
  let hi = bins.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (bins[mid].time < time) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The value the same window had on average over the previous `compareDays` days. */
function expected(
  monitor: BacktestMonitor,
  query: BinnedQuery,
  inWindow: (t: number, shiftMs?: number) => Bin[],
  t: number,
  key: string,
): number | undefined {
  const earlier: number[] = [];
  for (let day = 1; day <= Math.max(1, monitor.compareDays ?? 1); day++) {
    const values = checkValues(query, monitor, inWindow(t, day * DAY).filter((b) => b.group === key));
    if (values.length > 0) earlier.push(values.reduce((a, b) => a + b, 0) / values.length);
  }
  return earlier.length === 0 ? undefined : earlier.reduce((a, b) => a + b, 0) / earlier.length;
}

/** Whether `value` deviates from `mean` by more than the tolerance (percent), in the operator's direction. */
function deviates(monitor: BacktestMonitor, value: number, mean: number): boolean {
  const deviation = mean === 0 ? (value === 0 ? 0 : Infinity) : (Math.abs(value - mean) / Math.abs(mean)) * 100;
  const op = monitor.operator;
  const direction = op === "Above" || op === "AboveOrEqual" ? value > mean : op === "Below" || op === "BelowOrEqual" ? value < mean : value !== mean;
  return direction && deviation > (monitor.tolerance ?? 0);
}
