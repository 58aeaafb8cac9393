// `ods terraform install`: makes `terraform init` and `terraform providers lock` (which
// cdktf deploy runs on every fresh cdktf.out) find terraform-provider-ods offline. It
// writes the portable provider package into a filesystem mirror plus a CLI config, and
// prints the two variables to export, in a form `eval "$(npx ods terraform install)"` takes.
import { Command } from "commander";
import * as fs from "node:fs";
import * as path from "node:path";
import { installProviderPackage } from "../tfprovider/install";

const PACKAGE_ROOT = path.resolve(__dirname, "../..");
// Built by scripts/bundle-provider.js: the provider program and the .proto files it reads.
const BUNDLE_DIR = path.join(PACKAGE_ROOT, "lib/bundle");
const BUNDLE = path.join(BUNDLE_DIR, "terraform-provider-ods.js");
const PROTO_DIR = path.join(BUNDLE_DIR, "proto");

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
    .action((o: { dir: string }) => {
      const protoFiles = Object.fromEntries(
        fs.readdirSync(PROTO_DIR).filter((f) => f.endsWith(".proto")).map((f) => [`proto/${f}`, path.join(PROTO_DIR, f)]),
      );
      const installed = installProviderPackage({ dir: o.dir, version: providerVersion(), bundlePath: BUNDLE, extraFiles: protoFiles });
      const env = terraformEnvironment(installed.cliConfigPath, installed.mirrorDir);
      process.stderr.write(
        `Installed terraform-provider-ods ${providerVersion()} into ${installed.mirrorDir}\n` +
          `(release files with SHA256SUMS in ${installed.releaseDir}).\n` +
          `Export these (or run: eval "$(npx ods terraform install)"), then run cdktf deploy or terraform init:\n`,
      );
      for (const [name, value] of Object.entries(env)) process.stdout.write(`export ${name}=${shellWord(value)}\n`);
    });
}
