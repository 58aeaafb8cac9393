// Public surface of the Terraform plugin layer. The provider binary needs only
// serveProvider and a ProviderImpl; the rest is for implementations and tooling.
export { serveProvider, startProviderServer } from "./provider-server";
export type { ProviderServerOptions, RunningProviderServer, ServeOptions } from "./provider-server";
export type * from "./provider-impl";
export type { ProviderImplSource } from "./provider-service";
export { type AttributePath, type Diagnostic, errorDiagnostic, formatPath, hasErrors, type PathStep } from "./diagnostics";
export { findUnknown, isUnknown, type TfObject, type TfValue, UNKNOWN, Unknown, type UnknownRefinements } from "./values";
export type * from "./schema-json";
export { DEFAULT_PROVIDER_SOURCE, installProviderMirror, type InstalledMirror, type InstallMirrorOptions, terraformPlatform } from "./install";
