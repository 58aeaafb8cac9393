// Generic mapping between model values (snake_case, as in a synthesized stack) and the
// service's JSON (the seed's camelCase names). Keys of map attributes (dataset names,
// header names, labels) are the user's and are never renamed.
import { type Attribute, type Attributes, isNested, isSettable, wireName } from "./attributes";
import type { Values } from "./kind";
import type { WireObject } from "./api-binding";
import { WO_SUFFIX } from "./write-only";

function isPresent(v: unknown): boolean {
  return v !== undefined && v !== null;
}

function valueToWire(attr: Attribute, v: unknown): unknown {
  if (!isNested(attr)) return v;
  if (attr.type === "object") return toWire(attr.attributes, v as Values);
  if (attr.type === "object_list") return (v as Values[]).map((item) => toWire(attr.attributes, item));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(v as Record<string, Values>)) out[key] = toWire(attr.attributes, item);
  return out;
}

/** The request body for declared values: settable, non-engine attributes, defaults applied. */
export function toWire(attrs: Attributes, values: Values): WireObject {
  const out: WireObject = {};
  for (const [name, attr] of Object.entries(attrs)) {
    if (attr.engineOnly || attr.writeOnly || attr.writeOnlyVersion || !isSettable(attr)) continue;
    // A credential declared write-only is sent under its own name (write-only.ts).
    const given = isPresent(values[name]) || !attr.writeOnlyTwin ? values[name] : values[`${name}${WO_SUFFIX}`];
    const v = isPresent(given) ? given : attr.default;
    if (!isPresent(v)) continue;
    out[wireName(name, attr)] = valueToWire(attr, v);
  }
  return out;
}

function valueFromWire(attr: Attribute, w: unknown): unknown {
  if (!isPresent(w)) return null;
  if (!isNested(attr)) return w;
  if (attr.type === "object") return typeof w === "object" ? fromWire(attr.attributes, w as WireObject) : null;
  if (attr.type === "object_list") return Array.isArray(w) ? w.map((item) => fromWire(attr.attributes, item as WireObject)) : null;
  const out: Record<string, Values> = {};
  for (const [key, item] of Object.entries(w as Record<string, WireObject>)) out[key] = fromWire(attr.attributes, item);
  return out;
}

/** Model values of a live object; attributes the service did not return are null. */
export function fromWire(attrs: Attributes, wire: WireObject): Values {
  const out: Values = {};
  for (const [name, attr] of Object.entries(attrs)) {
    if (attr.engineOnly) continue;
    // Never returned as such: the service knows only the plain attribute.
    if (attr.writeOnly || attr.writeOnlyVersion) {
      out[name] = null;
      continue;
    }
    out[name] = valueFromWire(attr, wire[wireName(name, attr)]);
  }
  return out;
}
