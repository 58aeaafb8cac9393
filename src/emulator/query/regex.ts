// Every regular expression the query language takes goes through here: `matches regex`,
// `extract`, `extract_all`, `replace_regex`, `trim` with a pattern, `parse kind=regex`,
// `parse-kv` with a regex, the legacy query's `regexp` filter, and the engine's own
// patterns built from user text (parse, parse-kv without delimiters, project-keep).
//
// The engine is RE2 (the pure-JavaScript port `re2js`): matching takes time linear in
// the text, whatever the pattern, so `(a+)+$` over a long line cannot stall a query.
// RE2's dialect is the one the query language documents; what it lacks (backreferences,
// lookaround) is refused with the position in the pattern, never run another way.
// bench/query-regex.ts compares it with V8's RegExp and re2-wasm (docs/performance.md).

import { RE2JS, RE2JSException, RE2JSSyntaxException } from "./re2-driver";

/** A compiled pattern; every method runs in time linear in `text`. */
export interface LinearRegex {
  readonly pattern: string;
  /** Capturing groups in the pattern (group 0, the whole match, not counted). */
  readonly groupCount: number;
  test(text: string): boolean;
  /** The first match: [whole, group 1, ...] (undefined for a group that did not take part), or null. */
  exec(text: string): (string | undefined)[] | null;
  /** Every non-overlapping match, left to right (an empty match advances by one character). */
  matches(text: string): Iterable<(string | undefined)[]>;
  /** Every match replaced by `rewrite`, where `\0`..`\9` stand for the match's groups. */
  replaceAll(text: string, rewrite: string): string;
}

export interface RegexFlags {
  /** `.` matches a newline too. */
  dotAll?: boolean;
  caseInsensitive?: boolean;
}

/** Why a pattern was refused: the engine's reason and the 1-based offset in the pattern. */
export class RegexRefusal extends Error {
  constructor(
    readonly pattern: string,
    readonly reason: string,
    readonly position: number,
  ) {
    super(`invalid regular expression "${pattern}": ${reason} at position ${position} of the pattern${hintFor(reason)}`);
    this.name = "RegexRefusal";
  }
}

function hintFor(reason: string): string {
  return /escape|perl syntax|named capture/i.test(reason)
    ? " (the query language's regular expressions are RE2's: no backreferences, no lookahead or lookbehind)"
    : "";
}

/** Where the fragment RE2 quoted starts in the pattern (1-based); 1 when it cannot be found. */
function positionOf(pattern: string, fragment: string | null): number {
  if (!fragment) return 1;
  const at = pattern.indexOf(fragment);
  return at < 0 ? 1 : at + 1;
}

class Re2Regex implements LinearRegex {
  readonly groupCount: number;

  constructor(
    readonly pattern: string,
    private readonly re: RE2JS,
  ) {
    this.groupCount = re.groupCount();
  }

  test(text: string): boolean {
    return this.re.test(text);
  }

  exec(text: string): (string | undefined)[] | null {
    const m = this.re.matcher(text);
    return m.find() ? this.groupsOf(m) : null;
  }

  private groupsOf(m: ReturnType<RE2JS["matcher"]>): (string | undefined)[] {
    const out: (string | undefined)[] = [];
    for (let g = 0; g <= this.groupCount; g++) out.push(m.group(g) ?? undefined);
    return out;
  }

  *matches(text: string): Iterable<(string | undefined)[]> {
    const m = this.re.matcher(text);
    // find() resumes after the previous match and steps over an empty one, so each
    // round moves forward: at most text.length + 1 rounds.
    for (let round = 0; round <= text.length && m.find(); round++) yield this.groupsOf(m);
  }

  replaceAll(text: string, rewrite: string): string {
    const m = this.re.matcher(text);
    let out = "";
    let last = 0;
    for (let round = 0; round <= text.length && m.find(); round++) {
      out += text.slice(last, m.start()) + rewrite.replace(/\\(\d)/g, (_, d: string) => m.group(Number(d)) ?? "");
      last = m.end();
    }
    return out + text.slice(last);
  }
}

/** Compiles `pattern`, or throws a RegexRefusal naming the position of what RE2 cannot take. */
export function compileLinearRegex(pattern: string, flags: RegexFlags = {}): LinearRegex {
  let bits = 0;
  if (flags.dotAll) bits |= RE2JS.DOTALL;
  if (flags.caseInsensitive) bits |= RE2JS.CASE_INSENSITIVE;
  try {
    return new Re2Regex(pattern, RE2JS.compile(pattern, bits));
  } catch (err) {
    if (err instanceof RE2JSSyntaxException) {
      // A lookbehind reads as a bad named group to RE2; name it for what it is.
      const lookbehind = /\(\?<[=!]/.exec(pattern);
      if (lookbehind) throw new RegexRefusal(pattern, "lookbehind `" + lookbehind[0] + "` is not supported", lookbehind.index + 1);
      throw new RegexRefusal(pattern, `${err.error} \`${err.input ?? ""}\``, positionOf(pattern, err.input));
    }
    if (err instanceof RE2JSException) throw new RegexRefusal(pattern, err.message, 1);
    throw err;
  }
}

const cache = new Map<string, LinearRegex | RegexRefusal>();
const CACHE_LIMIT = 1000;

/**
 * A compiled pattern per (pattern, flags), kept across rows and queries; the refusal for
 * a pattern RE2 cannot take (patterns computed per row must not throw mid-scan).
 */
export function cachedLinearRegex(pattern: string, flags: RegexFlags = {}): LinearRegex | RegexRefusal {
  const key = `${flags.dotAll ? "s" : ""}${flags.caseInsensitive ? "i" : ""}/${pattern}`;
  let found = cache.get(key);
  if (found === undefined) {
    try {
      found = compileLinearRegex(pattern, flags);
    } catch (err) {
      if (!(err instanceof RegexRefusal)) throw err;
      found = err;
    }
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(key, found);
  }
  return found;
}

/** `text` as a pattern that matches it literally. */
export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
