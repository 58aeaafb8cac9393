// The organization's request budget: a fixed one-second window. Every answer reports
// the budget (X-RateLimit-*), so a client can pace itself before it ever sees a 429.
// Only authenticated requests spend it (docs/service-contract.md, section 7): a
// stranger without a valid token must not be able to lock the organization out.

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

  /** Spends one request of the budget. */
  take(now: number = Date.now()): RateDecision {
    this.roll(now);
    this.used += 1;
    return this.decision(this.used > this.limitPerSecond());
  }

  /** The budget as it stands, without spending any (for answers that must not count). */
  peek(now: number = Date.now()): RateDecision {
    this.roll(now);
    return this.decision(false);
  }

  /** What the headers show without spending budget (for faults answered before counting). */
  exhausted(now: number = Date.now()): RateDecision {
    return { ...this.peek(now), remaining: 0, limited: true };
  }

  private roll(now: number): void {
    const window = Math.floor(now / 1000);
    if (window !== this.window) {
      this.window = window;
      this.used = 0;
    }
  }

  private decision(limited: boolean): RateDecision {
    const limit = this.limitPerSecond();
    return { limit, remaining: Math.max(0, limit - this.used), reset: this.window + 1, limited, retryAfter: 1 };
  }
}
