// Running one stack against its targets. A stack may hold several provider
// configurations (`provider = "ods.staging"`): each is planned and applied with its
// own client, in the order their references require, against its own share of the
// stack's one state (kept through the stack's backend). Before anything is read or written, the state's recorded
// organizations are checked against the targets: state made for another organization
// is refused with zero writes.
import type { Values } from "../resources";
import { applyPlan, type ApplyEvent, type ApplySummary } from "../reconcile/apply";
import { UNKNOWN, containsUnknown, evaluate, parseReference, referencesIn, substitute, valueAt, type Reference, type SpanResolver } from "../reconcile/expressions";
import { planOutputChanges } from "../reconcile/outputs";
import { PlanError, hasChanges, makePlan, odsCommand, type Plan } from "../reconcile/plan";
import { foreignIdProblem, remoteObjects, type RemoteObject } from "../reconcile/cross-stack";
import { providerAddress, providerKey } from "../reconcile/provider-address";
import { secretForms } from "../reconcile/redact";
import { sensitiveMarks, unmarkedSensitiveOutputs } from "../reconcile/sensitivity";
import { StackError, dependencyOrder, loadStack, type LoadedStack, type ManagedDeclaration, type ProviderConfiguration } from "../reconcile/stack";
import { setStateOrganization, stateOrganization, type ResourceState, type StateFile, type StateOrganization, type StateStore } from "../reconcile/state";
import type { VariableInputs } from "../reconcile/variables";
import { addSecrets } from "./redact-output";
import type { SelectedStack } from "./stack-selection";
import { describeTarget, targetsFor, type Target, type TargetFlags } from "./target";

/** A selected stack, loaded, with the targets of its provider configurations. */
export interface StackUnit {
  name: string;
  file: string;
  /** The stack's state through its backend (or --state FILE); closed by the command. */
  store: StateStore;
  /** As loaded: references to other stacks' outputs still as "${...}". */
  loaded: LoadedStack;
  targets: Map<string, Target>;
  /** Provider configurations in the order their references require. */
  providerOrder: string[];
}

/** One provider configuration's plan within a stack. */
export interface PartPlan {
  provider: string;
  target: Target;
  stack: LoadedStack;
  view: StateFile;
  plan: Plan;
}

export interface StackPlan {
  unit: StackUnit;
  state: StateFile;
  parts: PartPlan[];
}

export interface StackLoadOptions {
  variables: VariableInputs;
  flags: TargetFlags;
  /** The environment targets read (ODS_URL, ODS_TOKEN, ...): the process's unless given. */
  env?: NodeJS.ProcessEnv;
  /** The environment of one provider configuration's target, when it may differ per configuration (the project's emulator). */
  envFor?: (provider: ProviderConfiguration) => Promise<NodeJS.ProcessEnv>;
  /** The state store of a stack (its backend, or --state FILE with one stack). */
  storeOf: (stack: SelectedStack) => StateStore;
}

export async function openStack(selected: SelectedStack, opts: StackLoadOptions): Promise<StackUnit> {
  const loaded = loadStack(selected.file, { variables: opts.variables });
  addSecrets(loaded.sensitiveValues.flatMap(secretForms));
  const name = selected.name;
  const store = opts.storeOf(selected);
  // Objects in state under the default configuration need it even when the stack no
  // longer writes a provider block (Terraform assumes an empty one, too).
  if (!loaded.providers.some((p) => p.key === "ods")) {
    let state: StateFile;
    try {
      state = await store.read();
    } catch (e) {
      await store.close();
      throw e;
    }
    if (Object.entries(state.resources).some(([address, r]) => stateOwner(loaded, address, r.provider) === "ods")) {
      loaded.providers.push({ key: "ods", config: {}, implicit: true });
    }
  }
  let targets: Map<string, Target>;
  try {
    const envs = new Map<string, NodeJS.ProcessEnv>();
    if (opts.envFor) for (const p of loaded.providers) envs.set(p.key, await opts.envFor(p));
    targets = targetsFor(opts.flags, loaded.providers, name, (p) => envs.get(p.key) ?? opts.env ?? process.env);
  } catch (e) {
    await store.close();
    throw e;
  }
  return {
    name,
    file: selected.file,
    store,
    loaded,
    targets,
    providerOrder: providerOrder(loaded),
  };
}

/** Provider configurations ordered so that one referring to another's objects comes after it. */
function providerOrder(stack: LoadedStack): string[] {
  const ownerOf = new Map<string, string>();
  for (const d of [...stack.resources, ...stack.dataSources]) ownerOf.set(d.address, d.provider);
  const needs = new Map<string, Set<string>>(stack.providers.map((p) => [p.key, new Set<string>()]));
  for (const d of [...stack.resources, ...stack.dataSources]) {
    for (const dep of d.dependsOn) {
      const owner = ownerOf.get(dep);
      if (owner && owner !== d.provider) needs.get(d.provider)?.add(owner);
    }
  }
  try {
    return dependencyOrder([...needs].map(([key, deps]) => ({ address: key, dependsOn: [...deps] }))).map((p) => p.address);
  } catch {
    throw new StackError([
      `stack ${stack.name}: resources of provider configurations ${[...needs.keys()].join(", ")} refer to each other both ways; the ods engine applies one provider configuration after another: use the Terraform path, or make the references go one way`,
    ]);
  }
}

/** Asks each target which organization it reaches; describes every target (for the header). */
export async function describeTargets(unit: StackUnit): Promise<void> {
  for (const target of unit.targets.values()) await describeTarget(target);
}

/**
 * Refuses a state that belongs elsewhere: recorded for another organization, or holding
 * objects of a provider configuration the stack no longer has. Nothing is written.
 */
export function checkStateBelongs(unit: StackUnit, state: StateFile): void {
  const problems: string[] = [];
  for (const [provider, target] of unit.targets) {
    const recorded = stateOrganization(state, provider);
    const now = target.organization;
    if (recorded && now && recorded.id !== now.id) {
      problems.push(
        `the state (${unit.store.description}) of stack ${unit.name} belongs to organization ${recorded.name ? `"${recorded.name}" ` : ""}(id ${recorded.id}) for provider ${provider}, but the target ${target.url} is organization ${now.name ? `"${now.name}" ` : ""}(id ${now.id}). Nothing was changed. Point the provider at the organization of this state, or use another state file (--state) for the other organization`,
      );
    }
  }
  for (const [address, r] of Object.entries(state.resources)) {
    const provider = stateOwner(unit.loaded, address, r.provider);
    if (!unit.targets.has(provider)) {
      problems.push(`${address} in the state belongs to provider configuration ${provider}, which stack ${unit.name} no longer has; restore the provider block (to delete it) or "${odsCommand(unit.name, `state rm ${address}`)}"`);
    }
  }
  if (problems.length > 0) throw new StackError(problems);
}

/**
 * The provider configuration a state entry belongs to: the one the stack declares its
 * address with, as in Terraform, where the configuration wins over the provider the state
 * recorded (a resource moved to another alias is the same object, refreshed through the
 * new configuration); the recorded one for an entry the stack no longer declares.
 */
export function stateOwner(stack: LoadedStack, address: string, recorded: string | undefined): string {
  return declaredProviders(stack).get(address) ?? providerKey(recorded);
}

/** Address → provider configuration of a stack's resources, built once per stack: every state write asks for each entry. */
const providersByStack = new WeakMap<LoadedStack, ReadonlyMap<string, string>>();

function declaredProviders(stack: LoadedStack): ReadonlyMap<string, string> {
  let byAddress = providersByStack.get(stack);
  if (!byAddress) {
    byAddress = new Map(stack.resources.map((d) => [d.address, d.provider]));
    providersByStack.set(stack, byAddress);
  }
  return byAddress;
}

/**
 * The part of the state one provider configuration plans and applies: its entries only,
 * sharing the stack state's lineage, serial and salt. The engine persists it through
 * mergeView, which puts it back into the whole state before the store writes that.
 */
function stateView(full: StateFile, provider: string, stack: LoadedStack): StateFile {
  return { ...full, resources: Object.fromEntries(Object.entries(full.resources).filter(([address, r]) => stateOwner(stack, address, r.provider) === provider)) };
}

/**
 * Merges one provider configuration's view back into the stack's whole state; answers the
 * whole state. `whole` is the whole stack, which says which configuration owns an entry.
 */
export function mergeView(full: StateFile, view: StateFile, provider: string, stack: LoadedStack, org: StateOrganization | undefined, whole: LoadedStack): StateFile {
  const declared = new Map(stack.resources.map((d) => [d.address, d]));
  if (!full.lineage) full.lineage = view.lineage;
  for (const [address, r] of Object.entries(full.resources)) {
    if (stateOwner(whole, address, r.provider) === provider && !(address in view.resources)) delete full.resources[address];
  }
  for (const [address, r] of Object.entries(view.resources)) mergeEntry(full, address, r, provider, declared.get(address));
  if (org) setStateOrganization(full, provider, org);
  return full;
}

/** One entry of a provider configuration's view, as the whole state keeps it. */
function mergeEntry(full: StateFile, address: string, r: ResourceState, provider: string, declared: ManagedDeclaration | undefined): void {
  if (provider === "ods") delete r.provider;
  else r.provider = providerAddress(provider);
  const hidden = declared?.sensitiveAttributes ?? r.sensitiveAttributes ?? [];
  if (hidden.length > 0) r.sensitiveAttributes = hidden;
  else delete r.sensitiveAttributes;
  const paths = declared?.sensitivePaths ?? r.sensitivePaths ?? [];
  if (paths.length > 0) r.sensitivePaths = paths;
  else delete r.sensitivePaths;
  full.resources[address] = r;
}

/** Declarations by address, built once per stack (an apply merges entries thousands of times). */
const declarationIndex = new WeakMap<LoadedStack, Map<string, ManagedDeclaration>>();

/**
 * mergeView for the addresses CHANGED only (set or removed in the view since the last
 * merge): what an apply's saves need, in time proportional to what changed.
 */
export function mergeViewEntries(full: StateFile, view: StateFile, changed: ReadonlySet<string>, provider: string, stack: LoadedStack, org: StateOrganization | undefined): StateFile {
  let declared = declarationIndex.get(stack);
  if (!declared) declarationIndex.set(stack, (declared = new Map(stack.resources.map((d) => [d.address, d]))));
  if (!full.lineage) full.lineage = view.lineage;
  for (const address of changed) {
    const r = view.resources[address];
    if (r) mergeEntry(full, address, r, provider, declared.get(address));
    else delete full.resources[address];
  }
  if (org) setStateOrganization(full, provider, org);
  return full;
}

/** The declarations of one provider configuration; references to others' objects resolved where known. */
function partStack(stack: LoadedStack, provider: string, first: boolean, resolveOthers: (own: ReadonlySet<string>) => SpanResolver): LoadedStack {
  const own = new Set([...stack.resources, ...stack.dataSources].filter((d) => d.provider === provider).map((d) => d.address));
  const resolve = resolveOthers(own);
  const subst = <T extends { values: Values; provider: string }>(d: T): T => ({ ...d, values: substitute(d.values, resolve) as Values });
  return {
    ...stack,
    resources: stack.resources.filter((d) => d.provider === provider).map(subst),
    dataSources: stack.dataSources.filter((d) => d.provider === provider).map(subst),
    // Outputs span every provider configuration: computed once, after all of them.
    outputs: [],
    warnings: first ? stack.warnings : [],
  };
}

/** Reads `${ADDRESS.path}` of another part from a lookup; leaves it when not known yet. */
function resolverFor(addresses: ReadonlySet<string>, lookup: (ref: Reference) => unknown): (own: ReadonlySet<string>) => SpanResolver {
  return (own) => (inner) => {
    let ref: Reference;
    try {
      ref = parseReference(inner);
    } catch {
      return undefined;
    }
    if (!addresses.has(ref.address) || own.has(ref.address)) return undefined;
    const v = lookup(ref);
    return v === undefined || containsUnknown(v) ? undefined : { value: v };
  };
}

/** Values of applied objects, as references see them (the engine's own view of state). */
function stateLookup(state: StateFile, dataValues: Record<string, Values>): (ref: Reference) => unknown {
  return (ref) => {
    if (ref.address.startsWith("data.")) return valueAt(dataValues[ref.address], ref.path) ?? UNKNOWN;
    const r = state.resources[ref.address];
    if (!r) return UNKNOWN;
    const v = valueAt({ ...r.values, ...r.engineValues, ...(r.sensitive ?? {}), id: r.id }, ref.path);
    return v === undefined ? null : v;
  };
}

/**
 * Substitutes other stacks' outputs (cdktf cross-stack references) from their states.
 * Outputs not applied yet stay references: the plan shows them as known after apply.
 */
export async function withRemoteOutputs(unit: StackUnit, stateOf: StateOf): Promise<LoadedStack> {
  const stack = unit.loaded;
  if (stack.remoteStates.length === 0) return stack;
  const outputsOf = new Map<string, StateFile["outputs"]>();
  // cdktf marks every cross-stack output sensitive, names and ids included; hiding all of
  // them would blank the plan. What is hidden is what the other stack holds as secret.
  const secrets = new Set<unknown>();
  const objects = new Map<string, RemoteObject>();
  for (const r of stack.remoteStates) {
    const state = await stateOf(r.stack);
    outputsOf.set(r.address, state?.outputs ?? {});
    remoteObjects(r.stack, state, objects);
    for (const entry of Object.values(state?.resources ?? {})) {
      for (const v of Object.values(entry.sensitive ?? {})) secrets.add(v);
      for (const a of entry.sensitiveAttributes ?? []) secrets.add(entry.values[a]);
    }
  }
  const resolve: SpanResolver = (inner) => {
    let ref: Reference;
    try {
      ref = parseReference(inner);
    } catch {
      return undefined;
    }
    const outputs = outputsOf.get(ref.address);
    if (!outputs || ref.path[0] !== "outputs" || typeof ref.path[1] !== "string") return undefined;
    const out = outputs[ref.path[1]];
    if (!out || out.value === null) return undefined;
    const v = valueAt(out.value, ref.path.slice(2));
    if (v === undefined) return undefined;
    if (secrets.has(out.value) || secrets.has(v)) addSecrets(secretForms(v));
    taken.push(v);
    return { value: v };
  };
  let taken: unknown[] = [];
  const problems: string[] = [];
  const subst = <T extends { values: Values; address: string; constructPath: string; provider: string }>(d: T): T => {
    taken = [];
    const values = substitute(d.values, resolve) as Values;
    const problem = foreignIdProblem(`[${d.constructPath}] ${d.address}`, taken, objects, unit.targets.get(d.provider)?.organization);
    if (problem) problems.push(problem);
    return { ...d, values };
  };
  const resources = stack.resources.map(subst);
  const dataSources = stack.dataSources.map(subst);
  if (problems.length > 0) throw new StackError(problems);
  return {
    ...stack,
    resources,
    dataSources,
    outputs: stack.outputs.map((o) => ({ ...o, value: substitute(o.value, resolve) })),
  };
}

/** Reads another stack's state (for its outputs); undefined when it has none yet. */
export type StateOf = (stack: string) => Promise<StateFile | undefined>;

export interface PlanOptions {
  destroy?: boolean;
  checkQueries?: boolean;
  /** Plan insights to run (a monitor's backtest); unset: none. */
  insights?: { days: number };
  /** Refresh list calls in flight at once. */
  parallelism?: number;
  /** Natural-key move detection (default on); see PlanContext.moveDetection. */
  moveDetection?: boolean;
  stateOf: StateOf;
}

/** Plans every provider configuration of a stack, in reference order. */
export async function planStack(unit: StackUnit, opts: PlanOptions): Promise<StackPlan> {
  const state = await unit.store.read();
  checkStateBelongs(unit, state);
  const stack = await withRemoteOutputs(unit, opts.stateOf);
  // Outputs span every provider configuration, so each part is planned without them:
  // an output carrying a secret is refused here, on the whole stack, as Terraform does.
  const unmarked = unmarkedSensitiveOutputs(stack, sensitiveMarks(stack));
  if (unmarked.length > 0) throw new PlanError(unmarked);
  const parts: PartPlan[] = [];
  const addresses = new Set([...stack.resources, ...stack.dataSources].map((d) => d.address));
  // Earlier parts' planned values: what later parts' references to them resolve to.
  const planned = new Map<string, Values>();
  const plannedData: Record<string, Values> = {};
  const lookup = (ref: Reference): unknown => {
    if (ref.address.startsWith("data.")) return valueAt(plannedData[ref.address], ref.path);
    const v = planned.get(ref.address);
    return v ? valueAt(v, ref.path) : undefined;
  };
  const problems: string[] = [];
  for (const [i, provider] of unit.providerOrder.entries()) {
    const target = unit.targets.get(provider)!;
    const part = partStack(stack, provider, i === 0, resolverFor(addresses, lookup));
    const view = stateView(state, provider, stack);
    let plan: Plan;
    try {
      const several = unit.providerOrder.length > 1 ? { part: { provider, stackDeclares: stack.resources.length } } : {};
      plan = await makePlan({ client: target.client, stack: part, state: view, ...several, orgId: target.orgId, license: target.license, destroy: opts.destroy, checkQueries: opts.checkQueries, parallelism: opts.parallelism, insights: opts.insights, moveDetection: opts.moveDetection });
    } catch (err) {
      if (err instanceof PlanError) {
        problems.push(...err.problems);
        continue;
      }
      throw err;
    }
    markSensitive(plan, part, view);
    for (const c of plan.changes) {
      if (!c.after) continue;
      // A created, replaced or rotated object gets its id at apply: references to it from
      // later configurations are known only then (the planned values say so already).
      const keepsId = c.id !== undefined && (c.action === "noop" || c.action === "update" || (c.action === "adopt" && !c.alsoRotate));
      planned.set(c.address, { ...c.after, ...(keepsId ? { id: c.id } : {}) });
    }
    Object.assign(plannedData, plan.dataValues);
    problems.push(...preventDestroyProblems(part.resources, plan, opts.destroy === true));
    parts.push({ provider, target, stack: part, view, plan });
  }
  if (problems.length > 0) throw new PlanError(problems);
  const last = parts[parts.length - 1];
  if (last) {
    const outputs = planOutputChanges(stack.outputs, state.outputs, afterApplyLookup(parts, plannedData), opts.destroy === true);
    if (outputs.length > 0) last.plan.outputChanges = outputs;
  }
  return { unit, state, parts };
}

/**
 * References as they will resolve once the plans are applied, for the outputs (which
 * applyStack evaluates on the state then): an unchanged object as its state entry holds
 * it, a changed one as planned, unknown where only apply knows (a new id, a new secret).
 */
function afterApplyLookup(parts: readonly PartPlan[], dataValues: Record<string, Values>): (ref: Reference) => unknown {
  const values = new Map<string, { values: Values; settled: boolean }>();
  for (const part of parts) {
    for (const c of part.plan.changes) {
      const entry = part.view.resources[c.address];
      if (c.action === "noop" && entry) {
        values.set(c.address, { values: { ...entry.values, ...entry.engineValues, ...(entry.sensitive ?? {}), id: entry.id }, settled: true });
      } else if (c.after) {
        const keepsId = c.id !== undefined && (c.action === "update" || (c.action === "adopt" && !c.alsoRotate));
        // A created, replaced or rotated object (an adoption that rotates too) gets its id at apply.
        values.set(c.address, { values: { ...c.after, id: keepsId ? c.id : UNKNOWN }, settled: false });
      }
    }
  }
  return (ref) => {
    if (ref.address.startsWith("data.")) return valueAt(dataValues[ref.address], ref.path) ?? UNKNOWN;
    const found = values.get(ref.address);
    if (!found) return UNKNOWN;
    const v = valueAt(found.values, ref.path);
    if (v === undefined) return found.settled ? null : UNKNOWN;
    return v;
  };
}

/**
 * Attributes that hold a sensitive variable's value now (the declaration) or held one
 * when last applied (the state) are shown as (sensitive), before and after alike.
 */
function markSensitive(plan: Plan, stack: LoadedStack, state: StateFile): void {
  const declared = new Map(stack.resources.map((d) => [d.address, d.sensitiveAttributes]));
  for (const c of plan.changes) {
    const names = new Set([...(declared.get(c.address) ?? []), ...(state.resources[c.address]?.sensitiveAttributes ?? [])]);
    if (names.size > 0) c.sensitiveAttributes = [...names];
  }
}

/** `lifecycle.prevent_destroy`, as Terraform applies it: a plan that would destroy such an object is an error. */
function preventDestroyProblems(declared: readonly ManagedDeclaration[], plan: Plan, destroy: boolean): string[] {
  const guarded = new Map(declared.filter((d) => d.preventDestroy).map((d) => [d.address, d]));
  const problems: string[] = [];
  for (const c of plan.changes) {
    const d = guarded.get(c.address);
    if (!d) continue;
    if (c.action === "replace" || (destroy && c.action === "delete")) {
      problems.push(
        `[${d.constructPath}] ${c.address} has lifecycle.prevent_destroy set, but the plan would ${c.action === "replace" ? `replace it (${c.reasons.join("; ")})` : "destroy it"}. Nothing was changed; to go ahead, remove prevent_destroy first`,
      );
    }
  }
  return problems;
}

export function stackHasChanges(p: StackPlan): boolean {
  return p.parts.some((part) => hasChanges(part.plan));
}

export interface ApplyStackOptions {
  parallelism: number;
  onEvent?: (event: ApplyEvent) => void;
  stateOf: StateOf;
  /** Aborted on SIGINT/SIGTERM: the calls in flight finish, the state is saved, no part after starts. */
  stop?: AbortSignal;
}

function emptySummary(): ApplySummary {
  return { created: 0, updated: 0, replaced: 0, rotated: 0, deleted: 0, adopted: 0, forgotten: 0, moved: 0, failed: 0, skipped: 0, notStarted: 0, warnings: [], errors: [] };
}

/** Every warning of a stack's plan (all its provider configurations). */
export function planWarnings(sp: StackPlan): string[] {
  return sp.parts.flatMap((p) => p.plan.warnings);
}

/**
 * The changes the plan foresaw the service refusing (a dashboard changed in the UI since
 * this configuration wrote it): applying the others would stop halfway, so none is.
 */
export function applyRefusal(sp: StackPlan): StackError | undefined {
  const refused = sp.parts.flatMap((p) => p.plan.changes.flatMap((c) => (c.refusal ? [c.refusal] : [])));
  if (refused.length === 0) return undefined;
  return new StackError([...refused, `nothing was applied to stack ${sp.unit.name}: the plan shows ${refused.length > 1 ? `${refused.length} changes` : "a change"} the service would refuse`]);
}

/** Applies a stack's plans part by part; a failed part stops the parts after it. */
export async function applyStack(sp: StackPlan, opts: ApplyStackOptions): Promise<ApplySummary> {
  const refusal = applyRefusal(sp);
  if (refusal) throw refusal;
  const total = emptySummary();
  const dataValues: Record<string, Values> = {};
  const stack = await withRemoteOutputs(sp.unit, opts.stateOf);
  const addresses = new Set([...stack.resources, ...stack.dataSources].map((d) => d.address));
  for (const [i, part] of sp.parts.entries()) {
    // References to parts applied before this one now resolve from the state.
    const applied = partStack(stack, part.provider, i === 0, resolverFor(addresses, stateLookup(sp.state, dataValues)));
    const summary = await applyPlan({
      client: part.target.client,
      stack: applied,
      state: part.view,
      // Each write puts this part back into the whole state, which the store writes.
      persist: async (view, changed) => {
        const full = changed
          ? mergeViewEntries(sp.state, view, changed, part.provider, part.stack, part.target.organization)
          : mergeView(sp.state, view, part.provider, part.stack, part.target.organization, stack);
        if (changed) await sp.unit.store.writeChanges(full, changed);
        else await sp.unit.store.write(full);
        view.lineage = full.lineage;
        view.serial = full.serial;
      },
      plan: part.plan,
      orgId: part.target.orgId,
      parallelism: opts.parallelism,
      onEvent: opts.onEvent,
      stop: opts.stop,
    });
    Object.assign(dataValues, part.plan.dataValues);
    for (const k of Object.keys(total) as (keyof ApplySummary)[]) {
      const a = total[k];
      const b = summary[k];
      if (Array.isArray(a) && Array.isArray(b)) a.push(...(b as string[]));
      else (total[k] as number) = (a as number) + (b as number);
    }
    if (summary.failed > 0 || opts.stop?.aborted) break;
  }
  // Outputs span every provider configuration: computed from the whole state.
  const outputs: StateFile["outputs"] = {};
  const lookup = stateLookup(sp.state, dataValues);
  for (const o of stack.outputs) {
    const v = evaluate(o.value, lookup);
    outputs[o.name] = { value: containsUnknown(v) ? null : v, sensitive: o.sensitive };
  }
  sp.state.outputs = outputs;
  for (const part of sp.parts) if (part.target.organization) setStateOrganization(sp.state, part.provider, part.target.organization);
  await sp.unit.store.write(sp.state);
  return total;
}

/**
 * Outputs of other stacks that a stack still lacks (their stack not applied yet):
 * applying it would send unknown values, so it is refused, naming what to apply first.
 */
export function missingRemoteOutputs(sp: StackPlan): string | undefined {
  const missing = new Set<string>();
  for (const part of sp.parts) {
    for (const d of part.stack.resources) {
      for (const ref of referencesIn(d.values)) {
        const remote = sp.unit.loaded.remoteStates.find((r) => r.address === ref.address);
        if (remote) missing.add(`${remote.stack} (output ${String(ref.path[1])})`);
      }
    }
  }
  if (missing.size === 0) return undefined;
  return `stack ${sp.unit.name} reads outputs of ${[...missing].join(", ")} that are not in their state yet: apply ${[...new Set([...missing].map((m) => m.split(" ")[0]))].join(", ")} first, or together with this stack (--stack ... --stack ${sp.unit.name})`;
}

/** Whether a stack declares nothing while its state manages objects (apply needs --allow-empty). */
export function emptyStackProblem(unit: StackUnit, state: StateFile): string | undefined {
  const managed = Object.keys(state.resources).length;
  if (unit.loaded.resources.length > 0 || managed === 0) return undefined;
  return `stack ${unit.name} declares no ods resources, but its state manages ${managed}; applying would delete all of them. If that is what you want, pass --allow-empty (or run "ods destroy"); otherwise check that the stack synthesized what you expect`;
}
