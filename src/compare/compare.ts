// `ods compare`: two targets (two organizations, or a stack and an organization) side by
// side with the model's comparison rules: ids, timestamps and creators are not compared
// (only settable attributes are), empty equals absent and the service's defaults, order
// of unordered lists does not count, secrets are write-only and never compared, and a
// value naming another object is compared by that object's natural key.
import { type Attributes, normalizeValue, type ResourceKind, RESOURCE_KINDS, type Values } from "../resources";

/** One object of a target, its references already replaced by natural keys. */
export interface ComparableObject {
  kind: ResourceKind;
  key: string[];
  values: Values;
  /** Only these attributes are compared (a stack compares what it declares); all when unset. */
  declared?: ReadonlySet<string>;
}

export interface Target {
  /** How the target is shown: a URL with the organization, or a stack file. */
  label: string;
  objects: ComparableObject[];
}

export interface ObjectDifference {
  typeName: string;
  key: string[];
  /** `only-from` / `only-to`: the object exists on one side only. */
  kind: "only-from" | "only-to" | "changed";
  /** For `changed`: the attribute path and both values. */
  attributes: { path: string; from: unknown; to: unknown }[];
}

export interface Comparison {
  compared: number;
  differences: ObjectDifference[];
}

/** The label compare shows for a reference it resolved: what it points at. */
export function referenceLabel(typeName: string, key: readonly string[]): string {
  return `${typeName}(${key.join("/")})`;
}

function identity(o: ComparableObject): string {
  return JSON.stringify([o.kind.typeName, o.key]);
}

function normalized(attrs: Attributes, values: Values, only: ReadonlySet<string> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, attr] of Object.entries(attrs)) {
    if (attr.engineOnly || !(attr.required || attr.optional)) continue;
    if (only && !only.has(name)) continue;
    const n = normalizeValue(attr, values[name]);
    if (n !== null) out[name] = n;
  }
  return out;
}

/** Leaf paths where two normalized values differ. */
function diffPaths(a: unknown, b: unknown, path: string, out: { path: string; from: unknown; to: unknown }[]): void {
  if (JSON.stringify(a) === JSON.stringify(b)) return;
  const isObj = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === "object" && !Array.isArray(x);
  if (isObj(a) && isObj(b)) {
    for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) diffPaths(a[k], b[k], path ? `${path}.${k}` : k, out);
    return;
  }
  out.push({ path, from: a ?? null, to: b ?? null });
}

export function compareTargets(from: Target, to: Target): Comparison {
  const toByIdentity = new Map(to.objects.map((o) => [identity(o), o]));
  const fromIdentities = new Set(from.objects.map(identity));
  const differences: ObjectDifference[] = [];
  let compared = 0;
  for (const a of from.objects) {
    const b = toByIdentity.get(identity(a));
    if (!b) {
      differences.push({ typeName: a.kind.typeName, key: a.key, kind: "only-from", attributes: [] });
      continue;
    }
    compared++;
    // A stack compares what it declares; two organizations compare everything settable.
    const only = a.declared ?? b.declared;
    const attributes: ObjectDifference["attributes"] = [];
    diffPaths(normalized(a.kind.attributes, a.values, only), normalized(b.kind.attributes, b.values, only), "", attributes);
    if (attributes.length > 0) differences.push({ typeName: a.kind.typeName, key: a.key, kind: "changed", attributes });
  }
  for (const b of to.objects) {
    if (!fromIdentities.has(identity(b))) differences.push({ typeName: b.kind.typeName, key: b.key, kind: "only-to", attributes: [] });
  }
  const order = new Map(RESOURCE_KINDS.map((k, i) => [k.typeName, i]));
  differences.sort((x, y) => (order.get(x.typeName) ?? 0) - (order.get(y.typeName) ?? 0) || JSON.stringify(x.key).localeCompare(JSON.stringify(y.key)));
  return { compared, differences };
}

function shown(v: unknown): string {
  return typeof v === "string" ? JSON.stringify(v) : JSON.stringify(v ?? null);
}

export function renderComparison(from: Target, to: Target, c: Comparison): string {
  const lines = [`Comparing ${from.label} (--from) with ${to.label} (--to):`];
  for (const d of c.differences) {
    const name = `${d.typeName} ${JSON.stringify(d.key.join("/"))}`;
    if (d.kind === "only-from") lines.push(`  - ${name}: only in --from`);
    else if (d.kind === "only-to") lines.push(`  + ${name}: only in --to`);
    else {
      lines.push(`  ~ ${name}:`);
      for (const a of d.attributes) lines.push(`      ${a.path}: ${shown(a.from)} -> ${shown(a.to)}`);
    }
  }
  const note = "secrets are write-only and not compared";
  if (c.differences.length === 0) lines.push(`No differences: ${c.compared} objects compared (ids, timestamps and creators ignored; ${note}).`);
  else lines.push(`${c.differences.length} objects differ; ${c.compared} found on both sides (${note}).`);
  return lines.join("\n");
}
