// References in a synthesized stack: "${ods_dataset.logs.name}" (whole value) or
// "x-${ods_role.sre.id}" (interpolated). Only plain references to ods resources and
// data sources are evaluated here; anything else belongs to the Terraform path.
import { UNKNOWN } from "../lifecycle/unknown";

export interface Reference {
  /** `ods_dataset.logs` or `data.ods_organization.org`. */
  address: string;
  /** Attribute path after the address, e.g. ["license", "api_rate_limit_per_second"]; empty for the whole object. */
  path: (string | number)[];
  /** The text between `${` and `}`. */
  text: string;
}

const REFERENCE = /^(data\.)?([A-Za-z][A-Za-z0-9_-]*)\.([A-Za-z_][A-Za-z0-9_-]*)((?:\.[A-Za-z_][A-Za-z0-9_-]*|\[\d+\])*)$/;

export class ExpressionError extends Error {}

/** Every `${...}` span of a string, with nesting of braces respected. */
export function interpolations(text: string): { start: number; end: number; inner: string }[] {
  const spans: { start: number; end: number; inner: string }[] = [];
  let i = 0;
  while (i < text.length) {
    const start = text.indexOf("${", i);
    if (start < 0) break;
    let depth = 1;
    let j = start + 2;
    while (j < text.length && depth > 0) {
      if (text[j] === "{") depth++;
      else if (text[j] === "}") depth--;
      j++;
    }
    // The text is not echoed: it may be a secret attribute's value.
    if (depth !== 0) throw new ExpressionError(`unterminated "\${" at character ${start + 1} of a value (a "\${" without its closing "}")`);
    spans.push({ start, end: j, inner: text.slice(start + 2, j - 1).trim() });
    i = j;
  }
  return spans;
}

/** Parses one reference, or explains why it is not one the engine can evaluate. */
export function parseReference(inner: string): Reference {
  const m = REFERENCE.exec(inner);
  if (!m) {
    throw new ExpressionError(
      `cannot evaluate "\${${inner}}": only references to ods resources and data sources are supported by ods plan/apply (functions, variables and locals need the Terraform path: cdktf deploy or terraform apply)`,
    );
  }
  const [, data, type, name, rest] = m;
  if (!data && (type === "var" || type === "local" || type === "module" || type === "each" || type === "count" || type === "path" || type === "terraform")) {
    throw new ExpressionError(
      `cannot evaluate "\${${inner}}": ${type}.* values need the Terraform path (cdktf deploy or terraform apply)`,
    );
  }
  const path: (string | number)[] = [];
  for (const part of rest.matchAll(/\.([A-Za-z_][A-Za-z0-9_-]*)|\[(\d+)\]/g)) path.push(part[1] ?? Number(part[2]));
  return { address: `${data ? "data." : ""}${type}.${name}`, path, text: inner };
}

/** Every reference inside a value (strings, lists and maps, at any depth). */
export function referencesIn(value: unknown, out: Reference[] = []): Reference[] {
  if (typeof value === "string") {
    for (const span of interpolations(value)) out.push(parseReference(span.inner));
  } else if (Array.isArray(value)) {
    for (const v of value) referencesIn(v, out);
  } else if (value && typeof value === "object") {
    // A map key may be a reference too (`{ [logs.name]: ... }` synthesizes
    // "${ods_dataset.logs.name}" as a key): the graph must order it like a value.
    for (const [k, v] of Object.entries(value)) {
      referencesIn(k, out);
      referencesIn(v, out);
    }
  }
  return out;
}

export { UNKNOWN, containsUnknown, type Unknown } from "../lifecycle/unknown";

/**
 * Replaces references with their values. `lookup` answers the value at a reference, or
 * UNKNOWN when it is not known yet. A whole-string reference keeps the referenced type
 * (a list stays a list); an interpolation makes a string.
 */
export function evaluate(value: unknown, lookup: (ref: Reference) => unknown): unknown {
  if (typeof value === "string") {
    const spans = interpolations(value);
    if (spans.length === 0) return value;
    if (spans.length === 1 && spans[0].start === 0 && spans[0].end === value.length) {
      return lookup(parseReference(spans[0].inner));
    }
    let out = "";
    let last = 0;
    for (const span of spans) {
      const v = lookup(parseReference(span.inner));
      if (v === UNKNOWN) return UNKNOWN;
      out += value.slice(last, span.start) + (typeof v === "string" ? v : JSON.stringify(v));
      last = span.end;
    }
    return out + value.slice(last);
  }
  if (Array.isArray(value)) return value.map((v) => evaluate(v, lookup));
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const key = evaluate(k, lookup);
      // A map whose key is not known yet is unknown as a whole, as Terraform reads it.
      if (key === UNKNOWN) return UNKNOWN;
      out[mapKeyText(key)] = evaluate(v, lookup);
    }
    return out;
  }
  return value;
}

/** A key that evaluated to a value: Terraform converts it to a string, or refuses it. */
function mapKeyText(key: unknown): string {
  if (typeof key === "string") return key;
  if (typeof key === "number" || typeof key === "boolean") return String(key);
  throw new ExpressionError(`a map key must be a string; a reference used as a key gave ${key === null ? "null" : Array.isArray(key) ? "a list" : typeof key}`);
}

/** Reads a path inside a value; undefined when absent. */
export function valueAt(value: unknown, path: (string | number)[]): unknown {
  let cur: unknown = value;
  for (const step of path) {
    if (cur === UNKNOWN) return UNKNOWN;
    if (cur === null || cur === undefined || typeof cur !== "object") return undefined;
    cur = (cur as Record<string | number, unknown>)[step];
  }
  return cur;
}

/** A value found for the text inside one `${...}`; undefined leaves the span as it is. */
export type SpanResolver = (inner: string) => { value: unknown } | undefined;

/**
 * Replaces the `${...}` spans a resolver knows (variables, other stacks' outputs) with
 * their values and leaves every other span for later evaluation. A whole-string span
 * keeps the value's type; an interpolated one makes a string. Calls `onUse` for each
 * span replaced, with the path inside the value where it went, so that callers can tell
 * where sensitive values went.
 */
export function substitute(value: unknown, resolve: SpanResolver, onUse?: (inner: string, path: readonly (string | number)[]) => void, path: (string | number)[] = []): unknown {
  if (typeof value === "string") {
    const spans = interpolations(value);
    if (spans.length === 0) return value;
    if (spans.length === 1 && spans[0].start === 0 && spans[0].end === value.length) {
      const found = resolve(spans[0].inner);
      if (!found) return value;
      onUse?.(spans[0].inner, path);
      return found.value;
    }
    let out = "";
    let last = 0;
    for (const span of spans) {
      const found = resolve(span.inner);
      out += value.slice(last, span.start);
      if (found) {
        onUse?.(span.inner, path);
        out += typeof found.value === "string" ? found.value : JSON.stringify(found.value);
      } else out += value.slice(span.start, span.end);
      last = span.end;
    }
    return out + value.slice(last);
  }
  if (Array.isArray(value)) return value.map((v, i) => substitute(v, resolve, onUse, [...path, i]));
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const key = substitute(k, resolve, onUse, path);
      const text = typeof key === "string" ? key : mapKeyText(key);
      out[text] = substitute(v, resolve, onUse, [...path, text]);
    }
    return out;
  }
  return value;
}

/** `var.NAME` with an optional path (`var.tags.team`, `var.emails[0]`), else undefined. */
export function parseVariableReference(inner: string): { name: string; path: (string | number)[] } | undefined {
  const m = /^var\.([A-Za-z_][A-Za-z0-9_-]*)((?:\.[A-Za-z_][A-Za-z0-9_-]*|\[\d+\])*)$/.exec(inner);
  if (!m) return undefined;
  const path: (string | number)[] = [];
  for (const part of m[2].matchAll(/\.([A-Za-z_][A-Za-z0-9_-]*)|\[(\d+)\]/g)) path.push(part[1] ?? Number(part[2]));
  return { name: m[1], path };
}
