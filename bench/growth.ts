// The growth section of `npm run bench` (BENCH_ONLY=growth runs it alone): how the cost of
// `ods` grows with the stack. At each of BENCH_GROWTH_SIZES (default 2000,10000,20000), on a
// fresh emulator whose rate limit is out of the way, with one output per five resources
// (each a resource's id), it measures `ods apply` from empty, a
// no-change `ods plan`, a no-drift `ods drift`, `ods apply` with 10% changed and `ods destroy`:
// wall time, CPU and peak RSS, and between consecutive sizes each figure's growth exponent
// log(t2/t1) / log(N2/N1) (1.0 is linear). A command that runs over BENCH_GROWTH_BUDGET_S
// (default 900) is killed and reported, and larger sizes are skipped.
//
// BENCH_GROWTH_BACKENDS (default local) names the state backends to measure, in turn:
// `local` (a state file and its journal), `http` (the http state server of
// bench/http-state-server.ts, journal on local disk) and `pg` (a private PostgreSQL, journal
// in a table; skipped with the reason where PostgreSQL cannot run).
//
// The client keeps under the organization's license (100 requests/s in the emulator); the
// generated stack's provider block sets rate_limit_per_second high and the emulator runs
// with --rate-limit as high, so that the figures measure ods, not the license.
import * as fs from "node:fs";
import * as path from "node:path";
import { envNumber, prepareDatasets, ROOT, runOdsTimed, startEmulatorProcess, synthesizeStack, timed, type TimedRun } from "./harness";
import { startHttpStateServer } from "./http-state-server";
import { generateStack, layoutOf, outputsOf, resourceCount } from "./stack-gen";
import { startPg } from "./pg-server";

export interface GrowthFigure {
  command: string;
  wallMs: number;
  cpuMs?: number;
  peakRssMiB?: number;
  /** CPU the emulator spent answering the command (its routes' cost grows with N too). */
  emulatorCpuMs?: number;
  ok: boolean;
}

export interface GrowthSize {
  n: number;
  /** The state backend: local, http or pg. */
  backend: string;
  figures: GrowthFigure[];
  /** Set when a command ran over its budget or failed: the figures after it are missing. */
  stopped?: string;
}

export interface GrowthSettings {
  sizes: readonly number[];
  log: (line: string) => void;
  /** `node --cpu-prof` profiles of every command at this size, written to cpuProfDir. */
  profileAt?: number;
  cpuProfDir?: string;
  /** The state backends to measure in turn (default: local). */
  backends?: readonly GrowthBackend[];
}

/** High enough that neither the emulator nor the client waits (the machine is the limit). */
const NO_RATE_LIMIT = 1_000_000;
const COMMANDS = ["apply from empty", "plan (no changes)", "drift (none)", "apply (10% changed)", "destroy"] as const;
export const GROWTH_BACKENDS = ["local", "http", "pg"] as const;
export type GrowthBackend = (typeof GROWTH_BACKENDS)[number];

function stackFile(dir: string): string {
  return path.join(dir, "cdktf.out/stacks/main/cdk.tf.json");
}

/**
 * The synthesized stack with the client's rate limit out of the way, and BACKEND (a
 * `terraform.backend` block) declared when the state is not a local file.
 */
function adjustStack(dir: string, backend: Record<string, unknown> | undefined): void {
  const file = stackFile(dir);
  const doc = JSON.parse(fs.readFileSync(file, "utf8")) as StackDocument;
  const blocks = doc.provider?.ods;
  if (!blocks || blocks.length === 0) throw new Error(`${file} has no ods provider block`);
  blocks[0].rate_limit_per_second = NO_RATE_LIMIT;
  if (backend) doc.terraform = { ...doc.terraform, backend };
  doc.output = { ...doc.output, ...outputsOf({ resource: doc.resource ?? {} }) };
  fs.writeFileSync(file, JSON.stringify(doc));
}

interface StackDocument {
  provider?: { ods?: Record<string, unknown>[] };
  terraform?: Record<string, unknown>;
  resource?: Record<string, Record<string, Record<string, unknown>>>;
  output?: Record<string, { value: unknown }>;
}


/** User + system CPU of a process so far, from /proc (undefined where there is none). */
function processCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // USER_HZ is 100 on Linux
  } catch {
    return undefined;
  }
}

/** A state server for BACKEND, started for one size and stopped after it. */
async function stateServer(backend: GrowthBackend, n: number): Promise<{ block?: Record<string, unknown>; stop: () => Promise<void>; skipped?: string }> {
  if (backend === "http") {
    const server = await startHttpStateServer();
    return { block: { http: server.backend }, stop: () => server.close() };
  }
  if (backend === "pg") {
    const { server, reason } = await startPg();
    if (!server) return { stop: async () => undefined, skipped: reason };
    return { block: { pg: { conn_str: server.connStr, schema_name: `growth_${n}` } }, stop: async () => server.stop() };
  }
  return { stop: async () => undefined };
}

export async function growthSection(root: string, settings: GrowthSettings): Promise<GrowthSize[]> {
  const out: GrowthSize[] = [];
  for (const backend of settings.backends ?? ["local"]) out.push(...(await growthOf(root, settings, backend)));
  return out;
}

async function growthOf(root: string, settings: GrowthSettings, backend: GrowthBackend): Promise<GrowthSize[]> {
  const budgetMs = envNumber("BENCH_GROWTH_BUDGET_S", 900) * 1000;
  const out: GrowthSize[] = [];
  for (const n of settings.sizes) {
    const dir = path.join(root, `growth-${backend}-${n}`);
    fs.mkdirSync(dir, { recursive: true });
    settings.log(`growth: N = ${n}, ${backend} state`);
    const base = generateStack({ n, prefix: "g" });
    if (resourceCount(base) !== n) throw new Error(`generator made ${resourceCount(base)} resources, not ${n}`);
    const changed = generateStack({ n, prefix: "g", revision: 1 });
    const states = await stateServer(backend, n);
    if (states.skipped) {
      settings.log(`  skipped: ${states.skipped}`);
      out.push({ n, backend, figures: [], stopped: `skipped: ${states.skipped}` });
      break;
    }
    const emu = await startEmulatorProcess({ dataDir: path.join(dir, "emu"), rateLimit: NO_RATE_LIMIT });
    const size: GrowthSize = { n, backend, figures: [] };
    try {
      await synthesizeStack(base, dir);
      adjustStack(dir, states.block);
      await prepareDatasets(emu, "g", layoutOf(n));
      const stateFlags = backend === "local" ? ["--state", path.join(dir, "state.json")] : [];
      const flags = ["--out-dir", path.join(dir, "cdktf.out"), "--no-synth", ...stateFlags, "--no-backtest"];
      const profile = settings.profileAt === n && settings.cpuProfDir;
      const run = (label: string, args: string[]): Promise<TimedRun> => {
        if (!profile) return runOdsTimed([...args, ...flags], emu, { timeoutMs: budgetMs });
        fs.mkdirSync(settings.cpuProfDir!, { recursive: true });
        const prof = ["--cpu-prof", "--cpu-prof-dir", settings.cpuProfDir!, "--cpu-prof-name", `ods-${label}-${n}.cpuprofile`];
        return timed(process.execPath, [...prof, path.join(ROOT, "bin/ods.js"), ...args, ...flags], {
          env: { ...process.env, CHECKPOINT_DISABLE: "1", ODS_URL: emu.url, ODS_TOKEN: emu.token },
          timeoutMs: budgetMs,
        });
      };
      const steps: [string, string, string[], number[], (() => Promise<void>)?][] = [
        [COMMANDS[0], "apply-empty", ["apply", "--auto-approve"], [0]],
        [COMMANDS[1], "plan", ["plan", "--detailed-exitcode"], [0]],
        [COMMANDS[2], "drift", ["drift"], [0]],
        [COMMANDS[3], "apply-changed", ["apply", "--auto-approve"], [0], async () => {
          await synthesizeStack(changed, dir);
          adjustStack(dir, states.block);
        }],
        [COMMANDS[4], "destroy", ["destroy", "--auto-approve"], [0]],
      ];
      for (const [command, label, args, okCodes, before] of steps) {
        await before?.();
        const emuBefore = processCpuMs(emu.pid);
        const r = await run(label, args);
        const emuAfter = processCpuMs(emu.pid);
        const emulatorCpuMs = emuBefore === undefined || emuAfter === undefined ? undefined : emuAfter - emuBefore;
        const ok = r.code !== null && okCodes.includes(r.code);
        size.figures.push({ command, wallMs: r.wallMs, cpuMs: r.cpuMs, peakRssMiB: r.peakRssMiB, emulatorCpuMs, ok });
        settings.log(`  ods ${command}: ${(r.wallMs / 1000).toFixed(2)} s, CPU ${r.cpuMs === undefined ? "n/a" : (r.cpuMs / 1000).toFixed(2)} s, peak RSS ${r.peakRssMiB?.toFixed(0) ?? "n/a"} MiB, emulator CPU ${emulatorCpuMs === undefined ? "n/a" : (emulatorCpuMs / 1000).toFixed(2)} s, exit ${r.code ?? r.signal}`);
        if (!ok) {
          size.stopped = r.signal === "SIGKILL" ? `ods ${command} ran over ${budgetMs / 1000} s` : `ods ${command} failed (exit ${r.code}): ${r.stderr.slice(0, 500)}`;
          settings.log(`  ${size.stopped}`);
          break;
        }
      }
    } finally {
      await emu.stop();
      await states.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
    out.push(size);
    if (size.stopped) break;
  }
  return out;
}

/** log(b/a) / log(N2/N1); "n/a" when a figure is missing. */
function exponent(a: number | undefined, b: number | undefined, n1: number, n2: number): string {
  if (a === undefined || b === undefined || a <= 0 || b <= 0) return "n/a";
  return (Math.log(b / a) / Math.log(n2 / n1)).toFixed(2);
}

export function growthMarkdown(sizes: readonly GrowthSize[]): string[] {
  if (sizes.length === 0) return [];
  const lines = ["", "## Growth with the stack", ""];
  lines.push(
    "Generated stacks of every kind with one output per five resources (each a resource's id) on a fresh emulator per size, the rate limit out of the way (emulator `--rate-limit` and the provider's `rate_limit_per_second` at 1,000,000), monitors' backtest off. Wall and CPU seconds and peak RSS of the `ods` process (/usr/bin/time), and the CPU the emulator spent answering it (/proc). Exponent: log(t2/t1) / log(N2/N1) between consecutive sizes; 1.0 is linear.",
    "",
    "| state | N | command | wall s | CPU s | peak RSS MiB | emulator CPU s |",
    "|---|---:|---|---:|---:|---:|---:|",
  );
  for (const size of sizes) {
    for (const f of size.figures) {
      lines.push(`| ${size.backend} | ${size.n} | ${f.command}${f.ok ? "" : " (FAILED)"} | ${(f.wallMs / 1000).toFixed(2)} | ${f.cpuMs === undefined ? "n/a" : (f.cpuMs / 1000).toFixed(2)} | ${f.peakRssMiB?.toFixed(0) ?? "n/a"} | ${f.emulatorCpuMs === undefined ? "n/a" : (f.emulatorCpuMs / 1000).toFixed(2)} |`);
    }
    if (size.stopped) lines.push(`| ${size.backend} | ${size.n} | stopped: ${size.stopped} | | | | |`);
  }
  lines.push("", "| state | N1 → N2 | command | wall exponent | CPU exponent | RSS exponent | emulator CPU exponent |", "|---|---|---|---:|---:|---:|---:|");
  for (let i = 1; i < sizes.length; i++) {
    const [a, b] = [sizes[i - 1], sizes[i]];
    if (a.backend !== b.backend) continue;
    for (const command of COMMANDS) {
      const fa = a.figures.find((f) => f.command === command && f.ok);
      const fb = b.figures.find((f) => f.command === command && f.ok);
      if (!fa || !fb) continue;
      lines.push(`| ${a.backend} | ${a.n} → ${b.n} | ${command} | ${exponent(fa.wallMs, fb.wallMs, a.n, b.n)} | ${exponent(fa.cpuMs, fb.cpuMs, a.n, b.n)} | ${exponent(fa.peakRssMiB, fb.peakRssMiB, a.n, b.n)} | ${exponent(fa.emulatorCpuMs, fb.emulatorCpuMs, a.n, b.n)} |`);
    }
  }
  return lines;
}
