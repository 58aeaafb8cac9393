// Moved to src/reconcile/target.ts (an engine decision, shared by the CLI and the automation API).
export * from "../reconcile/target";
