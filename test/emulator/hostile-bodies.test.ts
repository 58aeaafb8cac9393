// Bodies built to break the server: keys that name Object.prototype's members, and
// nesting deep enough to overflow a recursive serializer. Each is either refused with a
// 400 before anything changes, or stored and answered exactly as sent, the same before
// and after a restart. (Issue 11, finding 9.)
import { afterEach, describe, expect, it } from "vitest";
import { emulatorPool, type TestEmulator } from "./helpers";

const pool = emulatorPool();
afterEach(pool.closeAll);

/** Restarts `t` on its data directory; the pool stops the new one. */
async function restart(t: TestEmulator): Promise<TestEmulator> {
  await t.close();
  return pool.start({ dataDir: t.dir });
}

/** Raw JSON text, because a JS object literal cannot hold an own "__proto__" key. */
function raw(text: string): { raw: string } {
  return { raw: text };
}

function nested(depth: number, open: string, close: string, inner: string): string {
  return open.repeat(depth) + inner + close.repeat(depth);
}

describe("keys that name Object.prototype's members", () => {
  it("are not capability keys: 400 naming the key, for roles and tokens", async () => {
    const t = await pool.start();
    for (const key of ["__proto__", "constructor", "toString", "hasOwnProperty"]) {
      for (const path of ["/v2/rbac/roles", "/v2/tokens"]) {
        const org = await t.call("POST", path, raw(`{"name":"r","orgCapabilities":{"${key}":["read"]}}`));
        expect(org.status, `${path} ${key}: ${JSON.stringify(org.body)}`).toBe(400);
        expect(org.body.message).toContain(`orgCapabilities.${key}`);
        const inDataset = await t.call("POST", path, raw(`{"name":"r","datasetCapabilities":{"ds":{"${key}":["read"]}}}`));
        expect(inDataset.status, `${path} ${key}: ${JSON.stringify(inDataset.body)}`).toBe(400);
        expect(inDataset.body.message).toContain(`datasetCapabilities.ds.${key}`);
      }
    }
    expect(await t.ok("GET", "/v2/rbac/roles")).toEqual([]);
  });

  it("are ordinary dataset names in capability maps: answered and kept as sent", async () => {
    let t = await pool.start();
    const body = `{"name":"r","datasetCapabilities":{"__proto__":{"query":["read"]},"constructor":{"ingest":["create"]}},"viewCapabilities":{"__proto__":{"query":["read"]}}}`;
    const created = await t.call("POST", "/v2/rbac/roles", raw(body));
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const sent = JSON.parse(body) as Record<string, unknown>;
    expect(created.body.datasetCapabilities).toEqual(sent.datasetCapabilities);
    expect(Object.keys(created.body.datasetCapabilities)).toEqual(["__proto__", "constructor"]);
    expect(created.body.viewCapabilities).toEqual(sent.viewCapabilities);
    const before = await t.ok("GET", `/v2/rbac/roles/${created.body.id}`);
    expect(before).toEqual(created.body);
    t = await restart(t);
    expect(await t.ok("GET", `/v2/rbac/roles/${created.body.id}`)).toEqual(before);
  });

  it("grant on a dataset named constructor only through an own entry", async () => {
    const t = await pool.start();
    await t.ok("POST", "/v2/datasets", { name: "constructor" });
    await t.ok("POST", "/v1/datasets/constructor/ingest", [{ n: 1 }]);
    const granted = (await t.call("POST", "/v2/tokens", raw(`{"name":"g","datasetCapabilities":{"constructor":{"query":["read"]}}}`))).body.token;
    expect((await t.call("POST", "/v1/datasets/constructor/query", { token: granted, body: {} })).status).toBe(200);
    const other = (await t.ok("POST", "/v2/tokens", { name: "o", datasetCapabilities: { other: { query: ["read"] } } })).token;
    expect((await t.call("POST", "/v1/datasets/constructor/query", { token: other, body: {} })).status).toBe(403);
  });

  it("are not notifier channels", async () => {
    const t = await pool.start();
    for (const key of ["__proto__", "constructor"]) {
      const reply = await t.call("POST", "/v2/notifiers", raw(`{"name":"n","properties":{"webhook":{"url":"https://x.example.com"},"${key}":{}}}`));
      expect(reply.status, JSON.stringify(reply.body)).toBe(400);
      expect(reply.body.message).toContain(`properties.${key}`);
    }
  });

  it("in headers and secretHeaders are kept, redacted, and the same after a restart", async () => {
    let t = await pool.start();
    const create = `{"name":"n","properties":{"customWebhook":{"url":"https://x.example.com","headers":{"__proto__":"h1","constructor":"h2"},"secretHeaders":{"__proto__":"s1","constructor":"s2"}}}}`;
    const created = await t.call("POST", "/v2/notifiers", raw(create));
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const hook = created.body.properties.customWebhook;
    expect(hook.headers).toEqual(JSON.parse(`{"__proto__":"h1","constructor":"h2"}`));
    expect(hook.secretHeaders).toEqual(JSON.parse(`{"__proto__":"","constructor":""}`));
    // A read-modify-write sends the redacted "" back, plus a new key named like a prototype member.
    const update = `{"name":"n","properties":{"customWebhook":{"url":"https://x.example.com","secretHeaders":{"__proto__":"","constructor":"","toString":"","valueOf":"v"}}}}`;
    const updated = await t.call("PUT", `/v2/notifiers/${created.body.id}`, raw(update));
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(Object.keys(updated.body.properties.customWebhook.secretHeaders).sort()).toEqual(["__proto__", "constructor", "toString", "valueOf"]);
    const before = await t.ok("GET", `/v2/notifiers/${created.body.id}`);
    expect(before).toEqual(updated.body);
    t = await restart(t);
    expect(await t.ok("GET", `/v2/notifiers/${created.body.id}`)).toEqual(before);
  });

  it("in starred-query metadata and variables are answered as sent, before and after a restart", async () => {
    let t = await pool.start();
    const body = `{"kind":"apl","name":"q","metadata":{"__proto__":{"a":1},"constructor":"c"},"query":{"apl":"x","variables":{"__proto__":"v"}}}`;
    const created = await t.call("POST", "/v2/apl-starred-queries", raw(body));
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.metadata).toEqual(JSON.parse(body).metadata);
    expect(created.body.query.variables).toEqual(JSON.parse(body).query.variables);
    const before = await t.ok("GET", `/v2/apl-starred-queries/${created.body.id}`);
    t = await restart(t);
    expect(await t.ok("GET", `/v2/apl-starred-queries/${created.body.id}`)).toEqual(before);
  });
});

describe("deeply nested bodies", () => {
  it("metadata 10,000 deep is a 400 that stores nothing; the starred-query list keeps working", async () => {
    let t = await pool.start();
    await t.ok("POST", "/v2/apl-starred-queries", { kind: "apl", name: "kept", query: { apl: "x" }, metadata: {} });
    const deep = `{"kind":"apl","name":"deep","query":{"apl":"x"},"metadata":${nested(10_000, '{"a":', "}", "1")}}`;
    const reply = await t.call("POST", "/v2/apl-starred-queries", raw(deep));
    expect(reply.status, JSON.stringify(reply.body)).toBe(400);
    expect(reply.body.message).toMatch(/nest/);
    const list = await t.call("GET", "/v2/apl-starred-queries?who=all");
    expect(list.status).toBe(200);
    expect(list.body.map((q: { name: string }) => q.name)).toEqual(["kept"]);
    t = await restart(t);
    expect((await t.ok("GET", "/v2/apl-starred-queries?who=all")).map((q: { name: string }) => q.name)).toEqual(["kept"]);
  });

  it("an ingest array 100,000 deep is a 400 that creates no field and no event", async () => {
    const t = await pool.start();
    await t.ok("POST", "/v2/datasets", { name: "deep" });
    await t.ok("POST", "/v1/datasets/deep/ingest", [{ n: 1 }]);
    const fields = await t.ok("GET", "/v2/datasets/deep/fields");
    for (const [contentType, text] of [
      ["application/json", `[{"a":${nested(100_000, "[", "]", "1")}}]`],
      ["application/x-ndjson", `{"b":${nested(100_000, "[", "]", "1")}}\n`],
    ] as const) {
      const reply = await t.call("POST", "/v1/datasets/deep/ingest", { raw: text, headers: { "Content-Type": contentType } });
      expect(reply.status, JSON.stringify(reply.body)).toBe(400);
    }
    expect(await t.ok("GET", "/v2/datasets/deep/fields")).toEqual(fields);
    const counted = await t.ok("POST", "/v1/datasets/_apl?format=tabular", { apl: "['deep'] | count" });
    expect(counted.tables[0].columns[0]).toEqual([1]);
  });

  it("an ingest is refused one level past the limit and accepted at it, nested in objects, arrays, or an item that is not an event", async () => {
    const t = await pool.start();
    await t.ok("POST", "/v2/datasets", { name: "edge" });
    // The body's array is level 1 and each event level 2: 98 more levels reach the limit of 100.
    const bodies = (levels: number): string[] => [
      `[{"ok":1},{"a":${nested(levels, '{"b":', "}", "1")}}]`,
      `[{"ok":1},{"a":${nested(levels, "[", "]", "1")}}]`,
      `[{"ok":1},{"a":[{"c":${nested(levels - 2, "[", "]", "1")}}]}]`,
      `[{"ok":1},${nested(levels + 1, "[", "]", "1")}]`,
    ];
    for (const text of bodies(99)) {
      const reply = await t.call("POST", "/v1/datasets/edge/ingest", raw(text));
      expect(reply.status, `${text.slice(0, 60)}: ${JSON.stringify(reply.body)}`).toBe(400);
      expect(reply.body.message).toContain("deeper than 100 levels");
    }
    let counted = await t.ok("POST", "/v1/datasets/_apl?format=tabular", { apl: "['edge'] | count" });
    expect(counted.tables[0].columns[0]).toEqual([0]);
    for (const text of bodies(98)) {
      const reply = await t.call("POST", "/v1/datasets/edge/ingest", raw(text));
      expect(reply.status, `${text.slice(0, 60)}: ${JSON.stringify(reply.body)}`).toBe(200);
    }
    counted = await t.ok("POST", "/v1/datasets/_apl?format=tabular", { apl: "['edge'] | count" });
    // The fourth body's second item is an array, not an event: a failure, not a row.
    expect(counted.tables[0].columns[0]).toEqual([7]);
  });

  it("nesting within the limit is stored and answered exactly", async () => {
    let t = await pool.start();
    const metadata = JSON.parse(nested(60, '{"a":', "}", "[1]")) as unknown;
    const created = await t.ok("POST", "/v2/apl-starred-queries", { kind: "apl", name: "ok", query: { apl: "x" }, metadata });
    expect(created.metadata).toEqual(metadata);
    t = await restart(t);
    expect((await t.ok("GET", `/v2/apl-starred-queries/${created.id}`)).metadata).toEqual(metadata);
  });
});
