// Per-attribute plan rules, after terraform-plugin-framework's plan modifiers: each is a
// small named object deciding one attribute's planned value (or whether its change
// forces a new object), tested on its own and shared by both engines.
import { holdsWriteOnly, isSettable, sameValue, withoutWriteOnlyValue, type Attribute, type ResourceKind, type Values } from "../resources";
import { UNKNOWN } from "./unknown";

export interface ModifyRequest {
  attr: Attribute;
  /** The value planned so far (declared, with references resolved). */
  planned: unknown;
  /** The value the configuration sets (Terraform fills unset computed values from state). */
  configured: unknown;
  /** The value the object has now (live, or the engine's last record); undefined when there is none. */
  prior: unknown;
  /** Whether the apply issues a new object (create, replace, rotate): computed values change. */
  objectIsNew: boolean;
  /** Whether anything about the object changes at all. */
  anyChange: boolean;
}

export interface PlanModifier {
  name: string;
  /** One sentence a plan reader can follow. */
  description: string;
  appliesTo(attr: Attribute, planned: unknown, configured: unknown): boolean;
  modify(request: ModifyRequest): unknown;
}

const unset = (v: unknown): boolean => v === undefined || v === null;

/**
 * An attribute the configuration leaves unset plans (and sends) its declared default, as
 * terraform-plugin-framework's defaults do: the configuration decides, not the value
 * Terraform carried over from state for an optional computed attribute (else a label
 * once declared and then removed would stay, and ods, which sends the default, would
 * disagree).
 */
export const DefaultWhenUnset: PlanModifier = {
  name: "DefaultWhenUnset",
  description: "When the configuration leaves it unset, the attribute's default is planned and sent.",
  appliesTo: (attr, _planned, configured) => attr.default !== undefined && unset(configured),
  modify: ({ attr }) => attr.default,
};

/** A read-only computed value stays as it is unless the object is issued anew. */
export const UseStateForUnknown: PlanModifier = {
  name: "UseStateForUnknown",
  description: "A computed value keeps its current value unless the object is created, replaced or rotated (or, for one the service sets on every write, changed at all).",
  appliesTo: (attr) => attr.computed === true && !isSettable(attr),
  modify: ({ attr, prior, objectIsNew, anyChange }) =>
    objectIsNew || prior === undefined || (attr.changesOnWrite === true && anyChange) ? UNKNOWN : prior,
};

/**
 * A value with many spellings (a JSON document) that means what the current one means
 * plans the current spelling, as terraform-plugin-framework's semantic equality does:
 * Terraform then shows no change for text that only differs in form (after an import,
 * say), and accepts the plan since the planned value is the prior one.
 */
export const KeepEquivalentPrior: PlanModifier = {
  name: "KeepEquivalentPrior",
  description: "A value equal to the current one under the attribute's normalization keeps the current spelling.",
  appliesTo: (attr, planned) => attr.normalize !== undefined && typeof planned === "string",
  modify: ({ attr, planned, prior }) => (typeof prior === "string" && sameValue(attr, planned, prior) ? prior : planned),
};

/**
 * An optional computed attribute left unset is the service's to choose: known after
 * apply when anything changes, else its current value. Only Terraform needs it, since
 * it demands a value for every attribute; `ods` leaves undeclared attributes out.
 */
export const UnknownWhenUnsetAndChanging: PlanModifier = {
  name: "UnknownWhenUnsetAndChanging",
  description: "An unset optional computed value is known after apply when the object changes.",
  appliesTo: (attr, _planned, configured) => attr.computed === true && isSettable(attr) && unset(configured),
  modify: ({ prior, objectIsNew, anyChange }) => (objectIsNew || prior === undefined || (anyChange && unset(prior)) ? UNKNOWN : prior),
};

/** A changed value that cannot be updated in place replaces the object. */
export const RequiresReplace = {
  name: "RequiresReplace",
  description: "A change of this attribute replaces the object.",
  among: (kind: ResourceKind, changed: readonly string[]): string[] => changed.filter((n) => kind.attributes[n]?.forcesReplacement === true),
};

/**
 * Whether changes issue a new object: a replacement does, and for kinds that rotate,
 * any change the service sees, or the rotation trigger. Engine-only settings alone
 * (a grace period, allow_destroy) change nothing on the service.
 */
export function issuesNewObject(kind: ResourceKind, changed: readonly string[]): boolean {
  if (RequiresReplace.among(kind, changed).length > 0) return true;
  const rotation = kind.rotation;
  if (!rotation) return false;
  return changed.some((n) => !kind.attributes[n]?.engineOnly || n === rotation.trigger);
}

export interface PlannedValuesRequest {
  declared: Values;
  /** What the configuration sets, where it differs from `declared` (Terraform's proposed state). */
  configured?: Values | null;
  /** Current values (live for `ods`, Terraform's prior state); undefined for a new object. */
  prior: Values | undefined;
  objectIsNew: boolean;
  anyChange: boolean;
  /** Terraform plans a value for every attribute; `ods` leaves undeclared ones out. */
  everyAttribute: boolean;
}

/**
 * A write-only value (`<name>_wo`) is planned as null, as Terraform 1.11 demands: the value
 * goes to the service at apply, from the configuration, and no plan holds it.
 */
export const WriteOnlyNeverPlanned: PlanModifier = {
  name: "WriteOnlyNeverPlanned",
  description: "A write-only value is planned as null; the apply takes it from the configuration.",
  appliesTo: (attr, planned) => holdsWriteOnly(attr) && planned !== undefined && planned !== null,
  modify: ({ attr, planned }) => (planned === UNKNOWN ? planned : withoutWriteOnlyValue(attr, planned)),
};

const MODIFIERS: readonly PlanModifier[] = [DefaultWhenUnset, UseStateForUnknown, KeepEquivalentPrior, WriteOnlyNeverPlanned];
const TERRAFORM_MODIFIERS: readonly PlanModifier[] = [...MODIFIERS, UnknownWhenUnsetAndChanging];

/** The planned values: declared values with every applicable plan modifier applied. */
export function plannedValues(kind: ResourceKind, request: PlannedValuesRequest): Values {
  const out: Values = { ...request.declared };
  const modifiers = request.everyAttribute ? TERRAFORM_MODIFIERS : MODIFIERS;
  for (const [name, attr] of Object.entries(kind.attributes)) {
    for (const m of modifiers) {
      const configured = request.configured !== undefined ? request.configured?.[name] : request.declared[name];
      if (!m.appliesTo(attr, out[name], configured)) continue;
      out[name] = m.modify({
        attr,
        planned: out[name],
        configured,
        prior: request.prior ? request.prior[name] : undefined,
        objectIsNew: request.objectIsNew,
        anyChange: request.anyChange,
      });
    }
  }
  return out;
}

/** Declared values with defaults filled in (DefaultWhenUnset alone). */
export function applyDefaults(kind: Pick<ResourceKind, "attributes">, values: Values): Values {
  const out: Values = { ...values };
  for (const [name, attr] of Object.entries(kind.attributes)) {
    if (DefaultWhenUnset.appliesTo(attr, out[name], out[name])) out[name] = attr.default;
  }
  return out;
}
