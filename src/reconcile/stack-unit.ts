// One stack, loaded, with its targets and its share of the state per provider
// configuration. A stack may hold several provider configurations (`provider =
// "ods.staging"`): each is planned and applied with its own client, in the order their
// references require, against its own view of the stack's one state (kept through the
// stack's backend). Before anything is read or written, the state's recorded
// organizations are checked against the targets: state made for another organization is
// refused with zero writes. Planning is in stack-plan.ts, applying in stack-apply.ts.
import type { Values } from "../resources";
import { UNKNOWN, containsUnknown, parseReference, substitute, valueAt, type Reference, type SpanResolver } from "./expressions";
import { odsCommand } from "./plan";
import { foreignIdProblem, remoteObjects, type RemoteObject } from "./cross-stack";
import { providerAddress, providerKey } from "./provider-address";
import { secretForms } from "./redact";
import { StackError, dependencyOrder, loadStack, type LoadedStack, type ManagedDeclaration, type ProviderConfiguration } from "./stack";
import { setStateOrganization, stateOrganization, type ResourceState, type StateFile, type StateOrganization, type StateStore } from "./state";
import type { VariableInputs } from "./variables";
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
  /** Hides these strings in everything the caller shows (sensitive values the stack reads). */
  hide: (values: readonly string[]) => void;
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
  /** Told every sensitive value the stack carries, so that the caller hides it wherever it shows up. */
  hide: (values: readonly string[]) => void;
}

export async function openStack(selected: SelectedStack, opts: StackLoadOptions): Promise<StackUnit> {
  const loaded = loadStack(selected.file, { variables: opts.variables });
  opts.hide(loaded.sensitiveValues.flatMap(secretForms));
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
    hide: opts.hide,
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
export function stateView(full: StateFile, provider: string, stack: LoadedStack): StateFile {
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
export function partStack(stack: LoadedStack, provider: string, first: boolean, resolveOthers: (own: ReadonlySet<string>) => SpanResolver): LoadedStack {
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
export function resolverFor(addresses: ReadonlySet<string>, lookup: (ref: Reference) => unknown): (own: ReadonlySet<string>) => SpanResolver {
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
export function stateLookup(state: StateFile, dataValues: Record<string, Values>): (ref: Reference) => unknown {
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
    if (secrets.has(out.value) || secrets.has(v)) unit.hide(secretForms(v));
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

export function emptyStackProblem(unit: StackUnit, state: StateFile): string | undefined {
  const managed = Object.keys(state.resources).length;
  if (unit.loaded.resources.length > 0 || managed === 0) return undefined;
  return `stack ${unit.name} declares no ods resources, but its state manages ${managed}; applying would delete all of them. If that is what you want, pass --allow-empty (or run "ods destroy"); otherwise check that the stack synthesized what you expect`;
}
