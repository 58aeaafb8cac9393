// Scans of JSON text that find where its strings end without parsing it: the nesting
// limit's check of a request body, and whether JSON lines may be parsed all at once.

/**
 * The index of the quote that closes the JSON string opening at `open` (the first quote
 * not escaped by an odd run of backslashes); -1 when the string is unterminated.
 */
export function stringEnd(text: string, open: number): number {
  let j = text.indexOf('"', open + 1);
  for (;;) {
    if (j === -1) return -1;
    let backslashes = 0;
    while (text.charCodeAt(j - 1 - backslashes) === 0x5c) backslashes++;
    if ((backslashes & 1) === 0) return j;
    j = text.indexOf('"', j + 1);
  }
}

/**
 * One scan of JSON-lines text: answers whether each line
 * holds at most one value's worth of brackets (balanced at its end, never below zero, no
 * comma at its top level, no line break inside a string). Then the lines joined by commas
 * into an array parse, if at all, into exactly one value per line, each what the line
 * parses to alone. Undecided (false) whenever in doubt: the caller then parses line by line.
 * `opened` hears the depth reached at each bracket that opens (a limit's check).
 */
export function linesJoinable(text: string, opened?: (depth: number) => void): boolean {
  let depth = 0;
  let nextBreak = text.indexOf("\n");
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const j = stringEnd(text, i);
      if (j === -1) return false;
      if (nextBreak !== -1 && nextBreak < j) return false;
      i = j;
    } else if (c === 0x7b || c === 0x5b) {
      depth++;
      opened?.(depth);
    } else if (c === 0x7d || c === 0x5d) {
      if (--depth < 0) return false;
    } else if (c === 0x2c) {
      if (depth === 0) return false;
    } else if (c === 0x0a) {
      if (depth !== 0) return false;
      nextBreak = text.indexOf("\n", i + 1);
    }
  }
  return depth === 0;
}


/**
 * The values of JSON-lines text (blank lines skipped) by one JSON.parse of the lines
 * joined into an array (a parse per line costs far more); undefined when linesJoinable
 * cannot vouch for the text or it does not parse: the caller then reads it line by line,
 * and says which line is bad.
 */
export function parseJoinedLines(text: string, opened?: (depth: number) => void): unknown[] | undefined {
  if (!linesJoinable(text, opened)) return undefined;
  const lines = text.split("\n").filter((line) => line.trim() !== "");
  let all: unknown;
  try {
    all = JSON.parse(`[${lines.join(",")}]`);
  } catch {
    return undefined;
  }
  return Array.isArray(all) && all.length === lines.length ? all : undefined;
}
