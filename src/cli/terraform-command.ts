// `ods terraform install`: makes `terraform init` and `terraform providers lock` (which
// cdktf deploy runs on every fresh cdktf.out) find terraform-provider-ods offline. It
// writes the portable provider package into a filesystem mirror plus a CLI config, and
// prints the two variables to export, in a form `eval "$(npx ods terraform install)"` takes.
//
// `ods terraform serve`: runs the same bundle as one long-lived provider process that
// terraform commands attach to (src/tfprovider/serve-reattach.ts); `--detach` leaves it
// running in the background and prints the variables, for `eval "$(...)"` in a CI job;
// `ods terraform serve -- COMMAND` serves it for that one command and stops it after.
import { Command, InvalidArgumentError } from "commander";
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
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

export function registerTerraformCommand(program: Command, setExitCode: (code: number) => void): void {
  const tf = program.command("terraform").description("Use the Terraform path (cdktf deploy, terraform apply) with terraform-provider-ods.");
  tf.command("install")
    .description("Install terraform-provider-ods into a local filesystem mirror, write a Terraform CLI config for it, and print the variables to export.")
    .option("--dir <dir>", "where to put the mirror, the release files and the CLI config", ".ods/terraform")
    .option("--lock-file <file>", "the .terraform.lock.hcl to write the provider's checksums into, for every platform shipped (default: DIR/.terraform.lock.hcl)")
    .action((o: { dir: string; lockFile?: string }) => {
      const version = providerVersion();
      const installed = installProviderPackage({ dir: o.dir, version, bundlePath: BUNDLE });
      const env = terraformEnvironment(installed.cliConfigPath, installed.mirrorDir);
      // The h1: of the unpacked files (one package for every platform) and each platform's zh:.
      const lockFile = o.lockFile ?? path.join(o.dir, ".terraform.lock.hcl");
      writeLockFile(lockFile, { source: DEFAULT_PROVIDER_SOURCE, version, constraints: version, hashes: [installed.h1Hash, ...Object.values(installed.zipHashes)] });
      process.stderr.write(
        `Installed terraform-provider-ods ${version} into ${installed.mirrorDir}\n` +
          `(release files with SHA256SUMS in ${installed.releaseDir}).\n` +
          `Wrote its checksums for ${PACKAGE_PLATFORMS.join(", ")} into ${lockFile}: commit it beside your Terraform configuration ` +
          `(or pass --lock-file PATH) and \`terraform init -lockfile=readonly\` accepts it on each of them.\n` +
          `Export these (or run: eval "$(npx ods terraform install)"), then run cdktf deploy or terraform init:\n`,
      );
      for (const [name, value] of Object.entries(env)) process.stdout.write(`export ${name}=${shellWord(value)}\n`);
    });

  tf.command("serve")
    .description(
      "Run terraform-provider-ods as one long-lived process and print TF_REATTACH_PROVIDERS: terraform commands with it set attach to this process " +
        "instead of starting the provider three times each (faster plans for large stacks). The provider reads ODS_URL, ODS_TOKEN and the rest of " +
        "its environment once, when it starts. With a command after --, serve the provider for that command only: run it with " +
        "TF_REATTACH_PROVIDERS set, stop the provider when it ends, and exit with its code.",
    )
    .argument("[command...]", "a command to run with the provider served for it (after --), e.g. -- cdktf deploy")
    .option("--detach", "leave the provider running in the background, print the variables to export, and return")
    .option("--idle-exit <seconds>", "exit after this many seconds without a terraform command attached (0: never; default: 900, or 0 with a command)", wholeSeconds)
    .option("--socket-dir <dir>", "parent directory of the provider's private socket directory (default: the OS temp dir)")
    .option("--log-file <file>", "with --detach or a command: append the provider's log here (default: discarded)")
    .action(async (command: string[], o: { detach?: boolean; idleExit?: number; socketDir?: string; logFile?: string }) => {
      if (command.length > 0 && o.detach) {
        process.stderr.write("ods terraform serve: --detach and a command exclude each other: with a command, the provider lives as long as the command\n");
        setExitCode(2);
        return;
      }
      // With a command, the provider lives as long as the command: no idle clock (an apply
      // waiting at its approval prompt is not idle), and it follows `ods` if `ods` is killed.
      const idleExit = o.idleExit ?? (command.length > 0 ? 0 : 900);
      const args = [BUNDLE, "serve", "--idle-exit", String(idleExit), ...(o.socketDir ? ["--socket-dir", o.socketDir] : [])];
      if (command.length > 0) setExitCode(await serveForCommand(args, command, o.logFile));
      else setExitCode(o.detach ? await serveDetached(args, o.logFile) : await serveInForeground(args));
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
const READY_TIMEOUT_MS = 30_000;
// After the command, the provider gets this long to close before it is killed.
const STOP_TIMEOUT_MS = 10_000;

interface ServedProvider {
  readonly child: ChildProcess;
  /** The export lines it printed (TF_REATTACH_PROVIDERS, ODS_PROVIDER_SERVER_PID). */
  readonly exports: string;
}

/**
 * Starts the provider in a process group of its own (a Ctrl-C meant for terraform must
 * not stop it mid-apply), its log to `logFile` or discarded, and resolves once it printed
 * its export lines; a string is why it did not start. `followUs`: it stops when we are
 * gone, its stdin being its lifeline, a pipe we hold and never write to, which the kernel
 * closes however we end (--exit-with-parent).
 */
function startServed(args: string[], logFile: string | undefined, followUs = false): Promise<ServedProvider | string> {
  const log = logFile ? fs.openSync(logFile, "a") : "ignore";
  const child = spawn(process.execPath, followUs ? [...args, "--exit-with-parent"] : args, { detached: true, stdio: [followUs ? "pipe" : "ignore", "pipe", log] });
  if (typeof log === "number") fs.closeSync(log);
  return new Promise((resolve) => {
    let text = "";
    const fail = (why: string): void => {
      clearTimeout(timer);
      child.kill("SIGTERM");
      resolve(`the provider did not start: ${why}${logFile ? ` (see ${logFile})` : ""}`);
    };
    const timer = setTimeout(() => fail(`no address after ${READY_TIMEOUT_MS / 1000} s`), READY_TIMEOUT_MS);
    child.on("error", (err) => fail(err.message));
    child.on("exit", (code) => fail(`it exited with code ${code}`));
    child.stdout!.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      if (!/^export ODS_PROVIDER_SERVER_PID=\d+$/m.test(text)) return;
      clearTimeout(timer);
      child.removeAllListeners("exit");
      child.stdout!.destroy();
      resolve({ child, exports: text });
    });
  });
}

/** Leaves the provider running in the background and relays its export lines. */
async function serveDetached(args: string[], logFile: string | undefined): Promise<number> {
  const served = await startServed(args, logFile);
  if (typeof served === "string") {
    process.stderr.write(`ods terraform serve: ${served}\n`);
    return 1;
  }
  served.child.unref();
  process.stdout.write(served.exports);
  process.stderr.write(
    `terraform-provider-ods is serving in the background (pid ${served.child.pid}). Export the variables above ` +
      `(or run: eval "$(npx ods terraform serve --detach)"); stop it with: kill $ODS_PROVIDER_SERVER_PID\n`,
  );
  return 0;
}

/** The value of `export NAME='...'` as serve-reattach.ts prints it (sh single quotes). */
function exportedValue(exports: string, name: string): string | undefined {
  const quoted = new RegExp(`^export ${name}=(.*)$`, "m").exec(exports)?.[1];
  if (quoted === undefined) return undefined;
  return quoted.startsWith("'") ? quoted.slice(1, -1).replace(/'\\''/g, "'") : quoted;
}

/**
 * `ods terraform serve [options] -- COMMAND...`: the provider served for one command
 * (cdktf deploy, a script of terraform commands), stopped when it ends, whatever the
 * outcome; exits with the command's code (128 + the signal's number when a signal ended it).
 *
 * Signals: the command stays in our process group, so a Ctrl-C in the terminal reaches it
 * directly; we ignore SIGINT rather than pass it on, since a second interrupt makes
 * Terraform stop at once instead of finishing its calls. SIGTERM sent to us alone (a CI
 * timeout, `kill`) is passed on once.
 */
async function serveForCommand(args: string[], command: string[], logFile: string | undefined): Promise<number> {
  const served = await startServed(args, logFile, true);
  if (typeof served === "string") {
    process.stderr.write(`ods terraform serve: ${served}; ${shellWord(command[0])} was not run\n`);
    return 1;
  }
  const reattach = exportedValue(served.exports, "TF_REATTACH_PROVIDERS");
  const stopProvider = (): Promise<void> => stopChild(served.child);
  if (reattach === undefined) {
    await stopProvider();
    process.stderr.write("ods terraform serve: the provider printed no TF_REATTACH_PROVIDERS line\n");
    return 1;
  }
  const env = { ...process.env, TF_REATTACH_PROVIDERS: reattach, ODS_PROVIDER_SERVER_PID: String(served.child.pid) };
  const child = spawn(command[0], command.slice(1), { stdio: "inherit", env });
  const onInt = (): void => undefined;
  let forwarded = false;
  const onTerm = (): void => {
    if (!forwarded) child.kill("SIGTERM");
    forwarded = true;
  };
  process.on("SIGINT", onInt);
  process.on("SIGTERM", onTerm);
  try {
    return await new Promise<number>((resolve) => {
      child.on("error", (err) => {
        process.stderr.write(`ods terraform serve: cannot run ${shellWord(command[0])}: ${err.message}\n`);
        resolve(127);
      });
      child.on("exit", (code, signal) => resolve(code ?? 128 + (signal ? (os.constants.signals[signal] ?? 0) : 0)));
    });
  } finally {
    process.off("SIGINT", onInt);
    process.off("SIGTERM", onTerm);
    await stopProvider();
  }
}

/** SIGTERM, then SIGKILL if it has not exited within STOP_TIMEOUT_MS. */
function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}
