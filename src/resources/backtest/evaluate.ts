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

/**
 * One group of the binned answer as the service lists it: the group's key columns and its
 * points, each `[time, value columns...]` in the order of BinnedQuery.pointColumns.
 */
export interface BinnedGroup {
  keys: Row;
  points: unknown[];
}

interface Bin {
  time: number;
  group: string;
  /** The group's number among the answer's groups (BinSet.groups[id] is `group`). */
  id: number;
  /** The point: its time, then the value columns. */
  point: unknown[];
  keys: Row;
}

/** A value column of a bin: where its parts are in a point. */
type PartReader = (bin: Bin) => unknown;

function partReader(query: BinnedQuery, part: string): PartReader {
  const index = query.pointColumns.lastIndexOf(part);
  if (index >= 0) return (bin) => bin.point[index + 1];
  if (part === "_time") return (bin) => bin.point[0];
  return (bin) => bin.keys[part];
}

/** The group key columns: what the groups name beside their points, by name. */
function groupColumns(groups: BinnedGroup[], query: BinnedQuery): string[] {
  const valueColumns = new Set(query.values.flatMap((v) => [v.name, ...v.parts]));
  valueColumns.add("_time");
  for (const c of query.pointColumns) valueColumns.add(c);
  const names = new Set<string>();
  for (const g of groups) {
    // A group without a point shows no bin, and so no column.
    if (!g.points.some(Array.isArray)) continue;
    for (const k of Object.keys(g.keys)) if (!valueColumns.has(k)) names.add(k);
  }
  return [...names].sort();
}

/**
 * Bins already made of an answer, by its group columns: the live definition's replay
 * usually reads the new one's answer (a changed threshold keeps the query).
 */
const madeBins = new WeakMap<BinnedGroup[], Map<string, BinSet>>();

/** An answer's bins in time order, and its groups' keys (a JSON array of the key values) by number. */
interface BinSet {
  bins: Bin[];
  groups: string[];
}

/** The groups' points as bins in time order (a group's in the order it listed them); read only. */
function binsOf(groups: BinnedGroup[], groupNames: string[]): BinSet {
  const made = madeBins.get(groups) ?? new Map<string, BinSet>();
  madeBins.set(groups, made);
  const names = JSON.stringify(groupNames);
  let bins = made.get(names);
  if (!bins) made.set(names, (bins = newBins(groups, groupNames)));
  return bins;
}

function newBins(groups: BinnedGroup[], groupNames: string[]): BinSet {
  const bins: Bin[] = [];
  const ids = new Map<string, number>();
  // The same bin times repeat in every group: each text is parsed once.
  const parsed = new Map<string, number>();
  for (const g of groups) {
    const group = JSON.stringify(groupNames.map((n) => g.keys[n] ?? null));
    let id = ids.get(group);
    if (id === undefined) ids.set(group, (id = ids.size));
    for (const point of g.points) {
      if (!Array.isArray(point)) continue;
      const text = String(point[0]);
      let time = parsed.get(text);
      if (time === undefined) parsed.set(text, (time = Date.parse(text)));
      if (Number.isFinite(time)) bins.push({ time, group, id, point, keys: g.keys });
    }
  }
  return { bins: bins.sort((a, b) => a.time - b.time), groups: [...ids.keys()] };
}

/** A value column's parts as readers, and how they combine. */
interface Combiner {
  column: ValueColumn;
  parts: PartReader[];
}

const finite = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

/** The column's value over `bins[from, to)`, or null when none of them has one. */
function combine(c: Combiner, bins: readonly Bin[], from: number, to: number): number | null {
  const read = c.parts[0];
  switch (c.column.combine) {
    case "sum": {
      let sum = 0;
      let any = false;
      for (let i = from; i < to; i++) {
        const v = read(bins[i]);
        if (finite(v)) {
          sum += v;
          any = true;
        }
      }
      return any ? sum : null;
    }
    case "min":
    case "max": {
      const pick = c.column.combine === "min" ? Math.min : Math.max;
      let best: number | null = null;
      for (let i = from; i < to; i++) {
        const v = read(bins[i]);
        if (finite(v)) best = best === null ? v : pick(best, v);
      }
      return best;
    }
    case "avg": {
      let sum = 0;
      let count = 0;
      for (let i = from; i < to; i++) {
        const v = read(bins[i]);
        if (finite(v)) sum += v;
        const n = c.parts[1](bins[i]);
        if (finite(n)) count += n;
      }
      return count === 0 ? null : sum / count;
    }
    case "last": {
      for (let i = to - 1; i >= from; i--) {
        const v = read(bins[i]);
        if (finite(v)) return v;
      }
      return null;
    }
  }
}

/**
 * The values one group shows at one check (`bins` are its bins in the window): a series
 * query shows every point in the window, the other modes one value per value column.
 */
function checkValues(query: BinnedQuery, columns: Combiner[], bins: readonly Bin[]): number[] {
  const values: number[] = [];
  if (bins.length === 0) {
    for (const c of columns) if (c.column.empty !== null) values.push(c.column.empty);
  } else if (query.mode === "series") {
    for (let i = 0; i < bins.length; i++) {
      for (const c of columns) {
        const v = combine(c, bins, i, i + 1);
        if (v !== null) values.push(v);
      }
    }
  } else {
    for (const c of columns) {
      const v = combine(c, bins, 0, bins.length);
      if (v !== null) values.push(v);
    }
  }
  return values;
}

function alertState(monitor: BacktestMonitor) {
  const n = Math.max(1, monitor.triggerAfterNPositiveResults ?? 1);
  const m = Math.max(n, monitor.triggerFromNRuns ?? n);
  const recent: boolean[] = [];
  let positives = 0;
  let open: BacktestAlert | undefined;
  let openedAt = 0;
  return {
    /**
     * Feeds one check; answers how long an alert it closed was open. `group` is called
     * only for an alert it opens (most checks open none).
     */
    step(time: number, positive: boolean, group: () => Record<string, unknown> | null, alerts: BacktestAlert[]): number {
      recent.push(positive);
      if (positive) positives++;
      if (recent.length > m && recent.shift()) positives--;
      const triggered = positives >= n;
      if (triggered && !open) {
        open = { opened: new Date(time).toISOString(), closed: null, group: group() };
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

/** A window of the bins: [from, to) of the time-ordered list. */
type Window = (t: number, shiftMs?: number) => Bin[];

/** Replays the schedule of `monitor` over the groups of its binned query's answer. */
export function evaluate(
  monitor: BacktestMonitor,
  query: BinnedQuery,
  answer: BinnedGroup[],
  range: { startMs: number; endMs: number; days: number; queries: number },
): BacktestResult {
  const groups = groupColumns(answer, query);
  const { bins, groups: keys } = binsOf(answer, groups);
  const times = checkTimes(monitor, range.startMs, range.endMs);
  const delay = (monitor.secondDelay ?? 0) * 1000;
  const span = monitor.rangeMinutes * MINUTE;
  const inWindow: Window = (t, shiftMs = 0) => {
    const from = t - delay - span - shiftMs;
    const to = t - delay - shiftMs;
    return bins.slice(lowerBound(bins, from), lowerBound(bins, to));
  };
  const combinerOf = (column: ValueColumn): Combiner => ({ column, parts: column.parts.map((p) => partReader(query, p)) });

  const result: BacktestResult = { days: range.days, checks: times.length, queries: range.queries, alerts: [], series: [], times, minutesInAlert: 0 };
  if (query.approximate) result.approximate = query.approximate;

  if (monitor.type === "MatchEvent") {
    // Each run matches the events after those an earlier run looked at; a run sends at
    // most 10 (one minute's cap), a day at most 500.
    const counted = combinerOf(query.values[0]);
    let notifications = 0;
    let matchedUntil = -Infinity;
    const perDay = new Map<number, number>();
    for (const t of times) {
      const end = t - delay;
      const from = Math.max(end - span, matchedUntil);
      matchedUntil = Math.max(matchedUntil, end);
      let matched = 0;
      if (from < end) for (let i = lowerBound(bins, from), to = lowerBound(bins, end); i < to; i++) matched += combine(counted, bins, i, i + 1) ?? 0;
      result.series.push(matched);
      const day = Math.floor(t / DAY);
      const sent = Math.min(matched, MATCH_PER_MINUTE, MATCH_PER_DAY - (perDay.get(day) ?? 0));
      perDay.set(day, (perDay.get(day) ?? 0) + sent);
      notifications += sent;
    }
    result.notifications = notifications;
    return result;
  }

  const columns = (monitor.columnName ? query.values.filter((v) => v.name === monitor.columnName) : query.values).map(combinerOf);
  const threshold = monitor.threshold ?? 0;
  const byGroup = monitor.notifyByGroup === true && groups.length > 0;
  // Every key a check can name, by number: the answer's groups, then the keyless group (the
  // same as the group "[]" when the answer has it), the monitor as a whole, and no data.
  const keyless = keys.indexOf(KEYLESS) >= 0 ? keys.indexOf(KEYLESS) : keys.length;
  const whole = Math.max(keys.length, keyless + 1);
  const noDataKey = whole + 1;
  const keyOf = (id: number): string => (id === whole ? WHOLE : id === noDataKey ? NO_DATA : id === keyless ? KEYLESS : keys[id]);
  const size = noDataKey + 1;
  // Per key, the check that last touched it (so that nothing is cleared between checks).
  const inWindowAt = new Int32Array(size).fill(-1);
  const stepAt = new Int32Array(size).fill(-1);
  const binsAt: Bin[][] = Array.from({ length: size }, () => []);
  const stepValue: boolean[] = new Array<boolean>(size).fill(false);
  const states: (ReturnType<typeof alertState> | undefined)[] = new Array(size);
  /** Keys in the order their states were made (the order they step in). */
  const stateOrder: number[] = [];
  // An alert's group, from its key (a JSON array of the key values).
  const groupOf = (id: number) => (): Record<string, unknown> | null => {
    if (id === whole || id === noDataKey) return null;
    const values = JSON.parse(keyOf(id)) as unknown[];
    return Object.fromEntries(groups.map((g, i) => [g, values[i]]));
  };
  let inAlertMs = 0;

  const seen: number[] = [];
  const verdictKeys: number[] = [];
  const verdictValue = new Float64Array(size);
  const verdictCrossing = new Uint8Array(size);
  const stepKeys: number[] = [];
  for (let check = 0; check < times.length; check++) {
    const t = times[check];
    // The groups in the window, in the order they first appear in it, with their bins.
    seen.length = 0;
    for (let i = lowerBound(bins, t - delay - span), to = lowerBound(bins, t - delay); i < to; i++) {
      const b = bins[i];
      if (inWindowAt[b.id] !== check) {
        inWindowAt[b.id] = check;
        binsAt[b.id].length = 0;
        seen.push(b.id);
      }
      binsAt[b.id].push(b);
    }
    // Each group's verdict: its value most past the threshold crosses, or (anomaly) its
    // mean deviates from the mean of the same window on earlier days.
    if (query.keyless && seen.length === 0) {
      binsAt[keyless].length = 0;
      seen.push(keyless);
    }
    verdictKeys.length = 0;
    for (const id of seen) {
      const values = checkValues(query, columns, binsAt[id]);
      if (values.length === 0) continue;
      if (monitor.type === "AnomalyDetection") {
        const current = values.reduce((a, b) => a + b, 0) / values.length;
        const mean = expected(monitor, query, columns, inWindow, t, keyOf(id));
        if (mean === undefined) continue;
        verdictValue[id] = current;
        verdictCrossing[id] = deviates(monitor, current, mean) ? 1 : 0;
      } else {
        const value = worst(monitor.operator, values);
        verdictValue[id] = value;
        verdictCrossing[id] = crosses(monitor.operator, value, threshold) ? 1 : 0;
      }
      verdictKeys.push(id);
    }
    const noData = verdictKeys.length === 0;
    const worstValue = noData ? null : worst(monitor.operator, verdictKeys.map((id) => verdictValue[id]));
    result.series.push(worstValue);
    stepKeys.length = 0;
    const step = (id: number, positive: boolean): void => {
      if (stepAt[id] !== check) stepKeys.push(id);
      stepAt[id] = check;
      stepValue[id] = positive;
    };
    if (byGroup) {
      for (const id of verdictKeys) step(id, verdictCrossing[id] === 1);
    } else if (!noData) {
      const crossing = monitor.type === "AnomalyDetection" ? verdictKeys.some((id) => verdictCrossing[id] === 1) : crosses(monitor.operator, worstValue!, threshold);
      step(whole, crossing);
    }
    // No data is an alert of its own, beside the groups' (whose values then count as not crossing).
    if (monitor.alertOnNoData) step(noDataKey, noData);
    // Every key seen so far steps (in the order first seen), then the keys new at this check.
    for (const id of stateOrder) inAlertMs += states[id]!.step(t, stepAt[id] === check && stepValue[id], groupOf(id), result.alerts);
    for (const id of stepKeys) {
      if (states[id]) continue;
      const state = (states[id] = alertState(monitor));
      stateOrder.push(id);
      inAlertMs += state.step(t, stepValue[id], groupOf(id), result.alerts);
    }
  }
  for (const s of states) {
    if (!s) continue;
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
  columns: Combiner[],
  inWindow: Window,
  t: number,
  key: string,
): number | undefined {
  const earlier: number[] = [];
  for (let day = 1; day <= Math.max(1, monitor.compareDays ?? 1); day++) {
    const values = checkValues(query, columns, inWindow(t, day * DAY).filter((b) => b.group === key));
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
