// An object's attributes as both engines store them in Terraform's state:
// every attribute present (null when unset), nested objects shaped to the schema, the
// declared value kept wherever the live one equals it under the model's comparison
// (server defaults, order of set-like lists, timestamp forms), secrets and engine-only
// settings as last applied. The provider's refresh and apply and `ods apply` all shape
// values here, so both engines store the same values for the same object.
import { isNested, sameValue, type Attribute, type Attributes, type ResourceKind, type Values } from "../resources";
import { UNKNOWN } from "./unknown";

export function isComputedOnly(attr: Attribute): boolean {
  return attr.computed === true && !attr.required && !attr.optional;
}

/** A value shaped to the schema: every attribute of a nested object present (null when unset). */
export function shapeValue(attr: Attribute, v: unknown): unknown {
  // Never in a plan or a state, whichever engine writes it.
  if (attr.writeOnly) return null;
  if (v === UNKNOWN) return UNKNOWN;
  if (v === undefined || v === null) return null;
  if (!isNested(attr)) return v;
  if (attr.type === "object") return shapeObject(attr.attributes, v as Values);
  if (attr.type === "object_list") return (v as Values[]).map((x) => shapeObject(attr.attributes, x));
  const out: Values = {};
  for (const [k, x] of Object.entries(v as Record<string, Values>)) out[k] = shapeObject(attr.attributes, x);
  return out;
}

export function shapeObject(attrs: Attributes, values: Values): Values {
  const out: Values = {};
  for (const [name, attr] of Object.entries(attrs)) out[name] = shapeValue(attr, values[name]);
  return out;
}

/**
 * The prior (declared) value where the live one equals it, else the live one; secrets and
 * engine-only settings cannot be read back and keep the prior value. The provider's refresh
 * rule, so that neither engine sees a difference the other does not. When nothing moved,
 * at any depth, the prior object itself: callers tell "unchanged" by identity.
 */
export function mergeLive(attrs: Attributes, prior: Values, live: Values): Values {
  const out: Values = {};
  for (const [name, attr] of Object.entries(attrs)) {
    const p = prior[name] ?? null;
    // A write version is the one this configuration last wrote, not the one live now.
    if (attr.writeOnly) out[name] = null;
    // A write-only version is the engine's own record; a credential declared write-only
    // (its plain form null) stays null, whatever the service holds.
    else if (attr.engineOnly || attr.secret || attr.writeOnlyVersion || (attr.writeOnlyTwin && p === null)) out[name] = p;
    else if (attr.writeVersion && p !== null && p !== UNKNOWN) out[name] = p;
    else if (isNested(attr) && attr.type === "object" && p !== null && p !== UNKNOWN && live[name] !== null && live[name] !== undefined) {
      out[name] = mergeLive(attr.attributes, p as Values, live[name] as Values);
    } else if (sameValue(attr, p, live[name])) out[name] = p;
    else out[name] = shapeValue(attr, live[name]);
  }
  return Object.keys(attrs).every((name) => out[name] === prior[name]) ? prior : out;
}

/**
 * The state attributes after an apply: declared values (defaults applied, secrets
 * included) where the user sets them, computed ones from the service's answer, then the
 * refresh rule against the live values.
 */
export function instanceAttributes(kind: ResourceKind, declared: Values, live: Values, id: string, secrets: Record<string, string> = {}): Values {
  const planned: Values = {};
  for (const [name, attr] of Object.entries(kind.attributes)) {
    let v = declared[name];
    if ((v === undefined || v === null) && attr.default !== undefined) v = attr.default;
    if (isComputedOnly(attr) || (attr.computed && (v === undefined || v === null))) v = live[name];
    planned[name] = v ?? null;
  }
  for (const [name, value] of Object.entries(secrets)) planned[name] = value;
  if ("id" in kind.attributes) planned.id = id;
  return mergeLive(kind.attributes, shapeObject(kind.attributes, planned), { ...live, id });
}

export type PathStep = { type: "get_attr"; value: string } | { type: "index"; value: { value: string | number; type: "string" | "number" } };

/**
 * Paths of sensitive values, as Terraform 1.11 records them in `sensitive_attributes`:
 * every sensitive attribute of an object that is present (null or not), and those of
 * nested objects that are not null.
 */
export function sensitivePaths(attrs: Attributes, values: Values | null, prefix: PathStep[] = []): PathStep[][] {
  const out: PathStep[][] = [];
  for (const [name, attr] of Object.entries(attrs)) if (attr.sensitive) out.push([...prefix, { type: "get_attr", value: name }]);
  if (values === null) return out;
  for (const [name, attr] of Object.entries(attrs)) {
    if (!isNested(attr) || attr.sensitive) continue;
    const v = values[name];
    if (v === null || v === undefined) continue;
    const here: PathStep[] = [...prefix, { type: "get_attr", value: name }];
    if (attr.type === "object") out.push(...sensitivePaths(attr.attributes, v as Values, here));
    else if (attr.type === "object_list") {
      (v as Values[]).forEach((x, i) => out.push(...sensitivePaths(attr.attributes, x, [...here, { type: "index", value: { value: i, type: "number" } }])));
    } else {
      for (const [k, x] of Object.entries(v as Record<string, Values>)) {
        out.push(...sensitivePaths(attr.attributes, x, [...here, { type: "index", value: { value: k, type: "string" } }]));
      }
    }
  }
  return out;
}
