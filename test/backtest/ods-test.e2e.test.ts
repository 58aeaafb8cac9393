// `ods test` on the example under examples/alert-tests: passes as committed, fails with a
// readable diff when the monitor's threshold changes, refuses a malformed file naming
// its line, and never prints the notifier's secret header.
import * as fs from "node:fs";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT, runOds, tempDir } from "../helpers/ods-cli";

const EXAMPLE = path.join(ROOT, "examples", "alert-tests");
const TESTS = path.join(EXAMPLE, "checkout.alerts.yaml");
const SECRET = "Bearer pager-s3cret-7781";
const env = { TF_VAR_pager_key: SECRET };
let outDir: string;

beforeAll(async () => {
  outDir = path.join(tempDir(), "cdktf.out");
  const synth = await runOds(["synth", "--out", outDir], { cwd: EXAMPLE });
  expect(synth.code, synth.stderr).toBe(0);
});

describe("ods test", () => {
  it("passes on the example", async () => {
    const r = await runOds(["test", TESTS, "--no-synth", "--out-dir", outDir], { env });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain("PASS  a burst of errors on /pay pages once and resolves (checkout.alerts.yaml:3)");
    expect(r.stdout).toContain("2 tests, 2 passed, 0 failed");
    expect(r.stdout + r.stderr).not.toContain(SECRET);
  });

  it("fails with a diff of expected against actual when the threshold changes", async () => {
    const changed = path.join(tempDir(), "cdktf.out");
    fs.cpSync(outDir, changed, { recursive: true });
    const file = path.join(changed, "stacks", "checkout", "cdk.tf.json");
    const stack = JSON.parse(fs.readFileSync(file, "utf8")) as { resource: { ods_monitor: { errors: { threshold: number } } } };
    stack.resource.ods_monitor.errors.threshold = 12;
    fs.writeFileSync(file, JSON.stringify(stack));
    const r = await runOds(["test", TESTS, "--no-synth", "--out-dir", changed], { env });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("FAIL  a burst of errors on /pay pages once and resolves (checkout.alerts.yaml:3)");
    expect(r.stdout).toContain("  ods_monitor.errors:\n    - expected alert opens at 15m, closes at 25m, group path=/pay\n    (the monitor raised no alert)");
    expect(r.stdout).toContain("2 tests, 1 passed, 1 failed");
    expect(r.stdout + r.stderr).not.toContain(SECRET);
  });

  it("refuses a malformed file with exit 2, naming the line", async () => {
    const bad = path.join(tempDir(), "bad.alerts.yaml");
    fs.writeFileSync(bad, fs.readFileSync(TESTS, "utf8").replace("every: 1m", "every: often"));
    const r = await runOds(["test", bad, "--no-synth", "--out-dir", outDir], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bad\.alerts\.yaml:10: tests\.0\.series\.0\.every: expected a duration like "15m"/);
  });
});
