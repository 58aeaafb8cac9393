// `ods terraform install`: makes `terraform init` and `terraform providers lock` (which
// cdktf deploy runs on every fresh cdktf.out) find terraform-provider-ods offline. It
// writes the portable provider package into a filesystem mirror plus a CLI config, and
// prints the two variables to export, in a form `eval "$(npx ods terraform install)"` takes.
//
// Terraform starts the provider itself, several times per command, and each process ends
// with its start: nothing of ours outlives the terraform command.
import type { Command } from "commander";
import * as fs from "node:fs";
import * as path from "node:path";
import { DEFAULT_PROVIDER_SOURCE, installProviderPackage, PACKAGE_PLATFORMS } from "../tfprovider/install";
import { writeLockFile } from "../tfprovider/lock-file";

const PACKAGE_ROOT = path.resolve(__dirname, "../..");
// Built by scripts/bundle-provider.js: the whole provider program in one file (the
// protocol's descriptor is compiled in, so no .proto file goes beside it).
const BUNDLE = path.join(PACKAGE_ROOT, "lib/bundle/terraform-provider-ods.js");

export function providerVersion(): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, "package.json"), "utf8")) as { version: string };
  return pkg.version;
}

/** Quotes for sh only when needed, so the common case stays copy-pasteable. */
function shellWord(s: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The environment that points Terraform at the installed mirror (name -> value). */
export function terraformEnvironment(cliConfigPath: string, mirrorDir: string): Record<string, string> {
  return {
    TF_CLI_CONFIG_FILE: cliConfigPath,
    // Terraform adds TF_CLI_ARGS_<command> to that command's arguments: `providers lock`
    // ignores the CLI config's mirrors and would ask the public registry otherwise.
    TF_CLI_ARGS_providers_lock: `-fs-mirror=${shellWord(mirrorDir)}`,
  };
}

export function registerTerraformCommand(program: Command): void {
  const tf = program.command("terraform").description("Use the Terraform path (cdktf deploy, terraform apply) with terraform-provider-ods.");
  tf.command("install")
    .description("Install terraform-provider-ods into a local filesystem mirror, write a Terraform CLI config for it, and print the variables to export.")
    .option("--dir <dir>", "where to put the mirror, the release files and the CLI config", ".ods/terraform")
    .option("--lock-file <file>", "the .terraform.lock.hcl to write the provider's checksums into, for every platform shipped: commit it", ".terraform.lock.hcl")
    .action((o: { dir: string; lockFile: string }) => {
      const version = providerVersion();
      const installed = installProviderPackage({ dir: o.dir, version, bundlePath: BUNDLE });
      const env = terraformEnvironment(installed.cliConfigPath, installed.mirrorDir);
      // The h1: of the unpacked files (one package for every platform) and each platform's zh:.
      // Beside the configuration, where Terraform looks for it and the team commits it; never
      // under DIR, which holds this machine's mirror and is ignored by git.
      const lockFile = o.lockFile;
      writeLockFile(lockFile, { source: DEFAULT_PROVIDER_SOURCE, version, constraints: version, hashes: [installed.h1Hash, ...Object.values(installed.zipHashes)] });
      process.stderr.write(
        `Installed terraform-provider-ods ${version} into ${installed.mirrorDir}\n` +
          `(release files with SHA256SUMS in ${installed.releaseDir}).\n` +
          `Wrote its checksums for ${PACKAGE_PLATFORMS.join(", ")} into ${lockFile}: commit it ` +
          `(run this beside your Terraform configuration, or pass --lock-file PATH) and \`terraform init -lockfile=readonly\` accepts it on each of them.\n` +
          `Export these (or run: eval "$(npx ods terraform install)"), then run cdktf deploy or terraform init:\n`,
      );
      for (const [name, value] of Object.entries(env)) process.stdout.write(`export ${name}=${shellWord(value)}\n`);
    });
}
