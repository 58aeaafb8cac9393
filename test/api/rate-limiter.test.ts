// The limiter's schedule, computed with an injected clock: never more than R starts in
// any one-second window, so N requests span at least N/R seconds of budget.
import { describe, expect, it } from "vitest";
import { RateLimiter, WINDOW_SAFETY_MS } from "../../src/api";
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

  describe("counting per epoch second once the service's Reset shows its seconds are ours", () => {
    /** Most arrivals in one epoch second, for every latency or clock offset within the margin. */
    function busiestEpochSecond(starts: number[]): number {
      let most = 0;
      for (let shift = -WINDOW_SAFETY_MS; shift <= WINDOW_SAFETY_MS; shift += 5) {
        const perSecond = new Map<number, number>();
        for (const s of starts) {
          const sec = Math.floor((s + shift) / 1000);
          perSecond.set(sec, (perSecond.get(sec) ?? 0) + 1);
        }
        most = Math.max(most, ...perSecond.values());
      }
      return most;
    }

    function aligned(rate: number) {
      const clock = fakeClock(Date.UTC(2026, 0, 1) + 300); // 300 ms into a second
      const limiter = new RateLimiter(rate, clock);
      // A call sent now and answered 10 ms later, counted in this second: Reset is the next one.
      limiter.observeServiceWindow(Math.floor(clock.now() / 1000) + 1, clock.now(), clock.now() + 10);
      return { clock, limiter };
    }

    it("spends the whole budget: R starts in every second, never more in any second an arrival can fall in", () => {
      const { clock, limiter } = aligned(20);
      expect(limiter.aligned).toBe(true);
      const first = clock.now();
      const starts = Array.from({ length: 200 }, () => limiter.reserve());
      expect(busiestEpochSecond(starts)).toBeLessThanOrEqual(20);
      expect([...starts].sort((a, b) => a - b)).toEqual(starts);
      // 200 starts at 20/s: the last one within the 10th second from the first, where the
      // sliding window (one margin per window) would need 9 x 1050 ms after the first 20.
      expect(starts[199] - first).toBeLessThan(9 * 1000 + 2 * WINDOW_SAFETY_MS);
      expect(starts[199] - first).toBeGreaterThanOrEqual(9 * 1000 - 300);
    });

    it("goes back to the sliding window for good when an answer's Reset does not fit our clock", () => {
      const { clock, limiter } = aligned(10);
      // The service says the call was counted two seconds ahead of us.
      limiter.observeServiceWindow(Math.floor(clock.now() / 1000) + 3, clock.now(), clock.now() + 10);
      limiter.observeServiceWindow(Math.floor(clock.now() / 1000) + 1, clock.now(), clock.now() + 10);
      expect(limiter.aligned).toBe(false);
      const starts = Array.from({ length: 30 }, () => limiter.reserve());
      expect(busiestSecond(starts, 1000 + WINDOW_SAFETY_MS)).toBeLessThanOrEqual(10);
    });

    it("counts the starts made before it switched, so the switch never overspends a second", () => {
      const clock = fakeClock(Date.UTC(2026, 0, 1) + 300);
      const limiter = new RateLimiter(10, clock);
      const before = Array.from({ length: 10 }, () => limiter.reserve());
      limiter.observeServiceWindow(Math.floor(clock.now() / 1000) + 1, clock.now(), clock.now() + 10);
      const after = Array.from({ length: 25 }, () => limiter.reserve());
      expect(busiestEpochSecond([...before, ...after])).toBeLessThanOrEqual(10);
    });

    it("counts a start near the end of a second against the next one too", () => {
      const { clock, limiter } = aligned(10);
      clock.advance(1000 - 300 - 20); // 20 ms before the next second
      const late = Array.from({ length: 10 }, () => limiter.reserve());
      const next = Array.from({ length: 10 }, () => limiter.reserve());
      expect(busiestEpochSecond([...late, ...next])).toBeLessThanOrEqual(10);
    });

    it("does not count per second for a fractional rate", () => {
      const { limiter } = aligned(2.5);
      expect(limiter.aligned).toBe(false);
    });
  });
});
