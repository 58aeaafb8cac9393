// Moved to src/reconcile/stack-selection.ts (an engine decision, shared by the CLI and the automation API).
export * from "../reconcile/stack-selection";
