// The model values of one object as the lifecycle sees them: live values read back from
// the service, engine-only settings, the natural key, the parent scope, and the values
// an import records.
import { type Attributes, fromWire, holdsWriteOnly, isNested, liveAsDeclared, isSettable, normalizeValue, type ResourceKind, type Values, type WireObject } from "../resources";
import { containsUnknown } from "./unknown";

/** Declared engine-only values (defaults applied), kept in state. */
export function engineValues(kind: ResourceKind, values: Values): Values {
  const out: Values = {};
  for (const [name, attr] of Object.entries(kind.attributes)) {
    if (!attr.engineOnly) continue;
    const v = values[name] ?? attr.default;
    if (v !== undefined && v !== null) out[name] = v;
  }
  return out;
}

/** Model values of a live object, as the engines compare them with declarations. */
export function liveValues(kind: ResourceKind, live: WireObject, declared?: Values): Values {
  const shaped = kind.api.normalizeLive ? kind.api.normalizeLive(live, declared) : live;
  const values = fromWire(kind.attributes, shaped);
  if (!declared) return values;
  // A credential declared write-only is not the engines' to show or compare (write-only.ts).
  for (const [name, attr] of Object.entries(kind.attributes)) {
    if (holdsWriteOnly(attr)) values[name] = liveAsDeclared(attr, declared[name], values[name]);
  }
  return values;
}

/** The parent an object is listed under (its dataset), for kinds the service lists per parent. */
export function scopeOf(kind: ResourceKind, values: Values | undefined): string | undefined {
  if (!kind.scope || !values) return undefined;
  const v = values[kind.scope.attribute];
  return typeof v === "string" ? v : undefined;
}

function naturalKeyOf(kind: ResourceKind, values: Values): string | undefined {
  const parts = kind.naturalKey.map((k) => values[k]);
  if (parts.some((p) => p === undefined || p === null || containsUnknown(p))) return undefined;
  return JSON.stringify(parts);
}

/** The natural key of declared values as text for messages, or undefined while unknown. */
export function naturalKeyText(kind: ResourceKind, values: Values): string | undefined {
  return naturalKeyOf(kind, values);
}

/** Whether a live object has the natural key of declared values (adoption, lost answers). */
export function matchesNaturalKey(kind: ResourceKind, live: WireObject, declared: Values): boolean {
  const key = naturalKeyOf(kind, declared);
  return key !== undefined && naturalKeyOf(kind, liveValues(kind, live, declared)) === key;
}

/**
 * The values an import records, the same for `ods import` and `terraform import`: the
 * service answers "" or [] for what was never set, which is recorded as unset (as a
 * config that leaves it out says), and engine-only settings take their defaults, so the
 * first plan after an import is empty.
 */
export function importValues(kind: ResourceKind, live: WireObject): Values {
  return unsetEmpty(kind.attributes, liveValues(kind, live));
}

/**
 * Imported values as a config that leaves optional attributes out has them: the service
 * answers "" or [] for what was never set, at any depth (a starred query's
 * query.start_time), and that is recorded as unset so the first plan is empty. A secret
 * the service never returns (a token's) is recorded as "", a value: construct outputs
 * that read it must not get null (cdktf deploy fails on a null output).
 */
function unsetEmpty(attrs: Attributes, values: Values): Values {
  const out: Values = { ...values };
  for (const [name, attr] of Object.entries(attrs)) {
    const v = values[name];
    const computedOnly = attr.computed === true && !isSettable(attr);
    if (attr.secret && computedOnly) out[name] = typeof v === "string" ? v : "";
    else if (attr.engineOnly && attr.default !== undefined) out[name] = attr.default;
    else if (!computedOnly && attr.default === undefined && normalizeValue(attr, v) === null) out[name] = null;
    else if (isNested(attr) && v !== null && typeof v === "object") {
      if (attr.type === "object") out[name] = unsetEmpty(attr.attributes, v as Values);
      else if (attr.type === "object_list") out[name] = (v as Values[]).map((item) => unsetEmpty(attr.attributes, item));
      else out[name] = Object.fromEntries(Object.entries(v as Record<string, Values>).map(([k, item]) => [k, unsetEmpty(attr.attributes, item)]));
    }
  }
  return out;
}

/** Splits values into what a state keeps openly and the secrets the service returned once. */
export function splitSensitive(kind: ResourceKind, values: Values): { values: Values; sensitive: Record<string, string> } {
  const open: Values = { ...values };
  const sensitive: Record<string, string> = {};
  for (const [name, attr] of Object.entries(kind.attributes)) {
    if (!(attr.computed && attr.sensitive && !isSettable(attr))) continue;
    const v = open[name];
    if (typeof v === "string" && v !== "") sensitive[name] = v;
    delete open[name];
  }
  return { values: open, sensitive };
}

/** An import as an engine records it: the model values, and the engine-only settings apart. */
export function importedState(kind: ResourceKind, live: WireObject): { id: string; values: Values; engineValues: Values } {
  const all = importValues(kind, live);
  const values: Values = {};
  for (const [name, v] of Object.entries(all)) if (!kind.attributes[name]?.engineOnly) values[name] = v;
  return { id: kind.api.idOf(live), values: splitSensitive(kind, values).values, engineValues: engineValues(kind, all) };
}

export interface KeyedDeclaration {
  address: string;
  kind: ResourceKind;
  values: Values;
}

/**
 * Declarations of one kind that share a natural key, in words naming both addresses:
 * the service either keeps two objects nobody can tell apart (notifiers, roles, tokens)
 * or refuses the second after other writes (datasets, users, fields). Keys not known
 * before apply are left to the service.
 */
export function duplicateNaturalKeys(decls: readonly KeyedDeclaration[]): string[] {
  const seen = new Map<string, string>();
  const problems: string[] = [];
  for (const d of decls) {
    const key = naturalKeyOf(d.kind, d.values);
    if (key === undefined) continue;
    const slot = `${d.kind.typeName} ${key}`;
    const first = seen.get(slot);
    if (first) problems.push(`${first} and ${d.address} declare the same ${d.kind.typeName} (${d.kind.naturalKey.join(" and ")} ${key}); each object must be declared once`);
    else seen.set(slot, d.address);
  }
  return problems;
}
