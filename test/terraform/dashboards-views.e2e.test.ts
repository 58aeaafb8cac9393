// Views and a builder-made dashboard through the real terraform binary and
// terraform-provider-ods: applied, then plans clean; changed over HTTP by someone else,
// the plan shows the drift and the apply refuses naming who changed it and when;
// overwrite takes it over.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { dashboardStack, type DashboardStackOptions } from "../helpers/dashboard-stack";
import * as fs from "node:fs";
import * as path from "node:path";
import { removeTempDirs, runOds, tempDir, type RunResult } from "../helpers/ods-cli";
import { TerraformWorkspace, hasTerraform, installProvider, odsConfig } from "./harness";

let emu: EmulatorHandle;
let admin: OdsClient;
let cliConfig: string;

beforeAll(async () => {
  if (!hasTerraform) return;
  emu = await startEmulator({ port: 0, dataDir: tempDir("ods-emu-") });
  admin = new OdsClient({ url: emu.url, token: emu.adminToken });
  cliConfig = installProvider();
});
afterAll(async () => {
  await admin?.close();
  await emu?.close();
  removeTempDirs();
});

function configOf(o: DashboardStackOptions): Record<string, unknown> {
  return odsConfig({ resource: dashboardStack(o).resource });
}

describe.skipIf(!hasTerraform)("terraform: views and dashboards", () => {
  it("applies, plans clean, refuses to overwrite a change made since naming who made it, and takes over with overwrite", async () => {
    const ws = new TerraformWorkspace(cliConfig, { url: emu.url, token: emu.adminToken });
    const options = { dataset: "tdv-logs", uid: "tdv-health" };
    ws.writeConfig(configOf(options));
    expect((await ws.run("init")).status).toBe(0);
    const applied = await ws.run("apply", "-auto-approve");
    expect(applied.status, applied.out).toBe(0);
    expect((await admin.listViews()).map((v) => v.name).sort()).toEqual(["tdv-logs-errors", "tdv-logs-slow"]);
    const live = await admin.getDashboard("tdv-health");
    expect(live.version).toBe(1);
    const clean = await ws.run("plan", "-detailed-exitcode");
    expect(clean.status, clean.out).toBe(0);

    const charts = (live.dashboard.charts as Record<string, unknown>[]).map((c, i) => (i === 0 ? { ...c, name: "Errors (edited)" } : c));
    const edited = await admin.updateDashboard("tdv-health", { dashboard: { ...live.dashboard, charts }, version: live.version });
    const drift = await ws.run("plan", "-detailed-exitcode");
    expect(drift.status, drift.out).toBe(2);
    expect(drift.out).toMatch(/ods_dashboard\.\S+ will be updated in-place/);
    expect(drift.out).toContain("Errors (edited)");

    ws.writeConfig(configOf({ ...options, errorsTitle: "5xx errors" }));
    const refused = await ws.run("apply", "-auto-approve");
    expect(refused.status).not.toBe(0);
    expect(refused.out.replace(/\s+/g, " ")).toContain(`changed by ${edited.dashboard.updatedBy} at ${edited.dashboard.updatedAt}`);
    expect((await admin.getDashboard("tdv-health")).version).toBe(2);

    ws.writeConfig(configOf({ ...options, errorsTitle: "5xx errors", overwrite: true }));
    const forced = await ws.run("apply", "-auto-approve");
    expect(forced.status, forced.out).toBe(0);
    const now = await admin.getDashboard("tdv-health");
    expect(now.version).toBe(3);
    expect((now.dashboard.charts as { name?: string }[])[0]!.name).toBe("5xx errors");
    const after = await ws.run("plan", "-detailed-exitcode");
    expect(after.status, after.out).toBe(0);

    ws.writeConfig(configOf({ ...options, errorsTitle: "Server errors" }));
    const next = await ws.run("apply", "-auto-approve");
    expect(next.status, next.out).toBe(0);
    expect((await admin.getDashboard("tdv-health")).version).toBe(4);
    const last = await ws.run("plan", "-detailed-exitcode");
    expect(last.status, last.out).toBe(0);
  });

  it("annotates what `terraform apply PLANFILE` changed with `ods annotate --changes-from`, and nothing when nothing changed", async () => {
    const ws = new TerraformWorkspace(cliConfig, { url: emu.url, token: emu.adminToken });
    const env = { ODS_URL: emu.url, ODS_TOKEN: emu.adminToken, CI_JOB_URL: "https://gitlab.example.com/o/r/-/jobs/11" };
    const annotate = async (): Promise<RunResult> => {
      expect((await ws.run("plan", "-out", "tfplan")).status).toBe(0);
      const applied = await ws.run("apply", "tfplan");
      expect(applied.status, applied.out).toBe(0);
      const shown = await ws.run("show", "-json", "tfplan");
      fs.writeFileSync(path.join(ws.dir, "plan.json"), shown.out);
      return runOds(["annotate", "--changes-from", path.join(ws.dir, "plan.json")], { env });
    };
    ws.writeConfig(configOf({ dataset: "tan-logs", uid: "tan-health" }));
    expect((await ws.run("init")).status).toBe(0);
    const first = await annotate();
    expect(first.code, first.stderr).toBe(0);
    const made = await admin.listAnnotations({ datasets: ["tan-logs"] });
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ type: "config-change", title: "terraform apply: 3 configuration changes (3 created)", url: "https://gitlab.example.com/o/r/-/jobs/11" });
    const again = await annotate();
    expect(again.code, again.stderr).toBe(0);
    expect(await admin.listAnnotations({ datasets: ["tan-logs"] })).toHaveLength(1);
  });
});
