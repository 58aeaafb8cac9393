// `ods compare`: two targets (two organizations, or a stack and an organization) side by
// side with the model's comparison rules: ids, timestamps and creators are not compared
// (only settable attributes are), empty equals absent and the service's defaults, order
// of unordered lists does not count, secrets are write-only and never compared, and a
// value naming another object is compared by that object's natural key.
import { type Attributes, normalizeValue, type ResourceKind, RESOURCE_KINDS, type Values } from "../resources";
import { renameObjects, type NameMapping } from "../export/name-mapping";
import { type IgnoreRule, ignoresAttribute, ignoresKind } from "./ignore";
import { documentChanges, itemChangeText, leafText, type PathChange } from "../reconcile/path-diff";
import { holdsSensitive } from "../reconcile/sensitivity";

/** One object of a target, its references already replaced by natural keys. */
export interface ComparableObject {
  kind: ResourceKind;
  key: string[];
  values: Values;
  /** Only these attributes are compared (a stack compares what it declares); all when unset. */
  declared?: ReadonlySet<string>;
  /** Top-level attributes holding a sensitive variable's value (or a sensitive attribute's, by reference). */
  sensitive?: ReadonlySet<string>;
}

export interface Target {
  /** How the target is shown: a URL with the organization, or a stack file. */
  label: string;
  objects: ComparableObject[];
  /** Values of the stack's sensitive variables: never printed, whatever path they take. */
  sensitiveValues?: unknown[];
}

export interface ObjectDifference {
  typeName: string;
  /** The key on the --to side (a --from object's key after the mappings). */
  key: string[];
  /** For an object of --from: its key as it is there, when a mapping renamed it. */
  fromKey?: string[];
  /** The mapping that renamed the --from object, by its spec; undefined: same name. */
  mappedBy?: string;
  /** `only-from` / `only-to`: the object exists on one side only. */
  kind: "only-from" | "only-to" | "changed";
  /** For `changed`: the attribute path and both values; `sensitive`: the values are never shown. */
  attributes: AttributeDifference[];
}

export interface AttributeDifference {
  path: string;
  from: unknown;
  to: unknown;
  sensitive?: boolean;
  /** A whole item of a document (a chart) added, removed, moved or renamed. */
  item?: PathChange["item"];
}

/** An object found on both sides, and how it was matched. */
export interface MatchedObject {
  typeName: string;
  key: string[];
  fromKey: string[];
  mappedBy?: string;
  differs: boolean;
}

export interface Comparison {
  /** Objects found on both sides (identical or not). */
  compared: number;
  differences: ObjectDifference[];
  matched: MatchedObject[];
  onlyFrom: number;
  onlyTo: number;
  differing: number;
  mappings: NameMapping[];
  ignored: IgnoreRule[];
}

export interface CompareOptions {
  /** Renamings of --from names to --to names (`stg-=prod-`), tried in order. */
  mappings?: readonly NameMapping[];
  /** Kinds and attributes left out: what differs on purpose. */
  ignore?: readonly IgnoreRule[];
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
function diffPaths(a: unknown, b: unknown, path: string, out: AttributeDifference[]): void {
  if (JSON.stringify(a) === JSON.stringify(b)) return;
  const isObj = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === "object" && !Array.isArray(x);
  if (isObj(a) && isObj(b)) {
    for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) diffPaths(a[k], b[k], path ? `${path}.${k}` : k, out);
    return;
  }
  out.push({ path, from: a ?? null, to: b ?? null });
}

/**
 * What differs between two matched objects, leaf by leaf: a JSON document by its paths
 * (`dashboard.charts[c1].name`), and every value that is a credential (sensitive in the
 * schema) or carries a sensitive variable's value marked sensitive: compared, never shown.
 */
function attributeDifferences(a: ComparableObject, b: ComparableObject, only: ReadonlySet<string> | undefined): AttributeDifference[] {
  const attrs = a.kind.attributes;
  const left = normalized(attrs, a.values, only);
  const right = normalized(attrs, b.values, only);
  const out: AttributeDifference[] = [];
  for (const name of [...new Set([...Object.keys(left), ...Object.keys(right)])].sort()) {
    const found: AttributeDifference[] = [];
    const doc = documentChanges(attrs[name], left[name], right[name]);
    if (doc) for (const c of doc) found.push({ path: `${name}.${c.path}`, from: c.before ?? null, to: c.after ?? null, ...(c.item ? { item: c.item } : {}) });
    else diffPaths(left[name], right[name], name, found);
    const byVariable = a.sensitive?.has(name) === true || b.sensitive?.has(name) === true;
    for (const f of found) {
      const sensitive = byVariable || holdsSensitive(attrs, f.path.split("."));
      out.push(sensitive ? { ...f, sensitive: true } : f);
    }
  }
  return out;
}

export function compareTargets(from: Target, to: Target, options: CompareOptions = {}): Comparison {
  const mappings = [...(options.mappings ?? [])];
  const ignore = [...(options.ignore ?? [])];
  const kept = (o: ComparableObject): boolean => !ignoresKind(ignore, o.kind.typeName);
  const fromKept = from.objects.filter(kept);
  const renamed = renameObjects(fromKept, mappings);
  const toObjects = to.objects.filter(kept);
  const toByIdentity = new Map(toObjects.map((o) => [identity(o), o]));
  const fromIdentities = new Set(renamed.objects.map(identity));
  const differences: ObjectDifference[] = [];
  const matched: MatchedObject[] = [];
  let onlyFrom = 0;
  for (const [i, a] of renamed.objects.entries()) {
    const mappedBy = renamed.mappedBy[i]?.spec;
    const fromKey = fromKept[i].key;
    const renamedFrom = mappedBy ? { fromKey, mappedBy } : {};
    const b = toByIdentity.get(identity(a));
    if (!b) {
      onlyFrom++;
      differences.push({ typeName: a.kind.typeName, key: a.key, kind: "only-from", attributes: [], ...renamedFrom });
      continue;
    }
    // A stack compares what it declares; two organizations compare everything settable.
    const only = a.declared ?? b.declared;
    const attributes = attributeDifferences(a, b, only);
    const differing = attributes.filter((x) => !ignoresAttribute(ignore, a.kind.typeName, x.path));
    if (differing.length > 0) differences.push({ typeName: a.kind.typeName, key: a.key, kind: "changed", attributes: differing, ...renamedFrom });
    matched.push({ typeName: a.kind.typeName, key: a.key, fromKey, mappedBy, differs: differing.length > 0 });
  }
  let onlyTo = 0;
  for (const b of toObjects) {
    if (fromIdentities.has(identity(b))) continue;
    onlyTo++;
    differences.push({ typeName: b.kind.typeName, key: b.key, kind: "only-to", attributes: [] });
  }
  const order = new Map(RESOURCE_KINDS.map((k, i) => [k.typeName, i]));
  const byKindThenKey = (x: { typeName: string; key: string[] }, y: { typeName: string; key: string[] }): number =>
    (order.get(x.typeName) ?? 0) - (order.get(y.typeName) ?? 0) || JSON.stringify(x.key).localeCompare(JSON.stringify(y.key));
  differences.sort(byKindThenKey);
  matched.sort(byKindThenKey);
  return { compared: matched.length, differences, matched, onlyFrom, onlyTo, differing: matched.filter((m) => m.differs).length, mappings, ignored: ignore };
}

function shown(v: unknown): string {
  return leafText(v ?? null);
}

function objectName(typeName: string, key: readonly string[], fromKey: readonly string[] | undefined, mappedBy: string | undefined): string {
  const name = `${typeName} ${JSON.stringify(key.join("/"))}`;
  return fromKey && mappedBy ? `${name} (--from ${JSON.stringify(fromKey.join("/"))}, by ${mappedBy})` : name;
}

/** "7 by stg-=prod-, 1 by the same name": how the matched objects were matched. */
function matchedBy(c: Comparison): string {
  const counts = new Map<string, number>();
  for (const m of c.matched) counts.set(m.mappedBy ?? "", (counts.get(m.mappedBy ?? "") ?? 0) + 1);
  return [...counts].map(([by, n]) => `${n} by ${by === "" ? "the same name" : by}`).join(", ");
}

export function renderComparison(from: Target, to: Target, c: Comparison): string {
  const settings = [
    ...(c.mappings.length > 0 ? [`names mapped ${c.mappings.map((m) => m.spec).join(", ")}`] : []),
    ...(c.ignored.length > 0 ? [`ignoring ${c.ignored.map((r) => r.spec).join(", ")}`] : []),
  ];
  const lines = [`Comparing ${from.label} (--from) with ${to.label} (--to)${settings.length > 0 ? `; ${settings.join("; ")}` : ""}:`];
  for (const d of c.differences) {
    const name = objectName(d.typeName, d.key, d.fromKey, d.mappedBy);
    if (d.kind === "only-from") lines.push(`  - ${d.fromKey ? `${d.typeName} ${JSON.stringify(d.fromKey.join("/"))} (mapped by ${d.mappedBy} to ${JSON.stringify(d.key.join("/"))})` : name}: only in --from`);
    else if (d.kind === "only-to") lines.push(`  + ${name}: only in --to`);
    else {
      lines.push(`  ~ ${name}:`);
      for (const a of d.attributes) {
        if (a.item) lines.push(`      ${a.path} ${itemChangeText({ path: a.path, before: a.from, after: a.to, item: a.item }, a.sensitive === true)}`);
        else lines.push(`      ${a.path}: ${a.sensitive ? "differs (sensitive)" : `${shown(a.from)} -> ${shown(a.to)}`}`);
      }
    }
  }
  // With mappings, every match is listed with the mapping that made it: a wrong mapping shows.
  if (c.mappings.length > 0) {
    for (const m of c.matched) if (!m.differs) lines.push(`  = ${m.mappedBy ? objectName(m.typeName, m.key, m.fromKey, m.mappedBy) : `${objectName(m.typeName, m.key, undefined, undefined)} (the same name)`}`);
  }
  const note = "secrets are write-only and not compared";
  const counts = `${c.compared} matched${c.compared > 0 ? ` (${matchedBy(c)})` : ""}, ${c.differing} differing, ${c.onlyFrom} only in --from, ${c.onlyTo} only in --to`;
  if (c.differences.length === 0) lines.push(`No differences: ${c.compared} objects compared (ids, timestamps and creators ignored; ${note}). ${counts}.`);
  else lines.push(`${c.differences.length} objects differ; ${c.compared} found on both sides (${note}). ${counts}.`);
  return lines.join("\n");
}
