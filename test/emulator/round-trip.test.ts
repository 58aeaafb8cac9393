// The emulator takes back what it served: for every kind, the body a GET answers, sent
// back unchanged with PUT (the read-modify-write every client does), answers 2xx and
// changes nothing a client can see. A kind the contract gives no PUT (API tokens: a
// changed token is a regeneration) takes its served body as the regeneration's
// `newToken`. Each kind, and each variant of a kind whose answer differs in shape
// (monitor types, notifier channels), is its own test case, over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "./helpers";

let t: TestEmulator;
beforeAll(async () => {
  t = await startTestEmulator();
  await t.ok("POST", "/v2/datasets", { name: "rt-logs", description: "round trips" });
  await t.ok("POST", "/v1/datasets/rt-logs/ingest", [{ status: 500, path: "/pay", duration_ms: 12 }]);
});
afterAll(() => t.close());

/** Fields the server moves on every write: not what a round trip must keep. */
const MOVING = new Set(["updatedAt", "updatedBy", "version", "metaModified", "metaVersion"]);

function stable(body: unknown): unknown {
  if (Array.isArray(body)) return body.map(stable);
  if (body && typeof body === "object") {
    return Object.fromEntries(Object.entries(body as Record<string, unknown>).filter(([k]) => !MOVING.has(k)).map(([k, v]) => [k, stable(v)]));
  }
  return body;
}

/** GET `path`, PUT the answer back to `putPath`: 2xx, and a GET after reads as before. */
async function roundTrip(path: string, putPath = path): Promise<void> {
  const served = await t.ok("GET", path);
  const put = await t.call("PUT", putPath, { body: served });
  expect(put.status, `PUT ${putPath} of the body GET ${path} served answered ${put.status}: ${JSON.stringify(put.body)}`).toBeLessThan(300);
  expect(stable(await t.ok("GET", path))).toEqual(stable(served));
}

const notifiers: Record<string, Record<string, unknown>> = {
  customWebhook: { url: "https://hooks.example.com/rt", body: '{"a":"{{.Action}}"}', headers: { "X-Team": "sre" }, secretHeaders: { Authorization: "Bearer rt-secret" } },
  webhook: { url: "https://hooks.example.com/plain" },
  email: { emails: ["b@example.com", "a@example.com"] },
  chatA: { chatAUrl: "https://chat-a.example.com/T0/B0/rt" },
  chatB: { chatBChannel: "#alerts", chatBToken: "xoxb-rt-token" },
  chatBWebhook: { chatBWebhookUrl: "https://chat-b.example.com/hook/rt" },
  chatC: { chatCUrl: "https://chat-c.example.com/rt" },
  incidentA: { apiKey: "ia-rt-key", isEU: true },
  incidentB: { routingKey: "ib-rt-routing", token: "ib-rt-token" },
};

const monitors: Record<string, Record<string, unknown>> = {
  Threshold: { type: "Threshold", aplQuery: "['rt-logs'] | summarize count() by bin(_time, 1m)", operator: "Above", threshold: 5, intervalMinutes: 5, rangeMinutes: 5 },
  MatchEvent: { type: "MatchEvent", aplQuery: "['rt-logs'] | where status >= 500", intervalMinutes: 1, rangeMinutes: 1 },
  "Threshold, every optional field": {
    type: "Threshold",
    description: "errors per path",
    aplQuery: "['rt-logs'] | summarize count() by path",
    operator: "AboveOrEqual",
    threshold: 2.5,
    intervalMinutes: 10,
    rangeMinutes: 15,
    secondDelay: 60,
    alertOnNoData: true,
    notifyByGroup: true,
    resolvable: true,
    disabledUntil: "2099-01-01T00:00:00Z",
    triggerAfterNPositiveResults: 2,
    triggerFromNRuns: 3,
    columnName: "count_",
  },
  AnomalyDetection: { type: "AnomalyDetection", aplQuery: "['rt-logs'] | summarize count() by bin(_time, 5m)", compareDays: 3, tolerance: 20, intervalMinutes: 5, rangeMinutes: 5 },
};

describe("a GET then a PUT of the same body answers 2xx", () => {
  it("dataset", async () => {
    const ds = await t.ok("GET", "/v2/datasets/rt-logs");
    await roundTrip(`/v2/datasets/${ds.id ?? ds.name}`);
  });

  it("dataset field", async () => {
    await t.ok("PUT", "/v2/datasets/rt-logs/fields/duration_ms", { description: "request time", unit: "ms" });
    await roundTrip("/v2/datasets/rt-logs/fields/duration_ms");
  });

  for (const [channel, properties] of Object.entries(notifiers)) {
    it(`notifier (${channel})`, async () => {
      const created = await t.ok("POST", "/v2/notifiers", { name: `rt-${channel}`, properties: { [channel]: properties } });
      await roundTrip(`/v2/notifiers/${created.id}`);
    });
  }

  for (const [type, fields] of Object.entries(monitors)) {
    it(`monitor (${type})`, async () => {
      const notifier = await t.ok("POST", "/v2/notifiers", { name: `rt-monitor-${type}`, properties: { webhook: { url: "https://hooks.example.com/m" } } });
      const created = await t.ok("POST", "/v2/monitors", { name: `rt-${type}`, notifierIds: [notifier.id], ...fields });
      await roundTrip(`/v2/monitors/${created.id}`);
    });
  }

  it("role", async () => {
    const created = await t.ok("POST", "/v2/rbac/roles", {
      name: "rt-role",
      description: "round trip",
      orgCapabilities: { monitors: ["read"] },
      datasetCapabilities: { "rt-logs": { query: ["read"] } },
      viewCapabilities: {},
    });
    await roundTrip(`/v2/rbac/roles/${created.id}`);
  });

  it("user (its role)", async () => {
    const created = await t.ok("POST", "/v2/users", { email: "rt@example.com", name: "Round Trip", role: "read-only" });
    await roundTrip(`/v2/users/${created.id}`, `/v2/users/${created.id}/role`);
  });

  it("the calling user", async () => {
    await roundTrip("/v2/user");
  });

  it("virtual field", async () => {
    const created = await t.ok("POST", "/v2/vfields", { dataset: "rt-logs", name: "slow", expression: "duration_ms > 10", description: "slow requests" });
    await roundTrip(`/v2/vfields/${created.id}`);
  });

  it("starred query", async () => {
    const created = await t.ok("POST", "/v2/apl-starred-queries", { kind: "apl", name: "rt-starred", who: "team", dataset: "rt-logs", query: { apl: "['rt-logs'] | count" }, metadata: { owner: "sre" } });
    await roundTrip(`/v2/apl-starred-queries/${created.id}`);
  });

  it("view", async () => {
    const created = await t.ok("POST", "/v2/views", { name: "rt-view", aplQuery: "['rt-logs'] | where status >= 500", datasets: ["rt-logs"], description: "5xx" });
    await roundTrip(`/v2/views/${created.id}`);
  });

  it("dashboard", async () => {
    const created = await t.ok("POST", "/v2/dashboards", {
      dashboard: {
        name: "rt-dashboard",
        owner: "X-AXIOM-EVERYONE",
        charts: [{ id: "c1", type: "TimeSeries", name: "errors", query: { apl: "['rt-logs'] | summarize count() by bin_auto(_time)" } }],
        layout: [{ i: "c1", x: 0, y: 0, w: 6, h: 4 }],
        refreshTime: 60,
        schemaVersion: 2,
        timeWindowStart: "qr-now-1h",
        timeWindowEnd: "qr-now",
      },
    });
    await roundTrip(`/v2/dashboards/uid/${created.dashboard.uid}`);
  });

  it("annotation", async () => {
    const created = await t.ok("POST", "/v2/annotations", { datasets: ["rt-logs"], type: "deploy", time: "2026-01-01T00:00:00Z", title: "v1", description: "first", url: "https://ci.example.com/1" });
    await roundTrip(`/v2/annotations/${created.id}`);
  });

  it("API token (no PUT: its served body as a regeneration's newToken)", async () => {
    const created = await t.ok("POST", "/v2/tokens", { name: "rt-token", description: "round trip", orgCapabilities: { monitors: ["read"] }, datasetCapabilities: { "rt-logs": { query: ["read"] } } });
    expect((await t.call("PUT", `/v2/tokens/${created.id}`, { body: {} })).status).toBeGreaterThanOrEqual(400);
    const served = await t.ok("GET", `/v2/tokens/${created.id}`);
    const next = await t.call("POST", `/v2/tokens/${created.id}/regenerate`, { body: { existingTokenExpiresAt: "2099-01-01T00:00:00Z", newToken: served } });
    expect(next.status, JSON.stringify(next.body)).toBeLessThan(300);
    const { id: _old, token: _secret, createdAt: _c, ...rest } = next.body as Record<string, unknown>;
    const { id: _i, createdAt: _d, ...before } = served as Record<string, unknown>;
    expect(stable(rest)).toEqual(stable(before));
  });
});
