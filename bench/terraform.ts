// The Terraform side of the benchmarks and the reliability suite: the real `terraform`
// binary against terraform-provider-ods, installed into a temp filesystem mirror with
// `ods terraform install`.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { ProviderProcessStats } from "../lib/tfprovider/provider-server";
import { startHttpStateServer } from "./http-state-server";
import { ODS_BIN, ROOT, timed, type TimedOptions, type TimedRun } from "./harness";

/** Why Terraform runs are skipped, or undefined when terraform is on PATH. */
export function terraformMissing(): string | undefined {
  const probe = spawnSync("terraform", ["version"], { encoding: "utf8", timeout: 30_000, env: { ...process.env, CHECKPOINT_DISABLE: "1" } });
  return probe.status === 0 ? undefined : "`terraform` is not on PATH (install Terraform 1.11 to measure it)";
}

export function terraformVersion(): string {
  const probe = spawnSync("terraform", ["version"], { encoding: "utf8", timeout: 30_000, env: { ...process.env, CHECKPOINT_DISABLE: "1" } });
  return /Terraform v[\d.]+/.exec(probe.stdout ?? "")?.[0] ?? "unknown";
}

export type TerraformBackend = "http" | "local";

/**
 * BENCH_TF_BACKEND: the state backend of the Terraform runs, http (the default) or local.
 * With local, Terraform itself rewrites the whole state file after every resource it
 * applies, so an apply grows with N squared whatever the provider does; a remote backend
 * persists every 20 s and at the end, as a team with a large org runs it.
 */
export function terraformBackendSetting(): TerraformBackend {
  const value = process.env.BENCH_TF_BACKEND ?? "http";
  if (value !== "http" && value !== "local") throw new Error(`BENCH_TF_BACKEND must be http or local, got "${value}"`);
  return value;
}

/**
 * Runs the Terraform commands of one working directory with its state in the given
 * backend: for http, a state server of its own on 127.0.0.1, named in backend.tf.json
 * beside main.tf.json and stopped when `side` ends; for local, Terraform's default.
 */
export async function withStateBackend<T>(workDir: string, backend: TerraformBackend, side: () => Promise<T>): Promise<T> {
  if (backend === "local") return side();
  const server = await startHttpStateServer("bench", "bench-state-pass");
  try {
    fs.mkdirSync(workDir, { recursive: true });
    fs.writeFileSync(path.join(workDir, "backend.tf.json"), JSON.stringify({ terraform: { backend: { http: server.backend } } }, null, 2));
    return await side();
  } finally {
    await server.close();
  }
}

/** `ods terraform install --dir D`; answers the CLI config file to export as TF_CLI_CONFIG_FILE. */
export function installProvider(dir: string): string {
  const r = spawnSync(process.execPath, [ODS_BIN, "terraform", "install", "--dir", dir, "--lock-file", path.join(dir, ".terraform.lock.hcl")], { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
  if (r.status !== 0) throw new Error(`ods terraform install failed: ${r.stderr}`);
  const line = r.stdout.split("\n").find((l) => l.startsWith("export TF_CLI_CONFIG_FILE="));
  if (!line) throw new Error(`ods terraform install printed no export line:\n${r.stdout}`);
  return line.slice("export TF_CLI_CONFIG_FILE=".length).trim();
}

/**
 * Import blocks for a stack's datasets: they exist before the first apply (they hold data),
 * and Terraform never adopts by name on its own.
 */
export function datasetImports(stack: { resource: Record<string, Record<string, Record<string, unknown>>> }): { to: string; id: string }[] {
  return Object.entries(stack.resource.ods_dataset ?? {}).map(([name, b]) => ({ to: `ods_dataset.${name}`, id: String(b.name) }));
}

/** What each provider process of one Terraform command recorded at exit (ODS_PROVIDER_STATS=file); none when no provider ran. */
export function readProviderStats(file: string): ProviderProcessStats[] {
  if (!fs.existsSync(file)) return [];
  return fs.readFileSync(file, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l) as ProviderProcessStats);
}

/** Turns a synthesized cdk.tf.json into a Terraform working directory's main.tf.json. */
export function writeTerraformConfig(stackJsonFile: string, workDir: string, imports: { to: string; id: string }[] = []): void {
  const config = JSON.parse(fs.readFileSync(stackJsonFile, "utf8")) as { terraform?: Record<string, unknown>; import?: unknown };
  // cdktf pins a local backend under the app's directory; the working directory's default is what we want.
  if (config.terraform) delete config.terraform.backend;
  if (imports.length > 0) config.import = imports;
  fs.mkdirSync(workDir, { recursive: true });
  fs.writeFileSync(path.join(workDir, "main.tf.json"), JSON.stringify(config, null, 2));
}

export class TerraformRunner {
  constructor(
    readonly workDir: string,
    private readonly cliConfig: string,
    private readonly target: { url: string; token: string },
  ) {}

  private env(): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      TF_CLI_CONFIG_FILE: this.cliConfig,
      CHECKPOINT_DISABLE: "1",
      TF_IN_AUTOMATION: "1",
      ODS_URL: this.target.url,
      ODS_TOKEN: this.target.token,
    };
    for (const k of ["TF_LOG", "TF_LOG_PATH", "TF_DATA_DIR", "TF_PLUGIN_CACHE_DIR"]) delete env[k];
    return env;
  }

  /** `terraform ARGS -no-color [-input=false]`, timed; opts.env is added to the runner's environment. */
  run(args: string[], opts: TimedOptions = {}): Promise<TimedRun> {
    const prompting = ["init", "plan", "apply", "destroy"].includes(args[0]);
    const flags = prompting ? ["-no-color", "-input=false"] : ["-no-color"];
    return timed("terraform", [args[0], ...flags, ...args.slice(1)], { cwd: this.workDir, timeoutMs: 900_000, ...opts, env: { ...this.env(), ...opts.env } });
  }
}

/**
 * Terraform's own floor for a stack: the same resources as Terraform's built-in
 * `terraform_data` (no provider process at all), each holding its block as `input`, with
 * the same references and dependencies between them. What Terraform itself spends on a
 * graph of that size is the least any provider can cost.
 */
export function writeFloorConfig(stack: { resource: Record<string, Record<string, Record<string, unknown>>> }, workDir: string): number {
  const address = (type: string, name: string): string => `${type}__${name}`;
  const reference = /\$\{(ods_[a-z_]+)\.([A-Za-z0-9_-]+)\.([a-z_]+)\}/g;
  const rewrite = (v: unknown): unknown => {
    if (typeof v === "string") return v.replace(reference, (_m, t: string, n: string, attr: string) => (attr === "id" ? `\${terraform_data.${address(t, n)}.id}` : `\${terraform_data.${address(t, n)}.output.${attr}}`));
    if (Array.isArray(v)) return v.map(rewrite);
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, rewrite(x)]));
    return v;
  };
  const resources: Record<string, unknown> = {};
  for (const [type, byName] of Object.entries(stack.resource)) {
    for (const [name, block] of Object.entries(byName)) {
      const { depends_on: dependsOn, ...input } = block;
      resources[address(type, name)] = {
        input: rewrite(input),
        ...(Array.isArray(dependsOn) ? { depends_on: dependsOn.map((d) => `terraform_data.${String(d).replace(".", "__")}`) } : {}),
      };
    }
  }
  fs.mkdirSync(workDir, { recursive: true });
  fs.writeFileSync(path.join(workDir, "main.tf.json"), JSON.stringify({ resource: { terraform_data: resources } }, null, 2));
  return Object.keys(resources).length;
}

/**
 * Bundles the null provider (null-provider.ts) into DIR and writes DIR/null-provider.sh, to be given to
 * Terraform as ODS_PROVIDER_NODE: the installed launcher runs it with the real bundle's
 * path, which it ignores.
 */
export function nullProviderLauncher(dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  const bundle = path.join(dir, "null-provider-bundle.js");
  const entry = [
    '"use strict";',
    'const { serveProvider } = require("./lib/tfprovider/provider-server.js");',
    'const { nullProvider } = require("./bench/dist/null-provider.js");',
    // The model loads after the handshake line, and a start asked only for the schema
    // answers the one the build embedded, as the real provider's do (main.ts).
    'const { codeCacheWrittenAtExit } = require("./lib/tfprovider/code-cache.js");',
    'const schemaAnswer = codeCacheWrittenAtExit() ? undefined : Buffer.from(__ODS_SCHEMA_ANSWER__, "base64");',
    'serveProvider(async () => nullProvider(new (require("./lib/tfprovider/ods-provider.js").OdsTerraformProvider)().schema()), { schemaAnswer });',
  ].join("\n");
  // Bundled as the provider is (scripts/bundle-provider.js: the same loader and code
  // cache), in a child so the bench's own process never loads esbuild.
  const script = `const b = require("./scripts/bundle-provider.js"); b.bundleWithCodeCache({ contents: ${JSON.stringify(entry)}, resolveDir: ${JSON.stringify(ROOT)}, outfile: ${JSON.stringify(bundle)}, sourcefile: "null-provider-entry.js", define: { __ODS_SCHEMA_ANSWER__: JSON.stringify(b.schemaAnswer()) } }).catch((err) => { console.error(err); process.exit(1); });`;
  const built = spawnSync(process.execPath, ["-e", script], { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
  if (built.status !== 0) throw new Error(`bundling the null provider failed: ${built.stderr}`);
  const launcher = path.join(dir, "null-provider.sh");
  fs.writeFileSync(launcher, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(bundle)}\n`, { mode: 0o755 });
  return launcher;
}
