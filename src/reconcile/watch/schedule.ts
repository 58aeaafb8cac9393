// When the next round of `ods watch` starts. After a good round: the interval, moved by
// up to ±jitter so that replicas started together drift apart (and do not list every
// object of an organization in the same second). After failed rounds: an exponential
// backoff from a short first retry, capped, so that a broken commit or an unreachable
// service is retried soon at first and then ever more rarely, never in a tight loop.

export interface Schedule {
  intervalMs: number;
  /** Share of the interval (0 to 0.5) by which each wait may move either way. */
  jitter: number;
  /** The longest wait after failures; never below the interval. */
  maxBackoffMs: number;
}

/** The first retry after a failure: the interval, when shorter than this. */
export const FIRST_RETRY_MS = 15_000;

/**
 * The wait before the next round. `failures` counts the rounds that failed in a row
 * (0 after a good round); `random` is in [0, 1).
 */
export function nextDelay(schedule: Schedule, failures: number, random: () => number = Math.random): number {
  const base = failures === 0 ? schedule.intervalMs : backoff(schedule, failures);
  const spread = base * schedule.jitter * (2 * random() - 1);
  return Math.max(0, Math.round(base + spread));
}

/** min(cap, first × 2^(failures−1)), the first retry being the interval or 15 s, whichever is shorter. */
export function backoff(schedule: Schedule, failures: number): number {
  const first = Math.min(schedule.intervalMs, FIRST_RETRY_MS);
  const cap = Math.max(schedule.intervalMs, schedule.maxBackoffMs);
  // 2^30 already exceeds any cap; the exponent is bounded so the product stays finite.
  return Math.min(cap, first * 2 ** Math.min(Math.max(failures - 1, 0), 30));
}

/** "5m", "90s", "1h30m", "500ms": a duration flag; the message names the flag and the form expected. */
export function parseDuration(text: string, flag: string): number {
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  const trimmed = text.trim();
  if (!/^(\d+(ms|s|m|h))+$/.test(trimmed)) throw new Error(`${flag} expects a duration such as 30s, 5m or 1h30m, got "${text}"`);
  let total = 0;
  for (const m of trimmed.matchAll(/(\d+)(ms|s|m|h)/g)) total += Number(m[1]) * units[m[2]];
  if (total <= 0) throw new Error(`${flag} must be longer than zero, got "${text}"`);
  return total;
}

/** "10%" or "0.1": a share from `min` to `max` (as fractions). */
export function parseShare(text: string, flag: string, min: number, max: number): number {
  const trimmed = text.trim();
  const m = /^(\d+(?:\.\d+)?)(%?)$/.exec(trimmed);
  const value = m ? Number(m[1]) / (m[2] ? 100 : 1) : NaN;
  if (!m || !Number.isFinite(value) || value < min || value > max) {
    throw new Error(`${flag} expects a share from ${min * 100}% to ${max * 100}% (such as 10% or 0.1), got "${text}"`);
  }
  return value;
}
