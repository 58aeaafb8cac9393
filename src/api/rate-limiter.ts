// A client-side sliding-window limiter: at most `limit` request starts in any window of
// `windowMs`. The service counts requests per second, so a token bucket (which allows a
// full bucket plus a second's refill inside one window) could still trip it; a sliding
// window never can, and still lets a short plan's handful of calls go out at once.
//
// Slots are reserved synchronously, so concurrent callers get distinct, ordered slots;
// the schedule depends only on the injected clock, which is what tests assert on.
//
// The sliding window needs a margin (below) on every window: at 20/s it gives 19/s, 5%
// of the budget lost. The service's window is the epoch second (X-RateLimit-Reset is a
// whole epoch second). Once its answers show that its seconds are ours (within the
// margin), the limiter counts starts per epoch second instead: a start counts against
// every second that its arrival could fall in, given up to the margin of latency or clock
// offset either way. At the limit the starts of a second then go out in a burst right
// after the margin, and the whole budget is used. An answer whose Reset does not fit our
// clock turns that off again for good.

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
  /** Starts counted per epoch second (second index -> starts that may arrive in it). */
  private perEpochSecond = new Map<number, number>();
  private alignedWithService = false;
  private misaligned = false;

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

  /** True while starts are counted per epoch second, the service's own window. */
  get aligned(): boolean {
    return this.alignedWithService && !this.misaligned && this.perSecond !== undefined && Number.isInteger(this.perSecond);
  }

  /**
   * What an answer said about the service's window: `resetSeconds` (X-RateLimit-Reset) for
   * a call started at `sentAt` and answered at `answeredAt`. The service counted the call
   * in the second before its reset; that second must be one the call could have arrived in
   * by our clock, give or take the margin, or else the two clocks disagree.
   */
  observeServiceWindow(resetSeconds: number, sentAt: number, answeredAt: number): void {
    const counted = resetSeconds - 1;
    const fits = counted >= secondOf(sentAt - WINDOW_SAFETY_MS) && counted <= secondOf(answeredAt + WINDOW_SAFETY_MS);
    if (fits) this.alignedWithService = true;
    else this.misaligned = true;
  }

  /** Reserves the next slot and answers its start time (epoch ms); never earlier than now. */
  reserve(): number {
    const now = this.clock.now();
    let start = Math.max(now, this.pausedUntil);
    // First come, first served, also right after the rate was lowered.
    if (this.recent.length > 0) start = Math.max(start, this.recent[this.recent.length - 1]);
    const w = this.window();
    if (w && this.aligned) start = this.firstSecondWithRoom(start, w.limit);
    else if (w && this.recent.length >= w.limit) start = Math.max(start, this.recent[this.recent.length - w.limit] + w.windowMs);
    this.record(start, now, w?.limit);
    return start;
  }

  /** The earliest start from `from` whose every possible arrival second has room. */
  private firstSecondWithRoom(from: number, limit: number): number {
    let start = from;
    // Each step moves past one full second, and seconds ahead of now hold few starts.
    for (let step = 0; step < 10_000; step++) {
      const full = arrivalSeconds(start).find((sec) => (this.perEpochSecond.get(sec) ?? 0) >= limit);
      if (full === undefined) return start;
      start = (full + 1) * 1000 + WINDOW_SAFETY_MS;
    }
    return start;
  }

  /** Both ways of counting see every start, so that switching between them never overspends. */
  private record(start: number, now: number, limit: number | undefined): void {
    for (const sec of arrivalSeconds(start)) this.perEpochSecond.set(sec, (this.perEpochSecond.get(sec) ?? 0) + 1);
    const stale = secondOf(now - WINDOW_SAFETY_MS) - 1;
    for (const sec of this.perEpochSecond.keys()) if (sec < stale) this.perEpochSecond.delete(sec);
    this.recent.push(start);
    const keep = limit ?? 1;
    if (this.recent.length > keep) this.recent.splice(0, this.recent.length - keep);
  }

  /** Waits for the next slot. */
  async acquire(): Promise<void> {
    const wait = this.reserve() - this.clock.now();
    if (wait > 0) await this.clock.sleep(wait);
  }
}

function secondOf(ms: number): number {
  return Math.floor(ms / 1000);
}

/** The epoch seconds a call started at `start` may arrive in: within the margin either way. */
function arrivalSeconds(start: number): number[] {
  const first = secondOf(start - WINDOW_SAFETY_MS);
  const last = secondOf(start + WINDOW_SAFETY_MS);
  return first === last ? [first] : [first, last];
}
