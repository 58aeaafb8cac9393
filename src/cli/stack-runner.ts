// Moved to src/reconcile (stack-unit.ts, stack-plan.ts, stack-apply.ts): running a stack
// is the engine's, shared by the CLI, `ods watch` and the automation API.
export * from "../reconcile/stack-unit";
export * from "../reconcile/stack-plan";
export * from "../reconcile/stack-apply";
