// Runs a kind's plan-time check (the service compiles a starred query or a virtual
// field's expression) for values about to be written.
import { OdsApiError, type OdsClient } from "../api";
import { PlanCheckUnsupported, describeProblem } from "../resources/query-check";
import type { PlanCheckProblem, PlanCheckScope, ResourceKind, Values } from "../resources";
import type { LiveIndex } from "./live-index";
import { containsUnknown } from "./unknown";
import { scopeOf } from "./values";

export { PlanCheckUnsupported, describeProblem };

export type PlanCheckOutcome =
  | { kind: "ok" }
  /** The values it needs are known only after apply (or the parent is created by this run). */
  | { kind: "skipped" }
  | { kind: "unsupported"; message: string }
  | { kind: "problem"; problem: PlanCheckProblem };

/** Whether the check can run now: every value it needs is known. */
export function planCheckReady(kind: ResourceKind, values: Values): boolean {
  return kind.planCheck !== undefined && !containsUnknown(kind.planCheck.needs.map((n) => values[n]));
}

/**
 * Whether a plan runs the kind's check for an object: always where it is written anew;
 * a claimed object (a dataset field) that exists already needs no check that it exists.
 */
export function wantsPlanCheck(kind: ResourceKind, existing: boolean): boolean {
  return kind.planCheck !== undefined && !(kind.creation === "claim" && existing);
}

/**
 * For a claimed kind (a dataset field): whether the object to claim is among those listed
 * for its parent, so that it exists and needs no check. One list per parent, shared
 * through `live`, serves every claim of a run instead of reads per object.
 */
export async function claimListed(client: OdsClient, live: LiveIndex, kind: ResourceKind, values: Values): Promise<boolean> {
  if (kind.creation !== "claim" || containsUnknown(kind.naturalKey.map((n) => values[n]))) return false;
  return (await live.loadWithNaturalKey(client, kind, scopeOf(kind, values), values)).length > 0;
}

/**
 * The kind's advice about values about to be written (shown, never refusing); empty
 * when the values it reads are not known yet.
 */
export function planCheckWarnings(kind: ResourceKind, values: Values): PlanCheckProblem[] {
  if (!kind.planCheck?.warnings || !planCheckReady(kind, values)) return [];
  return kind.planCheck.warnings(values);
}

/**
 * Runs the kind's check, then the part of it that reads the organization (`liveCheck`).
 * `valuesCheckPassed`: a pass of the values-only part is reused (the Terraform provider's
 * memo across a command's walks), so only the organization's part is asked.
 */
export async function runPlanCheck(client: OdsClient, kind: ResourceKind, values: Values, scope: PlanCheckScope, valuesCheckPassed = false): Promise<PlanCheckOutcome> {
  const planCheck = kind.planCheck;
  if (!planCheck || !planCheckReady(kind, values)) return { kind: "skipped" };
  try {
    const problem = (valuesCheckPassed ? undefined : await planCheck.check(client, values, scope)) ?? (await planCheck.liveCheck?.(client, values, scope));
    return problem ? { kind: "problem", problem } : { kind: "ok" };
  } catch (err) {
    if (err instanceof PlanCheckUnsupported) return { kind: "unsupported", message: err.message };
    // An unknown parent (created in the same apply) cannot be checked yet.
    if (err instanceof OdsApiError && err.status === 404) return { kind: "skipped" };
    throw err;
  }
}
