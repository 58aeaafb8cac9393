// Changes to a stack's outputs, as Terraform plans them ("Changes to Outputs", and
// `output_changes` in its JSON plan): an output added, changed or removed is part of
// what apply does, although no object of the service changes.
import { UNKNOWN, containsUnknown, evaluate, type Reference } from "./expressions";
import type { OutputDeclaration } from "./stack";
import type { StateFile } from "./state";

export interface OutputChange {
  name: string;
  action: "create" | "update" | "delete";
  /** The value in state now (null when absent). */
  before: unknown;
  /** The value after apply; UNKNOWN (anywhere inside) where known only then; null when removed. */
  after: unknown;
  beforeSensitive: boolean;
  afterSensitive: boolean;
}

/** JSON with object keys in one order, so that values equal in meaning compare equal. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v && typeof v === "object") {
    return `{${Object.keys(v as Record<string, unknown>)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(v ?? null);
}

/**
 * The outputs apply would write, against those in state. `lookup` answers a reference as
 * it will be after apply (UNKNOWN where only apply knows). Applied, an output whose value
 * is null is not kept (as in Terraform): null and absent are the same here. With
 * `destroy`, every output goes.
 */
export function planOutputChanges(
  declared: readonly OutputDeclaration[],
  prior: StateFile["outputs"],
  lookup: (ref: Reference) => unknown,
  destroy = false,
): OutputChange[] {
  const changes: OutputChange[] = [];
  const seen = new Set<string>();
  for (const o of destroy ? [] : declared) {
    seen.add(o.name);
    const after = evaluate(o.value, lookup);
    const was = prior[o.name];
    const before = was?.value ?? null;
    const sensitive = { beforeSensitive: was?.sensitive === true, afterSensitive: o.sensitive };
    if (after === null || after === undefined) {
      if (before !== null) changes.push({ name: o.name, action: "update", before, after: null, ...sensitive });
      continue;
    }
    if (before === null) changes.push({ name: o.name, action: "create", before: null, after, ...sensitive });
    else if (containsUnknown(after) || canonical(before) !== canonical(after)) changes.push({ name: o.name, action: "update", before, after, ...sensitive });
  }
  for (const [name, o] of Object.entries(prior)) {
    if (seen.has(name) || o.value === null || o.value === undefined) continue;
    changes.push({ name, action: "delete", before: o.value, after: null, beforeSensitive: o.sensitive, afterSensitive: false });
  }
  return changes.sort((a, b) => a.name.localeCompare(b.name));
}

/** Terraform's `after_unknown` of a value: true where unknown, mirrored inside lists and objects. */
export function unknownShape(v: unknown): unknown {
  if (v === UNKNOWN) return true;
  if (Array.isArray(v)) return v.some(containsUnknown) ? v.map(unknownShape) : false;
  if (v && typeof v === "object") {
    if (!containsUnknown(v)) return false;
    return Object.fromEntries(Object.entries(v as Record<string, unknown>).filter(([, x]) => containsUnknown(x)).map(([k, x]) => [k, unknownShape(x)]));
  }
  return false;
}

/** A value with its unknown parts left out (as null), for a JSON plan. */
export function knownPart(v: unknown): unknown {
  if (v === UNKNOWN) return null;
  if (Array.isArray(v)) return v.map(knownPart);
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, knownPart(x)]));
  return v;
}
