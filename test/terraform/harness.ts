// Drives the real `terraform` binary against terraform-provider-ods, installed with
// `ods terraform install` into a temp mirror. Skipped, with the reason printed, when
// terraform is not on PATH.
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { ODS_BIN, ROOT, tempDir } from "../helpers/ods-cli";

export { hasTerraform } from "../helpers/terraform-probe";

export interface TfResult {
  status: number | null;
  out: string;
}

/** What terraform needs to reach our provider and a target: the installed mirror's CLI config, the target's URL and token, no checkpoint calls, no prompts. */
export function terraformEnv(cliConfigPath: string, target: { url: string; token: string }): Record<string, string> {
  return { TF_CLI_CONFIG_FILE: cliConfigPath, CHECKPOINT_DISABLE: "1", TF_IN_AUTOMATION: "1", ODS_URL: target.url, ODS_TOKEN: target.token };
}

export class TerraformWorkspace {
  readonly dir: string;
  private readonly env: NodeJS.ProcessEnv;

  /** The environment terraform runs with here, for a test that starts it its own way. */
  get environment(): NodeJS.ProcessEnv {
    return { ...this.env };
  }

  /** `env`: variables to set (a value) or remove (undefined) on top of this process's. */
  constructor(cliConfigPath: string, target: { url: string; token: string }, dir?: string, env: Record<string, string | undefined> = {}) {
    this.dir = dir ?? tempDir("ods-tf-");
    this.env = {
      ...process.env,
      ...terraformEnv(cliConfigPath, target),
      // Terraform passes its environment on to the provider, which makes its socket
      // directory here: a provider killed with SIGKILL (runKillable) cannot remove it, and
      // removeTempDirs then does.
      PLUGIN_UNIX_SOCKET_DIR: tempDir("ods-tf-sock-"),
      // The journal of passed checks the provider's processes share: one per workspace,
      // so that no test sees another's passes.
      ODS_PROVIDER_CACHE_DIR: tempDir("ods-tf-cache-"),
      ...env,
    };
    // The caller's settings are kept: a shared data directory spares each workspace an init.
    for (const k of ["TF_LOG", "TF_LOG_PATH", "TF_DATA_DIR", "TF_PLUGIN_CACHE_DIR"]) if (!(k in env)) delete this.env[k];
    for (const [k, v] of Object.entries(env)) if (v === undefined) delete this.env[k];
  }

  /**
   * Runs terraform with -no-color and, where it could prompt, -input=false. Asynchronous:
   * the emulator lives in this process and must keep answering while terraform runs.
   */
  run(...args: string[]): Promise<TfResult> {
    return this.spawnTerraform(args);
  }

  /**
   * Like run, with terraform and its provider plugin in a process group of their own:
   * `setKill` receives a function that ends both at once with SIGKILL, as a crash would.
   */
  runKillable(setKill: (kill: () => void) => void, ...args: string[]): Promise<TfResult> {
    return this.spawnTerraform(args, setKill);
  }

  private running = "";

  /** The output so far of the command running now (or of the last one): for watching it. */
  lastOutput(): string {
    return this.running;
  }

  private spawnTerraform(args: string[], setKill?: (kill: () => void) => void): Promise<TfResult> {
    const prompting = ["init", "plan", "apply", "import", "destroy", "refresh"].includes(args[0]);
    const words = args[0] === "state" ? 2 : 1;
    const flags = prompting ? ["-no-color", "-input=false"] : args[0] === "output" || args[0] === "show" ? ["-no-color"] : [];
    return new Promise((resolve, reject) => {
      const child = spawn("terraform", [...args.slice(0, words), ...flags, ...args.slice(words)], {
        cwd: this.dir,
        env: this.env,
        stdio: ["ignore", "pipe", "pipe"],
        detached: setKill !== undefined,
      });
      setKill?.(() => {
        if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, "SIGKILL");
      });
      let out = "";
      this.running = "";
      const collect = (d: Buffer): void => {
        out += d.toString();
        this.running = out;
      };
      child.stdout.on("data", collect);
      child.stderr.on("data", collect);
      const timer = setTimeout(() => child.kill("SIGKILL"), 240_000);
      child.on("error", reject);
      child.on("close", (status) => {
        clearTimeout(timer);
        resolve({ status, out });
      });
    });
  }

  writeConfig(config: unknown): void {
    fs.writeFileSync(path.join(this.dir, "main.tf.json"), JSON.stringify(config, null, 2));
  }
}

/** `ods terraform install --dir D`: answers the CLI config path it printed. */
export function installProvider(): string {
  const dir = tempDir("ods-tf-install-");
  const r = spawnSync(process.execPath, [ODS_BIN, "terraform", "install", "--dir", dir, "--lock-file", path.join(dir, ".terraform.lock.hcl")], { cwd: ROOT, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`ods terraform install failed: ${r.stderr}`);
  const line = r.stdout.split("\n").find((l) => l.startsWith("export TF_CLI_CONFIG_FILE="));
  if (!line) throw new Error(`ods terraform install printed no export line:\n${r.stdout}`);
  return line.slice("export TF_CLI_CONFIG_FILE=".length).trim();
}

/** A Terraform JSON config for the ods provider around the given resources. */
export function odsConfig(body: Record<string, unknown>): Record<string, unknown> {
  return {
    terraform: { required_providers: { ods: { source: "registry.terraform.io/ods/ods" } } },
    provider: { ods: {} },
    ...body,
  };
}
