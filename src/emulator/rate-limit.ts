// The organization's request budget: a fixed one-second window. Every answer reports
// the budget (X-RateLimit-*), so a client can pace itself before it ever sees a 429.

export interface RateDecision {
  limit: number;
  remaining: number;
  /** Epoch seconds when the window resets. */
  reset: number;
  limited: boolean;
  /** Seconds to wait, for Retry-After. */
  retryAfter: number;
}

export class RateLimiter {
  private window = -1;
  private used = 0;

  constructor(private readonly limitPerSecond: () => number) {}

  take(now: number = Date.now()): RateDecision {
    const window = Math.floor(now / 1000);
    if (window !== this.window) {
      this.window = window;
      this.used = 0;
    }
    this.used += 1;
    const limit = this.limitPerSecond();
    return {
      limit,
      remaining: Math.max(0, limit - this.used),
      reset: window + 1,
      limited: this.used > limit,
      retryAfter: 1,
    };
  }

  /** What the headers show without spending budget (for faults answered before counting). */
  exhausted(now: number = Date.now()): RateDecision {
    const window = Math.floor(now / 1000);
    return { limit: this.limitPerSecond(), remaining: 0, reset: window + 1, limited: true, retryAfter: 1 };
  }
}
