// Text with parts known only after apply (a dashboard document naming a monitor created
// in the same plan, a query naming a dataset by reference) is still checked: each
// unknown part is replaced by a placeholder, and the checks skip only what a placeholder
// stands for. A 14-column layout item is refused whether or not the document also names
// a monitor that does not exist yet.

/** What stands for an unknown part; checks treat any value holding it as unknown. */
export const PLACEHOLDER = "__ods_known_after_apply__";

/** Whether a value holds a placeholder (or is one). */
export function isPlaceholder(v: unknown): boolean {
  return typeof v === "string" && v.includes(PLACEHOLDER);
}

/**
 * The spans of the "${...}" expressions in text, nested braces and quoted strings
 * included; "$${" is Terraform's escape for a literal "${" and is not one.
 */
export function expressionSpans(text: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  let i = 0;
  while (i < text.length) {
    const at = text.indexOf("${", i);
    if (at < 0) break;
    if (at > 0 && text[at - 1] === "$") {
      i = at + 2;
      continue;
    }
    let depth = 0;
    let quote = false;
    let end = -1;
    for (let j = at + 1; j < text.length; j++) {
      const c = text[j];
      if (quote) {
        if (c === "\\") j++;
        else if (c === '"') quote = false;
      } else if (c === '"') quote = true;
      else if (c === "{") depth++;
      else if (c === "}" && --depth === 0) {
        end = j + 1;
        break;
      }
    }
    if (end < 0) break; // unterminated: left as text, the check then sees it as written
    out.push({ start: at, end });
    i = end;
  }
  return out;
}

/** Whether position `at` of JSON text lies inside a string literal. */
function insideJsonString(text: string, from: number, at: number, startInside: boolean): boolean {
  let inside = startInside;
  for (let k = from; k < at; k++) {
    const c = text[k];
    if (inside && c === "\\") k++;
    else if (c === '"') inside = !inside;
  }
  return inside;
}

/**
 * The text with each expression replaced by the placeholder. In JSON text, an expression
 * inside a string becomes part of that string, and one standing for a whole value
 * becomes a string, so that the text still parses.
 */
export function withPlaceholders(text: string, json = false): string {
  const spans = expressionSpans(text);
  if (spans.length === 0) return text;
  let out = "";
  let last = 0;
  let inside = false;
  for (const s of spans) {
    if (json) inside = insideJsonString(text, last, s.start, inside);
    out += text.slice(last, s.start) + (json && !inside ? `"${PLACEHOLDER}"` : PLACEHOLDER);
    last = s.end;
  }
  return out + text.slice(last);
}
