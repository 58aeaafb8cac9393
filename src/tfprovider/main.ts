// Entry of the `terraform-provider-ods` binary. The resource model loads only after the
// handshake line is out: Terraform starts the provider several times per command.
// `terraform-provider-ods serve` runs it as one process terraform commands attach to
// (serve-reattach.ts). A start by Terraform first tries to hand itself to the provider
// daemon (daemon-launcher.ts, provider-daemon.ts), whose code is already warm.
import "./cpu-profile";
import type { OdsProviderOptions, SharedTargets } from "./ods-provider";
import type { ProviderImpl } from "./provider-impl";

/** Started or served, a provider writes the checks that passed to the journal (passed-checks.ts) for the processes after it. */
async function odsProvider(options: Pick<OdsProviderOptions, "sharedTargets"> = {}): Promise<ProviderImpl> {
  const [{ OdsTerraformProvider }, { checkJournalDir }] = await Promise.all([import("./ods-provider"), import("./passed-checks")]);
  return new OdsTerraformProvider({ ...options, checkJournalDir: checkJournalDir() });
}

export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  if (argv[0] === "serve") {
    // Loaded only here: a provider Terraform starts needs none of it before its handshake.
    const { serveReattachable } = await import("./serve-reattach");
    // One budget (and one memo of passed checks) per organization across every instance this process serves.
    const sharedTargets: SharedTargets = new Map();
    const code = await serveReattachable(() => odsProvider({ sharedTargets }), argv.slice(1));
    process.exit(code);
  }
  if (argv[0] === "daemon") {
    const { runProviderDaemon } = await import("./provider-daemon");
    // As a served provider: one budget and one memo per organization across its sessions.
    const sharedTargets: SharedTargets = new Map();
    process.exit(await runProviderDaemon(() => odsProvider({ sharedTargets }), argv.slice(1), process.argv[1] ?? ""));
  }
  // The launcher loads nothing of the plugin server (TLS, HTTP/2, the codec) unless it
  // has to serve the start itself: with a daemon, that is all of its job.
  const bundlePath = process.argv[1];
  if (bundlePath) {
    const { launchThroughDaemon } = await import("./daemon-launcher");
    if (await launchThroughDaemon(process.env, bundlePath)) return;
  }
  const { serveProvider } = await import("./provider-server");
  return serveProvider(() => odsProvider());
}
