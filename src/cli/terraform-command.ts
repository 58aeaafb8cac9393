// `ods terraform install`: makes `terraform init` and `terraform providers lock` (which
// cdktf deploy runs on every fresh cdktf.out) find terraform-provider-ods offline. It
// writes the portable provider package into a filesystem mirror plus a CLI config, and
// prints the two variables to export, in a form `eval "$(npx ods terraform install)"` takes.
//
// `ods terraform serve`: runs the same bundle as one long-lived provider process that
// terraform commands attach to (src/tfprovider/serve-reattach.ts); `--detach` leaves it
// running in the background and prints the variables, for `eval "$(...)"` in a CI job.
import { Command, InvalidArgumentError } from "commander";
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { installProviderPackage } from "../tfprovider/install";

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
    .action((o: { dir: string }) => {
      const installed = installProviderPackage({ dir: o.dir, version: providerVersion(), bundlePath: BUNDLE });
      const env = terraformEnvironment(installed.cliConfigPath, installed.mirrorDir);
      process.stderr.write(
        `Installed terraform-provider-ods ${providerVersion()} into ${installed.mirrorDir}\n` +
          `(release files with SHA256SUMS in ${installed.releaseDir}).\n` +
          `Export these (or run: eval "$(npx ods terraform install)"), then run cdktf deploy or terraform init:\n`,
      );
      for (const [name, value] of Object.entries(env)) process.stdout.write(`export ${name}=${shellWord(value)}\n`);
    });

  tf.command("serve")
    .description(
      "Run terraform-provider-ods as one long-lived process and print TF_REATTACH_PROVIDERS: terraform commands with it set attach to this process " +
        "instead of starting the provider three times each (faster plans for large stacks). The provider reads ODS_URL, ODS_TOKEN and the rest of " +
        "its environment once, when it starts.",
    )
    .option("--detach", "leave the provider running in the background, print the variables to export, and return")
    .option("--idle-exit <seconds>", "exit after this many seconds without a terraform command attached (0: never)", wholeSeconds, 900)
    .option("--socket-dir <dir>", "parent directory of the provider's private socket directory (default: the OS temp dir)")
    .option("--log-file <file>", "with --detach: append the provider's log here (default: discarded)")
    .action(async (o: { detach?: boolean; idleExit: number; socketDir?: string; logFile?: string }) => {
      const args = [BUNDLE, "serve", "--idle-exit", String(o.idleExit), ...(o.socketDir ? ["--socket-dir", o.socketDir] : [])];
      process.exitCode = o.detach ? await serveDetached(args, o.logFile) : await serveInForeground(args);
    });
}

function wholeSeconds(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError("expected a whole number of seconds (0: never)");
  return Number(value);
}

/** Runs the provider with this terminal's output; Ctrl-C and SIGTERM stop it. */
function serveInForeground(args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ["ignore", "inherit", "inherit"] });
    const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
    process.on("SIGINT", forward("SIGINT"));
    process.on("SIGTERM", forward("SIGTERM"));
    child.on("error", reject);
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

// The provider is listening once it has printed both lines; a start slower than this is broken.
const DETACH_READY_TIMEOUT_MS = 30_000;

/** Starts the provider in its own session, relays its export lines, and leaves it running. */
function serveDetached(args: string[], logFile: string | undefined): Promise<number> {
  const log = logFile ? fs.openSync(logFile, "a") : "ignore";
  const child = spawn(process.execPath, args, { detached: true, stdio: ["ignore", "pipe", log] });
  if (typeof log === "number") fs.closeSync(log);
  return new Promise((resolve) => {
    let text = "";
    const fail = (why: string): void => {
      clearTimeout(timer);
      child.kill("SIGTERM");
      process.stderr.write(`ods terraform serve: the provider did not start: ${why}${logFile ? ` (see ${logFile})` : ""}\n`);
      resolve(1);
    };
    const timer = setTimeout(() => fail(`no address after ${DETACH_READY_TIMEOUT_MS / 1000} s`), DETACH_READY_TIMEOUT_MS);
    child.on("error", (err) => fail(err.message));
    child.on("exit", (code) => fail(`it exited with code ${code}`));
    child.stdout!.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      if (!/^export ODS_PROVIDER_SERVER_PID=\d+$/m.test(text)) return;
      clearTimeout(timer);
      child.removeAllListeners("exit");
      child.stdout!.destroy();
      child.unref();
      process.stdout.write(text);
      process.stderr.write(
        `terraform-provider-ods is serving in the background (pid ${child.pid}). Export the variables above ` +
          `(or run: eval "$(npx ods terraform serve --detach)"); stop it with: kill $ODS_PROVIDER_SERVER_PID\n`,
      );
      resolve(0);
    });
  });
}
