// What a resource kind or a data source is, as the engines see it. A kind's whole
// behaviour is readable in its own file: attributes, identity, how it is created,
// changed and deleted, how the service is called, and the hooks below for the rules
// that only some kinds have. The lifecycle (src/lifecycle) reads these hooks; no engine
// names a kind.
import type { OdsClient } from "../api";
import type { Attributes } from "./attributes";
import type { ResourceApi, DataSourceApi } from "./api-binding";
import type { BacktestResult } from "./backtest/evaluate";
import type { SloFigures } from "./backtest/slo-replay";

/** Plain values keyed by snake_case attribute name, as in a synthesized stack. */
export type Values = Record<string, unknown>;

/** One problem with a declared value; `path` is the attribute path from the resource. */
export interface ValidationIssue {
  path: (string | number)[];
  message: string;
}

/** A problem the service found in a value before anything was written (a broken query). */
export interface PlanCheckProblem {
  /** Attribute path of the checked value, e.g. "query.apl" or "expression". */
  attribute: string;
  line?: number;
  column?: number;
  message: string;
}

/**
 * A check the service makes at plan time: the values of `needs` must be known (a
 * reference to an object not created yet cannot be checked). Answers undefined when the
 * value is fine; throws `PlanCheckUnsupported` when the service cannot check at all.
 */
export interface PlanCheck {
  /** What a failure is called in a Terraform diagnostic, e.g. "Invalid query". */
  title: string;
  /** What is checked, completing "At plan time, before anything is applied, both engines check that ...": for the reference docs. */
  checks: string;
  needs: readonly string[];
  /**
   * True when the answer depends only on the values of `needs` (a query compiled by the
   * service: unknown fields are not errors), not on the organization's objects; the Terraform
   * provider then reuses a pass for a while, across the walks (and processes) of a
   * command (src/tfprovider/passed-checks.ts). False when
   * the check reads what exists (a role, a field), which can change between commands.
   */
  answerDependsOnlyOnValues: boolean;
  check(client: OdsClient, values: Values, scope: PlanCheckScope): Promise<PlanCheckProblem | undefined>;
  /**
   * The part of the check that reads the organization's objects (does every known
   * notifier id name a live notifier?), run after `check` on every plan, also where a
   * pass of `check` is reused. It lets a kind whose main check depends on its values
   * alone (a compiled query) keep that pass while what it reads of the organization is
   * still asked each time.
   */
  liveCheck?(client: OdsClient, values: Values, scope: PlanCheckScope): Promise<PlanCheckProblem | undefined>;
  /**
   * Values that work, but likely not as the user means (`bin_auto` in a threshold
   * monitor's query): shown with the plan (a warning diagnostic in Terraform), never
   * refusing it. Reads only the values, so it runs whenever `needs` are known.
   */
  warnings?(values: Values): PlanCheckProblem[];
}

/** What the engine running a check knows beyond the one object. */
export interface PlanCheckScope {
  /**
   * True where the engine sees the whole plan (ods): a parent missing from the service is
   * not created by this run. False for the Terraform provider, which plans one resource at
   * a time: a missing parent may be created by another resource of the same apply.
   */
  seesWholePlan: boolean;
  /**
   * Answers shared by the checks of one plan, by key (the organization's notifiers): a
   * read that does not depend on the checked values is made once per plan, not per object.
   */
  memo?: Map<string, Promise<unknown>>;
}

/**
 * `read()` once per `memo` and key; every call without a memo reads. A read that lists a
 * kind's objects is keyed by the kind's type name (`ods_notifier`): the provider, which
 * checks while it writes, forgets the read when it writes that kind.
 */
export function sharedRead<T>(memo: Map<string, Promise<unknown>> | undefined, key: string, read: () => Promise<T>): Promise<T> {
  if (!memo) return read();
  let answer = memo.get(key) as Promise<T> | undefined;
  if (!answer) {
    answer = read();
    memo.set(key, answer);
  }
  return answer;
}

/** What a plan may ask before a change is applied: how long to look back, and when now is. */
export interface PlanInsightOptions {
  days: number;
  nowMs: number;
  /** Answers the insights of one plan share (two monitors reading the same query read it once). */
  answers?: Map<string, Promise<unknown>>;
}

/**
 * A chart in the mermaid dialect GitHub and GitLab render, with the text under it that names
 * its series; and the same without the live definition's series, for a comment that must
 * be shorter (docs/guides/gitops.md, "Plans on pull requests").
 */
export interface MermaidChart {
  markdown: string;
  withoutLive: string;
}

/**
 * What a plan shows beside a change so that a reviewer can judge it: a monitor's backtest.
 * Every form is free of secrets (the values it reads are the declared ones).
 */
export interface PlanInsightReport {
  /** One line, e.g. `backtest 7d: would have opened 3 alerts (2 groups), 41 min in alert`. */
  summary: string;
  /** More lines for a text plan (a sparkline). */
  lines: string[];
  /** The same for a pull-request comment: the text under the summary (the charts are `mermaid`). */
  markdown: string;
  /** Charts for a pull-request comment, in the order they are shown. */
  mermaid?: MermaidChart[];
  /** The machine form, merged into the change's JSON. */
  json: Record<string, unknown>;
  /** Queries spent on it. */
  queries: number;
  /** The data behind the pictures of the HTML plan; never part of the JSON plan. */
  charts?: InsightCharts;
}

/** What a picture of an insight is drawn from: the new definition's figures, and the live one's beside them. */
export interface InsightCharts {
  backtest?: { declared?: BacktestResult; live?: BacktestResult; threshold?: number; liveThreshold?: number };
  /** The SLO a monitor generated by slo.Slo belongs to (each of its monitors carries it). */
  slo?: { path: string; declared?: SloFigures; live?: SloFigures };
}

/**
 * A look at what a changed object would do, computed from the service's data through its
 * public endpoints (never a write). `live` is the object as it is now, when it exists.
 */
export interface PlanInsight {
  /** What it is called in a plan, e.g. "backtest". */
  title: string;
  /** What a reviewer sees, one sentence: for the reference docs. */
  shows: string;
  /** The attributes that must be known for it to run. */
  needs: readonly string[];
  run(client: OdsClient, values: Values, live: { id: string; values: Values } | undefined, options: PlanInsightOptions): Promise<PlanInsightReport>;
}

/** Deleting (or replacing) the object destroys data: refused unless `attribute` is true. */
export interface DestroyGuard {
  /** An engine-only bool attribute, e.g. allow_destroy. */
  attribute: string;
  /** What deleting does, completing "deleting X ...": "deletes all of its data". */
  consequence: string;
}

/**
 * Objects that cannot be updated are rotated: a new object (and secret) is issued and
 * the old one keeps working for a grace period, so that its users can switch.
 */
export interface RotationRule {
  /** Engine-only attribute whose change alone rotates. */
  trigger: string;
  /** Engine-only attribute with the declared grace period (a duration). */
  gracePeriodAttribute: string;
  /**
   * The grace period when the engine rotates on its own (adopting an object whose secret
   * no state has, or recovering a lost answer): its users hold the only copy of the old
   * secret, so it must stay valid long enough for them to switch. Never zero.
   */
  adoptionGracePeriod: string;
  /** The computed, sensitive attribute holding the secret an answer carries once. */
  secretAttribute: string;
  /**
   * The attribute with the object's expiry. A rotation sets the old object's expiry, so a
   * managed object whose live expiry differs from the declared one (unset: never) was
   * retired by a rotation whose answer was lost, or by hand: it is drift, and rotating
   * it again would hand its expiry on to the new object.
   */
  expiryAttribute: string;
}

/** A limit of the organization's license that one object of a kind counts against. */
export type CountedLimit = "maxDatasets" | "maxMonitors" | "maxUsers";

/**
 * What the organization's license bounds of a kind (`GET /v2/orgs/{id}`, `license`);
 * lifecycle/license.ts checks a plan against it before anything is written.
 */
export interface LicenseUse {
  /** Each object counts against this organization-wide limit. */
  counts?: CountedLimit;
  /** Each object is a field (maxFields) of the dataset this attribute names. */
  fieldOf?: string;
  /** Seconds of data one run of its query reads (maxQueryWindowSeconds); undefined: no bounded window. */
  queryWindowSeconds?: (values: Values) => number | undefined;
  /** Seconds of data its plan insight reads in one query over DAYS days (a backtest); undefined: none. */
  insightWindowSeconds?: (values: Values, days: number) => number | undefined;
}

/** Turns state values written under schema version N into version N+1. */
export type StateUpgrader = (values: Values) => Values;

export interface ResourceKind {
  /** Terraform type name, e.g. `ods_notifier`. */
  typeName: string;
  description: string;
  /** Bumped when the stored shape changes; `stateUpgraders` turn old states into the new shape. */
  schemaVersion: number;
  /** Keyed by the version they upgrade FROM; one per version below `schemaVersion`. */
  stateUpgraders?: Readonly<Record<number, StateUpgrader>>;
  attributes: Attributes;
  /**
   * Attributes that identify a live object without an id; adoption looks objects up by
   * them when state has no entry, so a lost state file never creates duplicates.
   */
  naturalKey: readonly string[];
  /**
   * Set for kinds the service lists per parent (per dataset): the attribute naming the
   * parent, and the parent's kind (an object under a parent created in the same run
   * cannot be checked by the service yet). Unset: one organization-wide list returns
   * every object.
   */
  scope?: { attribute: string; parentType: string };
  /** Set for kinds that cannot be updated: changes rotate them. */
  rotation?: RotationRule;
  /**
   * For a kind whose update sends back the version this configuration last wrote (the
   * service refuses one based on an older version): what the plan foresees when the
   * live object's version differs from the one in state (`last`). `refused`: apply would
   * be refused (and so writes nothing); otherwise the message says what will be lost.
   */
  versionConflict?: (last: Values, live: Values, declared: Values) => { refused: boolean; message: string } | undefined;
  /** `claim`: the object exists already (a dataset field) and is taken over, not created. */
  creation: "create" | "claim";
  /** `forget`: removing it from the config stops managing it. */
  deletion: "delete" | "forget";
  /** Set where deleting destroys data. */
  guard?: DestroyGuard;
  /** Cross-attribute rules (e.g. a notifier needs a channel); attribute rules live on attributes. */
  validate?: (values: Values) => ValidationIssue[];
  /** A check the service makes before anything is written. */
  planCheck?: PlanCheck;
  /** Shown beside a change of this kind in a plan (a monitor's backtest). */
  planInsight?: PlanInsight;
  /** What the organization's license bounds of this kind. */
  license?: LicenseUse;
  api: ResourceApi;
  /** How `ods import` / `terraform import` ids look, for messages. */
  importIdFormat: string;
  /**
   * Datasets the values name where the attributes do not show it (queries inside a JSON
   * document); attributes referring to datasets and query attributes are read generically
   * (named-datasets.ts).
   */
  datasetsNamed?: (values: Values) => string[];
  /**
   * Its queries (or its dataset) must name datasets that exist: a plan warns of one that is
   * neither in the target organization nor created by the configuration (lifecycle/stray-datasets.ts).
   */
  warnsOfStrayDatasets?: boolean;
}

export interface DataSourceKind {
  typeName: string;
  description: string;
  attributes: Attributes;
  validate?: (values: Values) => ValidationIssue[];
  api: DataSourceApi;
}

/**
 * A kind Terraform opens for one run and closes after it (an ephemeral resource): an
 * object of `opens` made at open with a bounded lifetime and deleted at close. Nothing of
 * it is ever stored: not in Terraform's state or plan, not in ods's.
 */
export interface EphemeralKind {
  typeName: string;
  description: string;
  attributes: Attributes;
  validate?: (values: Values) => ValidationIssue[];
  /** The resource kind of the object opened (its attributes of the same name are sent). */
  opens: ResourceKind;
  /**
   * The object's lifetime: `attribute` (a duration) sets `expiryAttribute` of the opened
   * object to now + that; never beyond `max`. A killed run's object ends by itself then.
   */
  lifetime: { attribute: string; max: string; expiryAttribute: string };
  /**
   * The opened object's name: `prefix` + the `label` attribute's value + a random suffix,
   * so that each run's object is its own and a later run can find expired leftovers.
   */
  naming: { attribute: string; label: string; prefix: string };
  /** The service cannot extend the object's lifetime: what Renew says instead (docs too). */
  renewal: string;
}
