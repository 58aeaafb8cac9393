// The failures of the automation API, as classes a caller can tell apart with
// `instanceof`. Each carries the text `ods` prints for the same failure (its `message`,
// and `problems` one by one), sensitive values already hidden.
import { OdsApiError } from "../api";
import { LockHeldError } from "../reconcile/backends";
import { PlanError } from "../reconcile/plan";
import { StackError } from "../reconcile/stack";
import { TargetError } from "../reconcile/target";
import { VariableError } from "../reconcile/variables";

/** Every error the API throws on purpose. */
export class AutomationError extends Error {
  /** Each problem on its own (the message joins them, one per line). */
  readonly problems: readonly string[];
  /** The stack it concerns, when one. */
  readonly stack?: string;

  constructor(problems: readonly string[], options: { stack?: string; cause?: unknown } = {}) {
    super(problems.join("\n"), options.cause !== undefined ? { cause: options.cause } : undefined);
    this.name = new.target.name;
    this.problems = problems;
    if (options.stack !== undefined) this.stack = options.stack;
  }
}

/** The configuration is wrong: a stack, a variable, a provider block, or a plan the engine refuses (prevent_destroy, a move it cannot make). Fix the code. */
export class StackProblem extends AutomationError {}

/** Another run holds the stack's state lock. `holder` says who, as Terraform's lock info does. */
export class LockHeld extends AutomationError {
  constructor(
    message: string,
    readonly holder: { id?: string; who?: string; operation?: string; created?: string } | undefined,
    options: { stack?: string; cause?: unknown } = {},
  ) {
    super([message], options);
  }
}

/** An apply refused before its first write (a stale saved plan, a change the service would refuse, an emptied stack, outputs of other stacks missing). Nothing was changed. */
export class Refusal extends AutomationError {}

/** The service answered with an error (or could not be reached). */
export class ServiceError extends AutomationError {
  constructor(
    message: string,
    /** HTTP status; 0 when no answer came. */
    readonly status: number,
    /** The service's own message. */
    readonly serviceMessage: string,
    options: { stack?: string; cause?: unknown } = {},
  ) {
    super([message], options);
  }
}

function problemsOf(e: Error): string[] {
  const p = (e as { problems?: unknown }).problems;
  return Array.isArray(p) && p.every((x) => typeof x === "string") ? (p as string[]) : [e.message];
}

/**
 * The API's error for what the engine threw. `applying`: thrown by an apply before its
 * first write, where a stack problem is a refusal. Anything else is passed on as is.
 */
export function typedError(e: unknown, o: { applying?: boolean; stack?: string; redact?: (text: string) => string } = {}): unknown {
  const r = o.redact ?? ((t: string): string => t);
  const opts = { ...(o.stack !== undefined ? { stack: o.stack } : {}), cause: e };
  if (e instanceof AutomationError) return e;
  if (e instanceof LockHeldError) {
    const h = e.holder;
    return new LockHeld(r(e.message), h ? { id: h.ID, who: h.Who, operation: h.Operation, created: h.Created } : undefined, opts);
  }
  if (e instanceof OdsApiError) return new ServiceError(r(e.message), e.status, r(e.serviceMessage), opts);
  if (e instanceof StackError || e instanceof PlanError || e instanceof VariableError || e instanceof TargetError) {
    const problems = problemsOf(e).map(r);
    return o.applying && e instanceof StackError ? new Refusal(problems, opts) : new StackProblem(problems, opts);
  }
  if (o.applying && e instanceof Error && /^the saved plan .* is stale/.test(e.message)) return new Refusal([r(e.message)], opts);
  return e;
}
