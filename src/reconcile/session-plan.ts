// The plan of every stack of a session: a stack's problem (a bad stack, a refused plan)
// is reported for that stack and the others go on; with one stack it is the run's error.
import { PlanError } from "./plan";
import { StackError } from "./stack";
import { VariableError } from "./variables";
import { planStack, type StackPlan } from "./stack-plan";
import type { Session } from "./session";

/** Plan options shared by plan, apply and destroy. */
export interface PlanRunOptions {
  checkQueries?: boolean;
  /** Refresh list calls in flight at once. */
  parallelism: number;
  /** Plan insights to run (a monitor's backtest); unset: none. */
  insights?: { days: number };
  /** Natural-key move detection (default on). */
  moveDetection?: boolean;
}

/** A stack that could not be planned or applied, and why (the text the CLI prints). */
export interface StackFailure {
  stack: string;
  error: string;
}

export interface PlanRun {
  plans: StackPlan[];
  failures: StackFailure[];
}

/** Errors a user can fix (bad stack, plan problems): reported per stack, other stacks go on. */
export function isStackProblem(e: unknown): boolean {
  return e instanceof StackError || e instanceof PlanError || e instanceof VariableError;
}

export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Plans each stack of the session in order; `planned`/`failed` are told as each ends. */
export async function planSession(
  session: Session,
  opts: PlanRunOptions,
  on: { planned?: (sp: StackPlan) => void; failed?: (failure: StackFailure, error: unknown) => void } = {},
): Promise<PlanRun> {
  const several = session.units.length > 1;
  const plans: StackPlan[] = [];
  const failures: StackFailure[] = [];
  for (const unit of session.units) {
    try {
      const sp = await planStack(unit, { checkQueries: opts.checkQueries, parallelism: opts.parallelism, insights: opts.insights, moveDetection: opts.moveDetection, stateOf: session.stateOf });
      plans.push(sp);
      on.planned?.(sp);
    } catch (e) {
      if (!isStackProblem(e) && !several) throw e;
      const failure = { stack: unit.name, error: errorText(e) };
      failures.push(failure);
      on.failed?.(failure, e);
    }
  }
  return { plans, failures };
}
