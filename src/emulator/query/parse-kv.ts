// parse-kv and extend-valid, the two row-wise operators a match monitor may use besides
// the basic ones. parse-kv extracts the listed keys from text in one of three modes:
// given delimiters, a regular expression with two groups (key, value), or neither (any
// run of non-alphanumeric text separates a key from its value). Only listed keys become
// columns, the first occurrence of a key wins, and keys and values are trimmed; a key
// that is missing gives null.

import type { ParseKvStage, Stage } from "./ast";
import { compileExpr } from "./compile-expr";
import { namedItems } from "./compile-query";
import { COMPILE_ERROR, semanticError } from "./errors";
import type { PlanBuilder } from "./plan";
import { typeOfName } from "./sources";
import { setColumn } from "./table";
import { compileLinearRegex, escapeRegex, RegexRefusal, type LinearRegex } from "./regex";
import { typedValue } from "./stages";
import { DateTimeValue, isBag, toText, TimespanValue, type Value, type ValueType } from "./values";

/** Opening and closing character of each quote option ("\"" or "()"). */
function quotePairs(quotes: readonly string[]): [string, string][] {
  return quotes.filter((q) => q.length > 0).map((q) => [q[0], q.length > 1 ? q[1] : q[0]]);
}

function unquote(text: string, pairs: readonly [string, string][]): string {
  const t = text.trim();
  for (const [open, close] of pairs) if (t.length >= 2 && t.startsWith(open) && t.endsWith(close)) return t.slice(1, -1);
  return t;
}

/** Splits at `delimiter` outside quotes. */
function splitOutsideQuotes(text: string, delimiter: string, pairs: readonly [string, string][]): string[] {
  const out: string[] = [];
  let closing: string | undefined;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (closing !== undefined) {
      if (text[i] === closing) closing = undefined;
      continue;
    }
    const quote = pairs.find(([open]) => open === text[i]);
    if (quote) {
      closing = quote[1];
      continue;
    }
    if (text.startsWith(delimiter, i)) {
      out.push(text.slice(start, i));
      start = i + delimiter.length;
      i += delimiter.length - 1;
    }
  }
  out.push(text.slice(start));
  return out;
}

type Extractor = (text: string) => Map<string, string>;

function withDelimiters(pair: string, kv: string, pairs: readonly [string, string][]): Extractor {
  return (text) => {
    const found = new Map<string, string>();
    for (const piece of splitOutsideQuotes(text, pair, pairs)) {
      const at = piece.indexOf(kv);
      if (at < 0) continue;
      const key = unquote(piece.slice(0, at), pairs);
      if (!found.has(key)) found.set(key, unquote(piece.slice(at + kv.length), pairs));
    }
    return found;
  };
}

function withRegex(stage: ParseKvStage, pattern: string): Extractor {
  let re: LinearRegex;
  try {
    re = compileLinearRegex(pattern);
  } catch (err) {
    if (err instanceof RegexRefusal) throw semanticError(stage.pos, `invalid parse-kv regex: ${err.message}`, COMPILE_ERROR.invalidArgument);
    throw err;
  }
  const groups = re.groupCount;
  if (groups !== 2) throw semanticError(stage.pos, `parse-kv's regex needs exactly two capturing groups (key, value); "${pattern}" has ${groups}`, COMPILE_ERROR.invalidArgument);
  return (text) => {
    const found = new Map<string, string>();
    for (const m of re.matches(text)) {
      if (m[0] === "") break;
      const key = (m[1] ?? "").trim();
      if (!found.has(key)) found.set(key, (m[2] ?? "").trim());
    }
    return found;
  };
}

/** No delimiters: a listed key as a whole word, non-alphanumeric text, then its value. */
function withoutDelimiters(keys: readonly string[], pairs: readonly [string, string][]): Extractor {
  const quoted = pairs.map(([open, close]) => `${escapeRegex(open)}([^${escapeRegex(close)}]*)${escapeRegex(close)}`);
  const value = [...quoted, "([^\\s,;|&]+)"].join("|");
  // The key as a whole word: after the start or a non-word character (consumed, since RE2
  // has no lookbehind; the leftmost match starts at the same key), and followed by at
  // least one separator, which is not a word character either.
  const separators = `[^A-Za-z0-9_${pairs.map(([o]) => escapeRegex(o)).join("")}]+`;
  const patterns = keys.map((k) => compileLinearRegex(`(?:^|[^A-Za-z0-9_])${escapeRegex(k)}${separators}(?:${value})`));
  return (text) => {
    const found = new Map<string, string>();
    keys.forEach((k, i) => {
      const m = patterns[i].exec(text);
      if (m) found.set(k, (m.slice(1).find((g) => g !== undefined) ?? "").trim());
    });
    return found;
  };
}

export function parseKvStage(stage: ParseKvStage, b: PlanBuilder): void {
  const source = compileExpr(stage.source, b.scope());
  const keys = stage.keys.map((k) => {
    const type = k.type === null ? "string" : typeOfName(k.type);
    if (type === undefined) throw semanticError(k.pos, `unknown type "${k.type}" for key "${k.name}"`, COMPILE_ERROR.invalidArgument);
    return { name: k.name, type };
  });
  const pairs = quotePairs(stage.quotes);
  let extract: Extractor;
  if (stage.regex !== undefined) extract = withRegex(stage, stage.regex);
  else if (stage.pairDelimiter !== undefined || stage.kvDelimiter !== undefined) {
    if (!stage.pairDelimiter || !stage.kvDelimiter) {
      throw semanticError(stage.pos, "parse-kv needs both pair_delimiter and kv_delimiter (or neither, or a regex)", COMPILE_ERROR.invalidArgument);
    }
    extract = withDelimiters(stage.pairDelimiter, stage.kvDelimiter, pairs);
  } else extract = withoutDelimiters(keys.map((k) => k.name), pairs);
  const columns = b.currentColumns().slice();
  for (const k of keys) setColumn(columns, { name: k.name, type: k.type });
  b.rowStage(
    columns,
    (row) => {
      const v = source.evaluate(row);
      const found = v === null ? undefined : extract(toText(v));
      const values = new Map(row.values);
      for (const k of keys) values.set(k.name, typedValue(found?.get(k.name), k.type));
      return { values, origin: row.origin };
    },
    true,
  );
}

/** The service's validity test of extend-valid, by the value's kind. */
export function isValidValue(v: Value): boolean {
  if (v === null) return false;
  if (typeof v === "string") return v.length > 0;
  if (typeof v === "number") return v !== 0 && Number.isFinite(v);
  if (typeof v === "boolean") return v;
  if (Array.isArray(v)) return v.length > 0;
  if (v instanceof DateTimeValue || v instanceof TimespanValue) return true;
  if (isBag(v)) return Object.keys(v).length > 0;
  return false;
}

/** extend-valid: like extend, but a column keeps what it had (null for a new one) where the new value is not valid. */
export function extendValidStage(stage: Extract<Stage, { kind: "extend-valid" }>, b: PlanBuilder): void {
  const items = namedItems(stage.items, b);
  const columns = b.currentColumns().slice();
  for (const i of items) {
    const previous = columns.find((c) => c.name === i.name)?.type;
    // A column that keeps its old value where the new one is invalid holds either type.
    const type: ValueType = previous === undefined || previous === i.expr.type ? i.expr.type : "dynamic";
    setColumn(columns, { name: i.name, type });
  }
  b.rowStage(
    columns,
    (row) => {
      const values = new Map(row.values);
      for (const i of items) {
        const v = i.expr.evaluate(row);
        if (isValidValue(v)) values.set(i.name, v);
        else if (!values.has(i.name)) values.set(i.name, null);
      }
      return { values, origin: row.origin };
    },
    true,
  );
}
