// Credentials written as literals in code end up in git, in the synthesized JSON and in
// every copy of it. At synth, a value written as a literal where the model holds a
// credential draws a warning naming the attribute (never the value) and suggesting a
// sensitive variable: a secret attribute (a chat token, an API key, a routing key, a
// secret header), and a credential URL whose path or query carries something token-like
// (`https://hooks.example.com/services/T000/B000/XXXX…`). A URL without one
// (`https://alerts.example.com/hook`) is an address, not a credential.
import { type Attribute, type Attributes, isNested } from "./attributes";
import { isReference } from "./validate";

export interface LiteralCredential {
  /** The attribute path, as users write it: `properties.webhook.url`. */
  path: string;
  /** What it is, in words: "a webhook URL with a token-like path". */
  what: string;
}

/** A run of 16 or more URL-safe characters mixing letters and digits, or 24 of any: how tokens look. */
function tokenLike(part: string): boolean {
  const run = /[A-Za-z0-9_-]+/g;
  for (const m of part.matchAll(run)) {
    const word = m[0];
    if (word.length >= 24) return true;
    if (word.length >= 16 && /[A-Za-z]/.test(word) && /[0-9]/.test(word)) return true;
  }
  return false;
}

/** Whether a URL carries a credential in its path, query or user part. */
export function urlCarriesToken(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  if (url.username !== "" || url.password !== "") return true;
  const parts = [...url.pathname.split("/"), ...[...url.searchParams.values()]].map((p) => decodeURIComponent(p));
  return parts.some(tokenLike);
}

function describeLiteral(name: string, attr: Attribute, value: string): string | undefined {
  if (value === "" || isReference(value)) return undefined;
  if (attr.secret) return `a secret (${name}) written as a literal`;
  if (attr.sensitive && /^https?:\/\//i.test(value) && urlCarriesToken(value)) return "a URL with a token-like path (a credential) written as a literal";
  return undefined;
}

function walk(attrs: Attributes, values: unknown, path: string, out: LiteralCredential[]): void {
  if (!values || typeof values !== "object" || Array.isArray(values)) return;
  for (const [name, attr] of Object.entries(attrs)) {
    const v = (values as Record<string, unknown>)[name];
    if (v === undefined || v === null) continue;
    const at = path === "" ? name : `${path}.${name}`;
    if (isNested(attr)) {
      if (attr.type === "object") walk(attr.attributes, v, at, out);
      else if (attr.type === "object_list" && Array.isArray(v)) v.forEach((item, i) => walk(attr.attributes, item, `${at}[${i}]`, out));
      else if (typeof v === "object") for (const [k, item] of Object.entries(v as object)) walk(attr.attributes, item, `${at}.${k}`, out);
      continue;
    }
    if (!attr.secret && !attr.sensitive) continue;
    if (typeof v === "string") {
      const what = describeLiteral(name, attr, v);
      if (what) out.push({ path: at, what });
    } else if (attr.type === "map" && typeof v === "object" && !Array.isArray(v)) {
      // Secret headers: each value is a credential.
      for (const [k, item] of Object.entries(v as object)) {
        const what = typeof item === "string" ? describeLiteral(name, attr, item) : undefined;
        if (what) out.push({ path: `${at}.${k}`, what });
      }
    }
  }
}

/** The credentials an object's declared values hold as literals, by attribute path. */
export function literalCredentials(attrs: Attributes, values: Record<string, unknown>): LiteralCredential[] {
  const out: LiteralCredential[] = [];
  walk(attrs, values, "", out);
  return out;
}
