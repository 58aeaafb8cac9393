#!/usr/bin/env node
// `npm run test:jsii-targets` (CI runs it after npm test): jsii-pacmak --code-only for every
// target named in package.json's jsii.targets, then a check that each produced the
// sources of every construct. Building the packages themselves (pip wheel, mvn, dotnet
// pack, go build) needs PyPI, Maven Central, NuGet or the Go proxy, which are not
// reachable here: code generation is what can be proven offline.
"use strict";
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "..");
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
const targets = pkg.jsii.targets;

function files(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

/** What each target must have produced: a source file per construct class, in its own layout. */
const EXPECTED = {
  python: (out) => ({ dir: path.join(out, "python/src", targets.python.module), file: (ns) => `${ns.replace(/-/g, "_")}/__init__.py` }),
  java: (out) => ({ dir: path.join(out, "java/src/main/java", ...targets.java.package.split(".")), file: (ns, cls) => `${ns.replace(/-/g, "_")}/${cls}.java` }),
  dotnet: (out) => ({ dir: path.join(out, "dotnet", targets.dotnet.packageId, ...targets.dotnet.namespace.split(".")), file: (ns, cls) => `${pascal(ns)}/${cls}.cs` }),
  go: (out) => ({ dir: path.join(out, "go", targets.go.packageName), file: (ns, cls) => `${ns.replace(/-/g, "")}/${cls}.go` }),
};

const pascal = (s) => s.split("-").map((w) => w[0].toUpperCase() + w.slice(1)).join("");

function main() {
  const missingTargets = Object.keys(EXPECTED).filter((t) => !targets[t]);
  if (missingTargets.length) throw new Error(`package.json jsii.targets lacks ${missingTargets.join(", ")}`);
  if (!fs.existsSync(path.join(ROOT, ".jsii"))) throw new Error(".jsii is missing: run npm run jsii first");
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "ods-pacmak-"));
  try {
    const started = Date.now();
    const r = spawnSync(process.execPath, [path.join(ROOT, "node_modules/jsii-pacmak/bin/jsii-pacmak"), "--code-only", "--outdir", out, "--targets", ...Object.keys(EXPECTED)], {
      cwd: ROOT,
      encoding: "utf8",
      env: { ...process.env, JSII_SILENCE_WARNING_UNTESTED_NODE_VERSION: "1", JSII_SILENCE_WARNING_DEPRECATED_NODE_VERSION: "1" },
      timeout: 900_000,
    });
    if (r.status !== 0) throw new Error(`jsii-pacmak failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
    // Every construct class, as a namespace directory of src/gen and its class name.
    const constructs = fs.readdirSync(path.join(ROOT, "src/gen"), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => {
      const text = fs.readFileSync(path.join(ROOT, "src/gen", e.name, "index.ts"), "utf8");
      const cls = /export class (\w+) extends cdktf\.Terraform(?:Resource|DataSource|Provider)/.exec(text);
      if (!cls) throw new Error(`no construct class in src/gen/${e.name}/index.ts`);
      return { ns: e.name, cls: cls[1] };
    });
    const problems = [];
    for (const [target, expect] of Object.entries(EXPECTED)) {
      const { dir, file } = expect(out);
      const produced = new Set(files(dir).map((f) => path.relative(dir, f).split(path.sep).join("/")));
      // C# forbids a member named as its class: jsii then names the class with a trailing
      // underscore (ods_dashboard's `dashboard` attribute makes it Dashboard_).
      const generated = (f) => produced.has(f) || (target === "dotnet" && produced.has(f.replace(/\.cs$/, "_.cs")));
      for (const c of constructs) if (!generated(file(c.ns, c.cls))) problems.push(`${target}: ${file(c.ns, c.cls)} not generated under ${path.relative(out, dir)}`);
      process.stdout.write(`${target}: ${produced.size} files\n`);
    }
    if (problems.length) throw new Error(problems.join("\n"));
    process.stdout.write(`jsii-pacmak --code-only: python, java, dotnet and go sources for ${constructs.length} constructs (${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}

try {
  main();
} catch (err) {
  process.stderr.write(`check-jsii-targets: ${err.message}\n`);
  process.exitCode = 1;
}
