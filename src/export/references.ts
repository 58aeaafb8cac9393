// References in model values, as the model declares them (`refersTo`, `keysReferTo`):
// one walk over a kind's attributes that rewrites each value naming another object.
// Compare uses it to see through ids that differ between organizations.
import { type Attribute, type AttributeReference, type Attributes, isNested, type Values } from "../resources";

export type RewriteReference = (value: string, ref: AttributeReference) => unknown;

function rewriteValue(attr: Attribute, v: unknown, f: RewriteReference): unknown {
  if (v === undefined || v === null) return v;
  if (isNested(attr)) {
    if (attr.type === "object") return rewriteReferences(attr.attributes, v as Values, f);
    if (attr.type === "object_list") return (v as Values[]).map((item) => rewriteReferences(attr.attributes, item, f));
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(v as Record<string, Values>)) {
      const k = attr.keysReferTo ? String(f(key, attr.keysReferTo)) : key;
      out[k] = rewriteReferences(attr.attributes, item, f);
    }
    return out;
  }
  if (attr.referencesInText && typeof v === "string") {
    let text = v;
    for (const e of attr.referencesInText(v)) text = text.split(JSON.stringify(e.value)).join(JSON.stringify(String(f(e.value, e.ref))));
    return text;
  }
  const ref = attr.refersTo;
  if (!ref) return v;
  const one = (x: unknown): unknown => (typeof x === "string" && !ref.except?.includes(x) ? f(x, ref) : x);
  return Array.isArray(v) ? v.map(one) : one(v);
}

/** The values with every value that names another object replaced by `f`'s answer. */
export function rewriteReferences(attrs: Attributes, values: Values, f: RewriteReference): Values {
  const out: Values = {};
  for (const [name, v] of Object.entries(values)) {
    const attr = attrs[name];
    out[name] = attr ? rewriteValue(attr, v, f) : v;
  }
  return out;
}
