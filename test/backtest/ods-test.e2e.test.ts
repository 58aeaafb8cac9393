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

  it("takes its stacks from manifest.json only: a directory an earlier synth left is named in a note, and --warnings-as-errors fails on a warning", async () => {
    const withStale = path.join(tempDir(), "cdktf.out");
    fs.cpSync(outDir, withStale, { recursive: true });
    const stale = path.join(withStale, "stacks", "removed-stack");
    fs.cpSync(path.join(withStale, "stacks", "checkout"), stale, { recursive: true });
    const r = await runOds(["test", TESTS, "--no-synth", "--out-dir", withStale], { env });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain("2 tests, 2 passed, 0 failed");
    expect(r.stderr).toContain(`Note: ${stale} is not in manifest.json (left by an earlier synth); ignored`);
    // A resource ods does not manage is skipped with a warning: strict, that fails the run.
    const file = path.join(withStale, "stacks", "checkout", "cdk.tf.json");
    const stack = JSON.parse(fs.readFileSync(file, "utf8")) as { resource: Record<string, unknown> };
    stack.resource.null_resource = { other: {} };
    fs.writeFileSync(file, JSON.stringify(stack));
    const strict = await runOds(["test", TESTS, "--no-synth", "--out-dir", withStale, "--warnings-as-errors"], { env });
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain("Warning: skipping null_resource.other");
    expect(strict.stderr).toContain("--warnings-as-errors: 1 warning while testing");
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

  // Lines of checkout.alerts.yaml: 21 and 35 are the expectations' `monitor`, 24 the first alert's `closes`, 38 the last alert's `opens`.
  it.each([
    ["a monitor the stack lacks", (t: string) => t.replace("monitor: ods_monitor.errors", "monitor: ods_monitor.latency"), 21, /tests\.0\.expect\.0\.monitor: "ods_monitor\.latency" is not a monitor of stack checkout \(its monitors: ods_monitor\.errors \(errors\), ods_monitor\.refusals \(refusals\)\)/],
    ["a construct path the stack lacks", (t: string) => t.replace("monitor: ods_monitor.refusals", "monitor: checkout/latency"), 35, /tests\.1\.expect\.0\.monitor: "checkout\/latency" is not a monitor of stack checkout/],
    ["an alert that closes before it opens", (t: string) => t.replace("closes: 25m", "closes: 10m"), 24, /tests\.0\.expect\.0\.alerts\.0\.closes: an alert cannot close \(at 10m\) before it opens \(at 15m\)/],
    ["an alert that opens after the test ends", (t: string) => t.replace("opens: 5m", "opens: 15m"), 38, /tests\.1\.expect\.0\.alerts\.1\.opens: an alert opening at 15m cannot be seen: the test lasts 10m/],
    ["an unknown key", (t: string) => t.replace("closes: 25m", "closed: 25m"), 24, /tests\.0\.expect\.0\.alerts\.0\.closed: unknown key; expected one of opens, closes, group, notification/],
  ])("refuses %s with exit 2, naming the file and line, and runs nothing", async (_what, edit, line, message) => {
    const bad = path.join(tempDir(), "impossible.alerts.yaml");
    fs.writeFileSync(bad, edit(fs.readFileSync(TESTS, "utf8")));
    const r = await runOds(["test", bad, "--no-synth", "--out-dir", outDir], { env });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toContain(`${bad}:${line}: `);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).not.toMatch(/PASS|FAIL/);
  });

  it("prints the body delivered when a notification lacks a text, its secrets as (sensitive)", async () => {
    // The pager's body carries the key too (as an incident service's routing key would).
    const changed = path.join(tempDir(), "cdktf.out");
    fs.cpSync(outDir, changed, { recursive: true });
    const file = path.join(changed, "stacks", "checkout", "cdk.tf.json");
    const stack = JSON.parse(fs.readFileSync(file, "utf8")) as { resource: { ods_notifier: { pager: { properties: { custom_webhook: { body: string } } } } } };
    stack.resource.ods_notifier.pager.properties.custom_webhook.body = '{"what":"{{.Title}}","action":"{{.Action}}","key":"${var.pager_key}"}';
    fs.writeFileSync(file, JSON.stringify(stack));
    const tests = path.join(tempDir(), "contains.alerts.yaml");
    fs.writeFileSync(tests, fs.readFileSync(TESTS, "utf8").replace(`'"what":"checkout 5xx"'`, `'"what":"checkout 4xx"'`));
    const r = await runOds(["test", tests, "--no-synth", "--out-dir", changed], { env });
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stdout).toContain(`its notification lacks ${JSON.stringify('"what":"checkout 4xx"')}`);
    expect(r.stdout).toContain(`      delivered: {"what":"checkout 5xx","action":"Open","key":"(sensitive)"}`);
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
