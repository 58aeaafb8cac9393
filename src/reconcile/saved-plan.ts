// Saved plans (`ods plan --out FILE`, `ods apply FILE`). A saved plan holds no values,
// so no secret can leak through it: it pins the configuration, the state and the live
// objects it was made from, and the actions. Applying it re-plans and refuses when
// anything moved.
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import { isChange, type Plan } from "./plan";

export interface SavedPlan {
  kind: "ods-plan";
  formatVersion: number;
  stack: string;
  stackDigest: string;
  stateLineage: string;
  stateSerial: number;
  liveDigest: string;
  /** What the plan does; `from`: a move's previous address. */
  actions: { address: string; action: string; changed: string[]; from?: string }[];
}

export function fileDigest(file: string): string {
  return crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex");
}

export function toSavedPlan(plan: Plan, stackFile: string): SavedPlan {
  return {
    kind: "ods-plan",
    formatVersion: plan.formatVersion,
    stack: plan.stack,
    stackDigest: fileDigest(stackFile),
    stateLineage: plan.stateLineage,
    stateSerial: plan.stateSerial,
    liveDigest: plan.liveDigest,
    actions: plan.changes.filter(isChange).map((c) => ({ address: c.address, action: c.action, changed: c.changed, ...(c.previousAddress !== undefined ? { from: c.previousAddress } : {}) })),
  };
}

export function readSavedPlan(file: string): SavedPlan {
  let parsed: SavedPlan;
  try {
    parsed = JSON.parse(fs.readFileSync(file, "utf8")) as SavedPlan;
  } catch (err) {
    throw new Error(`cannot read plan file ${file}: ${(err as Error).message}`);
  }
  if ((parsed.kind as string) === "ods-plan-set") throw new Error(`${file} holds the plans of several stacks or provider configurations; read it with readSavedParts`);
  if (parsed.kind !== "ods-plan") throw new Error(`${file} is not a plan saved by "ods plan --out"`);
  return parsed;
}

/** Why a saved plan may no longer be applied, or undefined when it still holds. */
export function staleReason(saved: SavedPlan, fresh: Plan, stackFile: string): string | undefined {
  if (saved.stackDigest !== fileDigest(stackFile)) return "the synthesized configuration changed since the plan was made";
  if (saved.stateLineage !== fresh.stateLineage || saved.stateSerial !== fresh.stateSerial) return "the state changed since the plan was made";
  if (saved.liveDigest !== fresh.liveDigest) return "the live objects changed since the plan was made";
  const now = toSavedPlan(fresh, stackFile).actions;
  if (JSON.stringify(now) !== JSON.stringify(saved.actions)) return "the planned actions differ now";
  return undefined;
}

/**
 * A plan of several stacks, or of a stack with several provider configurations
 * (`ods plan --all-stacks --out FILE`): one saved plan per stack and configuration, in
 * the order they apply. `ods apply FILE` applies exactly those stacks, each checked
 * against its own entries.
 */
export interface SavedPlanSet {
  kind: "ods-plan-set";
  formatVersion: 1;
  plans: SavedPart[];
}

/** One stack's plan for one provider configuration. */
export interface SavedPart extends SavedPlan {
  provider: string;
}

/** What one stack's plan is made of, as the commands have it. */
export interface PlannedPart {
  stack: string;
  stackFile: string;
  provider: string;
  plan: Plan;
}

/** The file `ods plan --out` writes: one plan as before when there is one part, else a set. */
export function savedPlanFile(parts: readonly PlannedPart[]): SavedPlan | SavedPlanSet {
  if (parts.length === 1) return { ...toSavedPlan(parts[0].plan, parts[0].stackFile), stack: parts[0].stack };
  return { kind: "ods-plan-set", formatVersion: 1, plans: parts.map((p) => ({ ...toSavedPlan(p.plan, p.stackFile), stack: p.stack, provider: p.provider })) };
}

/** Every part a plan file holds: a set's, or the one plan of a single-stack file (its provider unnamed). */
export function readSavedParts(file: string): (SavedPlan & { provider?: string })[] {
  let parsed: { kind?: unknown; plans?: unknown };
  try {
    parsed = JSON.parse(fs.readFileSync(file, "utf8")) as typeof parsed;
  } catch (err) {
    throw new Error(`cannot read plan file ${file}: ${(err as Error).message}`);
  }
  if (parsed.kind === "ods-plan") return [parsed as SavedPlan];
  if (parsed.kind === "ods-plan-set" && Array.isArray(parsed.plans) && parsed.plans.length > 0) return parsed.plans as SavedPart[];
  throw new Error(`${file} is not a plan saved by "ods plan --out"`);
}

/** The stacks a plan file covers, each once, in the file's order. */
export function savedStacks(parts: readonly SavedPlan[]): string[] {
  return [...new Set(parts.map((p) => p.stack))];
}

/**
 * Why a stack's saved parts no longer hold, or undefined: each provider configuration
 * checked on its own, and a configuration added or removed since is a change.
 */
export function stackStaleReason(saved: readonly (SavedPlan & { provider?: string })[], fresh: readonly PlannedPart[]): string | undefined {
  const mine = saved.filter((s) => fresh.length > 0 && s.stack === fresh[0].stack);
  // A single-stack file names no provider: it holds for a stack with one configuration.
  const partOf = (provider: string): (SavedPlan & { provider?: string }) | undefined =>
    mine.find((s) => s.provider === provider) ?? (fresh.length === 1 && mine.length === 1 && mine[0].provider === undefined ? mine[0] : undefined);
  if (mine.length !== fresh.length || fresh.some((p) => !partOf(p.provider))) return "the stack's provider configurations changed since the plan was made";
  for (const p of fresh) {
    const reason = staleReason(partOf(p.provider)!, p.plan, p.stackFile);
    if (reason) return fresh.length > 1 ? `provider ${p.provider}: ${reason}` : reason;
  }
  return undefined;
}
