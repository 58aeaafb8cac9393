// The client against the real emulator over HTTP on 127.0.0.1 (port 0): every endpoint,
// its happy path and at least one error, then the failure modes the retry policy exists
// for (dropped writes, 5xx, 429 bursts), counted with the emulator's request log.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { OdsClient, tabularRows, type User } from "../../src/api";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { apiFailure } from "./helpers";

let emu: EmulatorHandle;
let admin: OdsClient;
let me: User;
let dataDir: string;
const extraClients: OdsClient[] = [];

function clientWith(token: string, options: { maxRetries?: number; maxRetryWaitMs?: number } = {}): OdsClient {
  const c = new OdsClient({ url: emu.url, token, orgId: emu.orgId, ...options });
  extraClients.push(c);
  return c;
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ods-api-it-"));
  emu = await startEmulator({ port: 0, dataDir });
  admin = new OdsClient({ url: emu.url, token: emu.adminToken, orgId: emu.orgId });
  me = await admin.getCurrentUser();
});

afterEach(() => emu.setFaults(undefined));

afterAll(async () => {
  await Promise.all([admin.close(), ...extraClients.map((c) => c.close())]);
  await emu.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const soon = (days: number): string => new Date(Date.now() + days * 86_400_000).toISOString();

describe("notifiers", () => {
  it("create, get (secrets redacted), list, update, delete", async () => {
    const created = await admin.createNotifier({
      name: "api-it-oncall",
      properties: {
        chatB: { chatBChannel: "#ops", chatBToken: "chatb-it-secret" },
        incidentA: { apiKey: "inc-a-secret", isEU: true },
        customWebhook: { url: "https://hooks.example/a", body: "{{.AlertName}}", headers: { "X-Team": "sre" }, secretHeaders: { "X-Sig": "sig-secret" } },
        email: { emails: ["a@example.com"] },
      },
    });
    expect(created.id).toBeTruthy();
    const read = await admin.getNotifier(created.id);
    expect(read.name).toBe("api-it-oncall");
    expect(read.properties.chatB).toEqual({ chatBChannel: "#ops", chatBToken: "" });
    expect(read.properties.incidentA).toEqual({ apiKey: "", isEU: true });
    expect(read.properties.customWebhook?.secretHeaders).toEqual({ "X-Sig": "" });
    expect(read.properties.customWebhook?.headers).toEqual({ "X-Team": "sre" });
    expect((await admin.listNotifiers()).map((n) => n.id)).toContain(created.id);

    const updated = await admin.updateNotifier(created.id, { name: "api-it-oncall-2", properties: { webhook: { url: "https://hooks.example/b" } } });
    expect(updated).toMatchObject({ id: created.id, name: "api-it-oncall-2", properties: { webhook: { url: "https://hooks.example/b" } } });

    await admin.deleteNotifier(created.id);
    expect((await apiFailure(admin.getNotifier(created.id))).status).toBe(404);
  });

  it("400 names the missing field; 404 for an unknown id on update and delete", async () => {
    const bad = await apiFailure(admin.createNotifier({ properties: { webhook: { url: "https://hooks.example/x" } } } as never));
    expect(bad).toMatchObject({ kind: "http", status: 400, code: 400, requestMayHaveBeenApplied: false });
    expect(bad.serviceMessage).toMatch(/name/);
    expect((await apiFailure(admin.updateNotifier("no-such-notifier", { name: "x", properties: {} }))).status).toBe(404);
    expect((await apiFailure(admin.deleteNotifier("no-such-notifier"))).status).toBe(404);
  });
});

describe("roles", () => {
  it("create, get, list, replace, delete", async () => {
    const role = await admin.createRole({
      name: "api-it-readers",
      description: "read only",
      members: [],
      orgCapabilities: { datasets: ["read"], notifiers: ["read"] },
      datasetCapabilities: { "api-it-logs": { query: ["read"] } },
      viewCapabilities: {},
    });
    expect(role.id).toBeTruthy();
    expect(await admin.getRole(role.id)).toMatchObject({ name: "api-it-readers", orgCapabilities: { datasets: ["read"] } });
    expect((await admin.listRoles()).map((r) => r.id)).toContain(role.id);
    const replaced = await admin.updateRole(role.id, { name: "api-it-readers", description: "changed", orgCapabilities: { users: ["read"] } });
    expect(replaced).toMatchObject({ id: role.id, description: "changed", orgCapabilities: { users: ["read"] } });
    expect(replaced.orgCapabilities?.datasets).toBeUndefined();
    await admin.deleteRole(role.id);
    expect((await apiFailure(admin.getRole(role.id))).status).toBe(404);
  });

  it("400 names the capability with an unknown action", async () => {
    const err = await apiFailure(admin.createRole({ name: "api-it-bad", orgCapabilities: { auditLog: ["delete" as "read"] } }));
    expect(err.status).toBe(400);
    expect(err.serviceMessage).toMatch(/auditLog/);
  });
});

describe("tokens and authorization", () => {
  it("create shows the secret once; get and list never do; the secret authenticates", async () => {
    const created = await admin.createToken({ name: "api-it-ci", description: "ci", expiresAt: soon(30), orgCapabilities: { datasets: ["read"] } });
    expect(created.token).toBeTruthy();
    const read = await admin.getToken(created.id);
    expect(read).toMatchObject({ id: created.id, name: "api-it-ci" });
    expect(read).not.toHaveProperty("token");
    const listed = (await admin.listTokens()).find((t) => t.id === created.id);
    expect(listed).toBeDefined();
    expect(listed).not.toHaveProperty("token");
    await expect(clientWith(created.token).listDatasets()).resolves.toBeInstanceOf(Array);
  });

  it("401 for an unknown token, 403 for a missing capability", async () => {
    const nobody = await apiFailure(clientWith("xapt-not-a-real-token").listNotifiers());
    expect(nobody).toMatchObject({ status: 401, code: 401 });
    const limited = await admin.createToken({ name: "api-it-limited", orgCapabilities: { datasets: ["read"] } });
    const forbidden = await apiFailure(clientWith(limited.token).createNotifier({ name: "x", properties: {} }));
    expect(forbidden).toMatchObject({ status: 403, requestMayHaveBeenApplied: false });
    expect(forbidden.message).not.toContain(limited.token);
  });

  it("regenerate issues a new token; delete revokes it", async () => {
    const old = await admin.createToken({ name: "api-it-rotate", orgCapabilities: { datasets: ["read"] } });
    const fresh = await admin.regenerateToken(old.id, { existingTokenExpiresAt: soon(1), newTokenExpiresAt: soon(60) });
    expect(fresh.id).not.toBe(old.id);
    expect(fresh.token).toBeTruthy();
    expect(fresh.token).not.toBe(old.token);
    await expect(clientWith(old.token).listDatasets()).resolves.toBeInstanceOf(Array); // works until it expires
    await admin.deleteToken(fresh.id);
    expect((await apiFailure(clientWith(fresh.token).listDatasets())).status).toBe(401);
    expect((await apiFailure(admin.getToken(fresh.id))).status).toBe(404);
  });

  it("400 names existingTokenExpiresAt when a regeneration lacks it", async () => {
    const t = await admin.createToken({ name: "api-it-rotate-bad" });
    const err = await apiFailure(admin.regenerateToken(t.id, {} as never));
    expect(err.status).toBe(400);
    expect(err.serviceMessage).toMatch(/existingTokenExpiresAt/);
  });
});

describe("datasets, ingest and fields", () => {
  const ds = "api-it-logs";

  beforeAll(async () => {
    await admin.createDataset({ name: ds, description: "integration" });
    const result = await admin.ingest(ds, [
      { _time: "2026-01-01T00:00:00Z", status: 200, path: "/", duration_ms: 12 },
      { _time: "2026-01-01T00:00:01Z", status: 500, path: "/a", duration_ms: 250 },
      { _time: "2026-01-01T00:00:02Z", status: 200, path: "/b", duration_ms: 40 },
    ]);
    expect(result.ingested).toBe(3);
  });

  it("create, get (id is the name), list, update, and 409 for a duplicate name", async () => {
    expect(await admin.getDataset(ds)).toMatchObject({ id: ds, name: ds, description: "integration" });
    expect((await admin.listDatasets()).map((d) => d.id)).toContain(ds);
    expect(await admin.updateDataset(ds, { description: "changed" })).toMatchObject({ id: ds, description: "changed" });
    expect((await apiFailure(admin.createDataset({ name: ds }))).status).toBe(409);
  });

  it("400 names the invalid dataset name; delete removes the dataset", async () => {
    const bad = await apiFailure(admin.createDataset({ name: "no spaces/allowed" }));
    expect(bad.status).toBe(400);
    expect(bad.serviceMessage).toMatch(/name/);
    await admin.createDataset({ name: "api-it-doomed" });
    await admin.deleteDataset("api-it-doomed");
    expect((await apiFailure(admin.getDataset("api-it-doomed"))).status).toBe(404);
    expect((await apiFailure(admin.ingest("api-it-doomed", [{ a: 1 }]))).status).toBe(404);
  });

  it("fields appear on ingest; get, update metadata; 404 for an unknown field", async () => {
    const names = (await admin.listDatasetFields(ds)).map((f) => f.name);
    expect(names).toEqual(expect.arrayContaining(["status", "path", "duration_ms"]));
    const field = await admin.getDatasetField(ds, "duration_ms");
    expect(field.name).toBe("duration_ms");
    const updated = await admin.updateDatasetField(ds, "duration_ms", { ...field, description: "request time", unit: "ms", hidden: false });
    expect(updated).toMatchObject({ name: "duration_ms", description: "request time", unit: "ms" });
    expect(await admin.getDatasetField(ds, "duration_ms")).toMatchObject({ unit: "ms" });
    expect((await apiFailure(admin.getDatasetField(ds, "no_such_field"))).status).toBe(404);
    expect((await apiFailure(admin.listDatasetFields("api-it-missing"))).status).toBe(404);
  });

  it("legacy structured query and both layouts of the query language", async () => {
    const legacy = await admin.queryLegacy(ds, {
      startTime: "2025-12-31T00:00:00Z",
      endTime: "2026-01-02T00:00:00Z",
      aggregations: [{ op: "count", field: "*" }],
    });
    expect(legacy.buckets.totals[0]?.aggregations[0]?.value).toBe(3);
    expect((await apiFailure(admin.queryLegacy("api-it-missing", {}))).status).toBe(404);

    const range = { startTime: "2025-12-31T00:00:00Z", endTime: "2026-01-02T00:00:00Z" };
    const tabular = await admin.queryApl({ apl: `['${ds}'] | where status == 500 | project path, duration_ms`, ...range }, { format: "tabular" });
    expect(tabular.format).toBe("tabular");
    expect(tabularRows(tabular.tables[0])).toEqual([{ path: "/a", duration_ms: 250 }]);
    const asLegacy = await admin.queryApl({ apl: `['${ds}'] | where status == 200`, ...range }, { format: "legacy" });
    expect(asLegacy.matches.map((m) => m.data.path).sort()).toEqual(["/", "/b"]);
    const saved = await admin.queryAplTabular({ apl: `['${ds}'] | count`, ...range }, { saveAsKind: "apl", datasetName: ds });
    expect(saved.tables).toHaveLength(1);
  });

  it("a query-language error is a 400 with the position in detail", async () => {
    const err = await apiFailure(admin.queryApl({ apl: `['${ds}'] | where (`, startTime: "2025-12-31T00:00:00Z" }, { format: "tabular" }));
    expect(err.status).toBe(400);
    expect(err.detail?.line).toBe(1);
    expect(typeof err.detail?.column).toBe("number");
  });
});

describe("virtual fields", () => {
  const ds = "api-it-vf";
  beforeAll(async () => {
    await admin.createDataset({ name: ds });
    await admin.ingest(ds, [{ duration_ms: 1500 }]);
  });

  it("create, list by dataset, get, update, delete", async () => {
    const vf = await admin.createVirtualField({ dataset: ds, name: "duration_s", expression: "duration_ms / 1000", type: "float", description: "seconds" });
    expect(vf.id).toBeTruthy();
    expect((await admin.listVirtualFields(ds)).map((v) => v.id)).toEqual([vf.id]);
    expect(await admin.getVirtualField(vf.id)).toMatchObject({ dataset: ds, name: "duration_s" });
    const updated = await admin.updateVirtualField(vf.id, { dataset: ds, name: "duration_s", expression: "duration_ms / 1000.0", unit: "s" });
    expect(updated).toMatchObject({ id: vf.id, expression: "duration_ms / 1000.0", unit: "s" });
    await admin.deleteVirtualField(vf.id);
    expect((await apiFailure(admin.getVirtualField(vf.id))).status).toBe(404);
  });

  it("409 for a duplicate name in its dataset; 400 names a missing expression", async () => {
    await admin.createVirtualField({ dataset: ds, name: "twice", expression: "duration_ms * 2" });
    expect((await apiFailure(admin.createVirtualField({ dataset: ds, name: "twice", expression: "duration_ms" }))).status).toBe(409);
    const bad = await apiFailure(admin.createVirtualField({ dataset: ds, name: "noexpr" } as never));
    expect(bad.status).toBe(400);
    expect(bad.serviceMessage).toMatch(/expression/);
  });
});

describe("starred queries", () => {
  const ds = "api-it-sq";
  beforeAll(async () => {
    await admin.createDataset({ name: ds });
  });

  it("create, list with filters, list all pages, get, update, delete", async () => {
    const body = { dataset: ds, kind: "apl", name: "errors", who: me.id, metadata: {}, query: { apl: `['${ds}'] | where status >= 500`, queryOptions: { disableCache: true } } };
    const sq = await admin.createStarredQuery(body);
    expect(sq.id).toBeTruthy();
    expect(await admin.getStarredQuery(sq.id)).toMatchObject({ name: "errors", kind: "apl", query: { apl: body.query.apl } });
    expect((await admin.listStarredQueries({ dataset: ds, who: "all", limit: 10 })).map((q) => q.id)).toContain(sq.id);
    expect(await admin.listStarredQueries({ dataset: ds, who: "all", limit: 10, offset: 10 })).toEqual([]);
    expect((await admin.listAllStarredQueries({ dataset: ds, who: "all" })).map((q) => q.id)).toEqual([sq.id]);
    const updated = await admin.updateStarredQuery(sq.id, { ...body, name: "5xx" });
    expect(updated).toMatchObject({ id: sq.id, name: "5xx" });
    await admin.deleteStarredQuery(sq.id);
    expect((await apiFailure(admin.getStarredQuery(sq.id))).status).toBe(404);
  });

  it("400 names a missing required field and an out-of-range limit", async () => {
    const bad = await apiFailure(admin.createStarredQuery({ dataset: ds, name: "x", who: me.id, metadata: {}, query: { apl: "x" } } as never));
    expect(bad.status).toBe(400);
    expect(bad.serviceMessage).toMatch(/kind/);
    const badLimit = await apiFailure(admin.listStarredQueries({ limit: 5000 }));
    expect(badLimit.status).toBe(400);
    expect(badLimit.serviceMessage).toMatch(/limit/);
  });
});

describe("users, the current user, organizations", () => {
  it("create with a role name (read back as {id, name}), list, get, change role, delete", async () => {
    const user = await admin.createUser({ email: "api-it@example.com", name: "API IT", role: "user" });
    expect(user.role).toEqual({ id: expect.any(String), name: "user" });
    expect((await admin.listUsers()).map((u) => u.id)).toContain(user.id);
    expect(await admin.getUser(user.id)).toMatchObject({ email: "api-it@example.com" });
    const role = await admin.createRole({ name: "api-it-member-role" });
    const moved = await admin.updateUserRole(user.id, { role: role.id });
    expect(moved.role).toEqual({ id: role.id, name: "api-it-member-role" });
    await admin.deleteUser(user.id);
    expect((await apiFailure(admin.getUser(user.id))).status).toBe(404);
  });

  it("400 names an invalid email and an unknown role", async () => {
    const email = await apiFailure(admin.createUser({ email: "not-an-email", name: "x", role: "user" }));
    expect(email.status).toBe(400);
    expect(email.serviceMessage).toMatch(/email/);
    const role = await apiFailure(admin.createUser({ email: "r@example.com", name: "x", role: "no-such-role" }));
    expect(role.status).toBe(400);
    expect(role.serviceMessage).toMatch(/role/);
  });

  it("the current user reads and renames itself; an empty name is a 400", async () => {
    const renamed = await admin.updateCurrentUser({ name: "Renamed Admin" });
    expect(renamed).toMatchObject({ id: me.id, name: "Renamed Admin" });
    expect((await admin.getCurrentUser()).name).toBe("Renamed Admin");
    const bad = await apiFailure(admin.updateCurrentUser({ name: "" }));
    expect(bad.status).toBe(400);
    expect(bad.serviceMessage).toMatch(/name/);
  });

  it("organizations list and get with the license; 404 for another id; the client adopts its rate limit", async () => {
    const orgs = await admin.listOrganizations();
    expect(orgs.map((o) => o.id)).toContain(emu.orgId);
    const org = await admin.getOrganization(emu.orgId);
    expect(org.license?.apiRateLimitPerSecond).toBeGreaterThan(0);
    expect((await apiFailure(admin.getOrganization("no-such-org"))).status).toBe(404);
    const c = clientWith(emu.adminToken);
    expect(await c.useOrganizationRateLimit()).toBe(org.license?.apiRateLimitPerSecond);
  });
});

describe("under injected faults", () => {
  const countOf = (method: string, p: string): number => emu.requests().filter((r) => r.method === method && r.path === p).length;

  it("a POST whose connection dropped after the write is sent once, says it may have been applied, and landed", async () => {
    emu.resetRequests();
    emu.setFaults("dropAfterWrite=1");
    const err = await apiFailure(admin.createNotifier({ name: "api-it-dropped", properties: { webhook: { url: "https://hooks.example/d" } } }));
    emu.setFaults(undefined);
    expect(err).toMatchObject({ kind: "network", status: 0, method: "POST", requestMayHaveBeenApplied: true });
    expect(countOf("POST", "/v2/notifiers")).toBe(1);
    // The caller lists and adopts: the write is there, once.
    expect((await admin.listNotifiers()).filter((n) => n.name === "api-it-dropped")).toHaveLength(1);
  });

  it("a PUT whose connection dropped after the write is retried and converges", async () => {
    const ds = await admin.createDataset({ name: "api-it-put-drop" });
    emu.setFaults("dropAfterWrite=0.3,seed=3");
    const c = clientWith(emu.adminToken, { maxRetries: 8 });
    for (let i = 0; i < 4; i++) await c.updateDataset(ds.id, { description: `v${i}` });
    emu.setFaults(undefined);
    expect(c.stats().retries).toBeGreaterThan(0);
    expect((await admin.getDataset(ds.id)).description).toBe("v3");
  });

  it("a DELETE whose answer was dropped is retried, and the retry's 404 counts as done", async () => {
    const n = await admin.createNotifier({ name: "api-it-delete-drop", properties: { webhook: { url: "https://hooks.example/e" } } });
    emu.resetRequests();
    emu.setFaults("dropAfterWrite=1");
    await expect(admin.deleteNotifier(n.id)).resolves.toBeUndefined();
    emu.setFaults(undefined);
    expect(emu.requests().filter((r) => r.method === "DELETE").map((r) => r.status)).toEqual([0, 404]);
    expect((await apiFailure(admin.getNotifier(n.id))).status).toBe(404);
  });

  it("GETs converge under error5xx=0.3 by retrying", async () => {
    emu.resetRequests();
    emu.setFaults("error5xx=0.3,seed=11");
    const c = clientWith(emu.adminToken, { maxRetries: 8 });
    for (let i = 0; i < 20; i++) await expect(c.listDatasets()).resolves.toBeInstanceOf(Array);
    emu.setFaults(undefined);
    const stats = c.stats();
    expect(stats.retries).toBeGreaterThan(0);
    expect(emu.requests().filter((r) => r.status === 503).length).toBe(stats.retries);
  });

  it("a POST answered 503 is retried, bounded, and creates nothing", async () => {
    emu.resetRequests();
    emu.setFaults("error5xx=1");
    const err = await apiFailure(clientWith(emu.adminToken, { maxRetries: 2, maxRetryWaitMs: 5_000 }).createDataset({ name: "api-it-never" }));
    emu.setFaults(undefined);
    expect(err).toMatchObject({ status: 503, requestMayHaveBeenApplied: false });
    expect(countOf("POST", "/v2/datasets")).toBe(3);
    expect((await apiFailure(admin.getDataset("api-it-never"))).status).toBe(404);
  });

  it("429 bursts are waited out", async () => {
    emu.resetRequests();
    emu.setFaults("burst429=2/8");
    const c = clientWith(emu.adminToken);
    for (let i = 0; i < 10; i++) await expect(c.listRoles()).resolves.toBeInstanceOf(Array);
    emu.setFaults(undefined);
    const stats = c.stats();
    expect(stats.rateLimited429).toBeGreaterThan(0);
    expect(stats.requests).toBe(10 + stats.retries);
    expect(emu.requests().filter((r) => r.status === 429).length).toBe(stats.rateLimited429);
  });
});
