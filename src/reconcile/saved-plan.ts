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
