// How a live value compares with a declared one. Pure functions of (declared, live):
// the engines decide what to do with the differences.
import { type Attribute, type Attributes, isNested } from "./attributes";
import type { Values } from "./kind";
import { liveAsDeclared } from "./write-only";

/** Canonical form of an instant: UTC, no fractional seconds when there are none. */
export function canonicalTimestamp(text: string): string {
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) return text;
  const iso = new Date(ms).toISOString();
  return iso.endsWith(".000Z") ? `${iso.slice(0, -5)}Z` : iso;
}

function isEmpty(v: unknown): boolean {
  if (v === undefined || v === null || v === "") return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === "object") return Object.keys(v as object).length === 0;
  return false;
}

/**
 * The comparable form of one value: absent, empty and the server's default are the
 * same; unordered lists are sorted; timestamps are instants; secrets are left out
 * (the service never returns them; fingerprints cover them).
 */
export function normalizeValue(attr: Attribute, v: unknown): unknown {
  // Write-only values and their versions are never read back: write-only.ts compares versions with the state.
  if (attr.secret || attr.writeOnly || attr.writeOnlyVersion) return null;
  let value = v;
  if (isEmpty(value) || (attr.serverDefault !== undefined && JSON.stringify(value) === JSON.stringify(attr.serverDefault))) {
    return null;
  }
  if (attr.normalize) return attr.normalize(value);
  if (isNested(attr)) {
    if (attr.type === "object") value = normalizeValues(attr.attributes, value as Values);
    else if (attr.type === "object_list") value = (value as Values[]).map((item) => normalizeValues(attr.attributes, item));
    else {
      const out: Record<string, unknown> = {};
      for (const key of Object.keys(value as object).sort()) {
        const item = normalizeValues(attr.attributes, (value as Record<string, Values>)[key]);
        if (item !== null) out[key] = item;
      }
      value = out;
    }
    return isEmpty(value) ? null : value;
  }
  if (attr.timestamp && typeof value === "string") return canonicalTimestamp(value);
  if (Array.isArray(value) && attr.unordered) return [...value].map(String).sort();
  if (attr.type === "map" && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value as object).sort()) out[key] = (value as Record<string, unknown>)[key];
    return out;
  }
  return value;
}

/** Comparable form of an object's attributes, with nulls dropped so that absent equals empty. */
export function normalizeValues(attrs: Attributes, values: Values | null | undefined): Values | null {
  if (!values) return null;
  const out: Values = {};
  for (const [name, attr] of Object.entries(attrs)) {
    const n = normalizeValue(attr, values[name]);
    if (n !== null) out[name] = n;
  }
  return Object.keys(out).length === 0 ? null : out;
}

export function sameValue(attr: Attribute, declared: unknown, live: unknown): boolean {
  // One value compared with itself (a refresh that finds what the state holds, for most
  // attributes): normalizing is a function of the value, so the forms would be equal.
  if (declared === live) return true;
  return JSON.stringify(normalizeValue(attr, declared)) === JSON.stringify(normalizeValue(attr, live));
}

/**
 * Whether the service fills the attribute in when it is not given: then an unset
 * attribute is left to it and not compared. Every other optional attribute left unset
 * means "none", or its declared default, as Terraform reads it: a capability granted or
 * a label added by hand is a difference, and an apply removes it.
 */
export function filledWhenUnset(attr: Attribute): boolean {
  return attr.computed === true && attr.default === undefined;
}

/**
 * Attributes whose declared value differs from the live one. An unset attribute compares
 * as empty (or as its server default, the same thing once normalized) unless it is
 * filled when unset. Computed-only and engine-only attributes are not compared here.
 */
export function changedAttributes(attrs: Attributes, declared: Values, live: Values): string[] {
  const changed: string[] = [];
  for (const [name, attr] of Object.entries(attrs)) {
    if (attr.engineOnly || !(attr.required || attr.optional)) continue;
    const d = declared[name];
    const unset = d === undefined || d === null;
    if (unset && filledWhenUnset(attr)) continue;
    const effective = unset ? (attr.default ?? null) : d;
    if (!sameValue(attr, effective, liveAsDeclared(attr, effective, live[name]))) changed.push(name);
  }
  return changed;
}

/**
 * Every secret value in declared values, by attribute path ("properties.chat_b.chat_b_token",
 * "properties.custom_webhook.secret_headers"). The engines fingerprint these.
 */
export function secretValues(attrs: Attributes, values: Values | null | undefined, prefix = ""): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (!values) return out;
  for (const [name, attr] of Object.entries(attrs)) {
    const v = values[name];
    if (v === undefined || v === null) continue;
    const path = prefix ? `${prefix}.${name}` : name;
    if (attr.writeOnly) continue; // never fingerprinted: the state keeps only its version
    if (attr.secret) out.set(path, v);
    else if (isNested(attr) && attr.type === "object") {
      for (const [p, s] of secretValues(attr.attributes, v as Values, path)) out.set(p, s);
    }
  }
  return out;
}
