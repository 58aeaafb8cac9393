// ods plan shows each created or changed monitor's backtest: a line and a sparkline in the
// text plan, a chart in the markdown comment, the numbers in JSON; --no-backtest leaves
// it out. The ods CLI runs as a subprocess against a real emulator.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runOds, stackFlags, writeStack } from "../helpers/ods-cli";
import { startTestEmulator, tempDir, type TestEmulator } from "../emulator/helpers";
import { TerraformWorkspace, hasTerraform, installProvider } from "../terraform/harness";

const FIVE_MIN = 300_000;
let emu: TestEmulator;
let env: Record<string, string>;
const dir = tempDir();

function monitorStack(threshold: number): Record<string, unknown> {
  return {
    resource: {
      ods_monitor: {
        errors: {
          name: "checkout errors",
          type: "Threshold",
          apl_query: "['shop'] | where status >= 500 | summarize count() by service",
          operator: "Above",
          threshold,
          interval_minutes: 5,
          range_minutes: 5,
          notify_by_group: true,
          resolvable: true,
        },
      },
    },
  };
}

beforeAll(async () => {
  emu = await startTestEmulator();
  env = { ODS_URL: emu.em.url, ODS_TOKEN: emu.em.adminToken };
  await emu.ok("POST", "/v2/datasets", { name: "shop" });
  // Three hours ago, two windows of 5 minutes with 4 errors of "api" each, one with 8 of "web".
  const base = Math.floor(Date.now() / FIVE_MIN) * FIVE_MIN - 3 * 3_600_000;
  const errors = (start: number, n: number, service: string) =>
    Array.from({ length: n }, (_, i) => ({ _time: new Date(start + 10_000 + i * 1000).toISOString(), status: 500, service }));
  await emu.ok("POST", "/v1/datasets/shop/ingest", [
    ...errors(base, 4, "api"),
    ...errors(base + FIVE_MIN, 4, "api"),
    ...errors(base + 6 * FIVE_MIN, 8, "web"),
  ]);
  writeStack(dir, monitorStack(6));
  const applied = await runOds(["apply", "--auto-approve", "--no-backtest", ...stackFlags(dir)], { env });
  expect(applied.code, applied.stderr).toBe(0);
  writeStack(dir, monitorStack(3));
});

afterAll(async () => {
  await emu.close();
});

describe("ods plan with a changed monitor", () => {
  it("prints the backtest of the new and the live definition under the change", async () => {
    const plan = await runOds(["plan", ...stackFlags(dir)], { env });
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toContain("~ threshold = 6 -> 3");
    // New: api opens once (two windows in a row), web once; live (above 6): web only.
    expect(plan.stdout).toMatch(/# backtest 7d: would have opened 2 alerts \(2 groups\), 15 min in alert \(1 query\); live definition: 1 alert, history 0/);
    expect(plan.stdout).toMatch(/# [▁▂▃▄▅▆▇█ ]+ {2}min \d+, max 8, threshold 3 at [▁▂▃▄▅▆▇█]/);
  });

  it("gives the numbers in JSON and a chart in the markdown comment", async () => {
    const json = await runOds(["plan", "--format", "json", ...stackFlags(dir)], { env });
    expect(json.code, json.stderr).toBe(0);
    const change = (JSON.parse(json.stdout) as { resource_changes: Record<string, unknown>[] }).resource_changes[0];
    const backtest = change.backtest as { days: number; checks: number; queries: number; alerts: { group: unknown }[]; series: unknown[] };
    expect(backtest.days).toBe(7);
    expect(backtest.checks).toBe(7 * 288);
    expect(backtest.series).toHaveLength(backtest.checks);
    expect(backtest.alerts.map((a) => a.group)).toEqual([{ service: "api" }, { service: "web" }]);
    // Only the threshold changed: the live definition's replay shares the new one's query.
    expect([backtest.queries, (change.live as { queries: number }).queries]).toEqual([1, 0]);
    expect((change.live as { history: number }).history).toBe(0);

    const md = await runOds(["plan", "--format", "markdown", ...stackFlags(dir)], { env });
    expect(md.code, md.stderr).toBe(0);
    expect(md.stdout).toContain("**`ods_monitor.errors`**: backtest 7d: would have opened 2 alerts");
    expect(md.stdout).toContain("xychart-beta\n  title \"checkout errors: backtest 7d\"");
  });

  it("--no-backtest and --backtest-days", async () => {
    const none = await runOds(["plan", "--no-backtest", ...stackFlags(dir)], { env });
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout).not.toContain("backtest");
    const one = await runOds(["plan", "--backtest-days", "1", ...stackFlags(dir)], { env });
    expect(one.stdout).toContain("# backtest 1d: would have opened 2 alerts");
    const bad = await runOds(["plan", "--backtest-days", "0", ...stackFlags(dir)], { env });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("--backtest-days");
  });
});

describe.skipIf(!hasTerraform)("terraform plan with backtest_days in the provider block", () => {
  it("shows the backtest summary as a warning on the monitor", async () => {
    const tf = new TerraformWorkspace(installProvider(), { url: emu.em.url, token: emu.em.adminToken });
    const config = (threshold: number, days?: number) => ({
      terraform: { required_providers: { ods: { source: "registry.terraform.io/ods/ods" } } },
      provider: { ods: days ? { backtest_days: days } : {} },
      resource: { ods_monitor: { errors: { ...(monitorStack(threshold).resource as Record<string, Record<string, object>>).ods_monitor.errors, name: "tf checkout errors" } } },
    });
    tf.writeConfig(config(3));
    expect((await tf.run("init")).status).toBe(0);
    const quiet = await tf.run("plan");
    expect(quiet.status, quiet.out).toBe(0);
    expect(quiet.out).not.toContain("backtest");
    tf.writeConfig(config(3, 7));
    const plan = await tf.run("plan");
    expect(plan.status, plan.out).toBe(0);
    expect(plan.out).toMatch(/Warning: ods_monitor "tf checkout errors": backtest 7d: would have opened 2 alerts \(2 groups\), 15 min in alert/);
  });
});
