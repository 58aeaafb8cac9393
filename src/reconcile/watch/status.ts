// What `ods watch` knows about each stack: served as JSON on /status, counted on
// /metrics, and kept between rounds (the revision last reconciled, a pending plan).
import type { DriftedObject } from "./drift";

/** How a stack's round ended. */
export type RoundResult =
  /** Nothing to do: live objects are what the revision says. */
  | "in_sync"
  /** A new revision was applied. */
  | "applied"
  /** A new revision's plan was saved for approval (`--on-change plan`). */
  | "planned"
  /** Drift found and reported (`--on-drift report`). */
  | "drift_reported"
  /** Drift found, logged, and corrected (`--on-drift correct`). */
  | "drift_corrected"
  /** Another watcher (or run) had already converged it while this one waited for the lock. */
  | "converged_elsewhere"
  | "failed"
  /** Not reconciled: a stack it depends on failed in this round, or the watcher stopped. */
  | "skipped";

export const ROUND_RESULTS: readonly RoundResult[] = ["in_sync", "applied", "planned", "drift_reported", "drift_corrected", "converged_elsewhere", "failed", "skipped"];

export interface PendingPlan {
  /** The saved plan, for `ods apply FILE`. */
  file: string;
  /** The synthesized configuration it was made from (`--out-dir` of that apply). */
  outDir: string;
  revision: string;
  /** The command that applies exactly it. */
  command: string;
  /** Objects it changes. */
  changes: number;
  savedAt: string;
}

export interface LastReconcile {
  at: string;
  result: RoundResult;
  durationSeconds: number;
  /** HTTP requests the stack's round sent (retries included). */
  requests: number;
  /** Objects the round changed (applied, corrected) or found to change (planned, reported). */
  changes: number;
  /** Objects found changed outside the configuration in that round. */
  drifted: number;
  error?: string;
}

/** Rounds kept per stack in `recentRounds` (for the status page and /status). */
export const RECENT_ROUNDS = 10;

export interface StackStatus {
  name: string;
  /** The commit last reconciled (applied, planned, or found in sync). */
  revision: string | null;
  lastReconcile: LastReconcile | null;
  /** The last rounds of the stack, newest first (at most RECENT_ROUNDS; the first is lastReconcile). */
  recentRounds: LastReconcile[];
  lastSuccessAt: string | null;
  drifted: DriftedObject[];
  pendingPlan: PendingPlan | null;
  /** Rounds failed in a row. */
  failures: number;
}

export interface WatchStatus {
  source: string;
  branch: string;
  /** The commit the branch pointed at in the last fetch. */
  revision: string | null;
  lastRoundAt: string | null;
  lastRoundError: string | null;
  nextRoundAt: string | null;
  stacks: StackStatus[];
}

export function newStackStatus(name: string): StackStatus {
  return { name, revision: null, lastReconcile: null, recentRounds: [], lastSuccessAt: null, drifted: [], pendingPlan: null, failures: 0 };
}
