// What a resource kind or a data source is, as the engines see it. A kind's whole
// behaviour is readable in its own file: attributes, identity, how it is created,
// changed and deleted, how the service is called, and the hooks below for the rules
// that only some kinds have. The lifecycle (src/lifecycle) reads these hooks; no engine
// names a kind.
import type { OdsClient } from "../api";
import type { Attributes } from "./attributes";
import type { ResourceApi, DataSourceApi } from "./api-binding";

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
  api: ResourceApi;
  /** How `ods import` / `terraform import` ids look, for messages. */
  importIdFormat: string;
}

export interface DataSourceKind {
  typeName: string;
  description: string;
  attributes: Attributes;
  validate?: (values: Values) => ValidationIssue[];
  api: DataSourceApi;
}
