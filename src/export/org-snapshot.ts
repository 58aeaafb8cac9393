// Reads a live organization into the model's values: what `ods export` writes as code
// and `ods compare` compares. Every kind is read through its model (list calls, the
// wire mapping, natural keys), so a new kind is covered without code here.
import type { OdsClient } from "../api";
import {
  type Attribute,
  type Attributes,
  RESOURCE_KINDS,
  isNested,
  isSettable,
  normalizeValue,
  resourceKind,
  type ResourceKind,
  type Values,
  type WireObject,
} from "../resources";
import { liveValues } from "../lifecycle";

/** A write-only secret the service holds but never returns: export makes it a variable. */
export const SECRET = Symbol("write-only secret");

export interface LiveObject {
  kind: ResourceKind;
  /** The service's id in this organization. */
  id: string;
  /** The natural key's values, in the kind's order (what matches objects across organizations). */
  key: string[];
  /**
   * Settable attributes with a value other than empty or the service's default, in the
   * model's form; secrets the service holds are SECRET.
   */
  values: Values;
  /** Every attribute as read (the model's form), for a state entry that adopts the object. */
  read: Values;
}

export interface OrgSnapshot {
  /** The user the calling token acts as: it exists in every organization the token reaches. */
  callerId: string;
  objects: LiveObject[];
  /** What was left out and why, one line each. */
  skipped: string[];
}

export interface SnapshotOptions {
  /** Type names to read; every kind when unset. */
  kinds?: readonly string[];
  /**
   * Names of tokens that are the caller's own credential: the service does not say
   * which token is calling, so the caller names it.
   */
  selfTokenNames?: readonly string[];
}

/** Resolves `--kinds` words (`notifier`, `ods_notifier`, `notifiers`) to type names. */
export function resolveKinds(words: readonly string[]): string[] {
  const known = RESOURCE_KINDS.map((k) => k.typeName);
  return words.map((w) => {
    const t = w.trim().replace(/-/g, "_");
    const candidates = [t, `ods_${t}`, `ods_${t.replace(/s$/, "")}`];
    const hit = candidates.find((c) => known.includes(c));
    if (!hit) throw new Error(`--kinds: unknown kind "${w}"; kinds: ${known.map((k) => k.slice(4)).join(", ")}`);
    return hit;
  });
}

/** Drops what carries no information (empty, the service's default); marks held secrets. */
function prune(attrs: Attributes, values: Values): Values {
  const out: Values = {};
  for (const [name, attr] of Object.entries(attrs)) {
    // Write-only twins are never read back: an export writes the plain form.
    if (attr.engineOnly || attr.writeOnly || attr.writeOnlyVersion || !isSettable(attr)) continue;
    const v = prunedValue(attr, values[name]);
    if (v !== undefined) out[name] = v;
  }
  return out;
}

function prunedValue(attr: Attribute, v: unknown): unknown {
  if (attr.secret) {
    if (attr.type === "map" && v && typeof v === "object") {
      const keys = Object.keys(v).sort();
      return keys.length > 0 ? Object.fromEntries(keys.map((k) => [k, SECRET])) : undefined;
    }
    // An optional secret reads back as "" whether set or not: only a required one is known to exist.
    return (attr.required || attr.twinRequired) && v !== undefined && v !== null ? SECRET : undefined;
  }
  if (!isNested(attr)) return normalizeValue(attr, v) === null ? undefined : v;
  // A nested value is judged by what is left of it, not by its comparable form: that
  // form drops secrets, so a channel made only of secrets would vanish with them.
  if (v === undefined || v === null) return undefined;
  if (attr.type === "object") {
    const inner = prune(attr.attributes, v as Values);
    return Object.keys(inner).length > 0 ? inner : undefined;
  }
  if (attr.type === "object_list") return (v as Values[]).length > 0 ? (v as Values[]).map((item) => prune(attr.attributes, item)) : undefined;
  const out: Record<string, Values> = {};
  for (const key of Object.keys(v as object).sort()) {
    const inner = prune(attr.attributes, (v as Record<string, Values>)[key]);
    if (Object.keys(inner).length > 0) out[key] = inner;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function keyOf(kind: ResourceKind, values: Values): string[] {
  return kind.naturalKey.map((k) => String(values[k] ?? ""));
}

/**
 * Every object of the organization the token can see, in a stable order (the registry's
 * kind order, then natural key), so that reading one organization twice gives the same.
 */
export async function readOrganization(client: OdsClient, opts: SnapshotOptions = {}): Promise<OrgSnapshot> {
  const wanted = new Set(opts.kinds ?? RESOURCE_KINDS.map((k) => k.typeName));
  const selfTokens = new Set(opts.selfTokenNames ?? []);
  const caller = (await client.getCurrentUser()) as unknown as WireObject;
  const callerId = String(caller.id);
  const skipped: string[] = [];
  const objects: LiveObject[] = [];
  // Kinds listed per parent (per dataset) are listed under every parent, whichever kinds are exported.
  const parents = new Map<string, Promise<string[]>>();
  const parentNames = (kind: ResourceKind): Promise<string[]> => {
    const scope = kind.scope!;
    const parentKind = resourceKind(scope.parentType);
    const named = kind.attributes[scope.attribute]?.refersTo?.attribute ?? "name";
    if (!parentKind) throw new Error(`internal: ${kind.typeName} is listed under unknown ${scope.parentType}`);
    if (!parents.has(parentKind.typeName)) {
      parents.set(parentKind.typeName, parentKind.api.list(client).then((list) => list.map((p) => String(liveValues(parentKind, p)[named])).sort()));
    }
    return parents.get(parentKind.typeName)!;
  };

  for (const kind of RESOURCE_KINDS) {
    if (!wanted.has(kind.typeName)) continue;
    const lists = kind.scope ? await Promise.all((await parentNames(kind)).map((p) => kind.api.list(client, p))) : [await kind.api.list(client)];
    const found: LiveObject[] = [];
    for (const live of lists.flat()) {
      const all = liveValues(kind, live);
      const values = prune(kind.attributes, all);
      const key = keyOf(kind, all);
      const label = `${kind.typeName} ${key.join("/")}`;
      if (String(live.id) === callerId) {
        skipped.push(`${label}: the calling user (exists in every organization the token reaches)`);
        continue;
      }
      if (kind.rotation && selfTokens.has(key.join("/"))) {
        skipped.push(`${label}: the calling token`);
        continue;
      }
      // A claimed object (a dataset field) belongs to the data; it is configuration only
      // when something beyond its key was set.
      if (kind.creation === "claim" && Object.keys(values).every((k) => kind.naturalKey.includes(k))) continue;
      found.push({ kind, id: kind.api.idOf(live), key, values, read: all });
    }
    found.sort((a, b) => compareKeys(a.key, b.key) || a.id.localeCompare(b.id));
    objects.push(...found);
  }
  return { callerId, objects, skipped };
}

function compareKeys(a: string[], b: string[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const c = (a[i] ?? "").localeCompare(b[i] ?? "");
    if (c !== 0) return c;
  }
  return 0;
}
