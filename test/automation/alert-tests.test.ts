// The automation API's test() and `ods test` on examples/alert-tests: the same verdicts,
// the same report; a file naming a monitor the stack lacks is a StackProblem.
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { StackProblem, Workspace } from "../../src/automation";
import { ROOT, runOds, tempDir } from "../helpers/ods-cli";

const EXAMPLE = path.join(ROOT, "examples/alert-tests");

describe("test()", () => {
  it("answers the verdicts and the report ods test prints for the same files", { timeout: 300_000 }, async () => {
    const dir = tempDir("ods-automation-alerts-");
    const outDir = path.join(dir, "cdktf.out");
    const file = path.join(EXAMPLE, "checkout.alerts.yaml");
    // The example's app runs in a project of its own (nothing is written into the example).
    const workspace = new Workspace({ dir, app: `node ${path.join(EXAMPLE, "main.js")}` });
    const result = await workspace.test([file]);
    expect(result.files.map((f) => path.basename(f.file))).toEqual(["checkout.alerts.yaml"]);
    expect(result.files[0].tests.length).toBeGreaterThan(0);
    expect(result.passed).toBe(result.files.every((f) => f.tests.every((t) => t.passed)));
    const cli = await runOds(["test", file, "--no-synth", "--out-dir", outDir], { cwd: dir, timeoutMs: 240_000 });
    expect(cli.code, cli.stderr).toBe(result.passed ? 0 : 1);
    expect(cli.stdout).toContain(result.files[0].report);
  });

  it("refuses a file naming a monitor the stack lacks, naming the file and line", { timeout: 120_000 }, async () => {
    const dir = tempDir("ods-automation-alerts-bad-");
    const file = path.join(dir, "wrong.alerts.yaml");
    const text = fs.readFileSync(path.join(EXAMPLE, "checkout.alerts.yaml"), "utf8").replace(/monitor: (\S+)/, "monitor: ods_monitor.no_such_monitor");
    fs.writeFileSync(file, text);
    const error = await new Workspace({ dir, app: `node ${path.join(EXAMPLE, "main.js")}` }).test([file]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StackProblem);
    expect((error as StackProblem).problems.join("\n")).toMatch(/wrong\.alerts\.yaml:\d+: .*no_such_monitor/);
  });
});
