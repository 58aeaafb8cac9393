// The live index moved to the lifecycle, which both engines share; kept here so that
// callers of the reconcile layer (the CLI) keep their import.
import type { LiveIndex as Lists } from "../lifecycle/live-index";

export { LiveIndex } from "../lifecycle/live-index";

// The lists a plan was made from, for the apply that follows it in the same process:
// that apply then lists nothing the plan listed. Kept beside the plan, never in it, so a
// saved plan's file is unchanged (its apply lists again where it needs to).
const planLists = new WeakMap<object, Lists>();

export function rememberPlanLists(plan: object, live: Lists): void {
  planLists.set(plan, live);
}

export function listsOfPlan(plan: object): Lists | undefined {
  return planLists.get(plan);
}
