// The bench's second reference for the Terraform path: terraform-provider-ods's own
// schema, plugin server, transport and value codec, with handlers that do no work of
// their own (a refresh answers the state it was given, a plan the proposed state). What
// Terraform spends on a plugin provider, and what a Node process with our transport and
// codec costs, are in its figures; our resource logic and the service's answers are not.
// So `terraform plan` through it, set against the terraform_data floor, is the lowest a
// provider built this way can go on this machine, and ours set against it is what our
// own handlers add.
//
// It is bundled with esbuild like the real provider (nullProviderLauncher in
// terraform.ts), so this file imports nothing that would load at its start.
import type { ProviderImpl } from "../lib/tfprovider/provider-impl";
import type { ProviderSchemaJson } from "../lib/tfprovider/schema-json";

/** Handlers that answer from what Terraform sent: plans, refreshes and applies that touch nothing. */
export function nullProvider(schema: ProviderSchemaJson): ProviderImpl {
  return {
    schema: () => schema,
    configure: () => [],
    validateResourceConfig: () => [],
    validateDataSourceConfig: () => [],
    upgradeResourceState: (request) => ({ upgradedState: { ...(request.rawState as Record<string, never>) } }),
    readResource: (request) => ({ newState: request.currentState }),
    planResourceChange: (request) => ({ plannedState: request.proposedNewState }),
    // What was planned is what is stored: its plans hold no unknown values (a create's
    // computed attributes stay null as Terraform proposed them).
    applyResourceChange: (request) => ({ newState: request.plannedState }),
  };
}
