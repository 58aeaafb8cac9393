// What the benchmarks and the reliability suite share: the emulator and the CLI as
// subprocesses (the way users run them), the emulator's request log, and timing.
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { datasetName, sampleEvents, type StackLayout } from "./stack-gen";

/** The repository root: bench/ when run from source (vitest), bench/dist/ when compiled. */
export const ROOT = fs.existsSync(path.resolve(__dirname, "../package.json")) ? path.resolve(__dirname, "..") : path.resolve(__dirname, "../..");
/** A whole number >= 1 from the environment, or the fallback when unset. */
export function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (!raw) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a whole number >= 1, got "${raw}"`);
  return n;
}

export const ODS_BIN = path.join(ROOT, "bin/ods.js");
const TIME_BIN = "/usr/bin/time";
export const hasTimeBin = fs.existsSync(TIME_BIN);

export interface RequestRecord {
  method: string;
  path: string;
  query: string;
  status: number;
  at: string;
}

export interface EmulatorProcess {
  url: string;
  /** The emulator's process id (for its RSS in /proc). */
  pid: number | undefined;
  token: string;
  requests(): Promise<RequestRecord[]>;
  resetRequests(): Promise<void>;
  api(method: string, urlPath: string, body?: unknown): Promise<{ status: number; body: unknown }>;
  stop(): Promise<void>;
}

/**
 * The license the benches' emulators run with: the generated stacks hold a user per eight
 * resources, past the default license's 100 users from N = 800 (the emulator enforces it).
 */
export const BENCH_LICENSE = "maxUsers=1000000";

/** `ods emulator --port 0` in a child process; resolves once it printed its URL and token. */
export function startEmulatorProcess(opts: { dataDir: string; rateLimit?: number; faults?: string; extraArgs?: string[]; startTimeoutMs?: number; license?: string }): Promise<EmulatorProcess> {
  const startTimeoutMs = opts.startTimeoutMs ?? 30_000;
  // BENCH_EMULATOR_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") profiles the emulator.
  const nodeArgs = (process.env.BENCH_EMULATOR_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const args = [...nodeArgs, ODS_BIN, "emulator", "--port", "0", "--data-dir", opts.dataDir, ...(opts.extraArgs ?? [])];
  if (opts.rateLimit) args.push("--rate-limit", String(opts.rateLimit));
  if (opts.faults) args.push("--faults", opts.faults);
  args.push("--license", opts.license ?? BENCH_LICENSE);
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the emulator did not start within ${startTimeoutMs / 1000}s: ${stderr}`));
    }, startTimeoutMs);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the emulator exited (${code}) before it started: ${stderr}`));
    });
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const url = /^ODS_URL=(.+)$/m.exec(out)?.[1];
      const token = /^ODS_TOKEN=(.+)$/m.exec(out)?.[1];
      if (!url || !token) return;
      clearTimeout(timer);
      child.removeAllListeners("exit");
      resolve(emulatorHandle(child, url.trim(), token.trim()));
    });
  });
}

function emulatorHandle(child: ChildProcess, url: string, token: string): EmulatorProcess {
  const once = async (method: string, urlPath: string, body?: unknown): Promise<{ status: number; body: unknown }> => {
    const res = await fetch(`${url}${urlPath}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
  };
  // Set-up calls wait out the emulator's rate limit (bounded): they are not what is measured.
  const api = async (method: string, urlPath: string, body?: unknown): Promise<{ status: number; body: unknown }> => {
    for (let attempt = 1; ; attempt++) {
      const answer = await once(method, urlPath, body);
      if (answer.status !== 429 || attempt >= 30) return answer;
      await new Promise((r) => setTimeout(r, 1000));
    }
  };
  return {
    url,
    pid: child.pid,
    token,
    api,
    requests: async () => (await api("GET", "/_emulator/requests")).body as RequestRecord[],
    resetRequests: async () => {
      await api("DELETE", "/_emulator/requests");
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
        child.once("exit", () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill("SIGTERM");
      }),
  };
}

/** Creates the stack's datasets outside the stack and ingests a few events into each, so that fields exist. */
export async function prepareDatasets(emu: EmulatorProcess, prefix: string, layout: StackLayout): Promise<void> {
  for (let d = 0; d < layout.datasets; d++) {
    const name = datasetName(prefix, d);
    const made = await emu.api("POST", "/v2/datasets", { name, description: `bench dataset ${d}` });
    if (made.status >= 300) throw new Error(`creating dataset ${name}: ${made.status} ${JSON.stringify(made.body)}`);
    const ingested = await emu.api("POST", `/v1/datasets/${name}/ingest`, sampleEvents(layout));
    if (ingested.status >= 300) throw new Error(`ingesting into ${name}: ${ingested.status} ${JSON.stringify(ingested.body)}`);
  }
}

export interface RequestSummary {
  total: number;
  reads: number;
  writes: number;
  /** POST /v1/datasets/_apl: plan-time query checks. */
  queries: number;
  status429: number;
  status5xx: number;
  dropped: number;
}

export function isQuery(r: RequestRecord): boolean {
  return r.method === "POST" && r.path === "/v1/datasets/_apl";
}

export function summarizeRequests(records: RequestRecord[]): RequestSummary {
  return {
    total: records.length,
    reads: records.filter((r) => r.method === "GET").length,
    writes: records.filter((r) => r.method !== "GET" && !isQuery(r)).length,
    queries: records.filter(isQuery).length,
    status429: records.filter((r) => r.status === 429).length,
    status5xx: records.filter((r) => r.status >= 500).length,
    dropped: records.filter((r) => r.status === 0).length,
  };
}

export interface TimedRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  wallMs: number;
  /** Peak resident set size of the command, in MiB (from /usr/bin/time), when known. */
  peakRssMiB?: number;
  /** CPU time (user + system) of the command and the children it waited for, in ms (from /usr/bin/time), when known. */
  cpuMs?: number;
}

export interface TimedOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  /** Called with every stdout chunk; may kill the child. */
  onStdout?: (chunk: string, child: ChildProcess) => void;
}

/** Runs a command, measuring its wall time and (through /usr/bin/time) its peak RSS and CPU time. */
export function timed(command: string, args: string[], opts: TimedOptions = {}): Promise<TimedRun> {
  const rssFile = hasTimeBin ? path.join(fs.mkdtempSync(path.join(os.tmpdir(), "ods-rss-")), "rss") : undefined;
  const [cmd, argv] = rssFile ? [TIME_BIN, ["-f", "%M %U %S", "-o", rssFile, command, ...args]] : [command, args];
  return new Promise((resolve, reject) => {
    const start = performance.now();
    // Its own process group: a timeout must stop the command, not only /usr/bin/time around it.
    const child = spawn(cmd, argv, { cwd: opts.cwd ?? ROOT, env: opts.env ?? process.env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
      opts.onStdout?.(d.toString(), child);
    });
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      try {
        if (child.pid) process.kill(-child.pid, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
    }, opts.timeoutMs ?? 600_000);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const wallMs = performance.now() - start;
      let peakRssMiB: number | undefined;
      let cpuMs: number | undefined;
      if (rssFile) {
        // The last line; a command killed by a signal gets a "Command terminated" line before it.
        const m = /(\d+) ([\d.]+) ([\d.]+)\s*$/.exec(fs.existsSync(rssFile) ? fs.readFileSync(rssFile, "utf8") : "");
        if (m && Number(m[1]) > 0) peakRssMiB = Number(m[1]) / 1024;
        if (m) cpuMs = (Number(m[2]) + Number(m[3])) * 1000;
        fs.rmSync(path.dirname(rssFile), { recursive: true, force: true });
      }
      resolve({ code, signal, stdout, stderr, wallMs, peakRssMiB, cpuMs });
    });
  });
}

/** `ods ARGS` with the emulator as target. */
export function runOdsTimed(args: string[], emu: { url: string; token: string }, opts: TimedOptions = {}): Promise<TimedRun> {
  const env = { ...process.env, CHECKPOINT_DISABLE: "1", ODS_URL: emu.url, ODS_TOKEN: emu.token, ...opts.env };
  return timed(process.execPath, [ODS_BIN, ...args], { ...opts, env });
}

const SYNTH_APP = path.join(__dirname, "synth-app.js");

/** Synthesizes a generated stack into DIR/cdktf.out with the bench's CDKTF app (synth-app.ts), timed. */
export async function synthesizeStack(spec: unknown, dir: string): Promise<{ wallMs: number; constructMs: number; synthMs: number; peakRssMiB?: number }> {
  fs.mkdirSync(dir, { recursive: true });
  const specFile = path.join(dir, "spec.json");
  fs.writeFileSync(specFile, JSON.stringify(spec));
  const r = await timed(process.execPath, [SYNTH_APP, specFile, path.join(dir, "cdktf.out")], { timeoutMs: 600_000 });
  if (r.code !== 0) throw new Error(`synthesis failed: ${r.stderr}`);
  const inner = JSON.parse(r.stdout.trim().split("\n").pop() ?? "{}") as { constructMs: number; synthMs: number };
  return { wallMs: r.wallMs, constructMs: inner.constructMs, synthMs: inner.synthMs, peakRssMiB: r.peakRssMiB };
}

/** `ods ARGS` on the stack synthesized in DIR, with its own local state, against an emulator process; its output and wall seconds. */
export function odsAgainst(dir: string, emu: EmulatorProcess, args: string[]): Promise<{ code: number; stdout: string; stderr: string; seconds: number }> {
  const started = performance.now();
  const flags = ["--out-dir", path.join(dir, "cdktf.out"), "--no-synth", "--state", path.join(dir, "state.json")];
  // BENCH_ODS_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") profiles the `ods` runs, as BENCH_EMULATOR_NODE_ARGS the emulator.
  const nodeArgs = (process.env.BENCH_ODS_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, ODS_BIN, ...args, ...flags], { cwd: ROOT, env: { ...process.env, ODS_URL: emu.url, ODS_TOKEN: emu.token }, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr, seconds: (performance.now() - started) / 1000 })));
}

/** A synthesized stack named "bench" under `dir`/cdktf.out, as `ods` reads it with --no-synth. */
export function writeBenchStack(dir: string, spec: Record<string, unknown>): void {
  const stackDir = path.join(dir, "cdktf.out", "stacks", "bench");
  fs.mkdirSync(stackDir, { recursive: true });
  fs.writeFileSync(path.join(stackDir, "cdk.tf.json"), JSON.stringify(spec));
  fs.writeFileSync(path.join(dir, "cdktf.out", "manifest.json"), JSON.stringify({ version: "0.21.0", stacks: { bench: { name: "bench", synthesizedStackPath: "stacks/bench/cdk.tf.json", workingDirectory: "stacks/bench", dependencies: [] } } }));
}

/** Creates `dataset` and ingests `count` events spread evenly over the 7 days before `nowMs`, made by `event(i, time)`. */
export async function ingestWeek(emu: EmulatorProcess, dataset: string, count: number, nowMs: number, event: (i: number, t: number) => Record<string, unknown>): Promise<void> {
  const made = await emu.api("POST", "/v2/datasets", { name: dataset });
  if (made.status >= 300) throw new Error(`creating the dataset: ${made.status}`);
  const week = 7 * 86_400_000;
  const batch = 50_000;
  for (let start = 0; start < count; start += batch) {
    const events = [];
    for (let i = start; i < Math.min(count, start + batch); i++) {
      const t = nowMs - week + Math.floor((i / count) * week);
      events.push({ _time: new Date(t).toISOString(), ...event(i, t) });
    }
    const answer = await emu.api("POST", `/v1/datasets/${dataset}/ingest`, events);
    if (answer.status >= 300) throw new Error(`ingest: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
}
