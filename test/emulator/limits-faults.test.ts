// Rate-limit headers and 429s, injected faults, and the /_emulator test hooks.
import { afterEach, describe, expect, it } from "vitest";
import { FaultSpecError, parseFaultSpec, startEmulator } from "../../src/emulator";
import { call, emulatorPool, sampleNotifier, tempDir } from "./helpers";

const pool = emulatorPool();
const emulator = pool.start;
afterEach(pool.closeAll);

describe("rate limits", () => {
  it("every answer carries the X-RateLimit headers, successes and errors alike", async () => {
    const t = await emulator({ rateLimitPerSecond: 1000 });
    const replies = [
      await t.call("GET", "/v2/user"),
      await t.call("GET", "/v2/user", { token: null }),
      await t.call("GET", "/v2/notifiers/missing"),
      await t.call("POST", "/v2/notifiers", { body: {} }),
      await t.call("GET", "/v2/nowhere"),
    ];
    expect(replies.map((r) => r.status)).toEqual([200, 401, 404, 400, 404]);
    const nowSeconds = Date.now() / 1000;
    for (const reply of replies) {
      expect(reply.headers.get("x-ratelimit-scope")).toBe("organization");
      expect(reply.headers.get("x-ratelimit-limit")).toBe("1000");
      // An authenticated answer spent one request of its window; the 401 spent none, so
      // in a fresh window (a slow machine crosses a second) it may show the whole budget.
      const remaining = Number(reply.headers.get("x-ratelimit-remaining"));
      if (reply.status === 401) expect(remaining).toBeLessThanOrEqual(1000);
      else expect(remaining).toBeLessThan(1000);
      const reset = Number(reply.headers.get("x-ratelimit-reset"));
      expect(reset).toBeGreaterThan(nowSeconds - 5);
      expect(reset).toBeLessThan(nowSeconds + 5);
    }
  });

  it("defaults to the license's apiRateLimitPerSecond", async () => {
    const dir = tempDir();
    const em = await startEmulator({ port: 0, dataDir: dir });
    try {
      const reply = await call(em.url, em.adminToken, "GET", "/v2/user");
      const org = await call(em.url, em.adminToken, "GET", `/v2/orgs/${em.orgId}`);
      expect(reply.headers.get("x-ratelimit-limit")).toBe(String(org.body.license.apiRateLimitPerSecond));
    } finally {
      await em.close();
    }
  });

  it("answers 429 with Retry-After above the limit", async () => {
    const t = await emulator({ rateLimitPerSecond: 5 });
    const replies = await Promise.all(Array.from({ length: 20 }, () => t.call("GET", "/v2/user")));
    const limited = replies.filter((r) => r.status === 429);
    // 20 requests can span at most two one-second windows: at most 10 pass.
    expect(replies.filter((r) => r.status === 200).length).toBeLessThanOrEqual(10);
    expect(limited.length).toBeGreaterThanOrEqual(10);
    expect(limited[0]!.body).toEqual({ code: 429, message: "rate limit exceeded" });
    expect(Number(limited[0]!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(limited[0]!.headers.get("x-ratelimit-remaining")).toBe("0");
  });
});

describe("faults", () => {
  it("validates the spec with a message naming the bad part", () => {
    expect(parseFaultSpec("latency=20ms,error5xx=0.1,burst429=5/50,dropAfterWrite=0.1,seed=7")).toEqual({
      latencyMs: 20,
      error5xx: 0.1,
      burst429: { count: 5, every: 50 },
      dropAfterWrite: 0.1,
      seed: 7,
    });
    expect(parseFaultSpec("latency=10-50ms")).toEqual({ latencyMs: 10, latencyMaxMs: 50 });
    const bad: [string, string][] = [
      ["lag=20ms", "unknown fault \"lag\""],
      ["latency=20", "latency"],
      ["error5xx=1.5", "error5xx"],
      ["burst429=5", "burst429"],
      ["burst429=6/5", "burst429"],
      ["dropAfterWrite=-0.1", "dropAfterWrite"],
      ["seed=x", "seed"],
      ["error5xx", "key=value"],
      ["seed=1,seed=2", "twice"],
    ];
    for (const [spec, names] of bad) {
      expect(() => parseFaultSpec(spec), spec).toThrow(FaultSpecError);
      expect(() => parseFaultSpec(spec), spec).toThrow(names);
    }
  });

  it("refuses to start with a bad spec, and setFaults refuses one too", async () => {
    await expect(startEmulator({ port: 0, dataDir: tempDir(), faults: "error5xx=2" })).rejects.toThrow(FaultSpecError);
    const t = await emulator();
    expect(() => t.em.setFaults("burst429=0/0")).toThrow(FaultSpecError);
    const reply = await call(t.em.url, t.em.adminToken, "PUT", "/_emulator/faults", { body: { spec: "nonsense=1" } });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toContain("nonsense");
  });

  it("latency delays every answer", async () => {
    const t = await emulator({ faults: "latency=200ms" });
    const started = performance.now();
    expect((await t.call("GET", "/v2/user")).status).toBe(200);
    // A lower bound only: a timer never fires much before its delay.
    expect(performance.now() - started).toBeGreaterThanOrEqual(150);
  });

  it("error5xx answers 503 before doing anything", async () => {
    const t = await emulator({ faults: "error5xx=1" });
    const reply = await t.call("POST", "/v2/notifiers", { body: sampleNotifier });
    expect(reply.status).toBe(503);
    expect(reply.body.code).toBe(503);
    expect(reply.headers.get("x-ratelimit-limit")).not.toBeNull();
    t.em.setFaults(undefined);
    expect(await t.ok("GET", "/v2/notifiers")).toEqual([]);
  });

  it("error5xx with a seed draws the same faults on every run", async () => {
    const statuses = async (): Promise<number[]> => {
      const t = await emulator({ faults: "error5xx=0.5,seed=42" });
      const out: number[] = [];
      for (let i = 0; i < 24; i++) out.push((await t.call("GET", "/v2/user")).status);
      return out;
    };
    const first = await statuses();
    expect(first).toContain(503);
    expect(first).toContain(200);
    expect(await statuses()).toEqual(first);
  });

  it("burst429 answers count consecutive 429s at the end of every window of requests", async () => {
    const t = await emulator({ faults: "burst429=2/5" });
    const out: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 10; i++) {
      const reply = await t.call("GET", "/v2/user");
      out.push(reply.status);
      if (reply.status === 429) retryAfter = reply.headers.get("retry-after");
    }
    expect(out).toEqual([200, 200, 200, 429, 429, 200, 200, 200, 429, 429]);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  });

  it("dropAfterWrite applies the write, then drops the connection without an answer", async () => {
    const t = await emulator({ faults: "dropAfterWrite=1" });
    await expect(t.call("POST", "/v2/notifiers", { body: sampleNotifier })).rejects.toThrow();
    // Reads are not writes: they are answered.
    const listed = await t.ok("GET", "/v2/notifiers");
    expect(listed.map((n: { name: string }) => n.name)).toEqual([sampleNotifier.name]);
    const log = t.em.requests();
    expect(log.find((r) => r.method === "POST")?.status).toBe(0);
  });

  it("faults can be set and cleared over HTTP with the admin token only", async () => {
    const t = await emulator();
    expect((await call(t.em.url, "wrong", "PUT", "/_emulator/faults", { body: { spec: "error5xx=1" } })).status).toBe(401);
    expect((await call(t.em.url, t.em.adminToken, "PUT", "/_emulator/faults", { body: { spec: "error5xx=1" } })).status).toBe(200);
    expect((await t.call("GET", "/v2/user")).status).toBe(503);
    expect((await call(t.em.url, t.em.adminToken, "PUT", "/_emulator/faults", { body: {} })).status).toBe(200);
    expect((await t.call("GET", "/v2/user")).status).toBe(200);
  });
});

describe("request log", () => {
  it("records method, path, query and status, excluding /_emulator itself", async () => {
    const t = await emulator();
    await t.call("GET", "/v2/apl-starred-queries?limit=5");
    await t.call("GET", "/v2/notifiers/nope");
    const viaHttp = await call(t.em.url, t.em.adminToken, "GET", "/_emulator/requests");
    expect(viaHttp.status).toBe(200);
    expect(viaHttp.body).toEqual(t.em.requests());
    expect(viaHttp.body.map((r: { method: string; path: string; query: string; status: number }) => [r.method, r.path, r.query, r.status])).toEqual([
      ["GET", "/v2/apl-starred-queries", "limit=5", 200],
      ["GET", "/v2/notifiers/nope", "", 404],
    ]);
    expect(Number.isNaN(Date.parse(viaHttp.body[0].at))).toBe(false);
    expect((await call(t.em.url, "not-admin", "GET", "/_emulator/requests")).status).toBe(401);
    expect((await call(t.em.url, t.em.adminToken, "DELETE", "/_emulator/requests")).status).toBe(204);
    expect(t.em.requests()).toEqual([]);
    await t.call("GET", "/v2/user");
    t.em.resetRequests();
    expect(t.em.requests()).toEqual([]);
  });
});
