// Charts of a builder-made dashboard keep their identity through `ods plan` against the
// emulator over HTTP: a chart inserted in front reads as one chart added (and the others
// moving down the grid) in plan text, markdown and the JSON plan, never as every later
// chart renamed and retyped; a dashboard applied with the old positional ids
// (`chart-<n>`) reads as ids renamed, content unchanged, and is updated in place once.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { DashboardChart } from "../../src";
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

type Synth = Record<string, unknown> & { resource: { ods_dashboard: Record<string, { dashboard: string }> } };

function writeMain(dir: string, json: Record<string, unknown>): void {
  const file = path.join(dir, "cdktf.out", "stacks", "main", "cdk.tf.json");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(json, null, 2));
}

function ods(dir: string, ...args: string[]): ReturnType<typeof runOds> {
  return runOds([...args, "--no-backtest", ...stackFlags(dir)], { env: { ODS_URL: emu.url, ODS_TOKEN: emu.adminToken } });
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
    const applied = await ods(dir, "apply", "--auto-approve");
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    const live = await admin.getDashboard("ci-health");
    expect((live.dashboard.charts as { id: string }[]).map((c) => c.id)).toEqual(["timeseries-errors", "statistic-p95-latency", "note"]);

    writeMain(dir, dashboardStack({ ...options, firstChart: failing() }));
    const text = await ods(dir, "plan");
    expect(text.code, text.stdout + text.stderr).toBe(0);
    const docLines = text.stdout.split("\n").filter((l) => /^\s+[~+-] (charts|layout)\[/.test(l)).map((l) => l.trim());
    expect(docLines).toEqual([
      `+ charts[topk-top-failing-paths] added: {"name":"Top failing paths","query":{"apl":"['ci-logs'] | where status >= 500 | summarize count() by path"},"type":"TopK"}`,
      `+ layout[topk-top-failing-paths] added: {"h":4,"w":12,"x":0,"y":0}`,
      "~ layout[timeseries-errors] moved from x 0, y 0 to x 0, y 4",
      "~ layout[statistic-p95-latency] moved from x 8, y 0 to x 8, y 4",
      "~ layout[note] moved from x 0, y 4 to x 0, y 8",
    ]);

    const markdown = await ods(dir, "plan", "--format", "markdown");
    expect(markdown.code, markdown.stdout + markdown.stderr).toBe(0);
    expect(markdown.stdout).toContain("dashboard: charts[topk-top-failing-paths] (added), layout[topk-top-failing-paths] (added), layout[timeseries-errors] (moved), layout[statistic-p95-latency] (moved), layout[note] (moved)");
    expect(markdown.stdout).toContain("+ charts[topk-top-failing-paths] added: ");
    expect(markdown.stdout).not.toMatch(/charts\[[^\]]+\]\.(name|type)/);

    const json = await ods(dir, "plan", "--json");
    const change = resourceChanges(json.stdout).find((c) => String(c.address).startsWith("ods_dashboard."))!;
    const docChanges = (change.document_changes as { dashboard: { path: string; action: string }[] }).dashboard;
    expect(docChanges.map((c) => `${c.action} ${c.path}`)).toEqual([
      "create charts[topk-top-failing-paths]",
      "create layout[topk-top-failing-paths]",
      "move layout[timeseries-errors]",
      "move layout[statistic-p95-latency]",
      "move layout[note]",
    ]);

    const inserted = await ods(dir, "apply", "--auto-approve");
    expect(inserted.code, inserted.stdout + inserted.stderr).toBe(0);
    const clean = await ods(dir, "plan", "--detailed-exitcode");
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
    const old = await ods(dir, "apply", "--auto-approve");
    expect(old.code, old.stdout + old.stderr).toBe(0);
    const before = await admin.getDashboard("mig-health");

    writeMain(dir, dashboardStack(options));
    const text = await ods(dir, "plan");
    expect(text.code, text.stdout + text.stderr).toBe(0);
    expect(text.stdout).toMatch(/ods_dashboard\.\S+ will be updated in place/);
    expect(text.stdout).not.toContain("replaced");
    const docLines = text.stdout.split("\n").filter((l) => /^\s+[~+-] (charts|layout)\[/.test(l)).map((l) => l.trim());
    expect(docLines).toEqual([
      "~ charts[chart-1] renamed to timeseries-errors (content unchanged)",
      "~ charts[chart-2] renamed to statistic-p95-latency (content unchanged)",
      "~ charts[chart-3] renamed to note (content unchanged)",
      "~ layout[chart-1] renamed to timeseries-errors (content unchanged)",
      "~ layout[chart-2] renamed to statistic-p95-latency (content unchanged)",
      "~ layout[chart-3] renamed to note (content unchanged)",
    ]);
    const applied = await ods(dir, "apply", "--auto-approve");
    expect(applied.code, applied.stdout + applied.stderr).toBe(0);
    const after = await admin.getDashboard("mig-health");
    expect(after.version).toBe(before.version + 1);
    expect((after.dashboard.charts as { id: string }[]).map((c) => c.id)).toEqual(["timeseries-errors", "statistic-p95-latency", "note"]);
    const clean = await ods(dir, "plan", "--detailed-exitcode");
    expect(clean.code, clean.stdout + clean.stderr).toBe(0);
  });
});
