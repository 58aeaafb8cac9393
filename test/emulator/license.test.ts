// The organization's license limits, enforced by the emulator as the service does: every
// refusal is 403 naming the limit, the count and the bound (docs/service-contract.md,
// "License limits"), and `--license` (EmulatorOptions.license) sets them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseLicenseSettings } from "../../src/emulator";
import { runOds } from "../helpers/ods-cli";
import { startTestEmulator, type TestEmulator } from "./helpers";
import { thresholdMonitor } from "./monitor-helpers";

let t: TestEmulator;

beforeAll(async () => {
  t = await startTestEmulator({
    license: "maxDatasets=2,maxMonitors=1,maxUsers=2,maxFields=5,maxQueryWindowSeconds=3600,monthlyQueryGbHours=1000",
  });
});
afterAll(() => t.close());

const monitor = thresholdMonitor;

describe("license limits", () => {
  it("GET /v2/orgs/{id} shows the limits --license set", async () => {
    const org = await t.ok("GET", `/v2/orgs/${t.em.orgId}`);
    expect(org.license).toMatchObject({ maxDatasets: 2, maxMonitors: 1, maxUsers: 2, maxFields: 5, maxQueryWindowSeconds: 3600 });
  });

  it("maxDatasets: the create past it is 403 naming the limit and the count", async () => {
    await t.ok("POST", "/v2/datasets", { name: "logs" });
    await t.ok("POST", "/v2/datasets", { name: "other" });
    const refused = await t.call("POST", "/v2/datasets", { body: { name: "third" } });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe("license limit maxDatasets reached: the organization holds 2 datasets; the license allows 2");
    // An existing name is still a conflict, not a license refusal.
    expect((await t.call("POST", "/v2/datasets", { body: { name: "logs" } })).status).toBe(409);
  });

  it("maxUsers counts every user, the admin included", async () => {
    await t.ok("POST", "/v2/users", { email: "a@example.com", name: "A", role: "user" });
    const refused = await t.call("POST", "/v2/users", { body: { email: "b@example.com", name: "B", role: "user" } });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/^license limit maxUsers reached: the organization holds 2 users/);
  });

  it("maxFields: ingested and virtual fields of one dataset; an event adding a field past it fails alone", async () => {
    // _time and _sysTime are fields too: room for three more.
    const first = await t.ok("POST", "/v1/datasets/logs/ingest", [{ status: 200, path: "/" }]);
    expect(first).toMatchObject({ ingested: 1, failed: 0 });
    await t.ok("POST", "/v2/vfields", { dataset: "logs", name: "slow", expression: "status > 499" });
    const second = await t.ok("POST", "/v1/datasets/logs/ingest", [{ status: 500 }, { status: 501, region: "eu" }]);
    expect(second.ingested).toBe(1);
    expect(second.failed).toBe(1);
    expect(second.failures[0].error).toMatch(/^event 1: license limit maxFields reached: field "region" would be field 6 of dataset "logs"; the license allows 5$/);
    const vfield = await t.call("POST", "/v2/vfields", { body: { dataset: "logs", name: "fast", expression: "status < 300" } });
    expect(vfield.status).toBe(403);
    expect(vfield.body.message).toBe('license limit maxFields reached: dataset "logs" holds 5 fields (ingested and virtual); the license allows 5');
  });

  it("maxQueryWindowSeconds: queries, starred queries and monitors' ranges", async () => {
    const ok = await t.call("POST", "/v1/datasets/_apl?format=tabular", { body: { apl: "['logs'] | count", startTime: "now-1h", endTime: "now" } });
    expect(ok.status).toBe(200);
    const query = await t.call("POST", "/v1/datasets/_apl?format=tabular", { body: { apl: "['logs'] | count", startTime: "now-2h", endTime: "now" } });
    expect(query.status).toBe(403);
    expect(query.body.message).toBe("license limit maxQueryWindowSeconds reached: the query's time range spans 7200 s; the license allows 3600");
    const starred = await t.call("POST", "/v2/apl-starred-queries", { body: { dataset: "logs", kind: "apl", name: "day", query: { apl: "['logs'] | count", startTime: "qr-now-1d", endTime: "qr-now" }, metadata: {} } });
    expect(starred.status).toBe(403);
    expect(starred.body.message).toMatch(/^license limit maxQueryWindowSeconds reached: the starred query's time range spans 86400 s/);
    const long = await t.call("POST", "/v2/monitors", { body: monitor({ rangeMinutes: 61 }) });
    expect(long.status).toBe(403);
    expect(long.body.message).toMatch(/^license limit maxQueryWindowSeconds reached: the monitor's range \(rangeMinutes\) spans 3660 s/);
  });

  it("maxMonitors: the create past it is 403", async () => {
    await t.ok("POST", "/v2/monitors", monitor());
    const refused = await t.call("POST", "/v2/monitors", { body: monitor({ name: "second" }) });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe("license limit maxMonitors reached: the organization holds 1 monitors; the license allows 1");
  });

  it("usage limits: monthlyIngestGb, storageAllowanceGB and monthlyQueryGbHours refuse once reached", async () => {
    const zero = await startTestEmulator({ license: { monthlyIngestGb: 0, monthlyQueryGbHours: 0 } });
    try {
      await zero.ok("POST", "/v2/datasets", { name: "logs" });
      const ingest = await zero.call("POST", "/v1/datasets/logs/ingest", { body: [{ a: 1 }] });
      expect(ingest.status).toBe(403);
      expect(ingest.body.message).toMatch(/^license limit monthlyIngestGb reached/);
      const query = await zero.call("POST", "/v1/datasets/_apl?format=tabular", { body: { apl: "['logs'] | count" } });
      expect(query.status).toBe(403);
      expect(query.body.message).toMatch(/^license limit monthlyQueryGbHours reached/);
    } finally {
      await zero.close();
    }
    const full = await startTestEmulator({ license: { storageAllowanceGB: 0 } });
    try {
      await full.ok("POST", "/v2/datasets", { name: "logs" });
      const ingest = await full.call("POST", "/v1/datasets/logs/ingest", { body: [{ a: 1 }] });
      expect(ingest.status).toBe(403);
      expect(ingest.body.message).toMatch(/^license limit storageAllowanceGB reached/);
    } finally {
      await full.close();
    }
  });

  it("--license refuses an unknown limit or a value that is not a whole number", async () => {
    expect(parseLicenseSettings("maxMonitors=3, maxFields=10")).toEqual({ maxMonitors: 3, maxFields: 10 });
    expect(() => parseLicenseSettings("maxWidgets=3")).toThrow(/unknown limit "maxWidgets"; one of apiRateLimitPerSecond/);
    expect(() => parseLicenseSettings("maxMonitors=-1")).toThrow(/maxMonitors must be a whole number >= 0/);
    const bad = await runOds(["emulator", "--license", "maxMonitors=lots"], { timeoutMs: 20_000 });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/maxMonitors must be a whole number >= 0, got "lots"/);
  });
});
