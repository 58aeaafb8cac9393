// The live index moved to the lifecycle, which both engines share; kept here so that
// callers of the reconcile layer (the CLI) keep their import.
export { LiveIndex } from "../lifecycle/live-index";
