// The objects slo.Slo generates apply through both engines onto one state: after
// `ods apply`, the real `terraform plan` finds nothing to do; after `terraform apply`,
// `ods plan` finds nothing to do. Terraform's plan tells the SLO story as a warning when
// the provider block sets backtest_days, and `ods slo report` reads an SLO Terraform applied.
import * as fs from "node:fs";
import * as path from "node:path";
import { TerraformStack, Testing } from "cdktf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notifier, provider, slo } from "../../src";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { removeTempDirs, runOds, tempDir, type RunResult } from "../helpers/ods-cli";
import { TerraformWorkspace, hasTerraform, installProvider } from "../terraform/harness";

let emu: EmulatorHandle;
let cliConfig: string;

beforeAll(async () => {
  if (!hasTerraform) return;
  emu = await startEmulator({ port: 0, dataDir: tempDir("ods-emu-"), rateLimitPerSecond: 100_000 });
  cliConfig = installProvider();
}, 120_000);
afterAll(async () => {
  await emu?.close();
  removeTempDirs();
});

/** A stack with one SLO (prefix keeps the two tests' objects apart) and a state both engines use. */
function writeStack(dir: string, prefix: string, backtestDays?: number): string {
  const app = Testing.app();
  const stack = new TerraformStack(app, "main");
  new provider.OdsProvider(stack, "ods", backtestDays ? { backtestDays } : {});
  const pager = new notifier.Notifier(stack, "pager", { name: `${prefix} pager`, properties: { email: { emails: ["oncall@example.com"] } } });
  new slo.Slo(stack, "checkout", {
    name: `${prefix} checkout`,
    dataset: `${prefix}-shop`,
    badFilter: "status >= 500",
    objectivePercent: 99,
    windowDays: 7,
    description: "Payments must work",
    labels: { team: "payments" },
    alerting: { pageNotifierIds: [pager.id], minEvents: 10 },
  });
  const json = JSON.parse(Testing.synth(stack)) as { terraform: Record<string, unknown> };
  json.terraform.backend = { local: { path: path.join(dir, "terraform.main.tfstate") } };
  const stackDir = path.join(dir, "cdktf.out", "stacks", "main");
  fs.mkdirSync(stackDir, { recursive: true });
  fs.writeFileSync(path.join(stackDir, "cdk.tf.json"), JSON.stringify(json, null, 2));
  return stackDir;
}

const isQuery = (r: { method: string; path: string }): boolean => r.method === "POST" && r.path === "/v1/datasets/_apl";

async function withDataset(name: string): Promise<void> {
  const r = await fetch(`${emu.url}/v2/datasets`, { method: "POST", headers: { authorization: `Bearer ${emu.adminToken}`, "content-type": "application/json" }, body: JSON.stringify({ name }) });
  expect(r.status).toBeLessThan(300);
  // Ten good events an hour ago: the fields exist, and the SLO has something to count.
  const events = Array.from({ length: 10 }, (_, i) => ({ _time: new Date(Date.now() - 3_600_000 + i * 1000).toISOString(), status: 200 }));
  const ingest = await fetch(`${emu.url}/v1/datasets/${name}/ingest`, { method: "POST", headers: { authorization: `Bearer ${emu.adminToken}`, "content-type": "application/json" }, body: JSON.stringify(events) });
  expect(ingest.status).toBeLessThan(300);
}

describe.skipIf(!hasTerraform)("slo.Slo's objects on one state through both engines", () => {
  it("ods apply, then terraform plans no change", async () => {
    const dir = tempDir("ods-slo-ods-first-");
    await withDataset("odsfirst-shop");
    const stackDir = writeStack(dir, "odsfirst");
    const ods = (args: string[]): Promise<RunResult> =>
      runOds([...args, "--out-dir", path.join(dir, "cdktf.out"), "--no-synth"], { cwd: dir, env: { ODS_URL: emu.url, ODS_TOKEN: emu.adminToken }, timeoutMs: 120_000 });
    const applied = await ods(["apply", "--auto-approve"]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toMatch(/7 added|Apply complete/);
    const tf = new TerraformWorkspace(cliConfig, { url: emu.url, token: emu.adminToken }, stackDir, {});
    expect((await tf.run("init")).status).toBe(0);
    const plan = await tf.run("plan", "-detailed-exitcode");
    expect(plan.status, plan.out).toBe(0);
    expect((await ods(["plan", "--detailed-exitcode"])).code).toBe(0);
  }, 300_000);

  it("terraform apply, then ods plans no change; ods slo report reads what terraform applied", async () => {
    const dir = tempDir("ods-slo-tf-first-");
    await withDataset("tffirst-shop");
    const stackDir = writeStack(dir, "tffirst", 7);
    const tf = new TerraformWorkspace(cliConfig, { url: emu.url, token: emu.adminToken }, stackDir, {});
    expect((await tf.run("init")).status).toBe(0);
    // Terraform's plan tells the SLO story under each generated monitor, as a warning.
    const queriesBefore = emu.requests().filter(isQuery).length;
    const plan = await tf.run("plan");
    expect(plan.status, plan.out).toBe(0);
    // Its four monitors share one read of the SLO's counts, as in ods plan (the monitors'
    // plan-time compile checks are not queries of data).
    const queries = emu.requests().filter(isQuery).length - queriesBefore;
    expect(queries, "4 compile checks, and at most 2 reads for the SLO's figures").toBeLessThanOrEqual(4 + 2);
    expect(plan.out).toMatch(/Warning: ods_monitor "SLO tffirst checkout: page 1h\/5m": SLO "tffirst checkout" 99% over 7d: 10 events, 0 bad/);
    const applied = await tf.run("apply", "-auto-approve");
    expect(applied.status, applied.out).toBe(0);
    const ods = (args: string[]): Promise<RunResult> =>
      runOds([...args, "--out-dir", path.join(dir, "cdktf.out"), "--no-synth"], { cwd: dir, env: { ODS_URL: emu.url, ODS_TOKEN: emu.adminToken }, timeoutMs: 120_000 });
    const odsPlan = await ods(["plan", "--detailed-exitcode"]);
    expect(odsPlan.code, odsPlan.stdout + odsPlan.stderr).toBe(0);
    expect((await tf.run("plan", "-detailed-exitcode")).status).toBe(0);
    const report = await ods(["slo", "report", "--stack", "main", "--format", "json"]);
    expect(report.code, report.stderr).toBe(0);
    const slos = (JSON.parse(report.stdout) as { slos: { name: string; path: string; events: number }[] }).slos;
    expect(slos).toEqual([expect.objectContaining({ name: "tffirst checkout", path: "main/checkout", events: 10 })]);
  }, 300_000);
});
