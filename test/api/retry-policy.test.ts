// Which failures are tried again and after how long, without a network.
import { describe, expect, it } from "vitest";
import { backoffMs, mayHaveBeenApplied, retryAfterMs, retryDelayMs, type Method } from "../../src/api";

const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);
const answered = (status: number, headers: Record<string, string> = {}) => ({ answered: true as const, status, headers });
const noAnswer = (sent: boolean) => ({ answered: false as const, sent });

describe("backoffMs", () => {
  it("is full jitter under an exponentially growing, capped ceiling", () => {
    expect(backoffMs(1, () => 0)).toBe(0);
    const top = (retry: number): number => backoffMs(retry, () => 0.999999);
    expect(top(2)).toBeGreaterThan(top(1));
    expect(top(3)).toBeGreaterThan(top(2));
    expect(top(30)).toBe(top(40)); // capped
    expect(top(30)).toBeLessThanOrEqual(5000);
  });
});

describe("retryAfterMs", () => {
  it("reads Retry-After seconds first", () => {
    expect(retryAfterMs({ "retry-after": "3", "x-ratelimit-reset": String(NOW / 1000 + 60) }, NOW)).toBe(3000);
  });
  it("reads a Retry-After date", () => {
    expect(retryAfterMs({ "retry-after": new Date(NOW + 4000).toUTCString() }, NOW)).toBe(4000);
  });
  it("falls back to X-RateLimit-Reset (epoch seconds)", () => {
    expect(retryAfterMs({ "x-ratelimit-reset": String(NOW / 1000 + 2) }, NOW)).toBe(2000);
  });
  it("waits a little even when the reset is already past, and a second when told nothing", () => {
    expect(retryAfterMs({ "x-ratelimit-reset": String(NOW / 1000 - 10) }, NOW)).toBeGreaterThan(0);
    expect(retryAfterMs({}, NOW)).toBe(1000);
  });
});

describe("retryDelayMs", () => {
  const retried = (method: Method, outcome: Parameters<typeof retryDelayMs>[1]): boolean =>
    retryDelayMs(method, outcome, 1, NOW, () => 0.5) !== undefined;

  it.each(["GET", "POST", "PUT", "DELETE"] as Method[])("does not retry %s when a retry cannot change the outcome (a refused certificate)", (method) => {
    expect(retried(method, { answered: false, sent: false, final: true })).toBe(false);
  });

  it.each(["GET", "POST", "PUT", "DELETE"] as Method[])("does not retry %s that never connected (nobody listens at that address)", (method) => {
    expect(retried(method, { answered: false, sent: false, final: false })).toBe(false);
  });

  it.each(["GET", "PUT", "DELETE"] as Method[])("retries %s on 5xx and on a lost connection", (method) => {
    expect(retried(method, answered(500))).toBe(true);
    expect(retried(method, answered(503))).toBe(true);
    expect(retried(method, noAnswer(true))).toBe(true);
  });

  it("never retries a POST that may have been sent, even on a 5xx answer", () => {
    expect(retried("POST", answered(500))).toBe(false);
    expect(retried("POST", answered(502))).toBe(false);
    expect(retried("POST", noAnswer(true))).toBe(false);
  });

  it("retries a POST answered 503: the service says it processed nothing", () => {
    expect(retried("POST", answered(503))).toBe(true);
  });

  it("waits out a 429 for any method", () => {
    expect(retryDelayMs("POST", answered(429, { "retry-after": "2" }), 1, NOW)).toBe(2000);
    expect(retryDelayMs("GET", answered(429, { "retry-after": "1" }), 3, NOW)).toBe(1000);
  });

  it("does not retry client errors", () => {
    for (const status of [400, 401, 403, 404, 409]) expect(retried("GET", answered(status))).toBe(false);
  });
});

describe("mayHaveBeenApplied", () => {
  it("is true for a write with an unknown outcome only", () => {
    expect(mayHaveBeenApplied("POST", noAnswer(true))).toBe(true);
    expect(mayHaveBeenApplied("DELETE", noAnswer(true))).toBe(true);
    expect(mayHaveBeenApplied("POST", noAnswer(false))).toBe(false);
    expect(mayHaveBeenApplied("GET", noAnswer(true))).toBe(false);
    expect(mayHaveBeenApplied("POST", answered(500))).toBe(true);
    expect(mayHaveBeenApplied("POST", answered(503))).toBe(false);
    expect(mayHaveBeenApplied("PUT", answered(400))).toBe(false);
  });
});
