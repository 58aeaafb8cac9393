// `ods terraform install`: makes `terraform init` find terraform-provider-ods offline, via
// a filesystem mirror and a CLI config file; prints the one variable to export.
import { Command } from "commander";
import * as fs from "node:fs";
import * as path from "node:path";
import { installProviderMirror } from "../tfprovider/install";

const PACKAGE_ROOT = path.resolve(__dirname, "../..");

export function providerVersion(): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, "package.json"), "utf8")) as { version: string };
  return pkg.version;
}

export function registerTerraformCommand(program: Command): void {
  const tf = program.command("terraform").description("Use the Terraform path (cdktf deploy, terraform apply) with terraform-provider-ods.");
  tf.command("install")
    .description("Install terraform-provider-ods into a local filesystem mirror and write a Terraform CLI config for it.")
    .option("--dir <dir>", "where to put the mirror and the CLI config", ".ods/terraform")
    .action((o: { dir: string }) => {
      const installed = installProviderMirror({
        dir: o.dir,
        version: providerVersion(),
        launcherPath: path.join(PACKAGE_ROOT, "bin/terraform-provider-ods.js"),
      });
      process.stdout.write(
        `Installed terraform-provider-ods ${providerVersion()} into ${installed.mirrorDir}\n` +
          `Export this, then run terraform init (or cdktf deploy):\n` +
          `export TF_CLI_CONFIG_FILE=${installed.cliConfigPath}\n`,
      );
    });
}
