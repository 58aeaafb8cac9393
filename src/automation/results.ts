// The typed results of the automation API. A plan's result is the machine form `ods plan
// --json` has printed since its first version (Terraform's JSON plan shape: snake_case,
// versioned by `format_version`), typed: the CLI prints these same objects, serialized,
// so a program and a pipeline reading the CLI read one format. Sensitive values are
// never in a result: they read "(sensitive)" or are left out (null) with the name listed
// in `after_sensitive`, exactly as in the CLI's output.

/** A JSON value. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** What a change does to an object. */
export type ChangeAction = "create" | "adopt" | "update" | "replace" | "rotate" | "delete" | "forget" | "noop";

/** One changed path inside a JSON document attribute (a dashboard's charts, a query). */
export interface DocumentChange {
  path: string;
  action: "create" | "delete" | "update" | "move" | "rename";
  before: Json;
  after: Json;
  /** Known only after apply. */
  after_unknown?: true;
  /** The attribute is sensitive: before and after are null. */
  sensitive?: true;
}

/** One monitor replay over past days (a backtest), or what the service's own history shows. */
export interface BacktestFigures {
  days: number;
  checks: number;
  queries: number;
  alerts: number;
  series: number;
  notifications?: number;
  history?: number;
  approximate?: Json;
}

/** An SLO's figures over its window (`slo.Slo`): as planned, and `live` as it runs now. */
export interface SloFigures {
  name: string;
  path: string;
  objectivePercent?: number;
  windowDays?: number;
  from?: string;
  to?: string;
  events?: number;
  badEvents?: number;
  sliPercent?: number | null;
  budgetConsumedPercent?: number | null;
  pages?: number;
  tickets?: number;
  alerts?: Json;
  burn?: Json;
  /** Why the SLO could not be replayed. */
  skipped?: string;
  queries?: number;
  live?: SloFigures;
}

/** One object's planned change. */
export interface ResourceChange {
  address: string;
  /** A move: the address it had, and how the move was found. */
  previous_address?: string;
  moved_by?: "moved block" | "natural key";
  type: string;
  construct_path: string | null;
  id: string | null;
  /** Terraform's actions: ["delete","create"] for a replacement, ["noop"] for none. */
  actions: string[];
  action: ChangeAction;
  changed_attributes: string[];
  reasons: string[];
  before: Record<string, Json> | null;
  after: Record<string, Json> | null;
  /** Attributes known only after apply. */
  after_unknown: string[];
  /** Attributes hidden (null in `after`). */
  after_sensitive: string[];
  /** Per JSON document attribute, the paths that change. */
  document_changes?: Record<string, DocumentChange[]>;
  /** A rotated token's old secret: when it stops working. */
  old_secret_stops_working_at?: string;
  rotation_grace_period?: string;
  /** The service would refuse this change (apply then applies nothing). */
  apply_refuses?: string;
  /** A created or changed monitor replayed over past days (null: skipped, see `skipped`). */
  backtest?: BacktestFigures | null;
  skipped?: string;
  live?: BacktestFigures;
  liveSkipped?: string;
  /** The SLO window pair this monitor alerts on, and the SLO's figures. */
  sloPair?: string;
  slo?: SloFigures;
}

/** One output's planned change (Terraform's `output_changes`). */
export interface OutputChange {
  actions: string[];
  before: Json;
  after: Json;
  after_unknown: Json;
  before_sensitive: boolean;
  after_sensitive: boolean;
}

/** Where a provider configuration writes. */
export interface PlanTarget {
  provider: string;
  url: string;
  organization: { id: string; name?: string } | null;
}

/** The plan of one provider configuration of a stack: `ods plan --json` for one stack and one target. */
export interface PartPlan {
  format_version: string;
  stack: string;
  warnings: string[];
  slos: SloFigures[];
  output_changes: Record<string, OutputChange>;
  resource_changes: ResourceChange[];
  target: PlanTarget;
}

/** One stack's plan: one part per provider configuration, in apply order. */
export interface StackPlanResult {
  stack: string;
  plans: PartPlan[];
}

/** A stack that could not be planned, with the error `ods plan` prints for it. */
export interface StackFailure {
  stack: string;
  error: string;
}

/** The plan of every selected stack (`ods plan --json` with several stacks or targets). */
export interface PlanResult {
  stacks: StackPlanResult[];
  errors: StackFailure[];
  has_changes: boolean;
}

/** What an apply did, in the plan's categories. */
export interface ApplyCounts {
  created: number;
  adopted: number;
  updated: number;
  replaced: number;
  rotated: number;
  deleted: number;
  forgotten: number;
  moved: number;
  failed: number;
  skipped: number;
  /** Changes not started (the apply was stopped). */
  not_started: number;
}

/** How one stack's apply ended. */
export interface StackApplyResult {
  stack: string;
  status: "applied" | "no changes" | "cancelled" | "interrupted" | "not applied" | "failed";
  /** The line `ods apply` prints for it ("Apply complete: 1 created, ..."). */
  summary: string;
  counts: ApplyCounts | null;
  warnings: string[];
  errors: string[];
  /** The plan that was applied. */
  plan: StackPlanResult | null;
}

/** The apply (or destroy) of every selected stack. */
export interface ApplyResult {
  stacks: StackApplyResult[];
  /** Stopped by the AbortSignal: the state holds every change made. */
  interrupted: boolean;
  failed: boolean;
}

/** One attribute changed outside the stack. */
export interface DriftedAttribute {
  name: string;
  /** As the last apply left it ("(sensitive)" for a sensitive attribute). */
  before: Json;
  /** As it is now. */
  after: Json;
  sensitive: boolean;
}

/** One managed object changed outside the stack. */
export interface DriftedObject {
  address: string;
  id: string;
  type: string;
  provider: string;
  deleted: boolean;
  attributes: DriftedAttribute[];
  /** What to know before apply restores it. */
  advice?: string;
}

export interface StackDriftResult {
  stack: string;
  drifted: DriftedObject[];
  warnings: string[];
}

/** Drift of every selected stack (`ods drift --json`). */
export interface DriftResult {
  stacks: StackDriftResult[];
  has_drift: boolean;
}
