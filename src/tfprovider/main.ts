// Entry of the `terraform-provider-ods` binary. The resource model loads only after the
// handshake line is out: Terraform starts the provider several times per command.
// `terraform-provider-ods serve` runs it as one process terraform commands attach to
// (serve-reattach.ts).
import "./cpu-profile";
import { serveProvider } from "./provider-server";
import type { ProviderImpl } from "./provider-impl";
import { serveReattachable } from "./serve-reattach";

async function odsProvider(): Promise<ProviderImpl> {
  const { OdsTerraformProvider } = await import("./ods-provider");
  return new OdsTerraformProvider();
}

export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  if (argv[0] === "serve") {
    const code = await serveReattachable(odsProvider, argv.slice(1));
    process.exit(code);
  }
  return serveProvider(odsProvider);
}
