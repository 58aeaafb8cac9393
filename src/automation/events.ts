// Progress events of the automation API, each typed by its `type`: what `ods` prints line
// by line as it goes, for a caller to show or log.

/** The service and organization a provider configuration of a stack writes to. */
export interface TargetEvent {
  type: "target";
  /** The line `ods` prints ("Target of stack ..., provider ods: URL, organization ..."). */
  text: string;
}

/** A stack's plan is ready (apply: planned again under the lock, about to be applied). */
export interface PlanEvent {
  type: "plan";
  stack: string;
  /** The plan as `ods plan` prints it. */
  text: string;
  hasChanges: boolean;
}

/** One object's change during an apply. */
export interface ChangeEvent {
  type: "change";
  address: string;
  action: "create" | "adopt" | "update" | "replace" | "rotate" | "delete" | "forget" | "noop";
  phase: "start" | "done" | "failed" | "skipped";
  /** The object's id once known. */
  id?: string;
  /** Why it failed or was skipped. */
  message?: string;
}

/** A stack's apply ended: the line `ods apply` prints. */
export interface SummaryEvent {
  type: "summary";
  text: string;
}

/** A warning, an error of one change, or a notice (synthesizing, a stale stack directory). */
export interface MessageEvent {
  type: "warning" | "notice";
  text: string;
}

export type AutomationEvent = TargetEvent | PlanEvent | ChangeEvent | SummaryEvent | MessageEvent;
