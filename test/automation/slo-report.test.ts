// The automation API's sloReport() and `ods slo report --format json` on examples/slo,
// synthesized and applied through the API: the same SLOs, the same figures.
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { Workspace } from "../../src/automation";
import { ROOT, runOds, tempDir } from "../helpers/ods-cli";

let emulator: EmulatorHandle;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, dataDir: tempDir("ods-automation-slo-") });
});

afterAll(async () => {
  await emulator?.close();
});

/** Figures without the instants the two reads were made at. */
function timeless(slos: Record<string, unknown>[]): Record<string, unknown>[] {
  return slos.map(({ from: _from, to: _to, ...rest }) => rest);
}

describe("sloReport()", () => {
  it("answers what ods slo report --format json prints for the same stack", { timeout: 180_000 }, async () => {
    const project = tempDir("ods-automation-slo-project-");
    const outDir = path.join(project, "cdktf.out");
    const env = { ...process.env, ODS_URL: emulator.url, ODS_TOKEN: emulator.adminToken };
    // The example's app runs in a project of its own: cdktf writes the local backend's path
    // from the app's directory, so the state stays there, out of the repository.
    const app = `node ${path.join(ROOT, "examples/slo/main.js")}`;
    const synthesized = new Workspace({ dir: project, app, env });
    const applied = await synthesized.apply({ autoApprove: true, backtestDays: false });
    expect(applied.failed).toBe(false);
    const workspace = new Workspace({ dir: project, synth: false, env });
    const report = await workspace.sloReport();
    expect(report.slos.length).toBeGreaterThan(0);
    expect(report.notApplied).toEqual([]);
    const stack = applied.stacks[0].stack;
    const cli = await runOds(["slo", "report", "--stack", stack, "--format", "json", "--no-synth", "--out-dir", outDir], { cwd: project, env: { ODS_URL: emulator.url, ODS_TOKEN: emulator.adminToken } });
    expect(cli.code, cli.stderr).toBe(0);
    const printed = JSON.parse(cli.stdout) as { slos: Record<string, unknown>[]; notApplied: string[] };
    expect(printed.notApplied).toEqual(report.notApplied);
    expect(timeless(printed.slos)).toEqual(timeless(JSON.parse(JSON.stringify(report.slos)) as Record<string, unknown>[]));
  });
});
