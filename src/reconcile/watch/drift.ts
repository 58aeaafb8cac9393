// What drifted, per object and attribute, from the plan of a revision that did not move:
// each change of such a plan is something done outside the configuration. Values are
// shown as JSON for /status and the logs, with every secret as "(sensitive)": schema
// secrets, attributes carrying a sensitive variable's value or a secret taken by reference.
import { isNested, resourceKind, type Attributes, type Values } from "../../resources";
import { UNKNOWN } from "../expressions";
import type { PlannedChange } from "../plan";
import { REDACTED } from "../redact";

export interface DriftedAttribute {
  /** `threshold`, `options.channels[0]`, ... */
  path: string;
  /** What lives now. */
  live: unknown;
  /** What the configuration says (and a correction writes). */
  desired: unknown;
}

export interface DriftedObject {
  address: string;
  /** The resource type, e.g. the monitor's or notifier's type name. */
  kind: string;
  /** What correcting it does: update, create (it was deleted outside), replace, ... */
  action: PlannedChange["action"];
  attributes: DriftedAttribute[];
  /** Why, when the attributes do not say (deleted outside, a changed secret). */
  reasons: string[];
}

/** Each change as a drifted object; changes with nothing to do are left out. */
export function driftedObjects(changes: readonly PlannedChange[]): DriftedObject[] {
  return changes
    .filter((c) => c.action !== "noop")
    .map((c) => ({ address: c.address, kind: c.typeName, action: c.action, attributes: driftedAttributes(c), reasons: [...c.reasons] }));
}

function driftedAttributes(c: PlannedChange): DriftedAttribute[] {
  const kind = resourceKind(c.typeName);
  const hidden = new Set([...(c.sensitiveAttributes ?? []), ...(c.marked ?? [])]);
  const names = c.changed.length > 0 ? c.changed : [];
  const out: DriftedAttribute[] = [];
  for (const name of names) {
    const attr = kind?.attributes[name];
    const secret = hidden.has(name) || attr?.sensitive === true || attr?.secret === true;
    const live = c.before?.[name] ?? null;
    const desired = c.after?.[name] ?? null;
    if (secret) {
      out.push({ path: name, live: REDACTED, desired: REDACTED });
      continue;
    }
    const nested = attr && isNested(attr) ? attr.attributes : undefined;
    const leaves = differences(live, desired, name, nested);
    out.push(...(leaves.length > 0 ? leaves : [{ path: name, live: shown(live, nested), desired: shown(desired, nested) }]));
  }
  return out;
}

/** The leaf paths where two values differ; secrets of nested attributes masked. */
function differences(a: unknown, b: unknown, path: string, attrs: Attributes | undefined, depth = 0): DriftedAttribute[] {
  if (depth > 8 || a === UNKNOWN || b === UNKNOWN) return a === b ? [] : [{ path, live: shown(a, attrs), desired: shown(b, attrs) }];
  if (isRecord(a) && isRecord(b)) {
    const out: DriftedAttribute[] = [];
    for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      const inner = attrs?.[k];
      if (inner?.sensitive || inner?.secret) {
        if (JSON.stringify(a[k] ?? null) !== JSON.stringify(b[k] ?? null)) out.push({ path: `${path}.${k}`, live: REDACTED, desired: REDACTED });
        continue;
      }
      out.push(...differences(a[k] ?? null, b[k] ?? null, `${path}.${k}`, inner && isNested(inner) ? inner.attributes : undefined, depth + 1));
    }
    return out;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    return a.flatMap((v, i) => differences(v, b[i], `${path}[${i}]`, attrs, depth + 1));
  }
  return JSON.stringify(a) === JSON.stringify(b) ? [] : [{ path, live: shown(a, attrs), desired: shown(b, attrs) }];
}

function isRecord(v: unknown): v is Values {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A value as JSON: unknown ones said so, secrets inside nested objects masked. */
function shown(value: unknown, attrs: Attributes | undefined): unknown {
  if (value === UNKNOWN) return "(known after apply)";
  if (Array.isArray(value)) return value.map((v) => shown(v, attrs));
  if (isRecord(value)) {
    const out: Values = {};
    for (const [k, v] of Object.entries(value)) {
      const a = attrs?.[k];
      out[k] = a?.sensitive || a?.secret ? REDACTED : shown(v, a && isNested(a) ? a.attributes : undefined);
    }
    return out;
  }
  return value ?? null;
}

/** One line per drifted attribute, for the text log: `ADDRESS.PATH: LIVE -> DESIRED`. */
export function driftLines(objects: readonly DriftedObject[]): string[] {
  const lines: string[] = [];
  for (const o of objects) {
    if (o.attributes.length === 0) lines.push(`${o.address} (${o.kind}): ${o.action}${o.reasons.length ? ` (${o.reasons.join("; ")})` : ""}`);
    for (const a of o.attributes) lines.push(`${o.address}.${a.path}: ${JSON.stringify(a.live)} -> ${JSON.stringify(a.desired)}`);
  }
  return lines;
}
