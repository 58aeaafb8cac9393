// Just enough of the query language's surface to find a query's final `summarize` and
// its parts. The backtest rewrites that one stage and sends everything before it to the
// service unchanged, so the service (not this code) decides what the query means.

/**
 * Offsets of the top-level occurrences of `sep` in a query: outside strings (quoted,
 * verbatim `@'...'`, backticked), brackets and `//` comments.
 */
export function topLevelSeparators(text: string, sep: "|" | ","): number[] {
  const found: number[] = [];
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "/" && text[i + 1] === "/") {
      const end = text.indexOf("\n", i);
      i = end < 0 ? text.length : end;
      continue;
    }
    if (c === "'" || c === '"' || c === "`") {
      const verbatim = i > 0 && text[i - 1] === "@";
      i = skipString(text, i, c, verbatim);
      continue;
    }
    if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === ")" || c === "]" || c === "}") depth = Math.max(0, depth - 1);
    else if (c === sep && depth === 0) found.push(i);
  }
  return found;
}

/** Splits `text` at its top-level occurrences of `sep` (see topLevelSeparators). */
export function splitTopLevel(text: string, sep: "|" | ","): string[] {
  const parts: string[] = [];
  let start = 0;
  for (const at of topLevelSeparators(text, sep)) {
    parts.push(text.slice(start, at));
    start = at + 1;
  }
  parts.push(text.slice(start));
  return parts;
}

function skipString(text: string, open: number, quote: string, verbatim: boolean): number {
  for (let i = open + 1; i < text.length; i++) {
    if (!verbatim && text[i] === "\\") {
      i++;
      continue;
    }
    if (text[i] === quote) return i;
  }
  return text.length;
}

/** One aggregation of a summarize: `name = fn(args)` or `fn(args)`. */
export interface SummarizeItem {
  /** The explicit name, when the query gives one. */
  alias?: string;
  /** The whole expression as written (without the alias). */
  expression: string;
  /** Set when the expression is a single call `fn(args)`. */
  call?: { fn: string; args: string[] };
}

export interface FinalSummarize {
  /** The query before the final summarize stage, as written. */
  prefix: string;
  aggregations: SummarizeItem[];
  /** The `by` keys, as written. */
  keys: SummarizeItem[];
}

const ALIAS = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=(?!=)\s*([\s\S]*)$/;
const CALL = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*\(([\s\S]*)\)\s*$/;

function item(text: string): SummarizeItem {
  const aliased = ALIAS.exec(text);
  const expression = (aliased ? aliased[2] : text).trim();
  const out: SummarizeItem = { expression };
  if (aliased) out.alias = aliased[1];
  const call = CALL.exec(expression);
  // `f(a) + g(b)` also matches CALL's outer parentheses test only when they balance as one call.
  if (call && balancedSingleCall(expression)) {
    const inner = call[2].trim();
    out.call = { fn: call[1].toLowerCase(), args: inner === "" ? [] : splitTopLevel(inner, ",").map((a) => a.trim()) };
  }
  return out;
}

function balancedSingleCall(expression: string): boolean {
  const open = expression.indexOf("(");
  let depth = 0;
  for (let i = open; i < expression.length; i++) {
    if (expression[i] === "(") depth++;
    else if (expression[i] === ")") {
      depth--;
      if (depth === 0) return expression.slice(i + 1).trim() === "";
    }
  }
  return false;
}

/** Splits `a, b by c, d` at the top-level keyword `by`. */
function splitBy(body: string): { aggs: string; keys: string } {
  const parts = splitTopLevel(body, ",");
  let offset = 0;
  for (const part of parts) {
    const m = /(^|\s)by\s/i.exec(part + " ");
    if (m) {
      const at = offset + m.index + m[1].length;
      return { aggs: body.slice(0, at), keys: body.slice(at + 2) };
    }
    offset += part.length + 1;
  }
  return { aggs: body, keys: "" };
}

/** The final stage when it is a `summarize`, with the query before it; undefined otherwise. */
export function finalSummarize(apl: string): FinalSummarize | undefined {
  const stages = splitTopLevel(apl, "|");
  const last = stages[stages.length - 1].trim();
  const m = /^summarize\b([\s\S]*)$/i.exec(last);
  if (!m || stages.length < 2) return undefined;
  const { aggs, keys } = splitBy(m[1]);
  const nonEmpty = (s: string) => s.trim() !== "";
  return {
    prefix: stages.slice(0, -1).join("|").trimEnd(),
    aggregations: splitTopLevel(aggs, ",").filter(nonEmpty).map(item),
    keys: keys.trim() === "" ? [] : splitTopLevel(keys, ",").filter(nonEmpty).map(item),
  };
}
