// Views and a builder-made dashboard through `ods plan/apply` against the emulator over
// HTTP: applied, then plans clean; changed over HTTP by someone else, the plan shows the
// drift and the apply refuses naming who changed it and when; overwrite takes it over.
// A document is reviewed by path in plan text, markdown, the JSON plan and drift.
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

function document(o: { name: string; width: number; note?: string }): Record<string, unknown> {
  return {
    name: "Checkout",
    owner: "X-AXIOM-EVERYONE",
    charts: [
      { id: "c1", type: "TimeSeries", name: o.name, query: { apl: "['dd-logs'] | summarize count() by bin(_time, 1m)" } },
      { id: "c2", type: "Note", text: o.note ?? "runbook" },
    ],
    layout: [
      { i: "c1", x: 0, y: 0, w: o.width, h: 4 },
      { i: "c2", x: 0, y: 4, w: 12, h: 2 },
    ],
    refreshTime: 60,
    schemaVersion: 2,
    timeWindowStart: "qr-now-1h",
    timeWindowEnd: "qr-now",
  };
}

function writeDocumentStack(dir: string, doc: Record<string, unknown>): void {
  writeMain(
    dir,
    {
      provider: { ods: [{}] },
      resource: {
        ods_dataset: { logs: { name: "dd-logs", allow_destroy: true } },
        ods_dashboard: { checkout: { uid: "dd-checkout", dashboard: JSON.stringify(doc, null, 2) } },
      },
    },
  );
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

describe("a JSON document diffs by path", () => {
  it("in plan text, markdown, the JSON plan and drift, never as an escaped string", async () => {
    const dir = tempDir();
    writeDocumentStack(dir, document({ name: "errors", width: 6 }));
    const applied = await ods(dir, "apply", "--auto-approve", "--no-backtest");
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);

    writeDocumentStack(dir, document({ name: "server errors", width: 8 }));
    const text = await ods(dir, "plan", "--no-backtest");
    expect(text.code, text.stdout + text.stderr).toBe(0);
    expect(text.stdout).toContain(`~ charts[c1].name: "errors" -> "server errors"`);
    expect(text.stdout).toContain("~ layout[c1].w: 6 -> 8");
    expect(text.stdout).toContain("dashboard (JSON document, 2 paths)");
    expect(text.stdout).not.toContain('\\"');
    expect(text.stdout).not.toContain("\\n");

    const markdown = await ods(dir, "plan", "--no-backtest", "--format", "markdown");
    expect(markdown.stdout).toContain("dashboard: charts[c1].name, layout[c1].w");
    expect(markdown.stdout).toContain(`~ layout[c1].w: 6 -> 8`);

    const json = await ods(dir, "plan", "--no-backtest", "--json");
    const plan = JSON.parse(json.stdout) as { stacks?: { resource_changes: Record<string, unknown>[] }[]; resource_changes?: Record<string, unknown>[] };
    const changes = plan.resource_changes ?? plan.stacks!.flatMap((s) => s.resource_changes);
    const change = changes.find((c) => c.address === "ods_dashboard.checkout")!;
    expect(change.document_changes).toEqual({
      dashboard: [
        { path: "charts[c1].name", action: "update", before: "errors", after: "server errors" },
        { path: "layout[c1].w", action: "update", before: 6, after: 8 },
      ],
    });

    // Someone edits the note in the UI: drift says where.
    writeDocumentStack(dir, document({ name: "errors", width: 6 }));
    const live = await admin.getDashboard("dd-checkout");
    const charts = (live.dashboard.charts as Record<string, unknown>[]).map((c) => (c.id === "c2" ? { ...c, text: "see the wiki" } : c));
    await admin.updateDashboard("dd-checkout", { dashboard: { ...live.dashboard, charts }, version: live.version });
    const drift = await ods(dir, "drift");
    expect(drift.code, drift.stdout + drift.stderr).toBe(2);
    expect(drift.stdout).toContain(`~ charts[c2].text: "runbook" -> "see the wiki"`);
    expect(drift.stdout).toContain("Drift detected (1)");
    expect(drift.stdout).not.toContain("\\n");
  });
});
