// The apply of one stack's plan: part by part (provider configuration by configuration),
// each write merged back into the stack's whole state, outputs computed from the whole
// state at the end. A refusal the plan foresaw stops it before the first call.
import type { Values } from "../resources";
import { applyPlan, type ApplyEvent, type ApplySummary } from "./apply";
import { containsUnknown, evaluate } from "./expressions";
import { setStateOrganization, type StateFile } from "./state";
import { applyRefusal, type StackPlan } from "./stack-plan";
import { mergeView, mergeViewEntries, partStack, resolverFor, stateLookup, withRemoteOutputs, type StateOf } from "./stack-unit";

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

