// What `npm pack` ships: only what the package runs, within its size budget, with the
// metadata the tools read (jsii assembly, cdktf provider metadata, engines, license).
import * as fs from "node:fs";
import { builtinModules } from "node:module";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { output, ROOT, run } from "./consumer-harness";

interface PackInfo {
  size: number;
  unpackedSize: number;
  files: { path: string; size: number }[];
}

const MB = 1_000_000;
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
  version: string;
  engines: { node: string };
  dependencies: Record<string, string>;
  cdktf?: { provider?: { name: string; version: string } };
};

function dryRunPack(): PackInfo {
  const r = run("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: ROOT, timeoutMs: 120_000 });
  if (r.status !== 0) throw new Error(output(r));
  return (JSON.parse(r.stdout.slice(r.stdout.indexOf("["))) as PackInfo[])[0];
}

function minVersion(range: string): number[] {
  const m = />=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(range);
  if (!m) throw new Error(`no lower bound in engines range ${range}`);
  return [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)];
}

const atLeast = (a: number[], b: number[]): boolean => a[0] !== b[0] ? a[0] > b[0] : a[1] !== b[1] ? a[1] > b[1] : a[2] >= b[2];

describe("the npm package", () => {
  const pack = dryRunPack();
  const files = pack.files.map((f) => f.path);

  // 1.5 MB and 8 MB until the HTML plan's charts: ECharts (line and custom series, the SVG
  // renderer) bundled into lib/reconcile/html/echarts-driver.js costs 1.2 MB unpacked,
  // 0.4 MB packed, the price of drawing with a maintained library rather than our own.
  it(`is at most 2 MB packed and 10 MB unpacked`, () => {
    console.log(`npm pack: ${(pack.size / MB).toFixed(2)} MB packed, ${(pack.unpackedSize / MB).toFixed(2)} MB unpacked, ${files.length} files`);
    expect(pack.size).toBeLessThanOrEqual(2 * MB);
    expect(pack.unpackedSize).toBeLessThanOrEqual(10 * MB);
  });

  it("carries the jsii assembly, the license, the reference docs, the provider bundle and the demo app", () => {
    for (const f of [".jsii", "LICENSE", "docs/index.md", "docs/resources/notifier.md", "docs/data-sources/dataset.md", "lib/bundle/terraform-provider-ods.js", "examples/basic/main.js", "lib/index.d.ts"]) {
      expect(files, f).toContain(f);
    }
  });

  it("has no source maps (separate or inline: jsii compiles lib/ again), no type packages and no unused bundled dependency", () => {
    expect(files.filter((f) => f.endsWith(".map"))).toEqual([]);
    const libJs = new Map(files.filter((f) => f.startsWith("lib/") && f.endsWith(".js")).map((f) => [f, fs.readFileSync(path.join(ROOT, f), "utf8")]));
    expect([...libJs].filter(([, text]) => text.includes("sourceMappingURL=data:")).map(([f]) => f)).toEqual([]);
    expect(files.filter((f) => f.includes("node_modules/@types/"))).toEqual([]);
    const bundled = new Set(files.filter((f) => f.startsWith("node_modules/")).map((f) => f.split("/").slice(1, f.split("/")[1].startsWith("@") ? 3 : 2).join("/")));
    const libText = [...libJs].filter(([f]) => !f.startsWith("lib/bundle/")).map(([, text]) => text).join("\n");
    for (const dep of Object.keys(pkg.dependencies)) {
      expect(libText.includes(`require("${dep}")`) || libText.includes(`require("${dep}/`), `${dep} is a dependency but nothing in lib/ requires it`).toBe(true);
      expect(bundled.has(dep), `${dep} is not bundled (jsii needs its non-jsii dependencies bundled)`).toBe(true);
    }
  });

  it("requires at run time only its dependencies, its peers and Node's own modules", () => {
    const peers = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).peerDependencies as Record<string, string>;
    // cdktn: what lib/cdktn (the CDK Terrain entry) binds to, installed by the projects that use it.
    // @cdktf/hcl2json: loaded only to read a .tfvars file (cdktf-cli installs it), with a
    // clear error naming it when absent; a 2 MB parser is not worth bundling for everyone.
    const allowed = new Set([...Object.keys(pkg.dependencies), ...Object.keys(peers), "cdktn", "@cdktf/hcl2json"]);
    const builtins = new Set(builtinModules);
    const unexpected: string[] = [];
    for (const f of files.filter((f) => f.startsWith("lib/") && f.endsWith(".js") && !f.startsWith("lib/bundle/"))) {
      for (const m of fs.readFileSync(path.join(ROOT, f), "utf8").matchAll(/require\("([^"./][^"]*)"\)/g)) {
        // `node:` names only Node's own modules (some, like node:sqlite, exist only under it).
        if (m[1].startsWith("node:")) continue;
        const name = m[1].split("/").slice(0, m[1].startsWith("@") ? 2 : 1).join("/");
        if (!allowed.has(name) && !builtins.has(name)) unexpected.push(`${f}: ${m[1]}`);
      }
    }
    expect(unexpected).toEqual([]);
  });

  it("imports nothing private from cdktf", () => {
    const offenders = files
      .filter((f) => f.startsWith("lib/") && f.endsWith(".js"))
      .filter((f) => /require\("cdktf\/lib\//.test(fs.readFileSync(path.join(ROOT, f), "utf8")));
    expect(offenders).toEqual([]);
  });

  it("asks for a Node that every bundled dependency runs on", () => {
    const ours = minVersion(pkg.engines.node);
    for (const dep of Object.keys(pkg.dependencies)) {
      const theirs = (JSON.parse(fs.readFileSync(path.join(ROOT, "node_modules", dep, "package.json"), "utf8")) as { engines?: { node?: string } }).engines?.node;
      if (theirs) expect(atLeast(ours, minVersion(theirs)), `${dep} needs node ${theirs}, engines says ${pkg.engines.node}`).toBe(true);
    }
  });

  it("tells cdktf which provider it binds (cdktf provider list reads this)", () => {
    expect(pkg.cdktf?.provider).toEqual({ name: "registry.terraform.io/ods/ods", version: pkg.version });
  });

  it("runs nothing when installed: no prepare or install scripts (npm warns about them on every install)", () => {
    const scripts = (pkg as { scripts?: Record<string, string> }).scripts ?? {};
    for (const hook of ["preinstall", "install", "postinstall", "prepare"]) expect(scripts[hook], hook).toBeUndefined();
    // A fresh clone still starts: `npm start` builds lib/ when it is missing.
    expect(scripts.start).toMatch(/^node scripts\/build-if-missing\.js && /);
  });
});
