// What a client reads back from each kind: server-filled defaults, normalized
// timestamps, sorted sets, redacted secrets, and the lifecycle (list, get, replace, delete).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, startTestEmulator, tokenWith, type TestEmulator } from "./helpers";

let t: TestEmulator;
beforeAll(async () => {
  t = await startTestEmulator();
});
afterAll(() => t.close());

describe("notifiers", () => {
  it("fills defaults, normalizes timestamps, sorts e-mails and records the creator", async () => {
    const me = await t.ok("GET", "/v2/user");
    const created = await t.ok("POST", "/v2/notifiers", {
      name: "pager",
      disabledUntil: "2027-01-01T02:00:00+02:00",
      properties: { email: { emails: ["zed@example.com", "amy@example.com"] }, customWebhook: { url: "https://h.example.com/x" } },
      unknownTopLevel: "ignored",
    });
    expect(created.id).toMatch(/\S/);
    expect(created.disabledUntil).toBe("2027-01-01T00:00:00Z");
    expect(created.createdBy).toBe(me.id);
    expect(created.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(created.properties.email.emails).toEqual(["amy@example.com", "zed@example.com"]);
    expect(created.properties.customWebhook).toEqual({ url: "https://h.example.com/x", body: "", headers: {}, secretHeaders: {} });
    expect(created).not.toHaveProperty("unknownTopLevel");
    expect(await t.ok("GET", `/v2/notifiers/${created.id}`)).toEqual(created);
  });

  it("never answers a secret, not even to the write that set it", async () => {
    const body = {
      name: "secrets",
      properties: {
        chatB: { chatBChannel: "#ops", chatBToken: "chatb-SECRET" },
        incidentA: { apiKey: "ia-SECRET", isEU: true },
        incidentB: { routingKey: "rk-SECRET", token: "ib-SECRET" },
        customWebhook: { url: "https://h.example.com", headers: { A: "visible" }, secretHeaders: { Authorization: "Bearer hdr-SECRET" } },
      },
    };
    const created = await t.ok("POST", "/v2/notifiers", body);
    const updated = await t.ok("PUT", `/v2/notifiers/${created.id}`, { ...body, name: "secrets-2" });
    const read = await t.ok("GET", `/v2/notifiers/${created.id}`);
    const listed = (await t.ok("GET", "/v2/notifiers")).find((n: { id: string }) => n.id === created.id);
    for (const answer of [created, updated, read, listed]) {
      expect(JSON.stringify(answer)).not.toContain("SECRET");
      expect(answer.properties.chatB).toEqual({ chatBChannel: "#ops", chatBToken: "" });
      expect(answer.properties.incidentA).toEqual({ apiKey: "", isEU: true });
      expect(answer.properties.incidentB).toEqual({ routingKey: "", token: "" });
      expect(answer.properties.customWebhook.secretHeaders).toEqual({ Authorization: "" });
      expect(answer.properties.customWebhook.headers).toEqual({ A: "visible" });
    }
    expect(read.name).toBe("secrets-2");
    expect(read.createdAt).toBe(created.createdAt);
  });

  it("replaces on PUT and answers 204 then 404 on delete", async () => {
    const created = await t.ok("POST", "/v2/notifiers", { name: "n", properties: { webhook: { url: "http://a.example.com" } } });
    const replaced = await t.ok("PUT", `/v2/notifiers/${created.id}`, { name: "n", properties: { chatC: { chatCUrl: "https://c.example.com" } } });
    expect(Object.keys(replaced.properties)).toEqual(["chatC"]);
    expect((await t.call("DELETE", `/v2/notifiers/${created.id}`)).status).toBe(204);
    const gone = await t.call("GET", `/v2/notifiers/${created.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ code: 404, message: expect.stringContaining(created.id) });
  });
});

describe("roles", () => {
  it("answers the role with id, sorted members and empty defaults", async () => {
    const created = await t.ok("POST", "/v2/rbac/roles", { name: "ops", members: ["u2", "u1", "u2"], orgCapabilities: { notifiers: ["read"] } });
    expect(created).toEqual({
      id: expect.any(String),
      name: "ops",
      description: "",
      members: ["u1", "u2"],
      orgCapabilities: { notifiers: ["read"] },
      datasetCapabilities: {},
      viewCapabilities: {},
    });
    const replaced = await t.ok("PUT", `/v2/rbac/roles/${created.id}`, {
      name: "ops2",
      datasetCapabilities: { logs: { query: ["read"], virtualFields: ["create", "read"] } },
      viewCapabilities: { v1: { query: ["read"] } },
    });
    expect(replaced.members).toEqual([]);
    expect(replaced.orgCapabilities).toEqual({});
    expect(await t.ok("GET", `/v2/rbac/roles/${created.id}`)).toEqual(replaced);
    expect((await t.ok("GET", "/v2/rbac/roles")).map((r: { id: string }) => r.id)).toContain(created.id);
    expect((await t.call("DELETE", `/v2/rbac/roles/${created.id}`)).status).toBe(204);
    expect((await t.call("GET", `/v2/rbac/roles/${created.id}`)).status).toBe(404);
  });
});

describe("tokens", () => {
  it("shows the secret only in the answer to creation", async () => {
    const created = await t.ok("POST", "/v2/tokens", { name: "ci", expiresAt: "2030-06-01T12:00:00.500+00:00", orgCapabilities: { users: ["read"] } });
    expect(created.token).toMatch(/\S{20,}/);
    expect(created.samlAuthenticated).toBe(false);
    expect(created.expiresAt).toBe("2030-06-01T12:00:00.5Z");
    const read = await t.ok("GET", `/v2/tokens/${created.id}`);
    expect(read).not.toHaveProperty("token");
    const { token: _secret, ...rest } = created;
    expect(read).toEqual(rest);
    const listed = await t.ok("GET", "/v2/tokens");
    expect(JSON.stringify(listed)).not.toContain(created.token);
    // The secret works, and the token acts as the user who created it.
    const me = await t.ok("GET", "/v2/user");
    expect((await t.call("GET", "/v2/user", { token: created.token })).body.id).toBe(me.id);
  });

  it("regenerate answers a new token; the old one works until existingTokenExpiresAt", async () => {
    const old = await t.ok("POST", "/v2/tokens", { name: "rot", description: "d", orgCapabilities: { users: ["read"] } });
    const soon = new Date(Date.now() + 1500).toISOString();
    const fresh = await t.ok("POST", `/v2/tokens/${old.id}/regenerate`, {
      existingTokenExpiresAt: soon,
      newTokenExpiresAt: "2031-01-01T00:00:00Z",
      newToken: { description: "rotated" },
    });
    expect(fresh.id).not.toBe(old.id);
    expect(fresh.token).not.toBe(old.token);
    expect(fresh).toMatchObject({ name: "rot", description: "rotated", expiresAt: "2031-01-01T00:00:00Z", orgCapabilities: { users: ["read"] } });
    expect(Date.parse((await t.ok("GET", `/v2/tokens/${old.id}`)).expiresAt)).toBe(Date.parse(soon));
    expect((await t.call("GET", "/v2/users", { token: old.token })).status).toBe(200);
    expect((await t.call("GET", "/v2/users", { token: fresh.token })).status).toBe(200);
    // Bounded wait for the old token's expiry.
    const deadline = Date.now() + 5000;
    let status = 200;
    while (status === 200 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      status = (await t.call("GET", "/v2/users", { token: old.token })).status;
    }
    expect(status).toBe(401);
    expect((await t.call("GET", "/v2/users", { token: fresh.token })).status).toBe(200);
  });

  it("a deleted token stops working", async () => {
    const created = await t.ok("POST", "/v2/tokens", { name: "gone", orgCapabilities: { users: ["read"] } });
    expect((await t.call("DELETE", `/v2/tokens/${created.id}`)).status).toBe(204);
    expect((await t.call("GET", "/v2/users", { token: created.token })).status).toBe(401);
    expect((await t.call("GET", `/v2/tokens/${created.id}`)).status).toBe(404);
  });

  it("refuses to mint a token stronger than the caller", async () => {
    const weak = await tokenWith(t, { orgCapabilities: { apiTokens: ["create"] } });
    const denied = await t.call("POST", "/v2/tokens", { token: weak, body: { name: "x", orgCapabilities: { users: ["delete"] } } });
    expect(denied.status).toBe(403);
    expect(denied.body.message).toContain("users|delete");
    const allowed = await t.call("POST", "/v2/tokens", { token: weak, body: { name: "x", orgCapabilities: { apiTokens: ["create"] } } });
    expect(allowed.status).toBe(200);
  });
});

describe("datasets, ingest and fields", () => {
  it("creates a dataset whose id is its name, with created and who filled in", async () => {
    const me = await t.ok("GET", "/v2/user");
    const created = await t.ok("POST", "/v2/datasets", { name: "web.logs-1_a", description: "access logs" });
    expect(created).toEqual({ id: "web.logs-1_a", name: "web.logs-1_a", description: "access logs", created: expect.stringMatching(/Z$/), who: me.id });
    expect(await t.ok("GET", "/v2/datasets/web.logs-1_a")).toEqual(created);
    expect((await t.ok("PUT", "/v2/datasets/web.logs-1_a", { description: "new" })).description).toBe("new");
    expect((await t.ok("GET", "/v2/datasets")).map((d: { name: string }) => d.name)).toContain("web.logs-1_a");
  });

  it("ingest flattens nested objects, infers field types and keeps them as first seen", async () => {
    await t.ok("POST", "/v2/datasets", { name: "ingest-types" });
    const answer = await t.ok("POST", "/v1/datasets/ingest-types/ingest", [
      { _time: "2024-05-01T10:00:00+02:00", http: { status: 200, latency: 1.5, ok: true }, msg: "hi", at: "2024-05-01T08:00:00Z" },
      { http: { status: 2.5 }, extra: null },
      "not an event",
    ]);
    expect(answer).toMatchObject({ ingested: 2, failed: 1, processedBytes: expect.any(Number) });
    expect(answer.failures).toHaveLength(1);
    const fields = await t.ok("GET", "/v2/datasets/ingest-types/fields");
    const types = Object.fromEntries(fields.map((f: { name: string; type: string }) => [f.name, f.type]));
    expect(types).toEqual({ _time: "datetime", _sysTime: "datetime", "http.status": "integer", "http.latency": "float", "http.ok": "boolean", msg: "string", at: "datetime" });
    expect(await t.ok("GET", "/v2/datasets/ingest-types/fields/http.status")).toEqual({ name: "http.status", description: "", type: "integer", unit: "", hidden: false });
  });

  it("ingest reads each form of _time: toISOString text as sent, other RFC 3339 normalized, epoch numbers by size; a bad one is a failure", async () => {
    await t.ok("POST", "/v2/datasets", { name: "ingest-times" });
    const answer = await t.ok("POST", "/v1/datasets/ingest-times/ingest", [
      { _time: "2024-05-01T10:00:00.123Z", k: "iso" },
      { _time: "2024-05-01T12:00:00+02:00", k: "offset" },
      { _time: 1714557600, k: "seconds" },
      { _time: 1714557600123, k: "millis" },
      { _time: "2024-02-30T00:00:00.000Z", k: "no such day" },
      { _time: "yesterday", k: "words" },
    ]);
    expect(answer).toMatchObject({ ingested: 4, failed: 2 });
    expect(answer.failures.map((f: { error: string }) => f.error)).toEqual(['event 4: "_time" is not a timestamp', 'event 5: "_time" is not a timestamp']);
    const rows = await t.ok("POST", "/v1/datasets/_apl?format=tabular", { apl: "['ingest-times'] | project k, _time | sort by k asc", startTime: "2024-05-01T00:00:00Z", endTime: "2024-05-02T00:00:00Z" });
    const [k, time] = rows.tables[0].columns as [string[], string[]];
    expect(Object.fromEntries(k.map((key, i) => [key, Date.parse(time[i]!)]))).toEqual({
      iso: Date.UTC(2024, 4, 1, 10, 0, 0, 123),
      offset: Date.UTC(2024, 4, 1, 10),
      seconds: 1714557600_000,
      millis: 1714557600123,
    });
  });

  it("ingest also takes NDJSON", async () => {
    await t.ok("POST", "/v2/datasets", { name: "ndjson" });
    const reply = await t.call("POST", "/v1/datasets/ndjson/ingest", { raw: '{"a":1}\n{"a":2}\n', headers: { "Content-Type": "application/x-ndjson" } });
    expect(reply.body).toMatchObject({ ingested: 2, failed: 0 });
  });

  it("NDJSON is read line by line: lines that only parse together are a 400 naming the line; brackets, commas and quotes inside strings are data", async () => {
    await t.ok("POST", "/v2/datasets", { name: "ndjson-lines" });
    const ndjson = (text: string) => t.call("POST", "/v1/datasets/ndjson-lines/ingest", { raw: text, headers: { "Content-Type": "application/x-ndjson" } });
    // Joined with commas, each of these is a valid array of as many values as lines.
    for (const [text, line] of [
      ['{"a":[1\n2]}\n{"b":1},{"c":2}\n', 1],
      ['{"a":1}\n{"s":"x\n"}\n{"b":2}\n', 2],
      ['{"a":1}\n1,2\n', 2],
      ['{"a":1}\n]\n[\n', 2],
    ] as const) {
      const reply = await ndjson(text);
      expect(reply.status, `${JSON.stringify(text)}: ${JSON.stringify(reply.body)}`).toBe(400);
      expect(reply.body.message).toBe(`malformed JSON on NDJSON line ${line}`);
    }
    const tricky = [{ s: "},{" }, { s: '"],[", x\\' }, { n: 1.5, arr: [1, { k: "}" }] }, { u: "\u2028é" }];
    const body = `${tricky.map((e) => JSON.stringify(e)).join("\r\n")}\r\n\n  \n"not an event"\n`;
    const reply = await ndjson(body);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body).toMatchObject({ ingested: 4, failed: 1 });
    const rows = await t.ok("POST", "/v1/datasets/_apl?format=legacy", { apl: "['ndjson-lines'] | project s, n, arr, u" });
    const data = (rows.matches as { data: Record<string, unknown> }[]).map((m) => m.data);
    expect(data).toEqual(expect.arrayContaining([expect.objectContaining({ s: "},{" }), expect.objectContaining({ s: '"],[", x\\' }), expect.objectContaining({ n: 1.5, arr: [1, { k: "}" }] }), expect.objectContaining({ u: "\u2028é" })]));
  });

  it("PUT on a field changes description, unit and hidden", async () => {
    await t.ok("POST", "/v2/datasets", { name: "field-meta" });
    await t.ok("POST", "/v1/datasets/field-meta/ingest", [{ duration: 12 }]);
    const updated = await t.ok("PUT", "/v2/datasets/field-meta/fields/duration", { name: "duration", type: "integer", description: "took", unit: "ms", hidden: true });
    expect(updated).toEqual({ name: "duration", type: "integer", description: "took", unit: "ms", hidden: true });
    expect(await t.ok("GET", "/v2/datasets/field-meta/fields/duration")).toEqual(updated);
  });

  it("deleting a dataset deletes its events, fields and virtual fields", async () => {
    await t.ok("POST", "/v2/datasets", { name: "doomed" });
    await t.ok("POST", "/v1/datasets/doomed/ingest", [{ a: 1 }, { a: 2 }]);
    await t.ok("POST", "/v2/vfields", { dataset: "doomed", name: "twice", expression: "a * 2" });
    expect((await t.call("DELETE", "/v2/datasets/doomed")).status).toBe(204);
    expect((await t.call("GET", "/v2/datasets/doomed")).status).toBe(404);
    await t.ok("POST", "/v2/datasets", { name: "doomed" });
    expect(await t.ok("GET", "/v2/datasets/doomed/fields")).toEqual([]);
    expect(await t.ok("GET", "/v2/vfields?dataset=doomed")).toEqual([]);
    const count = await t.ok("POST", "/v1/datasets/_apl?format=tabular", { apl: "['doomed'] | count" });
    expect(count.tables[0].columns[0]).toEqual([0]);
  });
});

describe("virtual fields and starred queries", () => {
  it("virtual fields list by dataset and replace on PUT", async () => {
    await t.ok("POST", "/v2/datasets", { name: "vf-ds" });
    const created = await t.ok("POST", "/v2/vfields", { dataset: "vf-ds", name: "ms", expression: "d / 1000" });
    expect(created).toEqual({ id: expect.any(String), dataset: "vf-ds", name: "ms", expression: "d / 1000", description: "", type: "", unit: "" });
    const replaced = await t.ok("PUT", `/v2/vfields/${created.id}`, { dataset: "vf-ds", name: "ms", expression: "d / 1e3", unit: "ms" });
    expect(await t.ok("GET", "/v2/vfields?dataset=vf-ds")).toEqual([replaced]);
    expect(await t.ok("GET", "/v2/vfields?dataset=not-created-yet")).toEqual([]);
    expect((await t.call("DELETE", `/v2/vfields/${created.id}`)).status).toBe(204);
    expect((await t.call("GET", `/v2/vfields/${created.id}`)).status).toBe(404);
  });

  it("starred queries default who to the caller and page with limit and offset", async () => {
    const me = await t.ok("GET", "/v2/user");
    const made = [];
    for (let i = 0; i < 5; i++) {
      made.push(await t.ok("POST", "/v2/apl-starred-queries", { dataset: "sq-ds", kind: "apl", name: `q${i}`, query: { apl: "['sq-ds'] | count" }, metadata: { i } }));
    }
    await t.ok("POST", "/v2/apl-starred-queries", { dataset: "sq-ds", kind: "apl", name: "team-q", who: "team", query: { apl: "x" }, metadata: {} });
    expect(made[0]).toMatchObject({
      who: me.id,
      kind: "apl",
      metadata: { i: 0 },
      query: { apl: "['sq-ds'] | count", startTime: "", endTime: "", cursor: "", defaultOrder: [], libraries: [], variables: {}, queryOptions: {} },
    });
    const page = await t.ok("GET", "/v2/apl-starred-queries?dataset=sq-ds&limit=2&offset=1");
    expect(page.map((q: { name: string }) => q.name)).toEqual(["q1", "q2"]);
    expect((await t.ok("GET", "/v2/apl-starred-queries?dataset=sq-ds")).map((q: { name: string }) => q.name)).not.toContain("team-q");
    expect((await t.ok("GET", "/v2/apl-starred-queries?dataset=sq-ds&who=team")).map((q: { name: string }) => q.name)).toEqual(["team-q"]);
    expect(await t.ok("GET", "/v2/apl-starred-queries?dataset=sq-ds&who=all")).toHaveLength(6);
    const replaced = await t.ok("PUT", `/v2/apl-starred-queries/${made[0].id}`, {
      dataset: "sq-ds",
      kind: "apl",
      name: "renamed",
      query: { apl: "y", defaultOrder: [{ field: "_time" }], queryOptions: { noFill: true, maxSeries: 3 } },
      metadata: {},
    });
    expect(replaced.query.defaultOrder).toEqual([{ field: "_time", desc: false }]);
    expect(replaced.query.queryOptions).toEqual({ noFill: true, maxSeries: 3 });
    expect(await t.ok("GET", `/v2/apl-starred-queries/${made[0].id}`)).toEqual(replaced);
    expect((await t.call("DELETE", `/v2/apl-starred-queries/${made[0].id}`)).status).toBe(204);
    expect((await t.call("GET", `/v2/apl-starred-queries/${made[0].id}`)).status).toBe(404);
  });
});

describe("users and organization", () => {
  it("answers roles as {id, name}, for built-ins and custom roles", async () => {
    const role = await t.ok("POST", "/v2/rbac/roles", { name: "auditors" });
    const user = await t.ok("POST", "/v2/users", { email: "ann@example.com", name: "Ann", role: "read-only" });
    expect(user).toEqual({ id: expect.any(String), email: "ann@example.com", name: "Ann", role: { id: "read-only", name: "read-only" } });
    const moved = await t.ok("PUT", `/v2/users/${user.id}/role`, { role: role.id });
    expect(moved.role).toEqual({ id: role.id, name: "auditors" });
    expect(await t.ok("GET", `/v2/users/${user.id}`)).toEqual(moved);
    expect((await t.ok("GET", "/v2/users")).map((u: { id: string }) => u.id)).toContain(user.id);
    expect((await t.call("DELETE", `/v2/users/${user.id}`)).status).toBe(204);
    expect((await t.call("GET", `/v2/users/${user.id}`)).status).toBe(404);
  });

  it("lets the caller rename themselves", async () => {
    const renamed = await t.ok("PUT", "/v2/user", { name: "Renamed Admin" });
    expect(renamed.name).toBe("Renamed Admin");
    expect((await t.ok("GET", "/v2/user")).name).toBe("Renamed Admin");
  });

  it("serves the organization with its license limits", async () => {
    const orgs = await t.ok("GET", "/v2/orgs");
    expect(orgs).toHaveLength(1);
    expect(orgs[0].id).toBe(t.em.orgId);
    const org = await t.ok("GET", `/v2/orgs/${t.em.orgId}`);
    expect(org.license.apiRateLimitPerSecond).toBe(100);
    for (const limit of ["maxDatasets", "maxFields", "maxUsers", "maxQueryWindowSeconds", "storageAllowanceGB"]) {
      expect(Number.isInteger(org.license[limit]) && org.license[limit] > 0).toBe(true);
    }
    expect((await t.call("GET", "/v2/orgs/someone-else")).status).toBe(404);
  });

  it("refuses a request for another organization, naming it", async () => {
    const reply = await t.call("GET", "/v2/user", { headers: { "X-ODS-Org-ID": "other-org" } });
    expect(reply.status).toBe(403);
    expect(reply.body.message).toContain("other-org");
    expect((await t.call("GET", "/v2/user", { headers: { "X-ODS-Org-ID": t.em.orgId } })).status).toBe(200);
  });
});

describe("queries", () => {
  it("routes the legacy and APL endpoints and records saveAsKind runs in query history", async () => {
    await t.ok("POST", "/v2/datasets", { name: "q-ds" });
    await t.ok("POST", "/v1/datasets/q-ds/ingest", [{ n: 1 }, { n: 2 }, { n: 3 }]);
    const legacy = await t.ok("POST", "/v1/datasets/q-ds/query", {});
    expect(legacy.matches).toHaveLength(3);
    expect(legacy.matches.map((m: { data: { n: number } }) => m.data.n).sort()).toEqual([1, 2, 3]);
    expect(legacy.matches[0]).toMatchObject({ _rowId: expect.any(String), _sysTime: expect.any(String), _time: expect.any(String) });
    expect((await t.call("POST", "/v1/datasets/nope/query", { body: {} })).status).toBe(404);
    const tabular = await t.ok("POST", "/v1/datasets/_apl?format=tabular&saveAsKind=apl&dataset_name=q-ds", { apl: "['q-ds'] | summarize s = sum(n)" });
    expect(tabular.format).toBe("tabular");
    expect(tabular.tables[0].columns.flat()).toContain(6);
    const history = await call(t.em.url, t.em.adminToken, "GET", "/_emulator/query-history?dataset=q-ds");
    expect(history.body).toEqual([expect.objectContaining({ dataset: "q-ds", kind: "apl", apl: "['q-ds'] | summarize s = sum(n)" })]);
    expect((await t.call("GET", "/v2/apl-starred-queries?who=all")).body.map((q: { dataset: string }) => q.dataset)).not.toContain("q-ds");
    const bad = await t.call("POST", "/v1/datasets/_apl", { body: { apl: "['q-ds'] | where (" } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 400, message: expect.any(String), detail: { line: 1, column: expect.any(Number) } });
  });
});
