// Entry of the `terraform-provider-ods` binary. The resource model loads only after the
// handshake line is out: Terraform starts the provider several times per command.
// `terraform-provider-ods serve` runs it as one process terraform commands attach to
// (serve-reattach.ts).
import "./cpu-profile";
import { serveProvider } from "./provider-server";
import type { OdsProviderOptions, SharedTargets } from "./ods-provider";
import type { ProviderImpl } from "./provider-impl";

async function odsProvider(options: OdsProviderOptions = {}): Promise<ProviderImpl> {
  const { OdsTerraformProvider } = await import("./ods-provider");
  return new OdsTerraformProvider(options);
}

export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  if (argv[0] === "serve") {
    // Loaded only here: a provider Terraform starts needs none of it before its handshake.
    const { serveReattachable } = await import("./serve-reattach");
    // One budget (and one memo of passed checks) per organization across every instance this process serves.
    const sharedTargets: SharedTargets = new Map();
    const checkJournalDir = (await import("./passed-checks")).checkJournalDir();
    const code = await serveReattachable(() => odsProvider({ sharedTargets, checkJournalDir }), argv.slice(1));
    process.exit(code);
  }
  // Each walk of a command is a process of its own: passed checks go to a journal file.
  return serveProvider(async () => odsProvider({ checkJournalDir: (await import("./passed-checks")).checkJournalDir() }));
}
