// Sensitivity follows values through references, as Terraform's marks do: a value that
// refers to a sensitive attribute (a token's secret, a notifier's secret), or to an
// attribute that itself took a sensitive value, is sensitive wherever it lands. The
// state keeps the marks, so `ods state show` hides such values; an output carrying one
// must say `sensitive = true`, or the plan refuses it, as Terraform does.
import { isNested, type Attribute, type Attributes } from "../resources";
import { referencesIn, type Reference } from "./expressions";
import type { LoadedStack } from "./stack";

/** Top-level attributes of each address that took a sensitive value. */
export type SensitiveMarks = Map<string, Set<string>>;

function anySensitive(attr: Attribute): boolean {
  return attr.sensitive === true || (isNested(attr) && Object.values(attr.attributes).some(anySensitive));
}

/** Whether the value at `path` of one attribute is (or holds) a sensitive value in the schema. */
function sensitiveAt(attr: Attribute, path: readonly (string | number)[]): boolean {
  if (attr.sensitive) return true;
  if (!isNested(attr)) return false;
  // A list index or map key comes before the nested object's attribute names.
  const rest = attr.type === "object" ? path : path.slice(1);
  if (rest.length === 0) return anySensitive(attr);
  const next = typeof rest[0] === "string" ? attr.attributes[rest[0]] : undefined;
  return next !== undefined && sensitiveAt(next, rest.slice(1));
}

/**
 * Whether the value at an attribute path is, or holds, a value the schema calls
 * sensitive (a webhook URL carrying its credential): `properties.webhook`, say.
 */
export function holdsSensitive(attrs: Attributes, path: readonly (string | number)[]): boolean {
  return schemaSensitive(attrs, path);
}

function schemaSensitive(attrs: Attributes, path: readonly (string | number)[]): boolean {
  if (path.length === 0) return Object.values(attrs).some(anySensitive);
  const attr = typeof path[0] === "string" ? attrs[path[0]] : undefined;
  return attr !== undefined && sensitiveAt(attr, path.slice(1));
}

/** Each stack's declarations' attributes by address, built once: every reference asks. */
const attributesByAddress = new WeakMap<LoadedStack, Map<string, Attributes>>();

function kindAttributes(stack: LoadedStack, address: string): Attributes | undefined {
  let index = attributesByAddress.get(stack);
  if (!index) {
    index = new Map();
    // The first declaration of an address wins, as a search from the start would find.
    for (const d of [...stack.resources, ...stack.dataSources]) if (!index.has(d.address)) index.set(d.address, d.kind.attributes);
    attributesByAddress.set(stack, index);
  }
  return index.get(address);
}

/** Whether a reference reads a sensitive value. */
export function isSensitiveReference(stack: LoadedStack, marks: SensitiveMarks, ref: Reference): boolean {
  const attrs = kindAttributes(stack, ref.address);
  if (attrs && schemaSensitive(attrs, ref.path)) return true;
  const marked = marks.get(ref.address);
  if (!marked || marked.size === 0) return false;
  return ref.path.length === 0 || (typeof ref.path[0] === "string" && marked.has(ref.path[0]));
}

/** The sensitive references a value makes (empty: the value is not sensitive). */
export function sensitiveReferences(stack: LoadedStack, marks: SensitiveMarks, value: unknown): Reference[] {
  return referencesIn(value).filter((r) => isSensitiveReference(stack, marks, r));
}

/** Marks of every declared resource, following references in dependency order. */
export function sensitiveMarks(stack: LoadedStack): SensitiveMarks {
  const marks: SensitiveMarks = new Map();
  const pending = [...stack.resources];
  // Bounded: each pass marks at least one more attribute, or stops.
  for (let pass = 0; pass <= pending.length; pass++) {
    let changed = false;
    for (const d of pending) {
      const set = marks.get(d.address) ?? new Set<string>();
      for (const [name, value] of Object.entries(d.values)) {
        if (set.has(name) || d.kind.attributes[name]?.sensitive) continue;
        if (sensitiveReferences(stack, marks, value).length > 0) {
          set.add(name);
          changed = true;
        }
      }
      if (set.size > 0) marks.set(d.address, set);
    }
    if (!changed) break;
  }
  return marks;
}

/** Terraform's refusal of an output carrying `what` (never the value) without `sensitive = true`. */
export function unmarkedOutputProblem(name: string, what: string): string {
  return `output "${name}": Output refers to sensitive values (${what}); declare it with sensitive = true, as Terraform requires (ods output then shows it only with --show-sensitive)`;
}

/** Outputs that carry a sensitive value without `sensitive = true`, in words naming each. */
export function unmarkedSensitiveOutputs(stack: LoadedStack, marks: SensitiveMarks): string[] {
  const problems: string[] = [];
  for (const o of stack.outputs) {
    if (o.sensitive) continue;
    const refs = sensitiveReferences(stack, marks, o.value);
    if (refs.length > 0) {
      problems.push(unmarkedOutputProblem(o.name, refs.map((r) => r.text).join(", ")));
    }
  }
  return problems;
}
