// `ods test` expects an SLO's alerts by the SLO's construct path and severity, on the example
// under examples/slo: overlapping alerts of the severity's monitors are one episode; a
// looser objective fails the test with a diff; an unknown path or a missing severity is named.
import * as fs from "node:fs";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT, runOds, tempDir } from "../helpers/ods-cli";

const EXAMPLE = path.join(ROOT, "examples", "slo");
const TESTS = path.join(EXAMPLE, "slo.alerts.yaml");
let outDir: string;

beforeAll(async () => {
  outDir = path.join(tempDir(), "cdktf.out");
  const synth = await runOds(["synth", "--out", outDir], { cwd: EXAMPLE });
  expect(synth.code, synth.stderr).toBe(0);
});

describe("ods test with SLO expectations", () => {
  it("passes on the example: one page episode from 63m to 100m, one ticket from 75m", async () => {
    const r = await runOds(["test", TESTS, "--no-synth", "--out-dir", outDir]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain("PASS  a 10-minute outage pages once and opens a ticket (slo.alerts.yaml:5)");
  }, 120_000);

  it("fails with a diff when the generated monitors change (the page pairs' factors doubled)", async () => {
    const changed = path.join(tempDir(), "cdktf.out");
    fs.cpSync(outDir, changed, { recursive: true });
    const file = path.join(changed, "stacks", "checkout-slo", "cdk.tf.json");
    const stack = JSON.parse(fs.readFileSync(file, "utf8")) as { resource: { ods_monitor: Record<string, { name: string; threshold: number }> } };
    for (const m of Object.values(stack.resource.ods_monitor)) if (m.name.includes(": page ")) m.threshold *= 2;
    fs.writeFileSync(file, JSON.stringify(stack));
    const r = await runOds(["test", TESTS, "--no-synth", "--out-dir", changed]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("  availability (page):\n    - expected alert opens at 1h3m, closes at 1h40m");
  }, 120_000);

  it("names an SLO path the stack does not have, and refuses a missing severity with exit 2", async () => {
    const unknown = path.join(tempDir(), "unknown.alerts.yaml");
    fs.writeFileSync(unknown, fs.readFileSync(TESTS, "utf8").replace("- slo: availability\n        severity: page", "- slo: latency\n        severity: page"));
    const r = await runOds(["test", unknown, "--no-synth", "--out-dir", outDir]);
    // Like a monitor the stack lacks: a mistake in the file, refused before any test runs.
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown\.alerts\.yaml:\d+: tests\.0\.expect\.\d+\.slo: latency is not an slo\.Slo of stack checkout-slo \(SLOs: availability\)/);
    expect(r.stdout).not.toContain("(stack checkout-slo)");

    const bad = path.join(tempDir(), "bad.alerts.yaml");
    fs.writeFileSync(bad, fs.readFileSync(TESTS, "utf8").replace("severity: ticket", "severity: warning"));
    const b = await runOds(["test", bad, "--no-synth", "--out-dir", outDir]);
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/bad\.alerts\.yaml:33: tests\.0\.expect\.1\.severity: expected page or ticket, got "warning"/);
  }, 120_000);
});
