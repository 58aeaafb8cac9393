// The organization's license at plan: `ods plan` and `ods apply` count what the
// organization will hold after the apply (other stacks' objects included) and refuse
// before any write, naming the limit, the count and the objects.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { removeTempDirs, runOds, stackFlags, tempDir, writeStack } from "../helpers/ods-cli";

let emu: EmulatorHandle;
let admin: OdsClient;
let env: Record<string, string>;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, dataDir: tempDir("ods-emu-"), license: "maxMonitors=3,maxFields=6,maxQueryWindowSeconds=7200,maxUsers=3" });
  admin = new OdsClient({ url: emu.url, token: emu.adminToken });
  env = { ODS_URL: emu.url, ODS_TOKEN: emu.adminToken };
  await admin.createDataset({ name: "lic-logs" });
  // _time, _sysTime, status, route: four fields before any stack.
  await admin.ingest("lic-logs", [{ status: 200, route: "/a" }]);
  // A monitor made outside the stack counts too.
  await admin.createMonitor({ name: "outside", type: "Threshold", aplQuery: "['lic-logs'] | summarize count() by bin(_time, 1m)", operator: "Above", threshold: 1, intervalMinutes: 5, rangeMinutes: 5 });
});
afterAll(async () => {
  await admin.close();
  await emu.close();
  removeTempDirs();
});

const monitor = (name: string, rangeMinutes = 5): Record<string, unknown> => ({
  name,
  type: "Threshold",
  apl_query: "['lic-logs'] | where status >= 500 | summarize count() by bin(_time, 1m)",
  operator: "Above",
  threshold: 1,
  interval_minutes: 5,
  range_minutes: rangeMinutes,
});

const writes = (): string[] => emu.requests().filter((r) => r.method !== "GET" && r.path !== "/v1/datasets/_apl").map((r) => `${r.method} ${r.path}`);

describe("license limits at plan", () => {
  it("refuses monitors past maxMonitors, counting the organization's own, and apply writes nothing", async () => {
    const dir = tempDir();
    writeStack(dir, { resource: { ods_monitor: { a: monitor("lic-a"), b: monitor("lic-b"), c: monitor("lic-c") } } });
    const plan = await runOds(["plan", "--no-backtest", ...stackFlags(dir)], { env });
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain(
      "license limit maxMonitors: after this apply the organization would hold 4 monitors (1 now, 3 created); the license allows 3. Created: ods_monitor.a, ods_monitor.b, ods_monitor.c. Remove 1 of them, delete others, or raise the license",
    );
    emu.resetRequests();
    const apply = await runOds(["apply", "--auto-approve", "--no-backtest", ...stackFlags(dir)], { env });
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain("license limit maxMonitors");
    expect(writes()).toEqual([]);
    // Within the limit, the same stack applies.
    writeStack(dir, { resource: { ods_monitor: { a: monitor("lic-a"), b: monitor("lic-b") } } });
    const ok = await runOds(["apply", "--auto-approve", "--no-backtest", ...stackFlags(dir)], { env });
    expect(ok.code, ok.stderr).toBe(0);
  });

  it("refuses virtual fields past maxFields of their dataset (ingested fields count)", async () => {
    const dir = tempDir();
    const vf = (name: string): Record<string, unknown> => ({ dataset: "lic-logs", name, expression: "status * 2", type: "integer" });
    writeStack(dir, { resource: { ods_virtual_field: { x: vf("x"), y: vf("y"), z: vf("z") } } });
    const plan = await runOds(["plan", ...stackFlags(dir)], { env });
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain(
      'license limit maxFields: after this apply dataset "lic-logs" would hold 7 fields, ingested and virtual (4 now, 3 created); the license allows 6. Created: ods_virtual_field.x, ods_virtual_field.y, ods_virtual_field.z',
    );
  });

  it("refuses a monitor's range, a starred query's window and a backtest longer than maxQueryWindowSeconds", async () => {
    const dir = tempDir();
    writeStack(dir, {
      resource: {
        ods_monitor: { long: monitor("lic-long", 180) },
        ods_starred_query: { day: { dataset: "lic-logs", name: "day", query: { apl: "['lic-logs'] | count", start_time: "qr-now-1d", end_time: "qr-now" }, metadata: {} } },
      },
    });
    const plan = await runOds(["plan", "--no-backtest", ...stackFlags(dir)], { env });
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain("[main/long] ods_monitor.long: license limit maxQueryWindowSeconds: its query reads 10800 s of data; the license allows 7200 (120 min)");
    expect(plan.stderr).toContain("[main/day] ods_starred_query.day: license limit maxQueryWindowSeconds: its query reads 86400 s of data; the license allows 7200");
    // A monitor within the window, backtested over the default 7 days, reads past it.
    writeStack(dir, { resource: { ods_monitor: { short: monitor("lic-short") } } });
    const backtest = await runOds(["plan", ...stackFlags(dir)], { env });
    expect(backtest.code).toBe(1);
    expect(backtest.stderr).toContain("[main/short] ods_monitor.short: license limit maxQueryWindowSeconds: its backtest over 7 days reads 605100 s of data in one query; the license allows 7200. Plan with --no-backtest");
  });
});
