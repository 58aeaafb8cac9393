// One stack's part of a round: plan through the engine of `ods plan`, then decide.
//   nothing to do                  -> in sync
//   the configuration changed      -> apply it (--on-change apply), or save its plan for
//                                     approval (--on-change plan)
//   only drift                     -> report it per object and attribute (--on-drift report),
//                                     or log it and apply the drift's plan (--on-drift correct)
// The state lock is taken only to apply: waiting for it (naming the holder), then planning
// again under it, so that a revision another watcher applied meanwhile is found in sync
// and never applied twice. The operations themselves (plan, apply with `ods apply`'s
// rails, saving a plan) come from the caller.
import { LockHeldError } from "../backends";
import type { Plan, PlannedChange } from "../plan";
import type { StateFile } from "../state";
import { classifyChanges, type Classified } from "./classify";
import { driftedObjects, type DriftedObject } from "./drift";
import type { PendingPlan, RoundResult } from "./status";

/** A stack's plan: one part per provider configuration, each with the state it was made from. */
export interface StackPlanning {
  parts: { plan: Plan; state: StateFile }[];
}

export interface ApplyOutcome {
  failed: number;
  /** `Apply complete: ...` */
  summary: string;
  errors: string[];
  warnings: string[];
}

/** What a round may do to one stack; implemented over the engine by the command. */
export interface WatchedStack {
  readonly name: string;
  /** Stacks whose outputs it reads: not reconciled in a round where one of them failed. */
  readonly dependsOn: readonly string[];
  /** Refresh and plan (no lock). */
  plan(): Promise<StackPlanning>;
  /** Takes the state lock, or throws LockHeldError naming the holder. */
  lock(): Promise<void>;
  /** The stored state's lineage and serial now (`LINEAGE/SERIAL`): a write by anyone moves it. */
  stateVersion(): Promise<string>;
  unlock(): Promise<void>;
  /** Applies with `ods apply`'s rails (an empty stack never deletes everything, missing outputs refuse). */
  apply(planning: StackPlanning): Promise<ApplyOutcome>;
  /** Saves the plan for `ods apply FILE`, named after the stack and the commit. */
  savePlan(planning: StackPlanning, revision: string): Promise<PendingPlan>;
  /** Whether a saved plan is still exactly what this plan would apply. */
  stillHolds(pending: PendingPlan, planning: StackPlanning): boolean;
  /** `--annotate`: marks the datasets these changes touch. */
  annotate(changes: readonly PlannedChange[], title: string): Promise<void>;
  /** HTTP requests sent for this stack so far. */
  requests(): number;
}

export interface StackRoundContext {
  revision: string;
  onChange: "apply" | "plan";
  onDrift: "report" | "correct";
  annotate: boolean;
  lockTimeoutMs: number;
  /** The plan saved by an earlier round, if any. */
  pending: PendingPlan | null;
  /** The drift reported in the round before, to annotate only what is new. */
  previousDrift: readonly DriftedObject[];
  signal: AbortSignal;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Watcher events (waiting for a lock, drift about to be corrected). */
  event: (event: string, message: string, extra?: Record<string, unknown>) => void;
  now?: () => number;
}

export interface StackRoundOutcome {
  result: RoundResult;
  /** Objects changed (applied) or to change (planned, reported). */
  changes: number;
  drifted: DriftedObject[];
  pending: PendingPlan | null;
  message?: string;
}

export class WatchStopped extends Error {
  constructor() {
    super("stopped");
    this.name = "WatchStopped";
  }
}

/** How long to wait between tries of a held lock. */
const LOCK_RETRY_MS = 1_000;

function classify(planning: StackPlanning): Classified {
  const out: Classified = { revision: [], drift: [] };
  for (const part of planning.parts) {
    const c = classifyChanges(part.plan.changes, part.state);
    out.revision.push(...c.revision);
    out.drift.push(...c.drift);
  }
  return out;
}

function sameDrift(a: readonly DriftedObject[], b: readonly DriftedObject[]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export async function reconcileStack(stack: WatchedStack, ctx: StackRoundContext): Promise<StackRoundOutcome> {
  const planning = await stack.plan();
  const found = classify(planning);
  const drifted = driftedObjects(found.drift);
  const total = found.revision.length + found.drift.length;
  if (total === 0) return { result: "in_sync", changes: 0, drifted: [], pending: null };
  if (ctx.signal.aborted) throw new WatchStopped();

  if (found.revision.length > 0) {
    if (ctx.onChange === "plan") {
      // Drift under a pending revision rides in its plan (and is shown), as it would be applied with it.
      const kept = ctx.pending && ctx.pending.revision === ctx.revision && stack.stillHolds(ctx.pending, planning) ? ctx.pending : undefined;
      const pending = kept ?? (await stack.savePlan(planning, ctx.revision));
      return { result: "planned", changes: total, drifted, pending, message: `approve with: ${pending.command}` };
    }
    return applyUnderLock(stack, ctx, "applied", drifted, planning);
  }

  if (ctx.annotate && !sameDrift(drifted, ctx.previousDrift)) {
    await stack.annotate(found.drift, "ods watch (drift)");
  }
  if (ctx.onDrift === "report") return { result: "drift_reported", changes: total, drifted, pending: ctx.pending };
  ctx.event("drift_correcting", `correcting drift in ${drifted.length} object(s) of stack ${stack.name}`, { stack: stack.name, drifted });
  return applyUnderLock(stack, ctx, "drift_corrected", drifted, planning);
}

function versionOf(planning: StackPlanning): string {
  const plan = planning.parts[0]?.plan;
  return plan ? `${plan.stateLineage}/${plan.stateSerial}` : "";
}

async function applyUnderLock(stack: WatchedStack, ctx: StackRoundContext, result: "applied" | "drift_corrected", drifted: DriftedObject[], planned: StackPlanning): Promise<StackRoundOutcome> {
  const waited = await lockWaiting(stack, ctx);
  try {
    // Planned again when another run may have applied meanwhile (this round waited for the
    // lock, or the state was written since): the fresh plan is then what is applied, or
    // nothing. Otherwise the round's plan holds, and the refresh is not paid twice.
    const moved = waited || (await stack.stateVersion()) !== versionOf(planned);
    const planning = moved ? await stack.plan() : planned;
    const found = classify(planning);
    const total = found.revision.length + found.drift.length;
    if (total === 0) {
      return { result: "converged_elsewhere", changes: 0, drifted: [], pending: null, message: "already converged when the lock was taken (another watcher or run applied it)" };
    }
    if (result === "drift_corrected" && found.revision.length > 0) {
      // The configuration moved under this round (a state change by another run): not a drift to correct blindly.
      return { result: "drift_reported", changes: total, drifted: driftedObjects(found.drift), pending: ctx.pending, message: "the configuration's changes appeared while correcting drift; left for the next round" };
    }
    if (ctx.signal.aborted) throw new WatchStopped();
    const outcome = await stack.apply(planning);
    for (const w of outcome.warnings) ctx.event("warning", w, { stack: stack.name });
    if (outcome.failed > 0 || outcome.errors.length > 0) {
      throw new Error(`${outcome.summary}${outcome.errors.length ? ` ${outcome.errors.join("; ")}` : ""}`);
    }
    return { result, changes: total, drifted: result === "drift_corrected" ? driftedObjects(found.drift) : drifted, pending: null, message: outcome.summary };
  } finally {
    await stack.unlock();
  }
}

/**
 * Takes the lock, waiting while another run holds it (said once, naming the holder), up to
 * the lock timeout. Answers whether it had to wait.
 */
async function lockWaiting(stack: WatchedStack, ctx: StackRoundContext): Promise<boolean> {
  const now = ctx.now ?? Date.now;
  const deadline = now() + ctx.lockTimeoutMs;
  let told = false;
  for (;;) {
    try {
      await stack.lock();
      if (told) ctx.event("lock_acquired", `took the state lock of stack ${stack.name}`, { stack: stack.name });
      return told;
    } catch (e) {
      if (!(e instanceof LockHeldError)) throw e;
      if (!told) ctx.event("lock_wait", `waiting for the state lock of stack ${stack.name}: ${e.message}`, { stack: stack.name });
      told = true;
      if (now() >= deadline) throw new Error(`gave up waiting for the state lock after ${Math.round(ctx.lockTimeoutMs / 1000)} s (--lock-timeout): ${e.message}`);
      await ctx.sleep(LOCK_RETRY_MS, ctx.signal);
      if (ctx.signal.aborted) throw new WatchStopped();
    }
  }
}
