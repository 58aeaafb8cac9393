// Entry of the `terraform-provider-ods` binary: a process Terraform starts, serving that
// one start and ending with it. The resource model loads only after the handshake line is
// out, and only for a call that needs it: Terraform starts the provider several times per
// command, and the first start of each is asked for the schema alone, which the build
// embedded in the bundle.
import "./cpu-profile";
import type { ProviderImpl } from "./provider-impl";

/** GetProviderSchema's answer (base64), embedded by scripts/bundle-provider.js; absent when lib/ runs unbundled. */
declare const __ODS_SCHEMA_ANSWER__: string | undefined;

/** The provider writes the checks that passed to the journal (passed-checks.ts) for the processes after it. */
async function odsProvider(): Promise<ProviderImpl> {
  const [{ OdsTerraformProvider }, { checkJournalDir }] = await Promise.all([import("./ods-provider"), import("./passed-checks")]);
  return new OdsTerraformProvider({ checkJournalDir: checkJournalDir() });
}

/**
 * The embedded schema answer, unless this start writes the code cache (the first start
 * after an install): that start loads the model as every start did, so that the cache
 * holds the model's compiled code for the starts that need it.
 */
async function builtSchemaAnswer(): Promise<Buffer | undefined> {
  if (typeof __ODS_SCHEMA_ANSWER__ !== "string") return undefined;
  const { codeCacheWrittenAtExit } = await import("./code-cache");
  return codeCacheWrittenAtExit() ? undefined : Buffer.from(__ODS_SCHEMA_ANSWER__, "base64");
}

export async function main(): Promise<void> {
  const [{ serveProvider }, { keepAllowedEnvironment }, schemaAnswer] = await Promise.all([import("./provider-server"), import("../api/allowed-env"), builtSchemaAnswer()]);
  // What a provider does not need, it does not hold: nothing it starts or reads sees the rest.
  keepAllowedEnvironment(process.env);
  return serveProvider(() => odsProvider(), { schemaAnswer });
}
