// Hiding sensitive values in text: a sensitive variable's value, once substituted into
// an attribute or an error message, is replaced wherever it occurs. Values shorter
// than a few characters are not hidden by text search (they would blank unrelated
// words); attributes that carry them are still shown as (sensitive) by name.
import { esc } from "./html/page";

export const REDACTED = "(sensitive)";
const MIN_LENGTH = 4;

/** The strings by which a sensitive value can show up in text. */
export function secretForms(value: unknown): string[] {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === "string") {
      // As written, inside JSON, and escaped in an HTML page (the HTML plan), so each form is found.
      if (v.length >= MIN_LENGTH) for (const form of [v, JSON.stringify(v).slice(1, -1)]) out.push(form, esc(form));
    } else if (typeof v === "number") {
      if (String(v).length >= MIN_LENGTH) out.push(String(v));
    } else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") Object.values(v).forEach(walk);
  };
  walk(value);
  return [...new Set(out)];
}

/** Replaces every occurrence of the secrets, longest first so that none is half-hidden. */
export function redactText(text: string, secrets: readonly string[]): string {
  if (secrets.length === 0) return text;
  let out = text;
  for (const s of [...secrets].sort((a, b) => b.length - a.length)) if (out.includes(s)) out = out.split(s).join(REDACTED);
  return out;
}
