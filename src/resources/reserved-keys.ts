// Keys that name parts of JavaScript's object machinery. JSON.parse and the YAML parser
// keep `{"__proto__": ...}` as an own key, but the first assignment or copy of it
// (`out[k] = v`, Object.assign) sets the object's prototype instead, so the entry
// vanished and the next plan said "No changes"; `constructor` and `prototype` read as
// inherited members wherever a lookup misses. Such a key is refused where a document is
// loaded (a stack, a variables file, an alert-test or OpenSLO file, a provider
// configuration), naming where it sits, before anything reads the values.

export const RESERVED_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

export type KeyPath = readonly (string | number)[];

interface Visit {
  value: unknown;
  key: string | number;
  parent: Visit | undefined;
}

function pathTo(visit: Visit | undefined, last: string): KeyPath {
  const path: (string | number)[] = [last];
  for (let v = visit; v?.parent; v = v.parent) path.unshift(v.key);
  return path;
}

/**
 * The path of the first reserved key in a parsed document (depth first, document
 * order), or undefined. Walks with its own stack (a deep document cannot overflow it),
 * and builds a path only for the key it finds: a stack of many thousand resources is
 * read once per load.
 */
export function reservedKeyPath(value: unknown): KeyPath | undefined {
  const stack: Visit[] = [{ value, key: "", parent: undefined }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const v = visit.value;
    if (v === null || typeof v !== "object") continue;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], key: i, parent: visit });
      continue;
    }
    const keys = Object.keys(v);
    for (const key of keys) if (RESERVED_KEYS.has(key)) return pathTo(visit, key);
    for (let i = keys.length - 1; i >= 0; i--) stack.push({ value: (v as Record<string, unknown>)[keys[i]], key: keys[i], parent: visit });
  }
  return undefined;
}

/** A path as a JSONPath from the document's root: `$.resource.ods_role.r.dataset_capabilities["__proto__"]`. */
export function jsonPath(path: KeyPath): string {
  return `$${path.map((p) => (typeof p === "number" ? `[${p}]` : /^[A-Za-z_][A-Za-z0-9_-]*$/.test(p) && !RESERVED_KEYS.has(p) ? `.${p}` : `[${JSON.stringify(p)}]`)).join("")}`;
}

/** What is wrong with a reserved key, for the message that names where it is. */
export function reservedKeyReason(key: string | number): string {
  return `a key named "${key}" is refused (__proto__, constructor and prototype are reserved: JavaScript would drop or misread the entry)`;
}
