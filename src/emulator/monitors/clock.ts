// The emulator's notion of "now". The real clock is the wall clock. The manual clock
// stands still until a test moves it (POST /_emulator/clock), so that monitor runs,
// their query windows and their notifications are reproducible to the millisecond.
import { badRequest } from "../errors";
import { parseTimespan } from "../query/time";
import { normalizeTimestamp } from "../time";

export type ClockMode = "real" | "manual";

export interface Clock {
  readonly mode: ClockMode;
  now(): number;
}

export class RealClock implements Clock {
  readonly mode = "real";
  now(): number {
    return Date.now();
  }
}

export class ManualClock implements Clock {
  readonly mode = "manual";
  constructor(private current: number) {}

  now(): number {
    return this.current;
  }

  /** Only forwards: monitor runs already made cannot be unmade. */
  moveTo(ms: number): void {
    if (ms < this.current) throw badRequest(`the manual clock only moves forward: ${new Date(ms).toISOString()} is before ${new Date(this.current).toISOString()}`);
    this.current = ms;
  }
}

/** Longest single move: a bound on how many monitor runs one request may cause. */
export const MAX_CLOCK_MOVE_MS = 31 * 24 * 3600_000;

/**
 * The target of a `POST /_emulator/clock` body, `{"advance": "15m"}` (a timespan such as
 * 90s, 15m, 2h, 1d) or `{"set": "2026-01-01T00:00:00Z"}`.
 */
export function clockTarget(body: unknown, nowMs: number): number {
  const obj = typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  const advance = obj?.advance;
  const set = obj?.set;
  if (obj === undefined || (advance === undefined) === (set === undefined)) {
    throw badRequest('body must be {"advance": "15m"} or {"set": "2026-01-01T00:00:00Z"}');
  }
  let target: number;
  if (advance !== undefined) {
    const ms = typeof advance === "string" ? parseTimespan(advance) : undefined;
    if (ms === undefined || !(ms >= 0)) throw badRequest(`"advance" must be a duration such as "90s", "15m", "2h" or "1d", got ${JSON.stringify(advance)}`);
    target = nowMs + ms;
  } else {
    const normalized = typeof set === "string" ? normalizeTimestamp(set) : undefined;
    if (normalized === undefined) throw badRequest(`"set" must be an RFC 3339 timestamp such as 2026-01-01T00:00:00Z, got ${JSON.stringify(set)}`);
    target = Date.parse(normalized);
  }
  if (target - nowMs > MAX_CLOCK_MOVE_MS) throw badRequest(`the clock moves at most 31 days per request`);
  return target;
}
