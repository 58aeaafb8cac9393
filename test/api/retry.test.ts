// The client's retry, 429 and timeout mechanics against a scripted server on 127.0.0.1.
// Waits run on an injected clock: asserted by what was slept, never by wall time.
import { describe, expect, it } from "vitest";
import { OdsClient, type RequestEvent } from "../../src/api";
import { apiFailure, drop, fakeClock, json, stubHarness, type Handler } from "./helpers";

const TOKEN = "xapt-retry-test-0c4d2a";
const { setup } = stubHarness(TOKEN);
const failure = apiFailure;

const dataset = { id: "logs", name: "logs", description: "" };

describe("retries of idempotent calls", () => {
  it("retries a GET answered 503 until it succeeds", async () => {
    const { stub, client } = await setup((_r, res, i) => (i < 2 ? json(res, 503, { code: 503, message: "busy" }) : json(res, 200, dataset)));
    await expect(client.getDataset("logs")).resolves.toEqual(dataset);
    expect(stub.seen).toHaveLength(3);
    expect(client.stats()).toMatchObject({ requests: 3, retries: 2, byMethod: { GET: 3 } });
  });

  it("retries a GET whose connection was dropped", async () => {
    const { stub, client } = await setup((_r, res, i) => (i === 0 ? drop(res) : json(res, 200, [dataset])));
    await expect(client.listDatasets()).resolves.toEqual([dataset]);
    expect(stub.seen).toHaveLength(2);
  });

  it("gives up after maxRetries and reports the last answer", async () => {
    const { stub, client } = await setup((_r, res) => json(res, 502, { code: 502, message: "bad gateway" }), { maxRetries: 2 });
    const err = await failure(client.listNotifiers());
    expect(stub.seen).toHaveLength(3);
    expect(err).toMatchObject({ kind: "http", status: 502, code: 502, serviceMessage: "bad gateway", method: "GET", path: "/v2/notifiers" });
    expect(err.requestMayHaveBeenApplied).toBe(false);
  });

  it("retries a PUT whose connection dropped after the write, and says so if it finally fails", async () => {
    const { stub, client } = await setup((_r, res) => drop(res), { maxRetries: 1 });
    const err = await failure(client.updateDataset("logs", { description: "x" }));
    expect(stub.seen.map((r) => r.method)).toEqual(["PUT", "PUT"]);
    expect(err).toMatchObject({ kind: "network", status: 0, requestMayHaveBeenApplied: true });
  });

  it("treats a 404 on a retried DELETE whose first try may have landed as done", async () => {
    const { stub, client } = await setup((_r, res, i) => (i === 0 ? drop(res) : json(res, 404, { code: 404, message: "not found" })));
    await expect(client.deleteNotifier("n1")).resolves.toBeUndefined();
    expect(stub.seen).toHaveLength(2);
  });

  it("still reports a 404 on a DELETE that was never in doubt", async () => {
    const { client } = await setup((_r, res) => json(res, 404, { code: 404, message: "notifier n1 not found" }));
    expect(await failure(client.deleteNotifier("n1"))).toMatchObject({ status: 404, serviceMessage: "notifier n1 not found" });
  });

  it("waits with growing full-jitter backoff between retries", async () => {
    const { client, clock } = await setup((_r, res) => json(res, 500, { code: 500, message: "boom" }), { maxRetries: 4 });
    await failure(client.listRoles());
    expect(clock.sleeps).toHaveLength(4);
    // random() = 0.5: half of each ceiling, which doubles.
    for (let i = 1; i < clock.sleeps.length; i++) expect(clock.sleeps[i]).toBe(clock.sleeps[i - 1] * 2);
  });

  it("stops retrying when the next wait would pass maxRetryWaitMs", async () => {
    const { stub, client } = await setup((_r, res) => json(res, 503, { code: 503, message: "busy" }), { maxRetries: 50, maxRetryWaitMs: 1000 });
    await failure(client.listUsers());
    expect(stub.seen.length).toBeGreaterThan(1);
    expect(stub.seen.length).toBeLessThan(51);
  });

  it("does not retry a 4xx", async () => {
    const { stub, client } = await setup((_r, res) => json(res, 403, { code: 403, message: "missing capability notifiers|read" }));
    const err = await failure(client.listNotifiers());
    expect(stub.seen).toHaveLength(1);
    expect(err).toMatchObject({ kind: "http", status: 403, serviceMessage: "missing capability notifiers|read" });
  });
});

describe("POST is never sent twice once it may have reached the service", () => {
  it("retries a POST answered 503 (nothing was processed) and it succeeds once", async () => {
    let calls = 0;
    const { stub, client } = await setup((_r, res) =>
      ++calls === 1 ? json(res, 503, { code: 503, message: "busy" }) : json(res, 200, { id: "logs", name: "logs" }),
    );
    await expect(client.createDataset({ name: "logs" })).resolves.toMatchObject({ name: "logs" });
    expect(stub.seen).toHaveLength(2);
  });

  it("does not retry a POST answered 500, and says it may have been applied", async () => {
    const { stub, client } = await setup((_r, res) => json(res, 500, { code: 500, message: "internal" }));
    const err = await failure(client.createRole({ name: "sre" }));
    expect(stub.seen).toHaveLength(1);
    expect(err.requestMayHaveBeenApplied).toBe(true);
  });

  it("does not retry a POST whose connection dropped after the write", async () => {
    const { stub, client } = await setup((_r, res) => drop(res));
    const err = await failure(client.createNotifier({ name: "n", properties: { webhook: { url: "https://hooks.example/x" } } }));
    expect(stub.seen).toHaveLength(1);
    expect(err).toMatchObject({ kind: "network", status: 0, method: "POST", path: "/v2/notifiers", requestMayHaveBeenApplied: true });
  });

  it("fails a call that never connected at once, and says nothing was applied", async () => {
    const { stub } = await setup((_r, res) => json(res, 200, {}));
    const url = stub.url;
    await stub.close(); // the port is now closed: connections are refused
    const clock = fakeClock();
    const events: RequestEvent[] = [];
    const c = new OdsClient({ url, token: TOKEN, maxRetries: 2, onRequest: (e) => events.push(e) }, { clock, random: () => 0.5 });
    const err = await failure(c.createDataset({ name: "logs" }));
    await c.close();
    expect(err).toMatchObject({ kind: "network", status: 0, requestMayHaveBeenApplied: false });
    expect(err.message).toContain("ECONNREFUSED");
    expect(events.map((e) => e.attempt)).toEqual([1]);
    expect(clock.sleeps).toEqual([]);
  });
});

describe("429", () => {
  it("waits for Retry-After, for any method, then succeeds", async () => {
    const { stub, client, clock } = await setup((_r, res, i) =>
      i === 0 ? json(res, 429, { code: 429, message: "rate limit exceeded" }, { "retry-after": "2" }) : json(res, 200, dataset),
    );
    await expect(client.createDataset({ name: "logs" })).resolves.toEqual(dataset);
    expect(stub.seen).toHaveLength(2);
    expect(clock.sleeps).toContain(2000);
    expect(client.stats()).toMatchObject({ rateLimited429: 1, retries: 1 });
  });

  it("waits until X-RateLimit-Reset when there is no Retry-After", async () => {
    const { client, clock } = await setup((_r, res, i) => {
      const reset = String(Math.floor(clock.now() / 1000) + 3);
      if (i === 0) json(res, 429, { code: 429, message: "rate limit exceeded" }, { "x-ratelimit-reset": reset });
      else json(res, 200, []);
    });
    const before = clock.now();
    await client.listTokens();
    expect(clock.now() - before).toBeGreaterThanOrEqual(2000);
    expect(clock.now() - before).toBeLessThanOrEqual(3000);
  });

  it("is bounded in count", async () => {
    const { stub, client } = await setup((_r, res) => json(res, 429, { code: 429, message: "rate limit exceeded" }, { "retry-after": "1" }), { maxRetries: 2 });
    const err = await failure(client.listTokens());
    expect(stub.seen).toHaveLength(3);
    expect(err).toMatchObject({ status: 429, serviceMessage: "rate limit exceeded", requestMayHaveBeenApplied: false });
    expect(client.stats().rateLimited429).toBe(3);
  });

  it("is bounded in time: a Retry-After beyond maxRetryWaitMs fails at once", async () => {
    const { stub, client, clock } = await setup((_r, res) => json(res, 429, { code: 429, message: "rate limit exceeded" }, { "retry-after": "120" }));
    await failure(client.listTokens());
    expect(stub.seen).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
  });

  it("holds the calls that follow, even when the call that got the 429 gave up", async () => {
    const { stub, client, clock } = await setup(
      (_r, res, i) => (i === 0 ? json(res, 429, { code: 429, message: "rate limit exceeded" }, { "retry-after": "5" }) : json(res, 200, [])),
      { maxRetryWaitMs: 1000 },
    );
    expect(await failure(client.listRoles())).toMatchObject({ status: 429 });
    expect(clock.sleeps).toEqual([]);
    await client.listUsers();
    expect(clock.sleeps).toEqual([1000]); // held for the wait, bounded by maxRetryWaitMs
    expect(stub.seen).toHaveLength(2);
  });
});

describe("rate limit adaptation", () => {
  it("follows X-RateLimit-Limit, but never above a configured ceiling", async () => {
    const limitHeader = (limit: string): Handler => (_r, res) => json(res, 200, [], { "x-ratelimit-limit": limit, "x-ratelimit-remaining": "5" });
    const a = await setup(limitHeader("7"));
    await a.client.listRoles();
    expect(a.client.rateLimitPerSecond).toBe(7);
    const b = await setup(limitHeader("7"), { rateLimitPerSecond: 3 });
    await b.client.listRoles();
    expect(b.client.rateLimitPerSecond).toBe(3);
  });

  it("pauses when the service says the window is spent", async () => {
    const { client, clock } = await setup((_r, res) =>
      json(res, 200, [], { "x-ratelimit-limit": "100", "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(Math.floor(clock.now() / 1000) + 1) }),
    );
    await client.listRoles();
    const t = clock.now();
    await client.listRoles();
    expect(clock.now()).toBeGreaterThan(t);
  });

  it("once the answers' X-RateLimit-Reset matches its clock, uses the service's whole second", async () => {
    const { client, clock } = await setup((_r, res) =>
      json(res, 200, [], { "x-ratelimit-limit": "5", "x-ratelimit-remaining": "5", "x-ratelimit-reset": String(Math.floor(clock.now() / 1000) + 1) }),
    );
    clock.advance(900); // 900 ms into a second
    const t0 = clock.now();
    for (let i = 0; i < 6; i++) await client.listRoles();
    // The sixth call goes out in the next epoch second, not a whole window after the first.
    expect(clock.now() - t0).toBeGreaterThanOrEqual(100);
    expect(clock.now() - t0).toBeLessThan(1000);
  });

  it("keeps the sliding window when the answers' X-RateLimit-Reset does not match its clock", async () => {
    const { client, clock } = await setup((_r, res) =>
      json(res, 200, [], { "x-ratelimit-limit": "5", "x-ratelimit-remaining": "5", "x-ratelimit-reset": String(Math.floor(clock.now() / 1000) + 30) }),
    );
    clock.advance(900);
    const t0 = clock.now();
    for (let i = 0; i < 6; i++) await client.listRoles();
    expect(clock.now() - t0).toBeGreaterThanOrEqual(1000);
  });

  it("useOrganizationRateLimit reads the org record once and keeps under its limit", async () => {
    const org = { id: "org-1", name: "Org", license: { apiRateLimitPerSecond: 4 } };
    const { stub, client } = await setup((r, res) => json(res, 200, r.url === "/v2/orgs" ? [org] : org));
    expect(await client.useOrganizationRateLimit()).toBe(4);
    expect(await client.useOrganizationRateLimit()).toBe(4);
    expect(stub.seen.map((r) => r.url)).toEqual(["/v2/orgs"]);
  });

  it("reads /v2/orgs/{orgId} when an org id is configured", async () => {
    const { stub, client } = await setup((_r, res) => json(res, 200, { id: "org-9", name: "Org", license: { apiRateLimitPerSecond: 9 } }), { orgId: "org-9" });
    expect(await client.useOrganizationRateLimit()).toBe(9);
    expect(stub.seen[0].url).toBe("/v2/orgs/org-9");
  });
});

describe("timeout", () => {
  it("gives up on an attempt that gets no answer, and retries a GET", async () => {
    const { stub, client } = await setup(() => undefined /* never answers */, { timeoutMs: 150, maxRetries: 1 });
    const err = await failure(client.getRole("r1"));
    expect(err).toMatchObject({ kind: "timeout", status: 0, method: "GET", path: "/v2/rbac/roles/r1", requestMayHaveBeenApplied: false });
    expect(stub.seen).toHaveLength(2);
  });

  it("does not retry a POST that timed out, and says it may have been applied", async () => {
    const { stub, client } = await setup(() => undefined, { timeoutMs: 150, maxRetries: 3 });
    const err = await failure(client.createToken({ name: "ci" }));
    expect(err).toMatchObject({ kind: "timeout", requestMayHaveBeenApplied: true });
    expect(stub.seen).toHaveLength(1);
  });
});

describe("requests on the wire", () => {
  it("encodes path segments and query parameters, and reports attempts to onRequest", async () => {
    const events: RequestEvent[] = [];
    const { stub, client } = await setup((r, res, i) => (i === 0 ? json(res, 503, {}) : json(res, 200, r.method === "GET" ? [] : {})), {
      onRequest: (e) => events.push(e),
    });
    await client.listStarredQueries({ dataset: "web logs", who: "all", limit: 10, offset: 20 });
    await client.getDatasetField("web", "a/b");
    expect(stub.seen[0].url).toBe("/v2/apl-starred-queries?dataset=web%20logs&who=all&limit=10&offset=20");
    expect(stub.seen[2].url).toBe("/v2/datasets/web/fields/a%2Fb");
    expect(events.map((e) => [e.method, e.status, e.attempt])).toEqual([
      ["GET", 503, 1],
      ["GET", 200, 2],
      ["GET", 200, 1],
    ]);
    expect(JSON.stringify(events)).not.toContain(TOKEN);
  });

  it("sends the APL format and save options as query parameters", async () => {
    const { stub, client } = await setup((_r, res) => json(res, 200, { format: "tabular", status: {}, tables: [], datasetNames: [], fieldsMetaMap: {} }));
    await client.queryApl({ apl: "['logs'] | count" }, { format: "tabular", saveAsKind: "apl", datasetName: "logs" });
    expect(stub.seen[0].url).toBe("/v1/datasets/_apl?format=tabular&saveAsKind=apl&dataset_name=logs");
    expect(JSON.parse(stub.seen[0].body)).toEqual({ apl: "['logs'] | count" });
  });

  it("pages listAllStarredQueries by 1000 until a short page", async () => {
    const { stub, client } = await setup((r, res) => {
      const offset = Number(new URL(r.url, "http://x").searchParams.get("offset"));
      const size = offset < 2000 ? 1000 : 3;
      json(res, 200, Array.from({ length: size }, (_, i) => ({ id: `q${offset + i}`, kind: "apl", name: "q", who: "team", metadata: {}, query: { apl: "x" } })));
    });
    const all = await client.listAllStarredQueries({ who: "all" });
    expect(all).toHaveLength(2003);
    expect(stub.seen.map((r) => r.url)).toEqual([
      "/v2/apl-starred-queries?who=all&limit=1000&offset=0",
      "/v2/apl-starred-queries?who=all&limit=1000&offset=1000",
      "/v2/apl-starred-queries?who=all&limit=1000&offset=2000",
    ]);
  });

  it("answers undefined for 204 and fails clearly on a 2xx that is not JSON", async () => {
    const { client } = await setup((r, res) => {
      if (r.method === "DELETE") {
        res.writeHead(204);
        res.end();
      } else {
        res.writeHead(200, { "content-type": "text/html" });
        res.end("<html>proxy</html>");
      }
    });
    await expect(client.deleteRole("r1")).resolves.toBeUndefined();
    const err = await failure(client.createRole({ name: "x" }));
    expect(err).toMatchObject({ kind: "http", status: 200, requestMayHaveBeenApplied: true });
  });
});
