// The plan of one stack: each provider configuration planned in reference order against
// its view of the state, references to earlier configurations' objects resolved from
// their planned values, outputs planned over the whole stack, and Terraform's rails
// (prevent_destroy, sensitive outputs) checked before anything is shown.
import type { Values } from "../resources";
import { UNKNOWN, referencesIn, valueAt, type Reference } from "./expressions";
import { planOutputChanges } from "./outputs";
import { PlanError, hasChanges, makePlan, type Plan } from "./plan";
import { sensitiveMarks, unmarkedSensitiveOutputs } from "./sensitivity";
import { StackError, type LoadedStack, type ManagedDeclaration } from "./stack";
import type { StateFile } from "./state";
import type { Target } from "./target";
import { checkStateBelongs, partStack, resolverFor, stateView, withRemoteOutputs, type StackUnit, type StateOf } from "./stack-unit";

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
