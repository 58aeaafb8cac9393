// Entry of the `terraform-provider-ods` binary: a process Terraform starts, serving that
// one start and ending with it. The resource model loads only after the handshake line is
// out: Terraform starts the provider several times per command.
import "./cpu-profile";
import type { ProviderImpl } from "./provider-impl";

/** The provider writes the checks that passed to the journal (passed-checks.ts) for the processes after it. */
async function odsProvider(): Promise<ProviderImpl> {
  const [{ OdsTerraformProvider }, { checkJournalDir }] = await Promise.all([import("./ods-provider"), import("./passed-checks")]);
  return new OdsTerraformProvider({ checkJournalDir: checkJournalDir() });
}

export async function main(): Promise<void> {
  const [{ serveProvider }, { keepAllowedEnvironment }] = await Promise.all([import("./provider-server"), import("../api/allowed-env")]);
  // What a provider does not need, it does not hold: nothing it starts or reads sees the rest.
  keepAllowedEnvironment(process.env);
  return serveProvider(() => odsProvider());
}
