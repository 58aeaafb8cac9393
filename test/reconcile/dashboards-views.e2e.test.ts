// Views and a builder-made dashboard through `ods plan/apply` against the emulator over
// HTTP: applied, then plans clean; changed over HTTP by someone else, the plan shows the
// drift and the apply refuses naming who changed it and when; overwrite takes it over.
// A document is reviewed by path in plan text, markdown, the JSON plan and drift. A typed
// dashboard's charts keep their identity: a chart inserted in front reads as one chart
// added (the others moving down the grid), never as every later chart renamed and
// retyped; a dashboard applied with the old positional ids (`chart-<n>`) reads as ids
// renamed, content unchanged, and is updated in place once.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DashboardChart } from "../../src";
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

type Synth = Record<string, unknown> & { resource: { ods_dashboard: Record<string, { dashboard: string }> } };

function odsNoBacktest(dir: string, ...args: string[]): ReturnType<typeof runOds> {
  return ods(dir, ...args, "--no-backtest");
}

/** The document lines of a plan's text (`+ charts[...] added`, `~ layout[...] moved ...`). */
function chartLines(stdout: string): string[] {
  return stdout
    .split("\n")
    .filter((l) => /^\s+[~+-] (charts|layout)\[/.test(l))
    .map((l) => l.trim());
}

function resourceChanges(stdout: string): Record<string, unknown>[] {
  const plan = JSON.parse(stdout) as { stacks?: { resource_changes: Record<string, unknown>[] }[]; resource_changes?: Record<string, unknown>[] };
  return plan.resource_changes ?? plan.stacks!.flatMap((s) => s.resource_changes);
}

const failing = (): DashboardChart =>
  DashboardChart.topK({ name: "Top failing paths", apl: "['ci-logs'] | where status >= 500 | summarize count() by path", width: 12 });

describe("a typed dashboard's charts keep their identity", () => {
  it("reads a chart inserted in front as one chart added, in text, markdown and JSON", async () => {
    const dir = tempDir();
    const options = { dataset: "ci-logs", uid: "ci-health" };
    writeMain(dir, dashboardStack(options));
    const applied = await odsNoBacktest(dir, "apply", "--auto-approve");
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    const live = await admin.getDashboard("ci-health");
    expect((live.dashboard.charts as { id: string }[]).map((c) => c.id)).toEqual(["timeseries-errors", "statistic-p95-latency", "note"]);

    writeMain(dir, dashboardStack({ ...options, firstChart: failing() }));
    const text = await odsNoBacktest(dir, "plan");
    expect(text.code, text.stdout + text.stderr).toBe(0);
    expect(chartLines(text.stdout)).toEqual([
      `+ charts[topk-top-failing-paths] added: {"name":"Top failing paths","query":{"apl":"['ci-logs'] | where status >= 500 | summarize count() by path"},"type":"TopK"}`,
      `+ layout[topk-top-failing-paths] added: {"h":4,"w":12,"x":0,"y":0}`,
      "~ layout[timeseries-errors] moved from x 0, y 0 to x 0, y 4",
      "~ layout[statistic-p95-latency] moved from x 8, y 0 to x 8, y 4",
      "~ layout[note] moved from x 0, y 4 to x 0, y 8",
    ]);

    const markdown = await odsNoBacktest(dir, "plan", "--format", "markdown");
    expect(markdown.code, markdown.stdout + markdown.stderr).toBe(0);
    expect(markdown.stdout).toContain("dashboard: charts[topk-top-failing-paths] (added), layout[topk-top-failing-paths] (added), layout[timeseries-errors] (moved), layout[statistic-p95-latency] (moved), layout[note] (moved)");
    expect(markdown.stdout).toContain("+ charts[topk-top-failing-paths] added: ");
    expect(markdown.stdout).not.toMatch(/charts\[[^\]]+\]\.(name|type)/);

    const json = await odsNoBacktest(dir, "plan", "--json");
    const change = resourceChanges(json.stdout).find((c) => String(c.address).startsWith("ods_dashboard."))!;
    const docChanges = (change.document_changes as { dashboard: { path: string; action: string }[] }).dashboard;
    expect(docChanges.map((c) => `${c.action} ${c.path}`)).toEqual([
      "create charts[topk-top-failing-paths]",
      "create layout[topk-top-failing-paths]",
      "move layout[timeseries-errors]",
      "move layout[statistic-p95-latency]",
      "move layout[note]",
    ]);

    const inserted = await odsNoBacktest(dir, "apply", "--auto-approve");
    expect(inserted.code, inserted.stdout + inserted.stderr).toBe(0);
    const clean = await odsNoBacktest(dir, "plan", "--detailed-exitcode");
    expect(clean.code, clean.stdout + clean.stderr).toBe(0);
  });

  it("reads a dashboard applied with positional ids as ids renamed, and updates it in place once", async () => {
    const dir = tempDir();
    const options = { dataset: "mig-logs", uid: "mig-health" };
    // What the builder wrote before ids came from the charts: chart-1, chart-2, ...
    const positional = dashboardStack(options) as Synth;
    for (const res of Object.values(positional.resource.ods_dashboard)) {
      const doc = JSON.parse(res.dashboard) as { charts: { id: string }[]; layout: { i: string }[] };
      doc.charts.forEach((c, n) => (c.id = `chart-${n + 1}`));
      doc.layout.forEach((l, n) => (l.i = `chart-${n + 1}`));
      res.dashboard = JSON.stringify(doc, null, 2);
    }
    writeMain(dir, positional);
    const old = await odsNoBacktest(dir, "apply", "--auto-approve");
    expect(old.code, old.stdout + old.stderr).toBe(0);
    const before = await admin.getDashboard("mig-health");

    writeMain(dir, dashboardStack(options));
    const text = await odsNoBacktest(dir, "plan");
    expect(text.code, text.stdout + text.stderr).toBe(0);
    expect(text.stdout).toMatch(/ods_dashboard\.\S+ will be updated in place/);
    expect(text.stdout).not.toContain("replaced");
    expect(chartLines(text.stdout)).toEqual([
      "~ charts[chart-1] renamed to timeseries-errors (content unchanged)",
      "~ charts[chart-2] renamed to statistic-p95-latency (content unchanged)",
      "~ charts[chart-3] renamed to note (content unchanged)",
      "~ layout[chart-1] renamed to timeseries-errors (content unchanged)",
      "~ layout[chart-2] renamed to statistic-p95-latency (content unchanged)",
      "~ layout[chart-3] renamed to note (content unchanged)",
    ]);
    const applied = await odsNoBacktest(dir, "apply", "--auto-approve");
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    const after = await admin.getDashboard("mig-health");
    expect(after.version).toBe(before.version + 1);
    expect((after.dashboard.charts as { id: string }[]).map((c) => c.id)).toEqual(["timeseries-errors", "statistic-p95-latency", "note"]);
    const clean = await odsNoBacktest(dir, "plan", "--detailed-exitcode");
    expect(clean.code, clean.stdout + clean.stderr).toBe(0);
  });
});
