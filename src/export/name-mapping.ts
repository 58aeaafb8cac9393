// Renaming between environments that prefix or suffix their names (`stg-app-logs` in
// staging, `prod-app-logs` in production). `ods compare --map` renames the --from side
// before matching, `ods export --map` renames what it writes. A name is renamed wherever
// it occurs: an object's natural key, a value naming another object (a dataset's name,
// a reference already turned into a natural key), a map key (capabilities keyed by
// dataset name), and inside text such as a query (`['stg-app-logs'] | ...`).
import type { Values } from "../resources";

export interface NameMapping {
  /** As given on the command line, e.g. `stg-=prod-`: reports name the mapping by it. */
  spec: string;
  form: "prefix" | "suffix";
  from: string;
  to: string;
}

/** Characters that end a prefix or start a suffix: the usual word separators of names. */
const SEPARATOR = /[-_.:/]/;

/**
 * `A=B`: a prefix mapping when each non-empty side ends with a separator (`stg-=prod-`,
 * `stg-=` drops the prefix), a suffix mapping when each starts with one (`-stg=-prod`).
 * Anything else is refused: `stg=prod` would also rename `stgx-...`.
 */
export function parseNameMapping(spec: string): NameMapping {
  const eq = spec.indexOf("=");
  if (eq < 0 || spec.indexOf("=", eq + 1) >= 0) throw new Error(`--map expects FROM=TO, e.g. 'stg-=prod-' (prefix) or '-stg=-prod' (suffix); got "${spec}"`);
  const from = spec.slice(0, eq);
  const to = spec.slice(eq + 1);
  const sides = [from, to].filter((s) => s !== "");
  if (sides.length === 0) throw new Error(`--map "${spec}": both sides are empty`);
  if (from === to) throw new Error(`--map "${spec}": both sides are the same`);
  const endsWithSeparator = sides.every((s) => SEPARATOR.test(s[s.length - 1]) && !(s.length > 1 && SEPARATOR.test(s[0])));
  const startsWithSeparator = sides.every((s) => SEPARATOR.test(s[0]) && !(s.length > 1 && SEPARATOR.test(s[s.length - 1])));
  if (endsWithSeparator && !startsWithSeparator) return { spec, form: "prefix", from, to };
  if (startsWithSeparator && !endsWithSeparator) return { spec, form: "suffix", from, to };
  throw new Error(
    `--map "${spec}": say whether it is a prefix or a suffix: a prefix ends with a separator (- _ . : /) on each side, e.g. 'stg-=prod-'; a suffix starts with one, e.g. '-stg=-prod'`,
  );
}

/** The name under the first mapping that applies to it, and that mapping; undefined when none does. */
export function mappedName(name: string, mappings: readonly NameMapping[]): { name: string; by: NameMapping } | undefined {
  for (const m of mappings) {
    if (m.form === "prefix" && m.from !== "" && name.startsWith(m.from) && name.length > m.from.length) return { name: m.to + name.slice(m.from.length), by: m };
    if (m.form === "suffix" && m.from !== "" && name.endsWith(m.from) && name.length > m.from.length) return { name: name.slice(0, -m.from.length) + m.to, by: m };
    // An empty FROM adds the prefix or suffix: only names that do not carry TO already.
    if (m.from === "" && m.form === "prefix" && !name.startsWith(m.to)) return { name: m.to + name, by: m };
    if (m.from === "" && m.form === "suffix" && !name.endsWith(m.to)) return { name: name + m.to, by: m };
  }
  return undefined;
}

interface Named {
  key: string[];
  values: Values;
}

/** Characters a name is made of: a name inside text is renamed only where it stands alone. */
const NAME_CHAR = "[A-Za-z0-9_-]";

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Renames a set of objects: each key component a mapping applies to, and every
 * occurrence of those names in values (strings, map keys, text). Answers, per object,
 * the mapping that renamed its key (undefined: its name stayed, as the calling user's).
 */
export function renameObjects<T extends Named>(objects: readonly T[], mappings: readonly NameMapping[]): { objects: T[]; mappedBy: (NameMapping | undefined)[] } {
  if (mappings.length === 0) return { objects: [...objects], mappedBy: objects.map(() => undefined) };
  const renames = new Map<string, string>();
  for (const o of objects) {
    for (const part of o.key) {
      const m = mappedName(part, mappings);
      if (m) renames.set(part, m.name);
    }
  }
  // Longest first, so that `stg-app-logs-raw` is not renamed as `stg-app-logs` + `-raw`.
  const names = [...renames.keys()].sort((a, b) => b.length - a.length);
  const pattern = names.length > 0 ? new RegExp(`(?<!${NAME_CHAR})(${names.map(escapeRegExp).join("|")})(?!${NAME_CHAR})`, "g") : undefined;
  const text = (s: string): string => (pattern ? s.replace(pattern, (n) => renames.get(n) ?? n) : s);
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return text(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [text(k), walk(x)]));
    return v;
  };
  const mappedBy: (NameMapping | undefined)[] = [];
  const renamed = objects.map((o) => {
    mappedBy.push(o.key.map((part) => mappedName(part, mappings)?.by).find((m) => m !== undefined));
    return { ...o, key: o.key.map((part) => renames.get(part) ?? part), values: walk(o.values) as Values };
  });
  return { objects: renamed, mappedBy };
}
