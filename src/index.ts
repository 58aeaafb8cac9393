// Public entry of the package: the generated CDKTF constructs as namespaces, in the style
// of the prebuilt @cdktf/provider-* packages:
//   import { provider, notifier, dataset } from "cdktf-provider-ods";
//   new notifier.Notifier(stack, "oncall", { ... });
export * from "./gen";
export * from "./dashboard-builder";
export * as slo from "./slo";
