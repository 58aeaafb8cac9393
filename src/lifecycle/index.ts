// The resource lifecycle both engines call (`ods plan/apply` in src/reconcile, the
// Terraform provider in src/tfprovider): decide, plan values, perform. No kind is named
// here; kind rules come from the hooks of src/resources/kind.ts.
export * from "./unknown";
export * from "./secrets";
export * from "./prior";
export * from "./values";
export * from "./state-attributes";
export * from "./plan-modifiers";
export * from "./decide";
export * from "./guard";
export * from "./plan-check";
export * from "./upgrade";
export * from "./operations";
export * from "./rotation";
export { LiveIndex } from "./live-index";
export * from "./plan-insight";
export * from "./stray-datasets";
export * from "./license";
export * from "./ephemeral";
