// Views and a builder-made dashboard through `ods plan/apply` against the emulator over
// HTTP: applied, then plans clean; changed over HTTP by someone else, the plan shows the
// drift and the apply refuses naming who changed it and when; overwrite takes it over.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { dashboardStack } from "../helpers/dashboard-stack";
import { removeTempDirs, runOds, stackFlags, tempDir } from "../helpers/ods-cli";

let emu: EmulatorHandle;
let admin: OdsClient;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, dataDir: tempDir("ods-emu-") });
  admin = new OdsClient({ url: emu.url, token: emu.adminToken });
});
afterAll(async () => {
  await admin.close();
  await emu.close();
  removeTempDirs();
});

function writeMain(dir: string, json: Record<string, unknown>): void {
  const file = path.join(dir, "cdktf.out", "stacks", "main", "cdk.tf.json");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(json, null, 2));
}

function ods(dir: string, ...args: string[]): ReturnType<typeof runOds> {
  return runOds([...args, ...stackFlags(dir)], { env: { ODS_URL: emu.url, ODS_TOKEN: emu.adminToken } });
}

describe("ods: views and dashboards", () => {
  it("applies, plans clean, refuses to overwrite a change made since naming who made it, and takes over with overwrite", async () => {
    const dir = tempDir();
    const options = { dataset: "dv-logs", uid: "dv-health" };
    writeMain(dir, dashboardStack(options));
    const applied = await ods(dir, "apply", "--auto-approve");
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    const views = await admin.listViews();
    expect(views.map((v) => v.name).sort()).toEqual(["dv-logs-errors", "dv-logs-slow"]);
    const live = await admin.getDashboard("dv-health");
    expect(live.version).toBe(1);
    expect((live.dashboard.charts as { name?: string }[]).map((c) => c.name)).toEqual(["Errors", "p95 latency", undefined]);
    const clean = await ods(dir, "plan", "--detailed-exitcode");
    expect(clean.code, clean.stdout + clean.stderr).toBe(0);

    // Someone renames the first chart in the UI (the service's own write path).
    const charts = (live.dashboard.charts as Record<string, unknown>[]).map((c, i) => (i === 0 ? { ...c, name: "Errors (edited)" } : c));
    const edited = await admin.updateDashboard("dv-health", { dashboard: { ...live.dashboard, charts }, version: live.version });
    const drift = await ods(dir, "plan", "--detailed-exitcode");
    expect(drift.code, drift.stdout + drift.stderr).toBe(2);
    expect(drift.stdout).toMatch(/ods_dashboard\.\S+.*update/);
    expect(drift.stdout).toContain("Errors (edited)");

    // Our configuration changes too: the apply must not silently undo their edit.
    writeMain(dir, dashboardStack({ ...options, errorsTitle: "5xx errors" }));
    const refused = await ods(dir, "apply", "--auto-approve");
    expect(refused.code).not.toBe(0);
    const said = refused.stdout + refused.stderr;
    expect(said).toContain(`changed by ${edited.dashboard.updatedBy} at ${edited.dashboard.updatedAt}`);
    expect(said).toMatch(/overwrite = true/);
    expect((await admin.getDashboard("dv-health")).version).toBe(2);

    writeMain(dir, dashboardStack({ ...options, errorsTitle: "5xx errors", overwrite: true }));
    const forced = await ods(dir, "apply", "--auto-approve");
    expect(forced.code, forced.stdout + forced.stderr).toBe(0);
    const now = await admin.getDashboard("dv-health");
    expect(now.version).toBe(3);
    expect((now.dashboard.charts as { name?: string }[])[0]!.name).toBe("5xx errors");
    const after = await ods(dir, "plan", "--detailed-exitcode");
    expect(after.code, after.stdout + after.stderr).toBe(0);

    // The next change, with nobody else writing in between, needs no overwrite.
    writeMain(dir, dashboardStack({ ...options, errorsTitle: "Server errors" }));
    const next = await ods(dir, "apply", "--auto-approve");
    expect(next.code, next.stdout + next.stderr).toBe(0);
    expect((await admin.getDashboard("dv-health")).version).toBe(4);
  });
});
