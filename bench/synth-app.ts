// A CDKTF app that declares a generated stack with the real construct classes and
// synthesizes it: what users run (`cdktf synth`, `ods synth`). Run as a subprocess:
//   node bench/dist/synth-app.js SPEC.json OUTDIR
// and prints one JSON line: {constructMs, synthMs, resources}.
import * as fs from "node:fs";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import type { App as CdktfApp, TerraformStack as CdktfStack } from "cdktf";
import type { GeneratedStack } from "./stack-gen";

// The compiled package (lib/) is loaded at run time from the repository root, the way
// examples/ use it; only its types are imported at compile time.
const ROOT = path.resolve(__dirname, "../..");
type Lib = typeof import("../lib");
const lib = require(path.join(ROOT, "lib")) as Lib;
const cdktf = require("cdktf") as typeof import("cdktf");

type Construct = CdktfStack;
type ResourceClass = new (scope: Construct, id: string, config: never) => { node: unknown };

const CLASSES: Record<string, ResourceClass> = {
  ods_dataset: lib.dataset.Dataset as unknown as ResourceClass,
  ods_notifier: lib.notifier.Notifier as unknown as ResourceClass,
  ods_role: lib.role.Role as unknown as ResourceClass,
  ods_api_token: lib.apiToken.ApiToken as unknown as ResourceClass,
  ods_virtual_field: lib.virtualField.VirtualField as unknown as ResourceClass,
  ods_starred_query: lib.starredQuery.StarredQuery as unknown as ResourceClass,
  ods_dataset_field: lib.datasetField.DatasetField as unknown as ResourceClass,
  ods_user: lib.user.User as unknown as ResourceClass,
  ods_monitor: lib.monitor.Monitor as unknown as ResourceClass,
};

/** snake_case attribute names to the constructs' camelCase (map keys hold no "_"). */
function camel(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camel);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase())] = camel(v);
  return out;
}

function main(): void {
  const [specFile, outDir] = process.argv.slice(2);
  if (!specFile || !outDir) throw new Error("usage: synth-app SPEC.json OUTDIR");
  const spec = JSON.parse(fs.readFileSync(specFile, "utf8")) as GeneratedStack;
  const t0 = performance.now();
  const app: CdktfApp = new cdktf.App({ outdir: outDir });
  const stack = new cdktf.TerraformStack(app, "main");
  new lib.provider.OdsProvider(stack, "ods", {});
  const made = new Map<string, unknown>();
  let resources = 0;
  for (const [type, byName] of Object.entries(spec.resource)) {
    const Cls = CLASSES[type];
    if (!Cls) throw new Error(`no construct class for ${type}`);
    for (const [name, block] of Object.entries(byName)) {
      const { depends_on: deps, ...attrs } = block as { depends_on?: string[] } & Record<string, unknown>;
      const config = camel(attrs) as Record<string, unknown>;
      if (deps) config.dependsOn = deps.map((a) => made.get(a));
      made.set(`${type}.${name}`, new Cls(stack, name, config as never));
      resources++;
    }
  }
  const t1 = performance.now();
  app.synth();
  const t2 = performance.now();
  process.stdout.write(`${JSON.stringify({ constructMs: t1 - t0, synthMs: t2 - t1, resources })}\n`);
}

main();
