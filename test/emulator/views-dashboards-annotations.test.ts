// Views, dashboards and annotations over HTTP, as API-CONTRACT-MONITORS.md describes them:
// the dashboard write envelope and its 412/409 refusals, document checks that name the
// chart or layout item at fault, view access by name, and annotation filters.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, tokenWith, type TestEmulator } from "./helpers";

let t: TestEmulator;
beforeAll(async () => {
  t = await startTestEmulator();
});
afterAll(() => t.close());

function doc(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: "Service health",
    owner: "X-AXIOM-EVERYONE",
    charts: [
      { id: "c1", type: "TimeSeries", name: "Errors", query: { apl: "['logs'] | summarize count() by bin_auto(_time)" }, overrides: {} },
      { id: "n1", type: "Note", text: "Runbook: https://wiki.example.com" },
    ],
    layout: [
      { i: "c1", x: 0, y: 0, w: 6, h: 4 },
      { i: "n1", x: 6, y: 0, w: 6, h: 4 },
    ],
    refreshTime: 60,
    schemaVersion: 2,
    timeWindowStart: "qr-now-1h",
    timeWindowEnd: "qr-now",
    ...extra,
  };
}

describe("views", () => {
  it("keeps name, query, datasets and description; answers the sharing org; refuses a second view of one name", async () => {
    const org = await t.ok("GET", `/v2/orgs/${t.em.orgId}`);
    const created = await t.ok("POST", "/v2/views", { name: "errors", aplQuery: "['logs'] | where status >= 500", datasets: ["logs"], description: "5xx" });
    expect(created).toMatchObject({ name: "errors", aplQuery: "['logs'] | where status >= 500", datasets: ["logs"], description: "5xx", sharedByOrg: t.em.orgId, sharedByOrgName: org.name });
    expect(await t.ok("GET", `/v2/views/${created.id}`)).toEqual(created);
    const dup = await t.call("POST", "/v2/views", { body: { name: "errors", aplQuery: "x" } });
    expect(dup.status).toBe(409);
    const missing = await t.call("POST", "/v2/views", { body: { name: "no-query" } });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toContain("aplQuery");
    const updated = await t.ok("PUT", `/v2/views/${created.id}`, { name: "errors", aplQuery: "['logs'] | where status >= 400" });
    expect(updated.datasets).toEqual([]);
    expect((await t.call("DELETE", `/v2/views/${created.id}`)).status).toBe(204);
    expect((await t.call("GET", `/v2/views/${created.id}`)).status).toBe(404);
  });

  it("lets a token read exactly the views its viewCapabilities name", async () => {
    const a = await t.ok("POST", "/v2/views", { name: "shared-a", aplQuery: "['logs']" });
    const b = await t.ok("POST", "/v2/views", { name: "shared-b", aplQuery: "['logs']" });
    const token = await tokenWith(t, { viewCapabilities: { "shared-a": { query: ["read"] } } });
    const listed = await t.ok("GET", "/v2/views", undefined, token);
    expect(listed.map((v: { name: string }) => v.name)).toEqual(["shared-a"]);
    expect((await t.call("GET", `/v2/views/${a.id}`, { token })).status).toBe(200);
    expect((await t.call("GET", `/v2/views/${b.id}`, { token })).status).toBe(403);
    expect((await t.call("POST", "/v2/views", { token, body: { name: "x", aplQuery: "y" } })).status).toBe(403);
  });
});

describe("dashboards", () => {
  it("creates, answers the envelope, and adds its own fields to the document", async () => {
    const me = await t.ok("GET", "/v2/user");
    const answer = await t.ok("POST", "/v2/dashboards", { dashboard: doc(), uid: "svc-health" });
    expect(answer.status).toBe("created");
    expect(answer.overwritten).toBe(false);
    const d = answer.dashboard;
    expect(d).toMatchObject({ uid: "svc-health", version: 1, createdBy: me.id, updatedBy: me.id });
    expect(d.id).toMatch(/\S/);
    expect(d.dashboard.owner).toBe("x-axiom-everyone");
    expect(d.dashboard).toMatchObject({ uid: "svc-health", version: 1, id: d.id });
    expect(d.dashboard.charts[0]).not.toHaveProperty("overrides");
    expect(Object.keys(d.dashboard)).toEqual([...Object.keys(d.dashboard)].sort());
    expect(await t.ok("GET", "/v2/dashboards/uid/svc-health")).toEqual(d);
  });

  it("refuses a write based on an old version (412) and a taken uid (409), unless overwrite", async () => {
    const first = (await t.ok("POST", "/v2/dashboards", { dashboard: doc(), uid: "race" })).dashboard;
    const second = await t.ok("PUT", "/v2/dashboards/uid/race", { dashboard: doc({ name: "Renamed" }), version: first.version });
    expect(second).toMatchObject({ status: "updated", overwritten: false });
    expect(second.dashboard.version).toBe(2);
    const stale = await t.call("PUT", "/v2/dashboards/uid/race", { body: { dashboard: doc({ name: "Mine" }), version: 1 } });
    expect(stale.status).toBe(412);
    expect(stale.body).toMatchObject({ code: 412, uid: "race", currentVersion: 2 });
    expect(stale.body.reason).toMatch(/\S/);
    expect(stale.body.message).toMatch(/\S/);
    const forced = await t.ok("PUT", "/v2/dashboards/uid/race", { dashboard: doc({ name: "Mine" }), version: 1, overwrite: true });
    expect(forced).toMatchObject({ status: "updated", overwritten: true });
    expect(forced.dashboard.version).toBe(3);
    const taken = await t.call("POST", "/v2/dashboards", { body: { dashboard: doc(), uid: "race" } });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ code: 409, uid: "race", currentVersion: 3 });
    const replaced = await t.ok("POST", "/v2/dashboards", { dashboard: doc(), uid: "race", overwrite: true });
    expect(replaced).toMatchObject({ status: "updated", overwritten: true });
  });

  it.each([
    ["a layout item naming no chart", { layout: [{ i: "ghost", x: 0, y: 0, w: 6, h: 4 }] }, /layout item "ghost".*names no chart/],
    ["a width over 12", { layout: [{ i: "c1", x: 0, y: 0, w: 13, h: 4 }] }, /layout item "c1".*"w"/],
    ["an unknown chart type", { charts: [{ id: "c1", type: "Gauge", query: { apl: "x" } }], layout: [] }, /chart "c1".*"type"/],
    ["a refresh time not 15/60/300", { refreshTime: 30 }, /refreshTime/],
    ["a query chart without a query", { charts: [{ id: "c1", type: "Table" }], layout: [] }, /chart "c1".*query/],
    ["an unknown top-level field", { $schema: "x" }, /unknown field "\$schema"/],
    ["an unknown owner", { owner: "usr_nobody" }, /owner/],
    ["schema version 1", { schemaVersion: 1 }, /schemaVersion/],
    ["a time window that is not qr-now or epoch ms", { timeWindowStart: "now-1h" }, /timeWindowStart/],
  ])("refuses %s with a message naming it", async (_what, change, message) => {
    const reply = await t.call("POST", "/v2/dashboards", { body: { dashboard: doc(change) } });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toMatch(message);
  });

  it("pages the list with limit and offset, and deletes by uid", async () => {
    for (const uid of ["p-1", "p-2", "p-3"]) await t.ok("POST", "/v2/dashboards", { dashboard: doc(), uid });
    const all = await t.ok("GET", "/v2/dashboards?limit=1000");
    const uids = all.map((d: { uid: string }) => d.uid);
    expect(uids).toEqual(expect.arrayContaining(["p-1", "p-2", "p-3"]));
    const page = await t.ok("GET", "/v2/dashboards?limit=2&offset=1");
    expect(page.map((d: { uid: string }) => d.uid)).toEqual(uids.slice(1, 3));
    expect((await t.call("GET", "/v2/dashboards?limit=0")).status).toBe(400);
    expect((await t.call("DELETE", "/v2/dashboards/uid/p-2")).status).toBe(204);
    expect((await t.call("GET", "/v2/dashboards/uid/p-2")).status).toBe(404);
  });

  it("needs the dashboards capability", async () => {
    const token = await tokenWith(t, { orgCapabilities: { views: ["read"] } });
    expect((await t.call("GET", "/v2/dashboards", { token })).status).toBe(403);
  });
});

describe("annotations", () => {
  it("creates ann_ ids and filters by datasets and by a time range", async () => {
    for (const name of ["api-logs", "db-logs"]) await t.ok("POST", "/v2/datasets", { name });
    const deploy = await t.ok("POST", "/v2/annotations", { datasets: ["api-logs"], type: "deploy", title: "v1.2", time: "2027-01-01T10:00:00Z", url: "https://ci.example.com/run/1" });
    expect(deploy.id).toMatch(/^ann_/);
    const change = await t.ok("POST", "/v2/annotations", { datasets: ["db-logs", "api-logs"], type: "config-change", time: "2027-01-01T12:00:00Z", endTime: "2027-01-01T12:30:00Z" });
    const ofDb = await t.ok("GET", "/v2/annotations?datasets=db-logs");
    expect(ofDb.map((a: { id: string }) => a.id)).toEqual([change.id]);
    const morning = await t.ok("GET", "/v2/annotations?datasets=api-logs&start=2027-01-01T09:00:00Z&end=2027-01-01T11:00:00Z");
    expect(morning.map((a: { id: string }) => a.id)).toEqual([deploy.id]);
    const overlapping = await t.ok("GET", "/v2/annotations?start=2027-01-01T12:15:00Z&end=2027-01-01T13:00:00Z");
    expect(overlapping.map((a: { id: string }) => a.id)).toEqual([change.id]);
    expect((await t.call("POST", "/v2/annotations", { body: { datasets: ["api-logs"], type: "Deploy!" } })).status).toBe(400);
    expect((await t.call("POST", "/v2/annotations", { body: { type: "deploy" } })).status).toBe(400);
    expect((await t.call("POST", "/v2/annotations", { body: { datasets: ["nope"], type: "deploy" } })).status).toBe(400);
    expect((await t.call("DELETE", `/v2/annotations/${deploy.id}`)).status).toBe(204);
  });
});
