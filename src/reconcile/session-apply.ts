// Apply (or destroy) every stack of a session, one after another, each under its state's
// lock: planned again under the lock, checked against a saved plan, the plan's refusals,
// --warnings-as-errors, an emptied stack and missing remote outputs refused before any
// write, confirmed by the caller, applied, and stopped gently by an abort (no new change,
// the calls in flight finish, the state saved). A failed stack stops those after it.
import type { ApplyEvent, ApplySummary } from "./apply";
import { StackError } from "./stack";
import type { StateStore } from "./state";
import { stackStaleReason, type SavedPlan } from "./saved-plan";
import { applyRefusal, missingRemoteOutputs, planStack, planWarnings, stackHasChanges, type StackPlan } from "./stack-plan";
import { applyStack } from "./stack-apply";
import { emptyStackProblem, type StackUnit } from "./stack-unit";
import { errorText, type PlanRunOptions } from "./session-plan";
import { plannedParts, type Session } from "./session";

export interface ApplyRunOptions extends PlanRunOptions {
  destroy: boolean;
  /** A saved plan (`ods apply FILE`): applied only while it still holds. */
  saved?: { file: string; parts: readonly (SavedPlan & { provider?: string })[] };
  autoApprove?: boolean;
  /** Apply a stack that declares nothing while its state manages objects (deletes them all). */
  allowEmpty?: boolean;
  /** Any warning fails the stack (the plan's before any write). */
  warningsAsErrors?: boolean;
  /** Aborted: no new change starts, the calls in flight finish, the state is saved. */
  stop: AbortSignal;
}

export interface ApplyRunHooks {
  /** Progress and plans (stdout). */
  print: (line: string) => void;
  /** Errors, warnings and notices (stderr). */
  warn: (line: string) => void;
  /** The plan about to be applied. */
  showPlan: (sp: StackPlan) => void;
  /** Asked before a stack with changes is applied, unless auto-approved or saved. */
  confirm: (question: string) => Promise<boolean>;
  onEvent?: (event: ApplyEvent) => void;
  /** After a stack applied without failure (ods apply --annotate). */
  applied?: (sp: StackPlan, startedAt: Date) => Promise<void>;
  /** The store whose lock is held now (a forced stop gives it up), undefined once released. */
  holding?: (store: StateStore | undefined) => void;
}

export type StackApplyStatus = "applied" | "no changes" | "cancelled" | "interrupted" | "not applied" | "failed";

/** How one stack's apply ended. */
export interface StackApplyOutcome {
  stack: string;
  status: StackApplyStatus;
  /** The summary line (`ods apply` prints it per stack at the end). */
  line: string;
  failed: boolean;
  summary?: ApplySummary;
  plan?: StackPlan;
  error?: unknown;
}

export function summaryLine(s: ApplySummary): string {
  // The plan's categories in the plan's order (renderPlan's Plan line), so that the two read side by side.
  return `Apply complete: ${s.created} created, ${s.adopted} adopted, ${s.updated} updated, ${s.replaced} replaced, ${s.rotated} rotated, ${s.deleted} deleted, ${s.forgotten} forgotten, ${s.moved} moved, ${s.failed} failed${s.skipped ? `, ${s.skipped} skipped` : ""}.`;
}

/** The line that fails a run for its warnings (--warnings-as-errors). */
export function warningsFailure(count: number, what: string): string {
  return `--warnings-as-errors: ${count} warning${count === 1 ? "" : "s"} ${what}`;
}

/** With one stack, its error is the run's (thrown); with several, each is an outcome. */
export async function applySession(session: Session, o: ApplyRunOptions, hooks: ApplyRunHooks): Promise<StackApplyOutcome[]> {
  const several = session.units.length > 1;
  const { destroy, saved } = o;
  const stale = (unit: StackUnit, sp: StackPlan): string | undefined => {
    const reason = saved ? stackStaleReason(saved.parts, plannedParts([sp])) : undefined;
    return reason && `the saved plan ${saved!.file} is stale${several ? ` for stack ${unit.name}` : ""}: ${reason}; make a new plan`;
  };
  if (saved && several) {
    // Every stack checked before the first write: one that moved stops them all. Each
    // is checked again under its lock just before its apply.
    const reasons: string[] = [];
    for (const unit of session.units) {
      const reason = stale(unit, await planStack(unit, { checkQueries: false, parallelism: o.parallelism, stateOf: session.stateOf }));
      if (reason) reasons.push(reason);
    }
    if (reasons.length > 0) throw new StackError([...reasons, "nothing was applied"]);
  }
  const outcomes: StackApplyOutcome[] = [];
  let stopped: string | undefined;
  // Destroy goes the other way: a stack that reads another's outputs is removed first.
  for (const unit of destroy ? [...session.units].reverse() : session.units) {
    if (o.stop.aborted) {
      outcomes.push({ stack: unit.name, status: "not applied", line: "not applied: interrupted", failed: true });
      continue;
    }
    if (stopped) {
      outcomes.push({ stack: unit.name, status: "not applied", line: `not applied: stack ${stopped} failed`, failed: true });
      continue;
    }
    if (several) hooks.print(`\n== Stack ${unit.name} ==`);
    let locked = false;
    try {
      await unit.store.lock(destroy ? "ods destroy" : "ods apply");
      locked = true;
      hooks.holding?.(unit.store);
      const sp = await planStack(unit, { destroy, checkQueries: o.checkQueries, parallelism: o.parallelism, insights: destroy ? undefined : o.insights, moveDetection: o.moveDetection, stateOf: session.stateOf });
      const reason = stale(unit, sp);
      if (reason) throw new Error(reason);
      hooks.showPlan(sp);
      const refusal = applyRefusal(sp);
      if (refusal) throw refusal;
      // Strict: the plan's warnings (printed with it) stop the apply before any write.
      const planned = session.synthWarnings + planWarnings(sp).length;
      if (o.warningsAsErrors && planned > 0) throw new StackError([`${warningsFailure(planned, "in the plan")}; nothing was applied`]);
      const empty = destroy || o.allowEmpty ? undefined : emptyStackProblem(unit, sp.state);
      if (empty && stackHasChanges(sp)) throw new StackError([empty]);
      const waiting = destroy ? undefined : missingRemoteOutputs(sp);
      if (waiting) throw new StackError([waiting]);
      if (stackHasChanges(sp) && !(o.autoApprove || saved) && !(await hooks.confirm(`Do you want to perform these actions${several ? ` on stack ${unit.name}` : ""}?`))) {
        hooks.print("Apply cancelled.");
        outcomes.push({ stack: unit.name, status: "cancelled", line: "cancelled", failed: true, plan: sp });
        stopped = unit.name;
        continue;
      }
      if (o.stop.aborted) {
        hooks.warn(`Interrupted before any change${several ? ` to stack ${unit.name}` : ""} was made.`);
        outcomes.push({ stack: unit.name, status: "interrupted", line: "not applied: interrupted", failed: true, plan: sp });
        continue;
      }
      const startedAt = new Date();
      // With nothing to call, engine-only settings, outputs and the organization still land in state.
      const summary = await applyStack(sp, { parallelism: o.parallelism, onEvent: stackHasChanges(sp) ? hooks.onEvent : undefined, stateOf: session.stateOf, stop: o.stop });
      for (const w of summary.warnings) hooks.warn(`Warning: ${w}`);
      for (const e of summary.errors) hooks.warn(`Error: ${e}`);
      const strictFailure = o.warningsAsErrors === true && summary.warnings.length > 0;
      if (strictFailure) hooks.warn(`Error: ${warningsFailure(summary.warnings.length, "during the apply")}`);
      if (stackHasChanges(sp)) hooks.print(o.stop.aborted ? summaryLine(summary).replace(/^Apply complete/, "Apply interrupted") : summaryLine(summary));
      if (o.stop.aborted) {
        hooks.warn(`Interrupted: ${summary.notStarted} change${summary.notStarted === 1 ? "" : "s"} not started; the state holds every change made. Run "ods ${destroy ? "destroy" : "apply"}" again to finish.`);
        outcomes.push({ stack: unit.name, status: "interrupted", line: `interrupted (${summary.notStarted} not started)`, failed: true, summary, plan: sp });
        continue;
      }
      if (hooks.applied && summary.failed === 0 && stackHasChanges(sp)) await hooks.applied(sp, startedAt);
      const failed = summary.failed > 0 || strictFailure;
      outcomes.push({ stack: unit.name, status: failed ? "failed" : stackHasChanges(sp) ? "applied" : "no changes", line: stackHasChanges(sp) ? summaryLine(summary) : "no changes", failed, summary, plan: sp });
      if (failed) stopped = unit.name;
    } catch (e) {
      if (!several) throw e;
      hooks.warn(`Error in stack ${unit.name}: ${errorText(e)}`);
      outcomes.push({ stack: unit.name, status: "failed", line: "ERROR (see above)", failed: true, error: e });
      stopped = unit.name;
    } finally {
      hooks.holding?.(undefined);
      if (locked) await unit.store.unlock();
    }
  }
  return outcomes;
}
