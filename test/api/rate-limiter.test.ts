// The limiter's schedule, computed with an injected clock: never more than R starts in
// any one-second window, so N requests span at least N/R seconds of budget.
import { describe, expect, it } from "vitest";
import { RateLimiter } from "../../src/api";
import { fakeClock } from "./helpers";

/** Most starts inside any window [t, t + spanMs) of the schedule. */
function busiestSecond(starts: number[], spanMs = 1000): number {
  let most = 0;
  for (let i = 0; i < starts.length; i++) {
    let j = i;
    while (j < starts.length && starts[j] < starts[i] + spanMs) j++;
    most = Math.max(most, j - i);
  }
  return most;
}

describe("RateLimiter", () => {
  it.each([
    [1, 5],
    [10, 35],
    [10, 40],
    [7, 50],
    [2.5, 12],
  ])("at %d/s keeps %d requests within the limit and spends at least N/R seconds", (rate, n) => {
    const clock = fakeClock();
    const limiter = new RateLimiter(rate, clock);
    const first = clock.now();
    const starts = Array.from({ length: n }, () => limiter.reserve());
    expect(busiestSecond(starts)).toBeLessThanOrEqual(Math.ceil(rate));
    // Over longer spans too: never above the average rate.
    expect(busiestSecond(starts, 4000)).toBeLessThanOrEqual(Math.ceil(rate * 4));
    // The slot after the N-th is the first one not paid for by the N before it: for N a
    // multiple of the per-window count that is at least N/R seconds after the first.
    const perWindow = Number.isInteger(rate) ? rate : 1;
    const paidMs = Math.floor(n / perWindow) * (perWindow / rate) * 1000;
    expect(limiter.reserve() - first).toBeGreaterThanOrEqual(paidMs);
    if (n % perWindow === 0) expect(paidMs).toBeCloseTo((n / rate) * 1000, 6);
    // Ordered: first come, first served.
    expect([...starts].sort((a, b) => a - b)).toEqual(starts);
  });

  it("lets a short burst out at once when the window has room", () => {
    const clock = fakeClock();
    const limiter = new RateLimiter(10, clock);
    const starts = Array.from({ length: 10 }, () => limiter.reserve());
    expect(new Set(starts)).toEqual(new Set([clock.now()]));
    expect(limiter.reserve()).toBeGreaterThanOrEqual(clock.now() + 1000);
  });

  it("does not hold anything without a rate", () => {
    const clock = fakeClock();
    const limiter = new RateLimiter(undefined, clock);
    for (let i = 0; i < 100; i++) expect(limiter.reserve()).toBe(clock.now());
  });

  it("acquire sleeps until the reserved slot on the injected clock", async () => {
    const clock = fakeClock();
    const limiter = new RateLimiter(2, clock);
    const first = clock.now();
    for (let i = 0; i < 6; i++) await limiter.acquire();
    // Six starts at 2/s: the last one is at least two full windows after the first.
    expect(clock.now() - first).toBeGreaterThanOrEqual(2000);
    expect(clock.sleeps.length).toBeGreaterThan(0);
  });

  it("holds every start while paused (a 429's Retry-After)", () => {
    const clock = fakeClock();
    const limiter = new RateLimiter(undefined, clock);
    limiter.pauseUntil(clock.now() + 3000);
    expect(limiter.reserve()).toBe(clock.now() + 3000);
    clock.advance(5000);
    expect(limiter.reserve()).toBe(clock.now());
  });

  it("follows a lowered rate for the slots still to come", () => {
    const clock = fakeClock();
    const limiter = new RateLimiter(100, clock);
    const early = Array.from({ length: 5 }, () => limiter.reserve());
    limiter.setRate(1);
    const late = Array.from({ length: 4 }, () => limiter.reserve());
    expect(busiestSecond(late)).toBe(1);
    expect(late[0]).toBeGreaterThanOrEqual(early[early.length - 1]);
  });
});
