// A client-side limiter that spaces requests 1/perSecond apart. The clock is injectable so that tests assert on the
// schedule, not on wall time.

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export class RateLimiter {
  private next = 0;

  constructor(private perSecond: number | undefined, private readonly clock: Clock = realClock) {}

  setRate(perSecond: number | undefined): void {
    this.perSecond = perSecond && perSecond > 0 ? perSecond : undefined;
  }

  get rate(): number | undefined {
    return this.perSecond;
  }

  /** Reserves the next slot and answers how long to wait for it (ms). */
  reserve(): number {
    if (!this.perSecond) return 0;
    const interval = 1000 / this.perSecond;
    const now = this.clock.now();
    // No burst: the service counts in one-second windows, so spacing evenly never trips it.
    const earliest = Math.max(this.next, now);
    this.next = earliest + interval;
    return Math.max(0, earliest - now);
  }

  async acquire(): Promise<void> {
    const wait = this.reserve();
    if (wait > 0) await this.clock.sleep(wait);
  }
}
