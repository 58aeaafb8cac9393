// `ods compare --ignore`: what differs between environments on purpose (webhook targets,
// thresholds, grace periods) is left out, so that what remains is what nobody meant.
// Three forms: `ods_notifier` (a kind: its objects on neither side), `ods_notifier.properties`
// (an attribute path of one kind) and `rotation_grace_period` (that attribute path in
// every kind). A path covers everything under it. Kinds are written with their `ods_`
// prefix, so that an attribute named like a kind (`dataset`) stays an attribute.
import { isNested, RESOURCE_KINDS, type Attributes, type ResourceKind } from "../resources";

export interface IgnoreRule {
  spec: string;
  /** The kind's type name; undefined: every kind. */
  typeName?: string;
  /** The attribute path, dot-separated; undefined: the whole kind. */
  path?: string;
}

/** Whether `path` names an attribute (or a nested one) of `attrs`; map keys are free. */
function hasPath(attrs: Attributes, parts: readonly string[]): boolean {
  const attr = attrs[parts[0]];
  if (!attr) return false;
  if (parts.length === 1) return true;
  if (!isNested(attr)) return attr.type === "map" && parts.length === 2;
  // A map of objects: the next part is a key (any), then the object's attributes.
  if (attr.type !== "object" && attr.type !== "object_list") return parts.length === 2 || hasPath(attr.attributes, parts.slice(2));
  return hasPath(attr.attributes, parts.slice(1));
}

export function parseIgnoreRule(spec: string): IgnoreRule {
  const text = spec.trim();
  if (!/^[A-Za-z0-9_.]+$/.test(text)) throw new Error(`--ignore expects KIND, KIND.ATTRIBUTE or ATTRIBUTE (e.g. ods_notifier, ods_notifier.properties, rotation_grace_period); got "${spec}"`);
  const [first, ...rest] = text.split(".");
  const kind = RESOURCE_KINDS.find((k) => k.typeName === first);
  if (first.startsWith("ods_") && !kind) {
    throw new Error(`--ignore ${spec}: no kind ${first}; kinds: ${RESOURCE_KINDS.map((k) => k.typeName).join(", ")}`);
  }
  if (kind) {
    if (rest.length === 0) return { spec: text, typeName: kind.typeName };
    if (!hasPath(kind.attributes, rest)) throw new Error(`--ignore ${spec}: ${kind.typeName} has no attribute ${rest.join(".")}`);
    return { spec: text, typeName: kind.typeName, path: rest.join(".") };
  }
  const parts = text.split(".");
  const holders: ResourceKind[] = RESOURCE_KINDS.filter((k) => hasPath(k.attributes, parts));
  if (holders.length === 0) throw new Error(`--ignore ${spec}: no kind has an attribute ${text} (write a kind with its ods_ prefix, e.g. ods_notifier)`);
  return { spec: text, path: text };
}

export function ignoresKind(rules: readonly IgnoreRule[], typeName: string): boolean {
  return rules.some((r) => r.typeName === typeName && r.path === undefined);
}

/** Whether a differing attribute path (`properties.webhook.url`) falls under a rule. */
export function ignoresAttribute(rules: readonly IgnoreRule[], typeName: string, path: string): boolean {
  return rules.some((r) => r.path !== undefined && (r.typeName === undefined || r.typeName === typeName) && (path === r.path || path.startsWith(`${r.path}.`)));
}
