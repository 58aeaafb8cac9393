// Moved to src/reconcile/synth.ts (an engine decision, shared by the CLI and the automation API).
export * from "../reconcile/synth";
