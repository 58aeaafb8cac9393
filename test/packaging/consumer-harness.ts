// Shared by the packaging tests: the packed tarball, a fresh consumer project that
// installs it, and the real cdktf-cli installed into a cache outside the project.
import { spawn, spawnSync, type SpawnSyncReturns } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

export const ROOT = path.resolve(__dirname, "../..");
export const CDKTF_VERSION = "0.21.0";
const CACHE = process.env.ODS_TEST_CACHE ?? path.join(os.homedir(), ".cache", "ods-tests");

/** Runs a command with a time bound; output is captured, never inherited. */
export function run(cmd: string, args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): SpawnSyncReturns<string> {
  return spawnSync(cmd, args, {
    cwd: opts.cwd,
    env: { ...process.env, CHECKPOINT_DISABLE: "1", npm_config_audit: "false", npm_config_fund: "false", npm_config_update_notifier: "false", ...opts.env },
    encoding: "utf8",
    timeout: opts.timeoutMs ?? 300_000,
    maxBuffer: 64 * 1024 * 1024,
  });
}

/**
 * The same, without blocking this process's event loop: needed whenever the command talks
 * to a server running inside the test process (the emulator).
 */
export function runAsync(cmd: string, args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<SpawnSyncReturns<string>> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: opts.cwd,
      env: { ...process.env, CHECKPOINT_DISABLE: "1", ...opts.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), opts.timeoutMs ?? 300_000);
    const done = (status: number | null, signal: NodeJS.Signals | null, error?: Error) => {
      clearTimeout(timer);
      resolve({ pid: child.pid ?? 0, output: [null, stdout, stderr], stdout, stderr, status, signal, error });
    };
    child.on("error", (err) => done(null, null, err));
    child.on("close", (code, signal) => done(code, signal));
  });
}

export function output(r: SpawnSyncReturns<string>): string {
  return `exit ${r.status}${r.error ? ` (${r.error.message})` : ""}\n${r.stdout}\n${r.stderr}`;
}

/** `npm pack` of the built package (npm test / test:consumer build and run jsii first). */
export function packTarball(dest: string): string {
  const r = run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", dest], { cwd: ROOT, timeoutMs: 120_000 });
  if (r.status !== 0) throw new Error(`npm pack failed: ${output(r)}`);
  const [info] = JSON.parse(r.stdout.slice(r.stdout.indexOf("["))) as { filename: string }[];
  return path.join(dest, info.filename);
}

/**
 * A package installed into a cache directory outside the project, reused when present.
 * Answers the cache's node_modules, or the reason it could not be installed.
 */
export function cachedInstall(name: string, spec: string[]): { dir: string } | { reason: string } {
  const dir = path.join(CACHE, name);
  const marker = path.join(dir, ".installed");
  if (fs.existsSync(marker)) return { dir: path.join(dir, "node_modules") };
  fs.mkdirSync(dir, { recursive: true });
  if (!fs.existsSync(path.join(dir, "package.json"))) fs.writeFileSync(path.join(dir, "package.json"), `{"name":"${name}-cache","private":true}\n`);
  const r = run("npm", ["install", "--no-save", "--prefer-offline", ...spec], { cwd: dir, timeoutMs: 600_000 });
  if (r.status !== 0) return { reason: `npm install ${spec.join(" ")} into ${dir} failed: ${output(r).slice(0, 2000)}` };
  fs.writeFileSync(marker, `${spec.join(" ")}\n`);
  return { dir: path.join(dir, "node_modules") };
}

/** The real cdktf-cli, from the cache (installed there on first use). */
export function cdktfCli(): { bin: string } | { reason: string } {
  const found = cachedInstall(`cdktf-cli-${CDKTF_VERSION}`, [`cdktf-cli@${CDKTF_VERSION}`]);
  if ("reason" in found) return found;
  const bin = path.join(found.dir, ".bin", "cdktf");
  return fs.existsSync(bin) ? { bin } : { reason: `${bin} is missing after installing cdktf-cli` };
}

/** A fresh consumer project with the tarball and the given libraries installed. */
export function consumerProject(dir: string, tarball: string, libraries: string[]): void {
  fs.writeFileSync(path.join(dir, "package.json"), `${JSON.stringify({ name: "ods-consumer", private: true, version: "0.0.0" }, null, 2)}\n`);
  const r = run("npm", ["install", "--prefer-offline", tarball, ...libraries], { cwd: dir, timeoutMs: 600_000 });
  if (r.status !== 0) throw new Error(`installing the tarball into a fresh project failed: ${output(r)}`);
}

/** tsconfig of a consumer project: the settings `cdktf init --template=typescript` writes. */
export function writeConsumerTsconfig(dir: string): void {
  const tsconfig = {
    compilerOptions: {
      target: "ES2020", module: "CommonJS", lib: ["es2020"], strict: true, declaration: false,
      esModuleInterop: true, skipLibCheck: false, types: ["node"], typeRoots: [path.join(ROOT, "node_modules/@types")],
      noImplicitAny: true, strictNullChecks: true, noUnusedLocals: true, noImplicitReturns: true,
    },
    include: ["*.ts"],
  };
  fs.writeFileSync(path.join(dir, "tsconfig.json"), `${JSON.stringify(tsconfig, null, 2)}\n`);
}

export const TSC = path.join(ROOT, "node_modules/typescript/bin/tsc");
