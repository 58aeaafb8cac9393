// Replays an SLO's generated monitors from per-minute counts: every run of each window
// pair's Threshold monitor, as the service runs it (a run at each multiple of its interval,
// the window ending at the run, the value compared with the factor, open while it crosses,
// closed when it no longer does), and the SLO's figures over its window. One read of the
// counts serves every pair, which is why an SLO costs one query where four monitors'
// backtests cost four.
import { budgetFraction, intervalMinutes, pairText, type SloDefinition, type SloSeverity } from "./slo-model";

const MINUTE = 60_000;
const DAY = 86_400_000;

/** Events and bad events of one minute, keyed by the minute's start (epoch ms). */
export type MinuteCounts = Map<number, { events: number; bad: number }>;

export interface SloAlert {
  severity: SloSeverity;
  /** The window pair that fired, e.g. `1h/5m`. */
  pair: string;
  factor: number;
  opened: string;
  closed: string | null;
  /** The highest burn rate the pair measured while open. */
  peakBurnRate: number;
}

export interface SloFigures {
  name: string;
  objectivePercent: number;
  windowDays: number;
  /** Days of the window that had data before them (the figures cover the data there is). */
  from: string;
  to: string;
  events: number;
  badEvents: number;
  /** null when there were no events. */
  sliPercent: number | null;
  budgetConsumedPercent: number;
  /** Episodes: alerts of one severity that overlap count once. */
  pages: number;
  tickets: number;
  alerts: SloAlert[];
  /** Budget consumed so far at the end of each of `burn.length` equal slices of the window, percent. */
  burn: number[];
  /** Per window pair, the highest burn rate its checks measured in each of up to RATE_SLICES slices of the window (the HTML plan's chart). */
  burnRates: PairBurnRates[];
  queries: number;
}

/** One window pair's burn rate over the window: `times[i]` ends the slice whose highest rate is `rates[i]`. */
export interface PairBurnRates {
  severity: SloSeverity;
  pair: string;
  factor: number;
  times: number[];
  rates: number[];
}

/** Slices of the burn-rate series: as many as a chart has pixels to spend, whatever the window. */
const RATE_SLICES = 240;

/** Prefix sums of the counts over whole minutes from `startMs`: constant-time window sums. */
class Counts {
  private readonly events: Float64Array;
  private readonly bad: Float64Array;

  constructor(
    counts: MinuteCounts,
    private readonly startMs: number,
    endMs: number,
  ) {
    const n = Math.max(0, Math.ceil((endMs - startMs) / MINUTE));
    this.events = new Float64Array(n + 1);
    this.bad = new Float64Array(n + 1);
    const e = new Float64Array(n);
    const b = new Float64Array(n);
    for (const [t, c] of counts) {
      const i = Math.floor((t - startMs) / MINUTE);
      if (i < 0 || i >= n) continue;
      e[i] += c.events;
      b[i] += c.bad;
    }
    for (let i = 0; i < n; i++) {
      this.events[i + 1] = this.events[i] + e[i];
      this.bad[i + 1] = this.bad[i] + b[i];
    }
  }

  private index(t: number): number {
    return Math.max(0, Math.min(this.events.length - 1, Math.floor((t - this.startMs) / MINUTE)));
  }

  /** Events and bad events in [from, to). */
  sum(from: number, to: number): { events: number; bad: number } {
    const a = this.index(from);
    const z = this.index(to);
    return { events: this.events[z] - this.events[a], bad: this.bad[z] - this.bad[a] };
  }

  /** The first minute that holds an event, or undefined. */
  firstEventMs(): number | undefined {
    for (let i = 1; i < this.events.length; i++) if (this.events[i] > 0) return this.startMs + (i - 1) * MINUTE;
    return undefined;
  }
}

/** The value one run of a pair's monitor computes: the query's arithmetic, in the same order. */
export function burnRateAt(counts: { sum(from: number, to: number): { events: number; bad: number } }, slo: SloDefinition, pair: number, t: number): number {
  const p = slo.pairs[pair];
  const b = budgetFraction(slo.objectivePercent);
  const long = counts.sum(t - p.longMinutes * MINUTE, t);
  const short = counts.sum(t - p.shortMinutes * MINUTE, t);
  const longBurn = long.events === 0 ? 0 : long.bad / long.events / b;
  const shortBurn = short.events === 0 ? 0 : short.bad / short.events / b;
  if (short.events < slo.minEvents) return 0;
  return longBurn < shortBurn ? longBurn : shortBurn;
}

/** Every alert one pair's monitor would have opened in (startMs, endMs]; `onRate` sees each check's burn rate. */
export function replayPair(counts: Counts, slo: SloDefinition, pair: number, startMs: number, endMs: number, onRate?: (t: number, burn: number) => void): SloAlert[] {
  const p = slo.pairs[pair];
  const step = intervalMinutes(p) * MINUTE;
  const alerts: SloAlert[] = [];
  let open: SloAlert | undefined;
  for (let t = Math.floor(startMs / step) * step + step; t <= endMs; t += step) {
    const burn = burnRateAt(counts, slo, pair, t);
    onRate?.(t, burn);
    if (burn > p.factor) {
      if (!open) alerts.push((open = { severity: p.severity, pair: pairText(p), factor: p.factor, opened: new Date(t).toISOString(), closed: null, peakBurnRate: burn }));
      else open.peakBurnRate = Math.max(open.peakBurnRate, burn);
    } else if (open) {
      open.closed = new Date(t).toISOString();
      open = undefined;
    }
  }
  for (const a of alerts) a.peakBurnRate = Number(a.peakBurnRate.toFixed(3));
  return alerts;
}

/** Alerts of one severity that overlap in time count as one episode. */
export function episodes(alerts: readonly SloAlert[], severity: SloSeverity, endMs: number): number {
  const spans = alerts
    .filter((a) => a.severity === severity)
    .map((a) => [Date.parse(a.opened), a.closed ? Date.parse(a.closed) : endMs] as const)
    .sort((x, y) => x[0] - y[0]);
  let count = 0;
  let reach = -Infinity;
  for (const [from, to] of spans) {
    if (from > reach) count++;
    reach = Math.max(reach, to);
  }
  return count;
}

const BURN_SLICES = 40;

/**
 * The SLO's figures over [endMs − windowDays, endMs) from per-minute counts that reach back
 * at least the longest long window before it, and the alerts its monitors would have raised.
 */
export function sloFigures(slo: SloDefinition, minuteCounts: MinuteCounts, countsFromMs: number, endMs: number, queries: number): SloFigures {
  const counts = new Counts(minuteCounts, countsFromMs, endMs);
  const startMs = endMs - slo.windowDays * DAY;
  const total = counts.sum(startMs, endMs);
  const b = budgetFraction(slo.objectivePercent);
  const burnRates = slo.pairs.map((p): PairBurnRates => ({ severity: p.severity, pair: pairText(p), factor: p.factor, times: [], rates: [] }));
  const sliceMs = Math.max(1, (endMs - startMs) / RATE_SLICES);
  // The replay's own rates, kept per slice at their highest: no second pass over the checks.
  const keepRate = (into: PairBurnRates) => (t: number, burn: number) => {
    const sliceEnd = Math.min(endMs, startMs + Math.ceil((t - startMs) / sliceMs) * sliceMs);
    const last = into.times.length - 1;
    if (last >= 0 && into.times[last] === sliceEnd) into.rates[last] = Math.max(into.rates[last], burn);
    else {
      into.times.push(sliceEnd);
      into.rates.push(burn);
    }
  };
  const alerts = slo.pairs.flatMap((_, i) => replayPair(counts, slo, i, startMs, endMs, keepRate(burnRates[i]))).sort((x, y) => (x.opened < y.opened ? -1 : x.opened > y.opened ? 1 : 0));
  const consumed = (bad: number) => (total.events === 0 ? 0 : (100 * (bad / total.events)) / b);
  const burn: number[] = [];
  for (let i = 1; i <= BURN_SLICES; i++) burn.push(Number(consumed(counts.sum(startMs, startMs + Math.round(((endMs - startMs) * i) / BURN_SLICES)).bad).toFixed(3)));
  const first = counts.firstEventMs();
  return {
    name: slo.name,
    objectivePercent: slo.objectivePercent,
    windowDays: slo.windowDays,
    from: new Date(first !== undefined && first > startMs ? first : startMs).toISOString(),
    to: new Date(endMs).toISOString(),
    events: total.events,
    badEvents: total.bad,
    sliPercent: total.events === 0 ? null : Number(((100 * (total.events - total.bad)) / total.events).toFixed(6)),
    budgetConsumedPercent: Number(consumed(total.bad).toFixed(3)),
    pages: episodes(alerts, "page", endMs),
    tickets: episodes(alerts, "ticket", endMs),
    alerts,
    burn,
    burnRates: burnRates.map((r) => ({ ...r, rates: r.rates.map((v) => Number(v.toFixed(3))) })),
    queries,
  };
}
