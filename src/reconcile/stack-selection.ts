// Which stacks a command runs: the ones named by --stack (repeatable) or all with
// --all-stacks, as cdktf.out/manifest.json lists them (a directory left over from an
// earlier synth is not a stack), in dependency order so that a stack that reads
// another's outputs runs after it.
import * as fs from "node:fs";
import { StackError, dependencyOrder, staleStacksNote, synthesizedStacks, type SynthesizedStack } from "./stack";

export type SelectedStack = SynthesizedStack;

/** Every stack of a cdktf output directory: the manifest's, else (hand-made directories) those on disk. */
export function listStacks(outDir: string): SelectedStack[] {
  return synthesizedStacks(outDir).stacks;
}

/** Says once per process which stack directories are stale (not in the manifest), on stderr. */
let noted = false;
export function noteStaleStacks(outDir: string, say: (line: string) => void = (line) => void process.stderr.write(`${line}\n`)): void {
  if (noted) return;
  noted = true;
  const note = staleStacksNote(synthesizedStacks(outDir).stale);
  if (note) say(note);
}

/** The stacks to run, in dependency order; an unknown name or an ambiguous choice is an error. */
export function selectStacks(outDir: string, names: readonly string[], all: boolean, say?: (line: string) => void): SelectedStack[] {
  const stacks = listStacks(outDir);
  noteStaleStacks(outDir, say);
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
