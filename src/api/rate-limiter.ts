// A client-side sliding-window limiter: at most `limit` request starts in any window of
// `windowMs`. The service counts requests per second, so a token bucket (which allows a
// full bucket plus a second's refill inside one window) could still trip it; a sliding
// window never can, and still lets a short plan's handful of calls go out at once.
//
// Slots are reserved synchronously, so concurrent callers get distinct, ordered slots;
// the schedule depends only on the injected clock, which is what tests assert on.

export interface Clock {
  /** Milliseconds since the epoch (X-RateLimit-Reset is compared with it). */
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/**
 * Added to each window: the service counts arrivals, not departures, and two requests
 * sent exactly a window apart can arrive inside one window when the first was slower.
 */
export const WINDOW_SAFETY_MS = 50;

export class RateLimiter {
  private perSecond: number | undefined;
  /** Start times of the most recent reservations, ascending (at most `limit` kept). */
  private recent: number[] = [];
  private pausedUntil = 0;

  constructor(perSecond: number | undefined, private readonly clock: Clock = realClock) {
    this.setRate(perSecond);
  }

  /** Requests per second; undefined or <= 0 turns limiting off. */
  setRate(perSecond: number | undefined): void {
    this.perSecond = perSecond !== undefined && Number.isFinite(perSecond) && perSecond > 0 ? perSecond : undefined;
  }

  get rate(): number | undefined {
    return this.perSecond;
  }

  /**
   * How many starts a window holds, and how long the window is: R per second for a whole
   * rate; one start every 1/R s for a fractional one (the service's limits are whole
   * numbers; a fractional rate is a caller's choice and is spread evenly).
   */
  window(): { limit: number; windowMs: number } | undefined {
    if (!this.perSecond) return undefined;
    const limit = Number.isInteger(this.perSecond) ? this.perSecond : 1;
    return { limit, windowMs: (1000 * limit) / this.perSecond + WINDOW_SAFETY_MS };
  }

  /** Holds every start until `time` (a 429's Retry-After, or an exhausted X-RateLimit-Remaining). */
  pauseUntil(time: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, time);
  }

  /** Reserves the next slot and answers its start time (epoch ms); never earlier than now. */
  reserve(): number {
    const now = this.clock.now();
    let start = Math.max(now, this.pausedUntil);
    const w = this.window();
    if (w) {
      if (this.recent.length >= w.limit) start = Math.max(start, this.recent[this.recent.length - w.limit] + w.windowMs);
      // First come, first served, also right after the rate was lowered.
      if (this.recent.length > 0) start = Math.max(start, this.recent[this.recent.length - 1]);
      this.recent.push(start);
      if (this.recent.length > w.limit) this.recent.splice(0, this.recent.length - w.limit);
    }
    return start;
  }

  /** Waits for the next slot. */
  async acquire(): Promise<void> {
    const wait = this.reserve() - this.clock.now();
    if (wait > 0) await this.clock.sleep(wait);
  }
}
