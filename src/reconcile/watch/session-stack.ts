// A stack of a session as a round of the watcher sees it (the WatchedStack port): plan
// through the engine of `ods plan`, apply with `ods apply`'s rails, saving a plan and
// annotating left to the caller. `ods watch` and the automation API's watch() both use it.
import * as fs from "node:fs";
import type { PlannedChange } from "../plan";
import { StackError } from "../stack";
import { readSavedPlan, staleReason } from "../saved-plan";
import { applyStack } from "../stack-apply";
import { missingRemoteOutputs, planStack, planWarnings, stackHasChanges, type PartPlan, type StackPlan } from "../stack-plan";
import { emptyStackProblem, type StackUnit } from "../stack-unit";
import { summaryLine, warningsFailure } from "../session-apply";
import type { Session } from "../session";
import type { ApplyOutcome, StackPlanning, WatchedStack } from "./reconcile-stack";
import type { PendingPlan } from "./status";

export interface SessionStackOptions {
  revision: string;
  checkQueries?: boolean;
  parallelism: number;
  warningsAsErrors?: boolean;
  /** --annotate after an apply (`only`: the drifted addresses); none when unset. */
  annotate?: (sp: StackPlan, startedAt: Date | undefined, o: { by: string; only?: ReadonlySet<string> }) => Promise<void>;
  /** Saves one provider configuration's plan for approval (--on-change plan). */
  savePlan?: (unit: StackUnit, part: PartPlan, revision: string) => PendingPlan;
  /** HTTP requests sent for this stack so far. */
  requests: () => number;
}

export function sessionStack(unit: StackUnit, session: Session, o: SessionStackOptions): WatchedStack {
  const plans = new WeakMap<object, StackPlan>();
  let last: StackPlan | undefined;
  const onlyPart = (sp: StackPlan): PartPlan => {
    if (sp.parts.length !== 1) throw new StackError([`--on-change plan saves one plan per stack, and stack ${unit.name} has ${sp.parts.length} provider configurations; use --on-change apply for it`]);
    return sp.parts[0];
  };
  return {
    name: unit.name,
    dependsOn: unit.loaded.remoteStates.map((r) => r.stack),
    plan: async () => {
      const sp = await planStack(unit, { checkQueries: o.checkQueries, parallelism: o.parallelism, stateOf: session.stateOf });
      // --warnings-as-errors: a plan with warnings fails the round, naming them, before anything is applied.
      const warned = planWarnings(sp);
      if (o.warningsAsErrors && warned.length > 0) throw new StackError([...warned.map((w) => `Warning: ${w}`), warningsFailure(warned.length, "in the plan")]);
      const planning: StackPlanning = { parts: sp.parts.map((p) => ({ plan: p.plan, state: p.view })) };
      plans.set(planning, sp);
      last = sp;
      return planning;
    },
    lock: () => unit.store.lock(`ods apply (ods watch of ${o.revision.slice(0, 12)})`),
    unlock: () => unit.store.unlock(),
    stateVersion: async () => {
      const state = await unit.store.read();
      return `${state.lineage}/${state.serial}`;
    },
    apply: async (planning): Promise<ApplyOutcome> => {
      const sp = plans.get(planning);
      if (!sp) throw new Error(`stack ${unit.name}: no plan to apply`);
      // `ods apply`'s rails: a stack that synthesized empty never deletes what its state manages.
      const empty = emptyStackProblem(unit, sp.state);
      if (empty && stackHasChanges(sp)) throw new StackError([empty]);
      const waiting = missingRemoteOutputs(sp);
      if (waiting) throw new StackError([waiting]);
      const startedAt = new Date();
      const summary = await applyStack(sp, { parallelism: o.parallelism, stateOf: session.stateOf });
      if (o.annotate && summary.failed === 0) await o.annotate(sp, startedAt, { by: "ods watch" });
      const strict = o.warningsAsErrors && summary.warnings.length > 0 ? [warningsFailure(summary.warnings.length, "during the apply")] : [];
      return { failed: summary.failed, summary: summaryLine(summary), errors: [...summary.errors, ...strict], warnings: summary.warnings };
    },
    savePlan: async (planning, rev): Promise<PendingPlan> => {
      const sp = plans.get(planning);
      if (!sp) throw new Error(`stack ${unit.name}: no plan to save`);
      if (!o.savePlan) throw new StackError([`stack ${unit.name}: this watcher saves no plans; use on-change apply`]);
      return o.savePlan(unit, onlyPart(sp), rev);
    },
    stillHolds: (pending, planning) => {
      const sp = plans.get(planning);
      if (!sp || sp.parts.length !== 1 || !fs.existsSync(pending.file)) return false;
      try {
        return staleReason(readSavedPlan(pending.file), sp.parts[0].plan, unit.file) === undefined;
      } catch {
        return false;
      }
    },
    annotate: async (changes: readonly PlannedChange[], title: string) => {
      if (last && o.annotate) await o.annotate(last, undefined, { by: title, only: new Set(changes.map((c) => c.address)) });
    },
    requests: o.requests,
  };
}
