// Planning: refresh what lives, resolve what is declared, and decide one action per
// resource. A pure decision per resource (decideAction) over inputs gathered here.
import * as crypto from "node:crypto";
import type { License, OdsClient } from "../api";
import { datasetDeclared, resourceKind, type InsightCharts, type MermaidChart, type ResourceKind, type Values, type WireObject } from "../resources";
import {
  LiveIndex,
  UNKNOWN,
  containsUnknown,
  checkLicense,
  currentOfRotation,
  decideAction,
  deletionRefusal,
  describeProblem,
  duplicateNaturalKeys,
  liveValues,
  matchesNaturalKey,
  naturalKeyText,
  oldSecretEnd,
  plannedValues,
  replacementRefusal,
  planCheckWarnings,
  runPlanCheck,
  runPlanInsight,
  scopeOf,
  strayDatasetWarnings,
  upgradeValues,
  wantsPlanCheck,
  type Action,
  type OldSecretEnd,
} from "../lifecycle";
import { rememberPlanLists } from "./world";
import { pendingDocuments } from "./path-diff";
import { evaluate, valueAt, type Reference } from "./expressions";
import { dependencyOrder, type DataDeclaration, type LoadedStack, type ManagedDeclaration } from "./stack";
import { applyMoves, explicitMoveLines, movesOfStatements, type PlannedMove } from "./moves";
import { sensitiveMarks, unmarkedSensitiveOutputs } from "./sensitivity";
import type { StateFile } from "./state";
import type { OutputChange } from "./outputs";

// The decision and value rules live in the lifecycle; these names are kept for callers.
export { decideAction, engineValues, liveValues, matchesNaturalKey, secretFingerprints, type Action, type Decision } from "../lifecycle";

export const PLAN_FORMAT_VERSION = 1;

/**
 * An `ods` command a message suggests, naming the stack: without --stack it would fail
 * where cdktf.out holds several stacks, so the printed command works as it is.
 */
export function odsCommand(stack: string, args: string): string {
  const [verb, ...rest] = args.split(" ");
  const sub = verb === "state" ? `${verb} ${rest.shift()}` : verb;
  return `ods ${sub} --stack ${stack}${rest.length > 0 ? ` ${rest.join(" ")}` : ""}`;
}

/** The refusal of a stack emptied while its state holds guarded objects (datasets whose deletion loses data). */
function emptiedStackRefusal(stack: string, managed: number, guarded: readonly string[], part?: StackPart): string {
  const one = guarded.length === 1;
  if (part && part.stackDeclares > 0) {
    // One provider configuration emptied while the others still declare resources: not an
    // emptied stack (nor a failed synth), and `ods destroy` would take the others too.
    return (
      `provider configuration ${part.provider} of stack ${stack} declares no ods resources (the stack's other configurations declare ${part.stackDeclares}), but its state manages ${managed}: applying would delete all of them, and ${guarded.join(", ")} ${one ? "is" : "are"} guarded (deleting ${one ? "it" : "them"} deletes data). ` +
      `If this commit dropped its declarations or their provider = "${part.provider}" by mistake, restore them; ` +
      `to delete ${one ? "it" : "them"} on purpose, set allow_destroy = true on ${one ? "it" : "them"} and apply before removing ${one ? "its declaration" : "their declarations"}`
    );
  }
  return (
    `stack ${stack} declares no ods resources, but its state manages ${managed}: applying would delete all of them, and ${guarded.join(", ")} ${one ? "is" : "are"} guarded (deleting ${one ? "it" : "them"} deletes data). ` +
    `If this commit emptied the stack by mistake (a synth that failed, another app or --stack), restore its declarations; ` +
    `to delete everything on purpose, set allow_destroy = true on ${one ? "it" : "them"} and apply before emptying the stack, or run "${odsCommand(stack, "destroy")}" after that`
  );
}

export interface PlannedChange {
  address: string;
  typeName: string;
  constructPath?: string;
  action: Action;
  /** For `adopt`: whether the adopted object also needs an update. */
  alsoUpdate?: boolean;
  /** For `adopt`: the adopted object's secret is issued anew (counted as a rotation too). */
  alsoRotate?: boolean;
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
  /** Attributes that took a sensitive value through a reference (shown as sensitive). */
  marked?: string[];
  /** Attributes shown as (sensitive) whatever their kind says: they carry a sensitive variable's value. */
  sensitiveAttributes?: string[];
  /** What the kind's plan insight found (a monitor's backtest), for the reviewer. */
  insight?: PlanInsightView;
  /** The address the object had in state before this plan moved it (Terraform's previous_address). */
  previousAddress?: string;
  /** What showed the move: a `moved` block, or the natural key. */
  movedBy?: PlannedMove["foundBy"];
  /** A JSON document known only after apply, as text with placeholders for its unknown parts: shown by path. */
  pendingDocuments?: Record<string, string>;
  /** A rotation or replacement of a rotating kind: when the old secret stops working. */
  oldSecret?: OldSecretEnd;
  /** Why apply would refuse this change (the plan foresaw it): apply then writes nothing at all. */
  refusal?: string;
}

function withPendingDocuments(pending: Record<string, string> | undefined): { pendingDocuments?: Record<string, string> } {
  return pending ? { pendingDocuments: pending } : {};
}

/** A plan insight as a plan carries it: a summary line, and more for each output form. */
export interface PlanInsightView {
  summary: string;
  lines: string[];
  markdown: string;
  mermaid?: MermaidChart[];
  json: Record<string, unknown>;
  queries: number;
  /** The data the HTML plan draws its charts from. */
  charts?: InsightCharts;
}

export interface Plan {
  formatVersion: number;
  stack: string;
  stateLineage: string;
  stateSerial: number;
  /** Digest of the live objects the plan was made from; a saved plan is refused when it moved. */
  liveDigest: string;
  changes: PlannedChange[];
  /** State entries renamed (no call on the service): each object keeps its id. */
  moves: PlannedMove[];
  /** Data-source values read while planning. */
  dataValues: Record<string, Values>;
  warnings: string[];
  /**
   * Outputs apply adds, changes or removes. Outputs span a stack's provider
   * configurations: the last part's plan carries them (unset: none change).
   */
  outputChanges?: OutputChange[];
}

export class PlanError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join("\n"));
    this.name = "PlanError";
  }
}

/** Which provider configuration of a stack with several a plan is for. */
export interface StackPart {
  /** `ods` or `ods.ALIAS`. */
  provider: string;
  /** Resources the whole stack declares, over every configuration. */
  stackDeclares: number;
}

export interface PlanContext {
  client: OdsClient;
  /** The declarations of one provider configuration (see `part`). */
  stack: LoadedStack;
  /** Set when the stack has several provider configurations: the one this plan is for. */
  part?: StackPart;
  state: StateFile;
  orgId?: string;
  /** The organization's license when the caller has read it already (else the plan reads it, once). */
  license?: License;
  /** Plan the removal of everything in state (ods destroy). */
  destroy?: boolean;
  /** Compile changed starred queries and virtual-field expressions on the service (default on). */
  checkQueries?: boolean;
  /** Run the kinds' plan insights (a monitor's backtest) over this many days; unset: none. */
  insights?: { days: number; nowMs?: number };
  /** List calls in flight at once during the refresh (default 10). */
  parallelism?: number;
  /**
   * Turn a delete of A and a create of B with one natural key into a move of A to B
   * (default on). Off, such a pair is refused, as Terraform refuses it at plan.
   */
  moveDetection?: boolean;
}

/**
 * Runs `jobs` with at most `limit` of them in flight, in order of start; the first failure
 * is thrown once the jobs already running have settled (nothing is left running behind it).
 */
async function runBounded(jobs: readonly (() => Promise<unknown>)[], limit: number): Promise<void> {
  let next = 0;
  let failure: { err: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (next < jobs.length && !failure) {
      const job = jobs[next++];
      try {
        await job();
      } catch (err) {
        failure ??= { err };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), jobs.length) }, worker));
  if (failure) throw failure.err;
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

/** The parents (datasets) that scoped kinds must be listed under: declared ones and remembered ones. */
function scopesFor(kind: ResourceKind, decls: readonly ManagedDeclaration[], state: StateFile, scope: PlanningScope): Set<string> {
  const names = new Set<string>();
  const attribute = kind.scope?.attribute;
  if (!attribute) return names;
  // Every declaration's value of the attribute, whatever its kind: one list per parent
  // also finds objects whose declaration is gone.
  for (const d of decls) {
    const v = evaluate(d.values[attribute], scope.lookup);
    if (typeof v === "string") names.add(v);
  }
  for (const r of Object.values(state.resources)) if (typeof r.values[attribute] === "string") names.add(r.values[attribute] as string);
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

/** Brings state entries written under an older schema version of their kind to the current one. */
function upgradeState(state: StateFile): void {
  for (const entry of Object.values(state.resources)) {
    const kind = resourceKind(entry.typeName);
    const version = entry.schemaVersion ?? 0;
    if (!kind || version === kind.schemaVersion) continue;
    entry.values = upgradeValues(kind, entry.values, version);
    entry.schemaVersion = kind.schemaVersion;
  }
}

/** Makes a plan: refresh (one list per kind, per dataset where needed), then decide. */
export async function makePlan(ctx: PlanContext): Promise<Plan> {
  const { client, stack, state } = ctx;
  upgradeState(state);
  const warnings = [...stack.warnings];
  const scope = new PlanningScope();
  const live = new LiveIndex();
  const problems: string[] = [];
  await readDataSources(ctx, scope, warnings);

  // Moves first: the plan is made as if each moved object had always lived at its new
  // address (the state here is the plan's copy in memory; the apply writes it).
  const moved = movesOfStatements(stack.moved ?? [], state, new Set(stack.resources.map((d) => d.address)));
  if (moved.problems.length > 0) throw new PlanError(moved.problems);
  applyMoves(state, moved.moves);
  const moves: PlannedMove[] = [...moved.moves];

  const declared = ctx.destroy ? [] : dependencyOrder(stack.resources);
  const declaredAddresses = new Set(declared.map((d) => d.address));
  // Declared literal values first, so that dataset names and keys resolve before listing.
  for (const d of declared) scope.resolved.set(d.address, evaluate(d.values, () => UNKNOWN) as Values);

  // Sensitivity follows references; an output carrying a secret must say so (as in Terraform).
  const marks = sensitiveMarks(stack);
  const unmarked = unmarkedSensitiveOutputs(stack, marks);
  if (unmarked.length > 0) throw new PlanError(unmarked);
  // One object per natural key, checked before anything is listed or written.
  const duplicates = duplicateNaturalKeys(declared.map((d) => ({ address: d.address, kind: d.kind, values: evaluate(d.values, scope.lookup) as Values })));
  if (duplicates.length > 0) throw new PlanError(duplicates);

  const kinds = new Map<string, ResourceKind>();
  for (const d of declared) kinds.set(d.typeName, d.kind);
  for (const r of Object.values(state.resources)) {
    const k = resourceKind(r.typeName);
    if (k) kinds.set(k.typeName, k);
  }
  // The lists are independent reads: behind a network each is a round trip, so they go
  // out side by side (the same calls as one after another).
  const lists: (() => Promise<unknown>)[] = [];
  for (const kind of kinds.values()) {
    if (kind.scope) for (const parent of scopesFor(kind, declared, state, scope)) lists.push(() => live.load(client, kind, parent));
    else lists.push(() => live.load(client, kind));
  }
  await runBounded(lists, ctx.parallelism ?? 10);

  // Ids the state manages, per kind: asked once per new declaration (moves rename, never re-id).
  const managedIdSets = new Map<string, Set<string>>();
  const managedIdsOf = (typeName: string): Set<string> => {
    let ids = managedIdSets.get(typeName);
    if (!ids) managedIdSets.set(typeName, (ids = new Set(Object.values(state.resources).filter((r) => r.typeName === typeName).map((r) => r.id))));
    return ids;
  };

  const changes: PlannedChange[] = [];
  const digestInput: { address: string; live?: WireObject }[] = [];
  const claimed = new Map<string, string>();

  for (const d of declared) {
    const kind = d.kind;
    const values = evaluate(d.values, scope.lookup) as Values;
    if (!state.resources[d.address]) {
      const found = await moveByNaturalKey(ctx, live, d, values, declaredAddresses);
      if (typeof found === "string") {
        problems.push(found);
        continue;
      }
      if (found) {
        applyMoves(state, [found]);
        moves.push(found);
      }
    }
    const prior = state.resources[d.address];
    const move = moves.find((m) => m.to === d.address);
    let liveObject: WireObject | undefined;
    let adopted = false;
    let adoptionNote: string | undefined;
    const parent = scopeOf(kind, values);
    if (prior) {
      liveObject = live.findById(kind, prior.id);
      if (!liveObject && parent !== undefined && !live.has(kind, parent)) {
        liveObject = await live.loadById(client, kind, parent, prior.id);
      }
    } else {
      const key = naturalKeyText(kind, values);
      if (key !== undefined) {
        if (parent !== undefined) await live.load(client, kind, parent);
        const managed = managedIdsOf(kind.typeName);
        let matches = live.withNaturalKey(kind, values).filter((o) => !managed.has(kind.api.idOf(o)));
        const rotated = currentOfRotation(kind, matches, values);
        if (rotated) {
          matches = [rotated.current];
          adoptionNote = rotated.reason;
        }
        if (matches.length > 1) {
          const ids = matches.map((m) => kind.api.idOf(m));
          problems.push(
            `[${d.constructPath}] ${d.address}: ${matches.length} live ${kind.typeName} objects have ${kind.naturalKey.join(" and ")} ${key}: ids ${ids.join(", ")}; remove the duplicates, or import the one to keep: ${ids.map((id) => `"${odsCommand(stack.name, `import ${d.address} ${id}`)}"`).join(" or ")}`,
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
    if (adoptionNote) decision.reasons.unshift(adoptionNote);
    if (adopted && decision.alsoRotate && kind.rotation && liveObject) {
      // Rotating is the price of adopting without the secret; importing keeps the object as it is.
      decision.reasons.push(
        `to keep this ${kind.rotation.secretAttribute} instead (its users keep working, and the state holds no ${kind.rotation.secretAttribute}), record it without rotating: "${odsCommand(stack.name, `import ${d.address} ${kind.api.idOf(liveObject)}`)}" (ods export --adopt does this for a whole export; if another address of this state holds it, a moved block keeps it)`,
      );
    }
    if (move?.foundBy === "natural key") {
      const key = `${kind.naturalKey.join(" and ")} ${naturalKeyText(kind, values) ?? ""}`;
      decision.reasons.unshift(
        `found by natural key: ${move.from} manages the live object with ${key}; it keeps its id (make the move explicit to keep it without detection):`,
        ...explicitMoveLines(move.from, d.address, d.constructPath),
      );
    }
    const refusal = decision.action === "replace" ? replacementRefusal(kind, values, decision.reasons) : undefined;
    if (refusal) {
      problems.push(`[${d.constructPath}] ${d.address}: ${refusal}`);
      continue;
    }
    const keepsLive = before !== undefined && (decision.action === "noop" || decision.action === "update" || decision.action === "adopt");
    const after = plannedValues(kind, {
      declared: values,
      prior: before,
      objectIsNew: !keepsLive,
      anyChange: decision.action !== "noop",
      everyAttribute: false,
    });
    if (kind.rotation && (decision.action === "noop" || decision.action === "adopt") && prior?.sensitive) {
      // The secret is remembered in state; references to it resolve to that.
      for (const [k, v] of Object.entries(prior.sensitive)) after[k] = v;
    }
    if (decision.action === "create" || decision.action === "replace" || decision.action === "rotate") scope.pendingNew.add(d.address);
    const oldSecret = oldSecretOf(kind, decision, values, before !== undefined);
    if (oldSecret) {
      decision.reasons.push(oldSecret.text);
      if (decision.action === "rotate" && oldSecret.stopsAt === "apply") {
        warnings.push(
          `[${d.constructPath}] ${d.address} will be rotated with ${kind.rotation!.gracePeriodAttribute} "0s": its old ${kind.rotation!.secretAttribute} stops working at apply, and whatever still uses it (a CI job, an ingest pipeline) fails until it has the new one; set ${kind.rotation!.gracePeriodAttribute} (e.g. "24h") to give its users time to switch`,
        );
      }
    }
    // A write the service will refuse (a dashboard changed in the UI since this configuration wrote it).
    const conflict = decision.action === "update" && prior && before ? kind.versionConflict?.(prior.values, before, values) : undefined;
    if (conflict) {
      decision.reasons.push(conflict.message);
      if (conflict.refused) warnings.push(`[${d.constructPath}] ${d.address}: ${conflict.message}`);
    }
    scope.resolved.set(d.address, after);
    changes.push({
      address: d.address,
      typeName: d.typeName,
      constructPath: d.constructPath,
      action: decision.action,
      alsoUpdate: decision.alsoUpdate,
      alsoRotate: decision.alsoRotate,
      id: liveObject ? kind.api.idOf(liveObject) : undefined,
      before: before ?? null,
      after,
      changed: decision.changed,
      reasons: decision.reasons,
      dependsOn: d.dependsOn.filter((a) => !a.startsWith("data.")),
      ...(marks.has(d.address) ? { marked: [...marks.get(d.address)!] } : {}),
      ...(move ? { previousAddress: move.from, movedBy: move.foundBy } : {}),
      ...withPendingDocuments(pendingDocuments(kind.attributes, d.values, after, scope.lookup)),
      ...(oldSecret ? { oldSecret } : {}),
      ...(conflict?.refused ? { refusal: `[${d.constructPath}] ${d.address}: ${conflict.message}` } : {}),
    });
  }

  const removals = Object.entries(state.resources).filter(([address]) => !declaredAddresses.has(address));
  // A stack that declares nothing any more is most often a mistake (a failed synth): its
  // guarded objects are named in one refusal of that, not each with advice to forget it.
  const emptied = !ctx.destroy && declared.length === 0 && removals.length > 0;
  const guarded: string[] = [];
  for (const [address, r] of removals) {
    const kind = resourceKind(r.typeName);
    if (!kind) {
      problems.push(`${address}: state names unknown type ${r.typeName}; remove it with "${odsCommand(stack.name, `state rm ${address}`)}"`);
      continue;
    }
    const liveObject = live.findById(kind, r.id);
    digestInput.push({ address, live: liveObject });
    const refusal = liveObject ? deletionRefusal(kind, r.engineValues, r.values, r.id, `, or stop managing it with "${odsCommand(stack.name, `state rm ${address}`)}"`) : undefined;
    if (refusal) {
      if (emptied) guarded.push(address);
      else problems.push(`${address}: ${refusal}`);
      continue;
    }
    const action: Action = kind.deletion === "forget" ? "forget" : liveObject ? "delete" : "forget";
    const move = moves.find((m) => m.to === address);
    changes.push({
      ...(move ? { previousAddress: move.from, movedBy: move.foundBy } : {}),
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
  if (guarded.length > 0) problems.push(emptiedStackRefusal(stack.name, removals.length, guarded, ctx.part));
  // The license bounds what the apply may create: checked before anything is written.
  if (problems.length === 0) {
    const license = await checkLicense(client, live, changes, { orgId: ctx.orgId, license: ctx.license, insightDays: ctx.insights?.days });
    problems.push(...license.problems);
    warnings.push(...license.warnings);
  }
  // Insights only read, so they run beside the query checks; a refused plan discards them.
  const insights = problems.length === 0 && ctx.insights ? runInsights(client, changes, ctx.insights) : Promise.resolve();
  if (problems.length === 0 && ctx.checkQueries !== false) problems.push(...(await checkQueries(client, changes, warnings, ctx.parallelism ?? 10)));
  await insights;
  if (problems.length > 0) throw new PlanError(problems);

  const dataValues: Record<string, Values> = {};
  for (const [k, v] of scope.dataValues) dataValues[k] = v;
  const plan: Plan = {
    formatVersion: PLAN_FORMAT_VERSION,
    stack: stack.name,
    stateLineage: state.lineage,
    stateSerial: state.serial,
    liveDigest: digestLive(digestInput),
    changes,
    moves,
    dataValues,
    warnings,
  };
  rememberPlanLists(plan, live);
  return plan;
}

/** When a planned rotation (or replacement) of a rotating kind ends the old secret. */
function oldSecretOf(kind: ResourceKind, decision: { action: Action; alsoRotate?: boolean }, values: Values, lives: boolean): OldSecretEnd | undefined {
  if (decision.action === "rotate") return oldSecretEnd(kind, values, "change");
  if (decision.action === "adopt" && decision.alsoRotate) return oldSecretEnd(kind, values, "adoption");
  if (decision.action === "replace" && lives) return oldSecretEnd(kind, values, "replacement");
  return undefined;
}

/**
 * Runs the plan-time check of each object the plan writes (the service compiles starred
 * queries and virtual-field expressions). Objects under a parent this plan creates
 * cannot be checked yet (the service does not know the parent).
 */
async function checkQueries(client: OdsClient, changes: PlannedChange[], warnings: string[], parallelism: number): Promise<string[]> {
  const creating = new Map(
    changes.filter((c) => c.action === "create" || c.action === "replace").map((c) => [`${c.typeName}:${String(c.after?.name)}`, c.address]),
  );
  // Each check waits for the service (a compile, a list): they run `parallelism` at a
  // time, and their messages are reported in plan order whatever order they finish in.
  const memo = new Map<string, Promise<unknown>>();
  // The datasets the configuration declares: a query may name them before they exist.
  const datasets = new Set(changes.flatMap((c) => (c.after ? [datasetDeclared(c.typeName, c.after)] : [])).filter((n): n is string => n !== undefined));
  const findings: { warnings: string[]; problem?: string; unsupported?: string }[] = [];
  const jobs: (() => Promise<void>)[] = [];
  for (const c of changes) {
    const kind = resourceKind(c.typeName);
    if (!kind || !c.after || !["create", "update", "replace", "adopt"].includes(c.action)) continue;
    if (!wantsPlanCheck(kind, c.before !== null && c.action !== "replace")) continue;
    const parent = kind.scope ? scopeOf(kind, c.after) : undefined;
    const newParent = parent !== undefined && kind.scope ? creating.get(`${kind.scope.parentType}:${parent}`) : undefined;
    const finding: (typeof findings)[number] = { warnings: [] };
    findings.push(finding);
    if (newParent !== undefined) {
      // A claimed object exists only once the service made it (a dataset's fields come with
      // ingested data): under a parent this plan creates, there is nothing to claim yet. Said
      // at plan rather than refused: copying an organization applies everything else first,
      // then the claims once data has been sent (the apply says which claims failed).
      if (kind.creation === "claim") {
        finding.warnings.push(`${c.address}: its ${kind.scope!.attribute} "${parent}" is created by this plan (${newParent}) and has nothing to claim yet, so this claim will fail; apply again once data has been sent to it`);
      }
      continue;
    }
    const after = c.after;
    jobs.push(async () => {
      const outcome = await runPlanCheck(client, kind, after, { seesWholePlan: true, memo });
      for (const w of planCheckWarnings(kind, after)) finding.warnings.push(`[${c.constructPath ?? c.address}] ${c.address}: ${describeProblem(w)}`);
      for (const w of await strayDatasetWarnings(client, kind, after, { declared: datasets, memo })) finding.warnings.push(`[${c.constructPath ?? c.address}] ${c.address}: ${describeProblem(w)}`);
      if (outcome.kind === "problem") finding.problem = `[${c.constructPath ?? c.address}] ${c.address}: ${describeProblem(outcome.problem)}`;
      if (outcome.kind === "unsupported") finding.unsupported = outcome.message;
    });
  }
  await runBounded(jobs, parallelism);
  const problems: string[] = [];
  for (const f of findings) {
    warnings.push(...f.warnings);
    if (f.problem) problems.push(f.problem);
  }
  const unsupported = findings.find((f) => f.unsupported !== undefined)?.unsupported;
  if (unsupported !== undefined) warnings.push(`the service does not answer queries (${unsupported}); query checks were skipped`);
  return problems;
}

/** How many insights run at once: the client's rate limiter keeps the service's limit. */
const INSIGHT_CONCURRENCY = 4;

/** Runs the plan insight of each object the plan writes, and attaches it to its change. */
async function runInsights(client: OdsClient, changes: PlannedChange[], options: { days: number; nowMs?: number }): Promise<void> {
  const todo = changes.filter((c) => c.after && ["create", "update", "replace", "adopt"].includes(c.action) && resourceKind(c.typeName)?.planInsight);
  const nowMs = options.nowMs ?? Date.now();
  const answers = new Map<string, Promise<unknown>>();
  const jobs = todo.map((c) => async () => {
    const kind = resourceKind(c.typeName)!;
    const existing = c.id && c.before && c.action !== "replace" ? { id: c.id, values: c.before } : undefined;
    const outcome = await runPlanInsight(client, kind, c.after!, existing, { days: options.days, nowMs, answers });
    if (outcome?.kind === "report") c.insight = outcome.report;
    else if (outcome) c.insight = { summary: outcome.reason, lines: [], markdown: "", json: { skipped: outcome.reason }, queries: 0 };
  });
  await runBounded(jobs, INSIGHT_CONCURRENCY);
}

/** Whether a change does anything: an action, or a move (the state is written, nothing is called). */
export function isChange(c: PlannedChange): boolean {
  return c.action !== "noop" || c.previousAddress !== undefined;
}

export function hasChanges(plan: Plan): boolean {
  return plan.changes.some(isChange) || (plan.outputChanges?.length ?? 0) > 0;
}

/** The categories a plan's summary and an apply's summary both count, in their order. */
export const COUNTED_ACTIONS = ["create", "adopt", "update", "replace", "rotate", "delete", "forget"] as const;
export type CountedAction = (typeof COUNTED_ACTIONS)[number];

/**
 * The categories a change is counted under, in the plan's summary and in the apply's
 * alike: its action, and for an adoption what it also does (an update, or a rotation of
 * a secret that cannot be read back).
 */
export function countedActions(c: PlannedChange): CountedAction[] {
  if (c.action === "noop") return [];
  if (c.action !== "adopt") return [c.action];
  if (c.alsoRotate) return ["adopt", "rotate"];
  return c.alsoUpdate ? ["adopt", "update"] : ["adopt"];
}

/** How many changes a plan counts under each category, and how many it moves. */
export function countChanges(changes: readonly PlannedChange[]): Record<CountedAction | "move", number> {
  const counts = { create: 0, adopt: 0, update: 0, replace: 0, rotate: 0, delete: 0, forget: 0, move: 0 };
  for (const c of changes) {
    for (const a of countedActions(c)) counts[a]++;
    if (c.previousAddress !== undefined) counts.move++;
  }
  return counts;
}

/**
 * A declaration that is not in state, whose natural key the live object of a state entry
 * the configuration no longer declares has: the same object under a new address. It is
 * moved when the declaration can be applied to that object by an update (it keeps its id);
 * otherwise (or with move detection off) the answer is the problem that refuses the plan:
 * a delete and a create of one natural key would fail halfway or lose the object.
 */
async function moveByNaturalKey(
  ctx: PlanContext,
  live: LiveIndex,
  d: ManagedDeclaration,
  values: Values,
  declared: ReadonlySet<string>,
): Promise<PlannedMove | string | undefined> {
  const kind = d.kind;
  const key = naturalKeyText(kind, values);
  if (key === undefined) return undefined;
  const parent = scopeOf(kind, values);
  if (kind.scope && parent === undefined) return undefined;
  await live.load(ctx.client, kind, parent);
  const leaving = Object.entries(ctx.state.resources).filter(([address, r]) => r.typeName === kind.typeName && !declared.has(address));
  for (const [from, r] of leaving) {
    const object = live.findById(kind, r.id);
    if (!object || !matchesNaturalKey(kind, object, values)) continue;
    const what = `${kind.naturalKey.join(" and ")} ${key}`;
    const remedies = [
      `make the move explicit: ${explicitMoveLines(from, d.address, d.constructPath).join(" ").replace(/\s+/g, " ")}`,
      `or "${odsCommand(ctx.stack.name, `state mv ${from} ${d.address}`)}"`,
    ].join("; ");
    const head = `[${d.constructPath}] ${d.address} would create a ${kind.typeName} with ${what}, while ${from} (no longer declared) manages the live object ${r.id} with that ${kind.naturalKey.join(" and ")}`;
    if (ctx.moveDetection === false) {
      return `${head}; a delete and a create of one object are refused (--no-move-detection); ${remedies}`;
    }
    const decision = decideAction(kind, values, liveValues(kind, object, values), r, false, ctx.state.fingerprintSalt);
    if (decision.action === "replace") {
      return `${head}, and it cannot become a move: ${decision.reasons.join("; ")}. Nothing was changed; move it first with the configuration it has (${remedies}), then change it`;
    }
    return { from, to: d.address, foundBy: "natural key" };
  }
  return undefined;
}
