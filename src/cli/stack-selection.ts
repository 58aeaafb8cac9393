// Which stacks a command runs: the ones named by --stack (repeatable) or all with
// --all-stacks, as cdktf.out/manifest.json lists them (a directory left over from an
// earlier synth is not a stack), in dependency order so that a stack that reads
// another's outputs runs after it.
import * as fs from "node:fs";
import * as path from "node:path";
import { StackError, dependencyOrder } from "../reconcile/stack";

export interface SelectedStack {
  name: string;
  file: string;
  /** Stacks whose outputs this one reads (manifest `dependencies`). */
  dependsOn: string[];
}

interface Manifest {
  stacks?: Record<string, { name?: string; synthesizedStackPath?: string; dependencies?: string[] }>;
}

/** Every stack of a cdktf output directory: the manifest's, else (hand-made directories) those on disk. */
export function listStacks(outDir: string): SelectedStack[] {
  const manifestFile = path.join(outDir, "manifest.json");
  if (fs.existsSync(manifestFile)) {
    let manifest: Manifest;
    try {
      manifest = JSON.parse(fs.readFileSync(manifestFile, "utf8")) as Manifest;
    } catch (err) {
      throw new StackError([`cannot read ${manifestFile}: ${(err as Error).message}; synthesize again`]);
    }
    if (typeof manifest.stacks !== "object" || manifest.stacks === null) throw new StackError([`${manifestFile} lists no stacks; synthesize again`]);
    return Object.entries(manifest.stacks).map(([name, s]) => ({
      name,
      file: path.join(outDir, s.synthesizedStackPath ?? path.join("stacks", name, "cdk.tf.json")),
      dependsOn: Array.isArray(s.dependencies) ? s.dependencies.filter((d) => typeof d === "string") : [],
    }));
  }
  const stacksDir = path.join(outDir, "stacks");
  if (!fs.existsSync(stacksDir)) throw new StackError([`no synthesized stacks in ${outDir}: run "ods synth" first`]);
  return fs
    .readdirSync(stacksDir)
    .filter((n) => fs.existsSync(path.join(stacksDir, n, "cdk.tf.json")))
    .sort()
    .map((name) => ({ name, file: path.join(stacksDir, name, "cdk.tf.json"), dependsOn: [] }));
}

/** The stacks to run, in dependency order; an unknown name or an ambiguous choice is an error. */
export function selectStacks(outDir: string, names: readonly string[], all: boolean): SelectedStack[] {
  const stacks = listStacks(outDir);
  const known = stacks.map((s) => s.name);
  if (all && names.length > 0) throw new StackError(["--all-stacks and --stack exclude each other"]);
  let chosen: SelectedStack[];
  if (all) chosen = stacks;
  else if (names.length > 0) {
    const unknown = names.filter((n) => !known.includes(n));
    if (unknown.length > 0) throw new StackError([`no stack ${unknown.map((n) => `"${n}"`).join(", ")} in ${outDir}; stacks: ${known.join(", ") || "none"}`]);
    chosen = stacks.filter((s) => names.includes(s.name));
  } else if (stacks.length === 1) chosen = stacks;
  else {
    throw new StackError([
      `${stacks.length === 0 ? "no stacks" : `several stacks (${known.join(", ")})`} in ${outDir}: choose with --stack NAME (repeatable) or --all-stacks`,
    ]);
  }
  for (const s of chosen) {
    if (!fs.existsSync(s.file)) throw new StackError([`stack ${s.name}: ${s.file} is missing; synthesize again`]);
  }
  const ordered = dependencyOrder(chosen.map((s) => ({ address: s.name, dependsOn: s.dependsOn, stack: s })));
  return ordered.map((o) => o.stack);
}
