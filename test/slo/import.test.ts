// `ods slo import`: the OpenSLO v1 example becomes TypeScript that type-checks against the
// package and, run, declares the same SLO as the file (objective, window, filters, the
// window pairs and who is notified); a malformed file exits 2 naming its line.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { TerraformStack, Testing } from "cdktf";
import * as ts from "typescript";
import { describe, expect, it } from "vitest";
import * as pkg from "../../src";
import { importOpenSlo, SloImportError, sloTypeScript } from "../../src/cli/slo-import";
import { ROOT, runOds, tempDir } from "../helpers/ods-cli";

const FILE = path.join(ROOT, "examples", "slo", "checkout.openslo.yaml");

/** Runs the generated module against this checkout's constructs: answers the synthesized monitors. */
function runGenerated(code: string): Record<string, { name: string; threshold: number; range_minutes: number; notifier_ids?: string[]; apl_query: string }> {
  const js = ts.transpileModule(code, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
  const exports: Record<string, unknown> = {};
  const load = (name: string): unknown => (name === "cdktf-provider-ods" ? pkg : name === "constructs" ? require("constructs") : undefined);
  new Function("require", "exports", js)(load, exports);
  const app = Testing.app();
  const stack = new TerraformStack(app, "main");
  new pkg.provider.OdsProvider(stack, "ods", {});
  (exports.addSlos as (s: TerraformStack, t: Record<string, string>) => unknown)(stack, { pager: "pager-id", "team-mail": "mail-id" });
  return (JSON.parse(Testing.synth(stack)) as { resource: { ods_monitor: ReturnType<typeof runGenerated> } }).resource.ods_monitor;
}

describe("ods slo import", () => {
  it("reads the SLO, its SLI by reference and its alert policies (inline conditions and by reference)", () => {
    const [s] = importOpenSlo(FILE, fs.readFileSync(FILE, "utf8"));
    expect(s).toEqual({
      id: "checkout-availability",
      name: "checkout availability",
      description: "Payments answered without a server error.",
      dataset: "checkout-logs",
      badFilter: "status >= 500",
      totalFilter: "path startswith '/pay'",
      objectivePercent: 99.9,
      windowDays: 28,
      windows: [
        { severity: "page", longWindow: "1h", shortWindow: "5m", factor: 13.44 },
        { severity: "page", longWindow: "6h", shortWindow: "30m", factor: 5.6 },
        // No alertAfter: the short window is a twelfth of the long one.
        { severity: "ticket", longWindow: "3d", shortWindow: "6h", factor: 0.9333 },
      ],
      pageTargets: ["pager"],
      ticketTargets: ["team-mail"],
      labels: { team: "checkout", service: "checkout" },
    });
  });

  it("writes TypeScript that, run, declares those monitors", () => {
    const monitors = Object.values(runGenerated(sloTypeScript("checkout.openslo.yaml", importOpenSlo(FILE, fs.readFileSync(FILE, "utf8")))));
    expect(monitors.map((m) => [m.name, m.threshold, m.range_minutes, m.notifier_ids])).toEqual([
      ["SLO checkout availability: page 1h/5m", 13.44, 60, ["pager-id"]],
      ["SLO checkout availability: page 6h/30m", 5.6, 360, ["pager-id"]],
      ["SLO checkout availability: ticket 3d/6h", 0.9333, 4320, ["mail-id"]],
    ]);
    expect(monitors[0].apl_query).toContain("/ 0.001");
  });

  it("a good metric counts its complement as bad", () => {
    const text = fs.readFileSync(FILE, "utf8").replace("    bad:\n", "    good:\n").replace("filter: status >= 500", "filter: status < 500");
    expect(importOpenSlo(FILE, text)[0].badFilter).toBe("not (status < 500)");
  });

  it("the TypeScript it writes type-checks against the package's declarations", async () => {
    const dir = tempDir("ods-slo-import-");
    const out = path.join(dir, "slos.ts");
    const r = await runOds(["slo", "import", FILE, "--out", out]);
    expect(r.code, r.stderr).toBe(0);
    fs.writeFileSync(
      path.join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true, noEmit: true, target: "ES2022", module: "commonjs", moduleResolution: "node", skipLibCheck: true, baseUrl: ".",
          paths: { "cdktf-provider-ods": [path.join(ROOT, "lib/index.d.ts")], cdktf: [path.join(ROOT, "node_modules/cdktf")], constructs: [path.join(ROOT, "node_modules/constructs")] },
          typeRoots: [path.join(ROOT, "node_modules/@types")], types: ["node"],
        },
        files: ["slos.ts"],
      }),
    );
    const tsc = spawnSync(process.execPath, [path.join(ROOT, "node_modules/typescript/bin/tsc"), "-p", dir], { encoding: "utf8" });
    expect(tsc.status, tsc.stdout + tsc.stderr).toBe(0);
  }, 120_000);

  it("reports every problem of the file with its line, in one run", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ods-slo-bad-"));
    const bad = path.join(dir, "bad.yaml");
    const text = fs.readFileSync(FILE, "utf8")
      .replace("threshold: 5.6", "threshold: fast")
      .replace("type: ods\n        spec:\n          dataset: checkout-logs\n          filter: status", "type: prometheus\n        spec:\n          dataset: checkout-logs\n          filter: status")
      .replace("target: 0.999", "target: 1");
    fs.writeFileSync(bad, text);
    const r = await runOds(["slo", "import", bad]);
    expect(r.code).toBe(2);
    const lines = r.stderr.trim().split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^ods slo import: .*bad\.yaml:12: spec\.ratioMetric\.bad\.metricSource\.type: expected type "ods", got "prometheus"$/);
    expect(lines[1]).toMatch(/bad\.yaml:39: spec\.objectives\.0\.target: expected a target in \(0, 1\) or a targetPercent, got 1$/);
    expect(lines[2]).toMatch(/bad\.yaml:74: spec\.condition\.threshold: expected a burn rate above 0, got "fast"$/);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("reports every problem within one alert condition, each with its line", () => {
    const text = fs.readFileSync(FILE, "utf8").replace("threshold: 5.6", "threshold: fast").replace("lookbackWindow: 6h", "lookbackWindow: soon");
    let thrown: unknown;
    try {
      importOpenSlo("bad.yaml", text);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(SloImportError);
    expect((thrown as SloImportError).message.split("\n")).toEqual([
      'bad.yaml:74: spec.condition.threshold: expected a burn rate above 0, got "fast"',
      'bad.yaml:75: spec.condition.lookbackWindow: expected a duration like "1h", got "soon"',
    ]);
  });

  it.each([
    ["a threshold that is not a number", ["threshold: 5.6", "threshold: fast"], /:74: spec\.condition\.threshold: expected a burn rate above 0, got "fast"/],
    ["a metric source of another type", ["type: ods\n        spec:\n          dataset: checkout-logs\n          filter: status", "type: prometheus\n        spec:\n          dataset: checkout-logs\n          filter: status"], /:12: spec\.ratioMetric\.bad\.metricSource\.type: expected type "ods", got "prometheus"/],
    ["a target of 1", ["target: 0.999", "target: 1"], /:39: spec\.objectives\.0\.target: expected a target in \(0, 1\) or a targetPercent, got 1/],
    ["a YAML error", ["  name: fast-6h", "  name: [fast-6h"], /:69: Flow sequence/],
  ])("refuses %s with exit 2, naming the line", async (_name, [from, to], message) => {
    const bad = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "ods-slo-bad-")), "bad.yaml");
    const text = fs.readFileSync(FILE, "utf8");
    expect(text).toContain(from);
    fs.writeFileSync(bad, text.replace(from, to));
    const r = await runOds(["slo", "import", bad]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(new RegExp(`ods slo import: ${bad.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}${message.source}`));
    fs.rmSync(path.dirname(bad), { recursive: true, force: true });
  });
});
