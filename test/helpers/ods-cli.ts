// Runs the built `ods` CLI as a subprocess, the way users and CI run it.
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { parseState, type StateFile } from "../../src/reconcile/state";

export const ROOT = path.resolve(__dirname, "../..");
export const ODS_BIN = path.join(ROOT, "bin/ods.js");

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
  onStdout?: (chunk: string, child: ChildProcess) => void;
}

/** Runs `ods ARGS`; bounded in time (the child is killed at the timeout). */
export function runOds(args: string[], opts: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [ODS_BIN, ...args], {
      cwd: opts.cwd ?? ROOT,
      env: { ...process.env, CHECKPOINT_DISABLE: "1", ODS_URL: undefined, ODS_TOKEN: undefined, ...opts.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
      opts.onStdout?.(d.toString(), child);
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), opts.timeoutMs ?? 60_000);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

const dirs: string[] = [];

export function tempDir(prefix = "ods-test-"): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(d);
  return d;
}

/** Whether a process of this pid is running (signal 0 tests without signalling). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits, polling every 50 ms for at most `ms`, until `ok()`; throws naming `what` when it never is. */
export async function waitFor(what: string, ok: () => boolean, ms = 10_000): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    if (ok()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export function removeTempDirs(): void {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
}

type Block = Record<string, unknown>;

/** A synthesized stack as cdktf writes it, built from `{type: {name: attributes}}`. */
export interface StackSpec {
  resource?: Record<string, Record<string, Block>>;
  data?: Record<string, Record<string, Block>>;
  output?: Record<string, { value: unknown; sensitive?: boolean }>;
}

/** Writes `DIR/cdktf.out/stacks/main/cdk.tf.json` with construct paths in metadata. */
export function writeStack(dir: string, spec: StackSpec): string {
  const withMeta = (blocks: Record<string, Record<string, Block>> | undefined): Record<string, Record<string, Block>> | undefined => {
    if (!blocks) return undefined;
    const out: Record<string, Record<string, Block>> = {};
    for (const [type, byName] of Object.entries(blocks)) {
      out[type] = {};
      for (const [name, attrs] of Object.entries(byName)) out[type][name] = { "//": { metadata: { path: `main/${name}`, uniqueId: name } }, ...attrs };
    }
    return out;
  };
  const file = path.join(dir, "cdktf.out", "stacks", "main", "cdk.tf.json");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ provider: { ods: [{}] }, resource: withMeta(spec.resource), data: withMeta(spec.data), output: spec.output }, null, 2));
  return file;
}

/** Common flags: the stack in DIR, no synth, state in DIR. */
export function stackFlags(dir: string): string[] {
  return ["--out-dir", path.join(dir, "cdktf.out"), "--no-synth", "--state", path.join(dir, "state.json")];
}

/**
 * Asserts no secret value occurs in any of the texts; answers the offending ones. The
 * texts are read once, looking up the text at each position, for each length a secret
 * has, in a set: the kill trials at 20,000 resources check tens of thousands of secrets
 * against megabytes of output.
 */
export function leakedSecrets(texts: string[], secrets: string[]): string[] {
  const wanted = new Set(secrets.filter((s) => s.length >= 6));
  const lengths = [...new Set([...wanted].map((s) => s.length))];
  const found = new Set<string>();
  for (const t of texts) {
    for (let i = 0; i < t.length; i++) {
      for (const n of lengths) {
        if (i + n > t.length) continue;
        const piece = t.slice(i, i + n);
        if (wanted.has(piece)) found.add(piece);
      }
    }
  }
  return secrets.filter((s) => found.has(s));
}

/**
 * Writes several stacks as cdktf does: `DIR/cdktf.out/stacks/NAME/cdk.tf.json` for each,
 * and `manifest.json` listing them with their dependencies. The JSON is written as given.
 */
export function writeStacks(dir: string, stacks: Record<string, { json: unknown; dependencies?: string[] }>): string {
  const outDir = path.join(dir, "cdktf.out");
  const manifest: Record<string, unknown> = {};
  for (const [name, s] of Object.entries(stacks)) {
    const file = path.join(outDir, "stacks", name, "cdk.tf.json");
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify(s.json, null, 2));
    manifest[name] = {
      name,
      constructPath: name,
      dependencies: s.dependencies ?? [],
      synthesizedStackPath: `stacks/${name}/cdk.tf.json`,
      workingDirectory: `stacks/${name}`,
      annotations: [],
    };
  }
  fs.writeFileSync(path.join(outDir, "manifest.json"), JSON.stringify({ version: "0.21.0", stacks: manifest }, null, 2));
  return outDir;
}

/** A state file as the engine reads it (Terraform's format, or the previous ods format). */
export function readStateFile(file: string): StateFile {
  return parseState(fs.readFileSync(file, "utf8"), file);
}

/**
 * A generated project (ods export, ods init) made runnable without an npm install: this
 * checkout as cdktf-provider-ods, and the checkout's cdktf, constructs, TypeScript and types.
 */
export function linkProjectDependencies(dir: string): void {
  const nm = path.join(dir, "node_modules");
  fs.mkdirSync(path.join(nm, ".bin"), { recursive: true });
  fs.symlinkSync(ROOT, path.join(nm, "cdktf-provider-ods"));
  for (const m of ["cdktf", "constructs", "typescript", "@types"]) fs.symlinkSync(path.join(ROOT, "node_modules", m), path.join(nm, m));
  fs.symlinkSync(path.join("..", "typescript", "bin", "tsc"), path.join(nm, ".bin", "tsc"));
}
