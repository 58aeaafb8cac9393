// Planning: refresh what lives, resolve what is declared, and decide one action per
// resource. A pure decision per resource (decideAction) over inputs gathered here.
import * as crypto from "node:crypto";
import type { OdsClient } from "../api";
import {
  changedAttributes,
  fromWire,
  resourceKind,
  secretValues,
  type ResourceKind,
  type Values,
  type WireObject,
} from "../resources";
import { UNKNOWN, containsUnknown, evaluate, valueAt, type Reference } from "./expressions";
import { dependencyOrder, type DataDeclaration, type LoadedStack, type ManagedDeclaration } from "./stack";
import { fingerprint, type ResourceState, type StateFile } from "./state";
import { LiveIndex } from "./world";
import { QueryCheckUnsupported, checkStarredQuery, checkVirtualField, describeProblem } from "./query-check";

export const PLAN_FORMAT_VERSION = 1;

export type Action = "create" | "adopt" | "update" | "replace" | "rotate" | "delete" | "forget" | "noop";

export interface PlannedChange {
  address: string;
  typeName: string;
  constructPath?: string;
  action: Action;
  /** For `adopt`: whether the adopted object also needs an update. */
  alsoUpdate?: boolean;
  /** The live object's id (absent for creates). */
  id?: string;
  /** Live values (secrets left out), or null when nothing lives. */
  before: Values | null;
  /** Declared values with references resolved; UNKNOWN where known only after apply. */
  after: Values | null;
  /** Top-level attributes that change. */
  changed: string[];
  /** Why: vanished outside the stack, which attribute forces replacement, a changed secret. */
  reasons: string[];
  dependsOn: string[];
  /** Attributes shown as (sensitive) whatever their kind says: they carry a sensitive variable's value. */
  sensitiveAttributes?: string[];
}

export interface Plan {
  formatVersion: number;
  stack: string;
  stateLineage: string;
  stateSerial: number;
  /** Digest of the live objects the plan was made from; a saved plan is refused when it moved. */
  liveDigest: string;
  changes: PlannedChange[];
  /** Data-source values read while planning. */
  dataValues: Record<string, Values>;
  warnings: string[];
}

export class PlanError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join("\n"));
    this.name = "PlanError";
  }
}

export interface PlanContext {
  client: OdsClient;
  stack: LoadedStack;
  state: StateFile;
  orgId?: string;
  /** Plan the removal of everything in state (ods destroy). */
  destroy?: boolean;
  /** Compile changed starred queries and virtual-field expressions on the service (default on). */
  checkQueries?: boolean;
}

/** Secret fingerprints of declared values; undefined where a secret is not known yet. */
export function secretFingerprints(kind: ResourceKind, values: Values, salt: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [path, value] of secretValues(kind.attributes, values)) {
    out[path] = containsUnknown(value) ? "unknown" : fingerprint(salt, value);
  }
  return out;
}

/** Declared engine-only values (defaults applied), kept in state. */
export function engineValues(kind: ResourceKind, values: Values): Values {
  const out: Values = {};
  for (const [name, attr] of Object.entries(kind.attributes)) {
    if (!attr.engineOnly) continue;
    const v = values[name] ?? attr.default;
    if (v !== undefined && v !== null) out[name] = v;
  }
  return out;
}

/** Model values of a live object, as the engine compares them with declarations. */
export function liveValues(kind: ResourceKind, live: WireObject, declared?: Values): Values {
  const shaped = kind.api.normalizeLive ? kind.api.normalizeLive(live, declared) : live;
  return fromWire(kind.attributes, shaped);
}

function naturalKeyOf(kind: ResourceKind, values: Values): string | undefined {
  const parts = kind.naturalKey.map((k) => values[k]);
  if (parts.some((p) => p === undefined || p === null || containsUnknown(p))) return undefined;
  return JSON.stringify(parts);
}

/** Whether a live object has the natural key of declared values (adoption, lost answers). */
export function matchesNaturalKey(kind: ResourceKind, live: WireObject, declared: Values): boolean {
  const key = naturalKeyOf(kind, declared);
  return key !== undefined && naturalKeyOf(kind, liveValues(kind, live, declared)) === key;
}

export interface Decision {
  action: Action;
  changed: string[];
  reasons: string[];
  alsoUpdate?: boolean;
}

/**
 * The action for one declared resource: pure, from what is declared, what lives, and
 * what state remembers. `adopted` means the live object was found by natural key.
 */
export function decideAction(
  kind: ResourceKind,
  declared: Values,
  live: Values | undefined,
  prior: ResourceState | undefined,
  adopted: boolean,
  salt: string,
): Decision {
  const reasons: string[] = [];
  if (!live) {
    if (prior) reasons.push("the object was deleted outside this stack");
    if (kind.creation === "claim") reasons.push("claims the existing field");
    return { action: "create", changed: [], reasons };
  }
  const changed = changedAttributes(kind.attributes, declared, live);
  const unknownChanged = Object.entries(declared)
    .filter(([name, v]) => containsUnknown(v) && kind.attributes[name] && !kind.attributes[name].engineOnly)
    .map(([name]) => name);
  for (const name of unknownChanged) if (!changed.includes(name)) changed.push(name);

  const fingerprints = secretFingerprints(kind, declared, salt);
  const priorPrints = prior?.secretFingerprints ?? {};
  const secretPaths = new Set([...Object.keys(fingerprints), ...Object.keys(priorPrints)]);
  for (const p of secretPaths) {
    if (fingerprints[p] !== priorPrints[p]) {
      const top = p.split(".")[0];
      if (!changed.includes(top)) changed.push(top);
      reasons.push(adopted || !prior ? `secret ${p} cannot be read back: it is written once on adoption` : `secret ${p} changed`);
    }
  }
  const engine = engineValues(kind, declared);
  if (kind.changeStrategy === "rotate" && prior && engine.rotation_trigger !== prior.engineValues.rotation_trigger) {
    reasons.push("rotation_trigger changed");
    if (!changed.includes("rotation_trigger")) changed.push("rotation_trigger");
  }

  const forcing = changed.filter((name) => kind.attributes[name]?.forcesReplacement);
  if (adopted) {
    return { action: "adopt", changed, reasons, alsoUpdate: changed.length > 0 };
  }
  if (forcing.length > 0) {
    return { action: "replace", changed, reasons: [...reasons, `${forcing.join(", ")} cannot be changed in place`] };
  }
  if (changed.length === 0) return { action: "noop", changed, reasons };
  return { action: kind.changeStrategy === "rotate" ? "rotate" : "update", changed, reasons };
}

/** The live digest: stable over object order, so that only real changes move it. */
export function digestLive(objects: { address: string; live?: WireObject }[]): string {
  const sorted = [...objects].sort((a, b) => a.address.localeCompare(b.address));
  return crypto.createHash("sha256").update(JSON.stringify(sorted.map((o) => [o.address, o.live ?? null]))).digest("hex");
}

/** Resolves references while planning: declared literals, else live values, else unknown. */
class PlanningScope {
  readonly resolved = new Map<string, Values>();
  readonly dataValues = new Map<string, Values>();
  /** Addresses whose computed values will change (created, replaced, rotated). */
  readonly pendingNew = new Set<string>();

  lookup = (ref: Reference): unknown => {
    if (ref.address.startsWith("data.")) {
      const values = this.dataValues.get(ref.address);
      return values ? valueAt(values, ref.path) ?? null : UNKNOWN;
    }
    const values = this.resolved.get(ref.address);
    if (!values) return UNKNOWN;
    const v = valueAt(values, ref.path);
    if (v === undefined || v === null) return this.pendingNew.has(ref.address) ? UNKNOWN : v ?? null;
    return v;
  };
}

function datasetsFor(decls: readonly ManagedDeclaration[], state: StateFile, scope: PlanningScope): Set<string> {
  const names = new Set<string>();
  for (const d of decls) {
    const v = evaluate(d.values.dataset, scope.lookup);
    if (typeof v === "string") names.add(v);
  }
  for (const r of Object.values(state.resources)) if (typeof r.values.dataset === "string") names.add(r.values.dataset);
  return names;
}

async function readDataSources(ctx: PlanContext, scope: PlanningScope, warnings: string[]): Promise<void> {
  for (const d of dependencyOrder<DataDeclaration>(ctx.stack.dataSources)) {
    const config = evaluate(d.values, scope.lookup) as Values;
    if (containsUnknown(config)) {
      warnings.push(`${d.address} depends on values known only after apply; it is read during apply`);
      continue;
    }
    scope.dataValues.set(d.address, await d.kind.api.read(ctx.client, config, { orgId: ctx.orgId }));
  }
}

/** Makes a plan: refresh (one list per kind, per dataset where needed), then decide. */
export async function makePlan(ctx: PlanContext): Promise<Plan> {
  const { client, stack, state } = ctx;
  const warnings = [...stack.warnings];
  const scope = new PlanningScope();
  const live = new LiveIndex();
  const problems: string[] = [];
  await readDataSources(ctx, scope, warnings);

  const declared = ctx.destroy ? [] : dependencyOrder(stack.resources);
  // Declared literal values first, so that dataset names and keys resolve before listing.
  for (const d of declared) scope.resolved.set(d.address, evaluate(d.values, () => UNKNOWN) as Values);

  const kinds = new Map<string, ResourceKind>();
  for (const d of declared) kinds.set(d.typeName, d.kind);
  for (const r of Object.values(state.resources)) {
    const k = resourceKind(r.typeName);
    if (k) kinds.set(k.typeName, k);
  }
  const datasets = datasetsFor(declared, state, scope);
  for (const kind of kinds.values()) {
    if (kind.api.listScope === "dataset") for (const ds of datasets) await live.load(client, kind, ds);
    else await live.load(client, kind);
  }

  const changes: PlannedChange[] = [];
  const digestInput: { address: string; live?: WireObject }[] = [];
  const claimed = new Map<string, string>();

  for (const d of declared) {
    const kind = d.kind;
    const values = evaluate(d.values, scope.lookup) as Values;
    const prior = state.resources[d.address];
    let liveObject: WireObject | undefined;
    let adopted = false;
    if (prior) {
      liveObject = live.findById(kind, prior.id);
      if (!liveObject && kind.api.listScope === "dataset" && typeof values.dataset === "string" && !live.has(kind, values.dataset)) {
        liveObject = (await live.load(client, kind, values.dataset)).find((o) => kind.api.idOf(o) === prior.id);
      }
    } else {
      const key = naturalKeyOf(kind, values);
      if (key !== undefined) {
        if (kind.api.listScope === "dataset" && typeof values.dataset === "string") await live.load(client, kind, values.dataset);
        const managedIds = new Set(Object.values(state.resources).filter((r) => r.typeName === kind.typeName).map((r) => r.id));
        const matches = live
          .listed(kind)
          .filter((o) => matchesNaturalKey(kind, o, values) && !managedIds.has(kind.api.idOf(o)));
        if (matches.length > 1) {
          problems.push(
            `[${d.constructPath}] ${d.address}: ${matches.length} live ${kind.typeName} objects have ${kind.naturalKey.join(" and ")} ${key}: ids ${matches.map((m) => kind.api.idOf(m)).join(", ")}; remove the duplicates or import one with "ods import ${d.address} ID"`,
          );
          continue;
        }
        liveObject = matches[0];
        adopted = liveObject !== undefined;
      }
    }
    if (liveObject) {
      const id = kind.api.idOf(liveObject);
      const other = claimed.get(`${kind.typeName}:${id}`);
      if (other) {
        problems.push(`[${d.constructPath}] ${d.address} and ${other} both match the live ${kind.typeName} ${id}`);
        continue;
      }
      claimed.set(`${kind.typeName}:${id}`, d.address);
    }
    digestInput.push({ address: d.address, live: liveObject });
    const before = liveObject ? liveValues(kind, liveObject, values) : undefined;
    const decision = decideAction(kind, values, before, prior, adopted, state.fingerprintSalt);
    if (decision.action === "replace" && kind.deletion === "guarded" && values.allow_destroy !== true) {
      problems.push(`[${d.constructPath}] ${d.address}: ${decision.reasons.join("; ")}, and replacing it deletes all of its data; set allow_destroy = true to allow it`);
      continue;
    }
    const after: Values = { ...values };
    for (const [name, attr] of Object.entries(kind.attributes)) {
      if (attr.computed && !attr.required && !attr.optional) {
        const keepsLive = before && (decision.action === "noop" || decision.action === "update" || decision.action === "adopt");
        after[name] = keepsLive ? before[name] : UNKNOWN;
      }
      if (attr.default !== undefined && (after[name] === undefined || after[name] === null)) after[name] = attr.default;
    }
    if (kind.changeStrategy === "rotate" && (decision.action === "noop" || decision.action === "adopt") && prior?.sensitive) {
      // The secret is remembered in state; references to it resolve to that.
      for (const [k, v] of Object.entries(prior.sensitive)) after[k] = v;
    }
    if (decision.action === "create" || decision.action === "replace" || decision.action === "rotate") scope.pendingNew.add(d.address);
    scope.resolved.set(d.address, after);
    changes.push({
      address: d.address,
      typeName: d.typeName,
      constructPath: d.constructPath,
      action: decision.action,
      alsoUpdate: decision.alsoUpdate,
      id: liveObject ? kind.api.idOf(liveObject) : undefined,
      before: before ?? null,
      after,
      changed: decision.changed,
      reasons: decision.reasons,
      dependsOn: d.dependsOn.filter((a) => !a.startsWith("data.")),
    });
  }

  const declaredAddresses = new Set(declared.map((d) => d.address));
  const removals = Object.entries(state.resources).filter(([address]) => !declaredAddresses.has(address));
  for (const [address, r] of removals) {
    const kind = resourceKind(r.typeName);
    if (!kind) {
      problems.push(`${address}: state names unknown type ${r.typeName}; remove it with "ods state rm ${address}"`);
      continue;
    }
    const liveObject = live.findById(kind, r.id);
    digestInput.push({ address, live: liveObject });
    if (kind.deletion === "guarded" && r.engineValues.allow_destroy !== true && liveObject) {
      problems.push(`${address}: deleting ${kind.typeName} "${String(r.values.name ?? r.id)}" deletes all of its data; set allow_destroy = true and apply before removing it, or stop managing it with "ods state rm ${address}"`);
      continue;
    }
    const action: Action = kind.deletion === "forget" ? "forget" : liveObject ? "delete" : "forget";
    changes.push({
      address,
      typeName: r.typeName,
      action,
      id: r.id,
      before: liveObject ? liveValues(kind, liveObject) : r.values,
      after: null,
      changed: [],
      reasons: liveObject ? (kind.deletion === "forget" ? ["stops managing it; nothing is deleted"] : []) : ["already gone"],
      dependsOn: r.dependsOn,
    });
  }
  if (problems.length === 0 && ctx.checkQueries !== false) problems.push(...(await checkQueries(client, changes, warnings)));
  if (problems.length > 0) throw new PlanError(problems);

  const dataValues: Record<string, Values> = {};
  for (const [k, v] of scope.dataValues) dataValues[k] = v;
  return {
    formatVersion: PLAN_FORMAT_VERSION,
    stack: stack.name,
    stateLineage: state.lineage,
    stateSerial: state.serial,
    liveDigest: digestLive(digestInput),
    changes,
    dataValues,
    warnings,
  };
}

/**
 * Sends each starred query and virtual-field expression that the plan writes to the
 * service, compiled over a zero-width time range. Objects on a dataset this plan
 * creates cannot be checked yet (the service does not know the dataset).
 */
async function checkQueries(client: OdsClient, changes: PlannedChange[], warnings: string[]): Promise<string[]> {
  const creating = new Set(
    changes.filter((c) => c.typeName === "ods_dataset" && (c.action === "create" || c.action === "replace")).map((c) => String(c.after?.name)),
  );
  const problems: string[] = [];
  const writes = changes.filter(
    (c) => (c.typeName === "ods_starred_query" || c.typeName === "ods_virtual_field") && ["create", "update", "replace", "adopt"].includes(c.action) &&
      c.after &&
      // Only the query text and its dataset must be known; a create's id never is.
      !containsUnknown([c.after.dataset, c.after.query, c.after.expression]),
  );
  for (const c of writes) {
    const values = c.after as Values;
    if (creating.has(String(values.dataset))) continue;
    try {
      const problem = c.typeName === "ods_starred_query" ? await checkStarredQuery(client, values) : await checkVirtualField(client, values);
      if (problem) problems.push(`[${c.constructPath ?? c.address}] ${c.address}: ${describeProblem(problem)}`);
    } catch (err) {
      if (err instanceof QueryCheckUnsupported) {
        warnings.push(`the service does not answer queries (${err.message}); query checks were skipped`);
        return problems;
      }
      throw err;
    }
  }
  return problems;
}

export function hasChanges(plan: Plan): boolean {
  return plan.changes.some((c) => c.action !== "noop");
}
