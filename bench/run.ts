// `npm run bench`: synthesis, plan and apply of generated stacks of N resources through
// `ods` and through Terraform, side by side, against a fresh emulator per size on
// 127.0.0.1; then an apply under a tight rate limit. Every figure is a count or a ratio
// measured in this run. Writes bench/results/latest.md and latest.json.
//
// Settings (environment): BENCH_SIZES=10,100,1000,5000  BENCH_RATE=20  BENCH_RATE_N=200
// BENCH_TF_BUDGET_S=240 (per Terraform command on average: the four commands of a size
// share 4 x this; a size that runs over is reported as such and larger sizes are skipped)
// BENCH_CPU_PROF=DIR (write `node --cpu-prof` profiles of ods plan/apply at the largest size)
// BENCH_TF_BACKEND=http|local (the state backend of the Terraform side, provider and floor
// alike; default http, served on 127.0.0.1 by the bench; see terraformBackendSetting)
// BENCH_REPEATS=2 (rounds of paired provider/floor plans and applies after the first; 0: none)
// BENCH_PAIRED_SIZES=1000,5000 BENCH_PAIRED_ROUNDS=3 (paired.ts: apply creates and plan, ours /
// null provider / floor, each round on a fresh emulator); BENCH_ONLY=paired runs that alone
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { prepareDatasets, ROOT, runOdsTimed, startEmulatorProcess, summarizeRequests, synthesizeStack, timed, type EmulatorProcess, type RequestSummary, type TimedRun } from "./harness";
import { GROWTH_BACKENDS as ALL_GROWTH_BACKENDS, growthMarkdown, growthSection, type GrowthBackend, type GrowthSize } from "./growth";
import { latencyMarkdown, latencySection, type LatencySize } from "./latency";
import { pairedMarkdown, pairedSection, type PairedSize } from "./paired";
import { changedAddresses, generateStack, layoutOf, resourceCount, SPREAD_KINDS, type GeneratedStack, type StackLayout } from "./stack-gen";
import { datasetImports, installProvider, readProviderStats, terraformBackendSetting, terraformMissing, terraformVersion, TerraformRunner, nullProviderLauncher, withStateBackend, writeFloorConfig, writeTerraformConfig } from "./terraform";

const RESULTS = path.join(ROOT, "bench/results");

function envNumbers(name: string, fallback: number[]): number[] {
  const raw = process.env[name];
  if (!raw) return fallback;
  const values = raw.split(",").map((s) => Number(s.trim()));
  if (values.some((v) => !Number.isInteger(v) || v < 1)) throw new Error(`${name} must be whole numbers >= 1, got "${raw}"`);
  return values;
}

const SIZES = envNumbers("BENCH_SIZES", [10, 100, 1000, 5000]);
const [RATE] = envNumbers("BENCH_RATE", [20]);
const [RATE_N] = envNumbers("BENCH_RATE_N", [200]);
const [TF_BUDGET_S] = envNumbers("BENCH_TF_BUDGET_S", [240]);
const CPU_PROF = process.env.BENCH_CPU_PROF;
/** Rounds of paired provider/floor plans and applies after the first measurement (see pairedRounds). */
const [REPEATS] = process.env.BENCH_REPEATS === "0" ? [0] : envNumbers("BENCH_REPEATS", [2]);
const TF_BACKEND = terraformBackendSetting();
/** BENCH_TERRAFORM=skip: the ods side and the rate-limited apply only. */
const SKIP_TERRAFORM = process.env.BENCH_TERRAFORM === "skip";
/** The emulator's default license: what the clients keep under in the unlimited runs. */
const DEFAULT_RATE = 100;

/** BENCH_LATENCY=50ms (default) or skip; BENCH_LATENCY_SIZES=1000,5000; BENCH_ONLY=latency runs that section alone. */
const LATENCY = process.env.BENCH_LATENCY ?? "50ms";
const LATENCY_MS = LATENCY === "skip" ? 0 : Number(/^(\d+)ms$/.exec(LATENCY)?.[1] ?? NaN);
if (LATENCY !== "skip" && !(LATENCY_MS > 0)) throw new Error(`BENCH_LATENCY must look like 50ms, or be skip; got "${LATENCY}"`);
const LATENCY_SIZES = envNumbers("BENCH_LATENCY_SIZES", [1000, 5000]);
const ONLY_LATENCY = process.env.BENCH_ONLY === "latency";
/** BENCH_PAIRED_SIZES=1000,5000 (those of BENCH_SIZES; with BENCH_ONLY=paired, these alone); BENCH_PAIRED_ROUNDS=3; BENCH_ONLY=paired runs that section alone. */
const PAIRED_SIZES = envNumbers("BENCH_PAIRED_SIZES", [1000, 5000]);
const [PAIRED_ROUNDS] = envNumbers("BENCH_PAIRED_ROUNDS", [3]);
const ONLY_PAIRED = process.env.BENCH_ONLY === "paired";
/** BENCH_GROWTH_SIZES=2000,10000,20000 (default), BENCH_GROWTH=skip; BENCH_ONLY=growth runs that section alone (bench/growth.ts). */
const GROWTH_SIZES = envNumbers("BENCH_GROWTH_SIZES", [2000, 10000, 20000]);
const SKIP_GROWTH = process.env.BENCH_GROWTH === "skip";
const ONLY_GROWTH = process.env.BENCH_ONLY === "growth";
/** BENCH_GROWTH_BACKENDS=local,http,pg: the state backends the growth section measures (default local). */
const GROWTH_BACKENDS = (process.env.BENCH_GROWTH_BACKENDS ?? "local").split(",").map((b) => b.trim()).filter(Boolean);
for (const b of GROWTH_BACKENDS) {
  if (!(ALL_GROWTH_BACKENDS as readonly string[]).includes(b)) throw new Error(`BENCH_GROWTH_BACKENDS: "${b}" is not one of ${ALL_GROWTH_BACKENDS.join(", ")}`);
}

const log = (text: string): void => {
  process.stdout.write(`${text}\n`);
};

interface Step {
  wallMs: number;
  peakRssMiB?: number;
  /** CPU of the command and its children (for terraform: its provider processes too). */
  cpuMs?: number;
  /** Terraform runs: the CPU of the provider processes it started, and how many (ODS_PROVIDER_STATS). */
  provider?: { cpuMs: number; starts: number };
  requests: RequestSummary;
  /** Exit code; for no-change plans 0 means the stack converged. */
  code: number | null;
}

/** The four commands each side runs, in order. */
interface FourSteps {
  applyEmpty: Step;
  planNoChange: Step;
  applyChanged: Step;
  planAfter: Step;
}

interface SizeResult {
  n: number;
  layout: StackLayout;
  synth: { wallMs: number; constructMs: number; synthMs: number; peakRssMiB?: number };
  /** Lower bound of the reads of a refresh: the target's organization, one list per kind, one per dataset for per-dataset kinds. */
  listLowerBound: number;
  changedResources: number;
  /** Plan-time reads an apply needs (queryChecksFor). */
  queryChecks: { applyEmpty: number; applyChanged: number };
  ods: FourSteps;
  terraform?: FourSteps | { skipped: string };
  /** The same N as terraform_data: Terraform's own floor, measured in the same run. */
  floor?: FourSteps | { skipped: string };
  /** Rounds of paired measurements after both sides (see pairedRounds). */
  rounds?: PairedRound[];
}

const QUERY_KINDS = ["ods_starred_query", "ods_virtual_field", "ods_monitor"];

/**
 * Requests a plan makes before it writes, for the objects it creates or changes: one
 * compile per starred query, virtual field or monitor; for monitors, one notifier list
 * for all of them and the backtest (one query each, and the history of each monitor
 * that already lives).
 */
function queryChecksFor(stack: GeneratedStack, addresses?: string[]): number {
  const all = QUERY_KINDS.flatMap((type) => Object.keys(stack.resource[type] ?? {}).map((name) => `${type}.${name}`));
  const checked = addresses ? all.filter((a) => addresses.includes(a)) : all;
  const monitors = checked.filter((a) => a.startsWith("ods_monitor.")).length;
  return checked.length + (monitors > 0 ? 1 : 0) + monitors * (addresses ? 2 : 1);
}

/**
 * One read of the organization (the plan names its target and checks the state belongs
 * to it), one list per organization-wide kind, one per (kind, dataset) for per-dataset kinds.
 */
function listLowerBound(stack: GeneratedStack): number {
  let bound = 1;
  for (const [type, byName] of Object.entries(stack.resource)) {
    if (["ods_virtual_field", "ods_starred_query", "ods_dataset_field"].includes(type)) {
      const datasets = new Set(Object.values(byName).map((b) => String(b.dataset)));
      bound += datasets.size;
    } else bound += 1;
  }
  return bound;
}

const synthesize = synthesizeStack;

async function measured(emu: EmulatorProcess, what: string, run: () => Promise<TimedRun & { provider?: Step["provider"] }>, okCodes: number[]): Promise<Step> {
  await emu.resetRequests();
  const r = await run();
  const requests = summarizeRequests(await emu.requests());
  const cpu = r.cpuMs === undefined ? "" : `, CPU ${s(r.cpuMs)} s${r.provider ? ` (provider ${s(r.provider.cpuMs)} s in ${r.provider.starts} starts)` : ""}`;
  log(`  ${what}: ${(r.wallMs / 1000).toFixed(2)} s, ${requests.total} requests (${requests.writes} writes, ${requests.queries} query checks, ${requests.status429} x 429)${r.peakRssMiB ? `, peak RSS ${r.peakRssMiB.toFixed(0)} MiB` : ""}${cpu}, exit ${r.code}`);
  if (r.code === null || !okCodes.includes(r.code)) {
    log(`  ${what} FAILED:\n${r.stderr.slice(0, 4000)}\n${r.stdout.slice(-2000)}`);
  }
  return { wallMs: r.wallMs, peakRssMiB: r.peakRssMiB, cpuMs: r.cpuMs, provider: r.provider, requests, code: r.code };
}

function cpuProfArgs(n: number, label: string): string[] {
  if (!CPU_PROF || n !== Math.max(...SIZES)) return [];
  fs.mkdirSync(CPU_PROF, { recursive: true });
  return ["--cpu-prof", "--cpu-prof-dir", CPU_PROF, "--cpu-prof-name", `ods-${label}-${n}.cpuprofile`];
}

async function odsSide(emu: EmulatorProcess, dir: string, n: number, changed: GeneratedStack): Promise<SizeResult["ods"]> {
  const flags = ["--out-dir", path.join(dir, "cdktf.out"), "--no-synth", "--state", path.join(dir, "state.json")];
  const ods = (label: string, args: string[]) => () =>
    CPU_PROF && cpuProfArgs(n, label).length
      ? timed(process.execPath, [...cpuProfArgs(n, label), path.join(ROOT, "bin/ods.js"), ...args, ...flags], {
          env: { ...process.env, CHECKPOINT_DISABLE: "1", ODS_URL: emu.url, ODS_TOKEN: emu.token },
          timeoutMs: 1_800_000,
        })
      : runOdsTimed([...args, ...flags], emu, { timeoutMs: 1_800_000 });
  const applyEmpty = await measured(emu, "ods apply (from empty)", ods("apply-empty", ["apply", "--auto-approve"]), [0]);
  const planNoChange = await measured(emu, "ods plan (no changes)", ods("plan", ["plan", "--detailed-exitcode"]), [0]);
  await synthesize(changed, dir);
  const applyChanged = await measured(emu, "ods apply (10% changed)", ods("apply-changed", ["apply", "--auto-approve"]), [0]);
  const planAfter = await measured(emu, "ods plan (after, expect no changes)", ods("plan-after", ["plan", "--detailed-exitcode"]), [0]);
  return { applyEmpty, planNoChange, applyChanged, planAfter };
}

/** Thrown when the Terraform commands of a size use up their budget. */
class OverBudget extends Error {}

/**
 * Four Terraform commands sharing one budget: each may use what the ones before it left;
 * one still running when it is spent is killed and reported as OverBudget.
 */
function budgeted(tf: TerraformRunner, budget: string, env: Record<string, string> = {}): (label: string, args: string[]) => () => Promise<TimedRun & { provider?: Step["provider"] }> {
  const deadline = Date.now() + TF_BUDGET_S * 4 * 1000;
  return (label, args) => async () => {
    // Each provider process Terraform starts appends its CPU and calls here at exit.
    const statsDir = fs.mkdtempSync(path.join(os.tmpdir(), "ods-provider-stats-"));
    const statsFile = path.join(statsDir, "stats.jsonl");
    try {
      const r = await tf.run(args, { timeoutMs: Math.max(deadline - Date.now(), 1), env: { ...env, ODS_PROVIDER_STATS: statsFile } });
      if (r.signal === "SIGKILL") throw new OverBudget(`${label} was still running when ${budget} ran out`);
      const stats = readProviderStats(statsFile);
      if (stats.length === 0) return r; // terraform_data: no provider process
      return { ...r, provider: { cpuMs: stats.reduce((sum, p) => sum + p.cpuMs, 0), starts: stats.length } };
    } finally {
      fs.rmSync(statsDir, { recursive: true, force: true });
    }
  };
}

/** How one side of the Terraform comparison lays out its configuration and names its commands. */
interface TerraformSide {
  work: string;
  /** Writes the working directory's configuration for a stack (the base, then the changed). */
  write(stack: GeneratedStack): Promise<void>;
  /** The side's name for a command, "terraform plan" as the provider's or the floor's. */
  command(what: string): string;
  budget: string;
  overBudget(message: string): string;
}

/**
 * The four commands of one side under one budget: apply from empty, plan (no changes),
 * apply of the 10% changed, plan after (expect no changes).
 */
async function fourCommands(emu: EmulatorProcess, cliConfig: string, side: TerraformSide, base: GeneratedStack, changed: GeneratedStack): Promise<FourSteps | { skipped: string }> {
  await side.write(base);
  const tf = new TerraformRunner(side.work, cliConfig, emu);
  const init = await tf.run(["init"]);
  if (init.code !== 0) return { skipped: `terraform init failed: ${init.stdout.slice(-1000)}${init.stderr.slice(-1000)}` };
  const run = budgeted(tf, side.budget);
  const step = (what: string, args: string[]): Promise<Step> => measured(emu, side.command(what), run(side.command(what), args), [0]);
  try {
    const applyEmpty = await step("apply (from empty)", ["apply", "-auto-approve"]);
    const planNoChange = await step("plan (no changes)", ["plan", "-detailed-exitcode"]);
    await side.write(changed);
    const applyChanged = await step("apply (10% changed)", ["apply", "-auto-approve"]);
    const planAfter = await step("plan (after, expect no changes)", ["plan", "-detailed-exitcode"]);
    return { applyEmpty, planNoChange, applyChanged, planAfter };
  } catch (err) {
    if (err instanceof OverBudget) return { skipped: side.overBudget(err.message) };
    throw err;
  }
}

/** terraform-provider-ods on the synthesized stack (the datasets imported: they hold data). */
function providerSide(dir: string, base: GeneratedStack): TerraformSide {
  const work = path.join(dir, "work");
  const imports = datasetImports(base);
  return {
    work,
    write: async (stack) => {
      await synthesize(stack, dir);
      writeTerraformConfig(path.join(dir, "cdktf.out/stacks/main/cdk.tf.json"), work, imports);
    },
    command: (what) => `terraform ${what}`,
    budget: `the budget of 4 x ${TF_BUDGET_S} s (BENCH_TF_BUDGET_S) for the four Terraform commands`,
    overBudget: (message) => `over budget: ${message}`,
  };
}

/**
 * Terraform alone: the same N as terraform_data, same references, same 10% changed, under
 * the same budget as the provider's four commands. It runs even when the provider's side
 * ran over, to tell whether Terraform itself fits that budget at this size.
 */
function floorSide(dir: string): TerraformSide {
  const work = path.join(dir, "floor");
  return {
    work,
    write: async (stack) => void writeFloorConfig(stack, work),
    command: (what) => `floor: terraform_data ${what}`,
    budget: `the same budget of 4 x ${TF_BUDGET_S} s`,
    overBudget: (message) => `floor over budget too: ${message}`,
  };
}

/** One round of the repeated, paired measurements: each provider command next to the floor's. */
interface PairedRound {
  planProvider: Step;
  /** The same plan through the null provider (bench/null-provider.ts): our transport and codec, no handler work. */
  planNull: Step;
  planFloor: Step;
  applyProvider: Step;
  applyFloor: Step;
}

/**
 * After both sides: BENCH_REPEATS more rounds of plan (no changes) and apply (10% changed,
 * the changed resources flipping between two revisions), each provider command followed
 * at once by the floor's. This machine's speed drifts by tens of percent within minutes,
 * so a ratio is taken within a pair, and the report gives the median over the rounds.
 * Between the two plans, the same plan through the null provider, on the same state.
 */
async function pairedRounds(emu: EmulatorProcess, dir: string, cliConfig: string, base: GeneratedStack, nullLauncher: string): Promise<PairedRound[]> {
  const n = resourceCount(base);
  const provider = providerSide(dir, base);
  const floor = floorSide(dir);
  const budget = `the budget of 4 x ${TF_BUDGET_S} s for the repeated rounds`;
  const runTf = budgeted(new TerraformRunner(provider.work, cliConfig, emu), budget);
  const runFloor = budgeted(new TerraformRunner(floor.work, cliConfig, emu), budget);
  // A plan writes no state, so the null provider plans against the real side's state.
  const runNull = budgeted(new TerraformRunner(provider.work, cliConfig, emu), budget, { ODS_PROVIDER_NODE: nullLauncher });
  const rounds: PairedRound[] = [];
  try {
    for (let round = 1; round <= REPEATS; round++) {
      const planProvider = await measured(emu, `round ${round}: terraform plan (no changes)`, runTf("terraform plan", ["plan", "-detailed-exitcode"]), [0]);
      const planNull = await measured(emu, `round ${round}: null provider plan (no changes)`, runNull("terraform plan (null provider)", ["plan", "-detailed-exitcode"]), [0]);
      const planFloor = await measured(emu, `round ${round}: floor plan (no changes)`, runFloor("terraform_data plan", ["plan", "-detailed-exitcode"]), [0]);
      // Each apply goes to a revision of its own (the first measurement left revision 1).
      const next = generateStack({ n, prefix: "tf", revision: 2 * round });
      await provider.write(next);
      const applyProvider = await measured(emu, `round ${round}: terraform apply (10% changed)`, runTf("terraform apply", ["apply", "-auto-approve"]), [0]);
      await floor.write(next);
      const applyFloor = await measured(emu, `round ${round}: floor apply (10% changed)`, runFloor("terraform_data apply", ["apply", "-auto-approve"]), [0]);
      rounds.push({ planProvider, planNull, planFloor, applyProvider, applyFloor });
    }
  } catch (err) {
    if (!(err instanceof OverBudget)) throw err;
    log(`  repeated rounds stopped: ${err.message}`);
  }
  return rounds;
}

interface RateResult {
  n: number;
  ratePerSecond: number;
  wallMs: number;
  writes: number;
  requests: number;
  status429: number;
  /** Wall time over N/R. */
  timeOverBound: number;
  code: number | null;
}

/**
 * Waits out the service's current second: the set-up calls just made spent part of its
 * budget, which the organization shares, and the measured command must not start in a
 * second some other caller already half spent (its client cannot know until an answer
 * says the budget is gone).
 */
function freshRateWindow(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 1100));
}

async function rateLimited(root: string): Promise<RateResult> {
  const dir = path.join(root, "rate");
  fs.mkdirSync(dir, { recursive: true });
  const emu = await startEmulatorProcess({ dataDir: path.join(dir, "emu"), rateLimit: RATE });
  try {
    const spec = generateStack({ n: RATE_N, prefix: "rl" });
    await synthesize(spec, dir);
    await prepareDatasets(emu, "rl", layoutOf(RATE_N));
    await freshRateWindow();
    log(`rate-limited apply: ${RATE_N} resources, emulator limited to ${RATE} requests/s`);
    const step = await measured(emu, "ods apply (from empty, rate-limited)", () => runOdsTimed(["apply", "--auto-approve", "--out-dir", path.join(dir, "cdktf.out"), "--no-synth", "--state", path.join(dir, "state.json")], emu, { timeoutMs: 1_800_000 }), [0]);
    const boundMs = (RATE_N / RATE) * 1000;
    return { n: RATE_N, ratePerSecond: RATE, wallMs: step.wallMs, writes: step.requests.writes, requests: step.requests.total, status429: step.requests.status429, timeOverBound: step.wallMs / boundMs, code: step.code };
  } finally {
    await emu.stop();
  }
}

function machine(): Record<string, string | number> {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model ?? "unknown",
    cores: cpus.length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    terraform: terraformMissing() ? "absent" : terraformVersion(),
    terraformBackend: TF_BACKEND,
    date: new Date().toISOString(),
  };
}

const s = (ms: number): string => (ms / 1000).toFixed(2);

/** Each round's ratio, as the report lists them before their median. */
function ratioList(xs: number[]): string {
  return xs.map((x) => x.toFixed(2)).join(", ");
}

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
const mib = (v?: number): string => (v === undefined ? "n/a" : v.toFixed(0));

/** An apply against its bound: the larger of the floor's apply and its writes at the default rate. */
function applyRatio(tfStep: Step, floorStep: Step): number {
  return tfStep.wallMs / Math.max(floorStep.wallMs, (tfStep.requests.writes / DEFAULT_RATE) * 1000);
}

/** A section of the report, when it has rows: its heading, what it measures, its table. */
function pushSection(lines: string[], rows: readonly string[], section: { title: string; text: string; header: readonly [string, string] }): void {
  if (rows.length === 0) return;
  lines.push("", `### ${section.title}`, "", section.text, "", ...section.header, ...rows);
}

function markdown(results: SizeResult[], rate: RateResult, m: Record<string, string | number>): string {
  const lines: string[] = [];
  lines.push(`# Benchmark results`, "", `Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, ${m.os}; Node ${m.node}; ${m.terraform}. Run at ${m.date}.`, "");
  lines.push(
    "Emulator on 127.0.0.1 with its default license (100 requests/s, which the client keeps under); a fresh emulator per size. Times are wall-clock seconds of the CLI process; requests are counted in the emulator's log.",
    "",
  );
  if (CPU_PROF) lines.push(`The ods plan/apply figures at N=${Math.max(...SIZES)} were measured under \`node --cpu-prof\` (a few percent slower).`, "");
  lines.push("| N | datasets | synth s (cdktf, whole process) | plan no-change s | plan requests / lower bound | apply from empty s | apply requests / N | apply 10% changed s (changed) | peak RSS MiB (plan / apply) | converged |");
  lines.push("|---:|---:|---:|---:|---:|---:|---:|---:|---:|:---:|");
  for (const r of results) {
    const o = r.ods;
    const converged = o.planNoChange.code === 0 && o.planAfter.code === 0 ? "yes" : "NO";
    lines.push(
      `| ${r.n} | ${r.layout.datasets} | ${s(r.synth.wallMs)} (synth ${s(r.synth.synthMs)}) | ${s(o.planNoChange.wallMs)} | ${o.planNoChange.requests.total} / ${r.listLowerBound} = ${(o.planNoChange.requests.total / r.listLowerBound).toFixed(2)} | ${s(o.applyEmpty.wallMs)} | ${o.applyEmpty.requests.total} / ${r.n} = ${(o.applyEmpty.requests.total / r.n).toFixed(2)} | ${s(o.applyChanged.wallMs)} (${r.changedResources}) | ${mib(o.planNoChange.peakRssMiB)} / ${mib(o.applyEmpty.peakRssMiB)} | ${converged} |`,
    );
  }
  lines.push("", "## Terraform side by side (same synthesized stack, terraform-provider-ods)", "");
  lines.push(
    TF_BACKEND === "http"
      ? "State backend of every Terraform run here, provider and floor alike: `http`, served by the bench on 127.0.0.1, as a team with a large org keeps its state remotely. Terraform then persists the state every 20 s and at the end. (BENCH_TF_BACKEND=local measures Terraform's default backend, which rewrites the whole state file after every resource applied.)"
      : "State backend of every Terraform run here, provider and floor alike: `local` (BENCH_TF_BACKEND=local). Terraform rewrites the whole state file after every resource it applies, so applies grow with N squared on both sides.",
    "",
  );
  lines.push("| N | terraform plan no-change s (ods) | plan requests (ods) | terraform apply from empty s (ods) | apply 10% changed s (ods) | 429 answers (ods) | converged |");
  lines.push("|---:|---:|---:|---:|---:|---:|:---:|");
  for (const r of results) {
    const t = r.terraform;
    if (!t || "skipped" in t) {
      lines.push(`| ${r.n} | skipped: ${t ? t.skipped : "not run"} | | | | | |`);
      continue;
    }
    const o = r.ods;
    const t429 = t.applyEmpty.requests.status429 + t.planNoChange.requests.status429 + t.applyChanged.requests.status429;
    const o429 = o.applyEmpty.requests.status429 + o.planNoChange.requests.status429 + o.applyChanged.requests.status429;
    lines.push(
      `| ${r.n} | ${s(t.planNoChange.wallMs)} (${s(o.planNoChange.wallMs)}) | ${t.planNoChange.requests.total} (${o.planNoChange.requests.total}) | ${s(t.applyEmpty.wallMs)} (${s(o.applyEmpty.wallMs)}) | ${s(t.applyChanged.wallMs)} (${s(o.applyChanged.wallMs)}) | ${t429} (${o429}) | ${t.planNoChange.code === 0 && t.planAfter.code === 0 ? "yes" : "NO"} |`,
    );
  }
  lines.push("", "## `ods apply` against its request bound", "");
  lines.push(
    "Bound: the writes made, plus the plan's lower-bound reads (the target's organization, one list per kind, one per dataset for per-dataset kinds), plus its checks: one compile per starred query, virtual field or monitor created or changed, and for monitors one notifier list and the backtest (a query each, and the history of each one that already lives).",
    "",
  );
  lines.push("| N | apply | requests | writes | lower-bound lists | checks and backtest reads needed (queries made) | requests / bound | 429 answers |", "|---:|---|---:|---:|---:|---:|---:|---:|");
  for (const r of results) {
    for (const [label, step, checks] of [
      ["from empty", r.ods.applyEmpty, r.queryChecks.applyEmpty],
      ["10% changed", r.ods.applyChanged, r.queryChecks.applyChanged],
    ] as const) {
      const bound = step.requests.writes + r.listLowerBound + checks;
      lines.push(`| ${r.n} | ${label} | ${step.requests.total} | ${step.requests.writes} | ${r.listLowerBound} | ${checks} (${step.requests.queries}) | ${(step.requests.total / bound).toFixed(2)} | ${step.requests.status429} |`);
    }
  }
  lines.push("", "## Terraform path against Terraform's own floor", "");
  lines.push(
    `Floor: the same N as Terraform's built-in \`terraform_data\` (no provider process), each holding its resource's block as input, with the same references and dependencies, measured in this run. For applies the floor is the larger of that and the rate-limit bound, writes / ${DEFAULT_RATE} requests/s.`,
    "",
  );
  lines.push("| N | plan no-change: provider / floor | apply from empty: provider / max(floor, writes/R) | apply 10% changed: provider / max(floor, writes/R) |", "|---:|---:|---:|---:|");
  for (const r of results) {
    const t = r.terraform;
    const f = r.floor;
    if (t && "skipped" in t && f && !("skipped" in f)) {
      // The provider's side ran over its budget: Terraform's own times say whether it could have fitted.
      lines.push(`| ${r.n} | provider ${t.skipped}; floor ${s(f.planNoChange.wallMs)} s | floor ${s(f.applyEmpty.wallMs)} s | floor ${s(f.applyChanged.wallMs)} s |`);
      continue;
    }
    if (!t || "skipped" in t || !f || "skipped" in f) {
      const why = [t && "skipped" in t ? `provider ${t.skipped}` : "", f && "skipped" in f ? f.skipped : ""].filter(Boolean).join("; ");
      lines.push(`| ${r.n} | skipped: ${why || "not run"} | | |`);
      continue;
    }
    const applyCell = (tfStep: Step, floorStep: Step): string => {
      const rateMs = (tfStep.requests.writes / DEFAULT_RATE) * 1000;
      const bound = Math.max(floorStep.wallMs, rateMs);
      return `${s(tfStep.wallMs)} / max(${s(floorStep.wallMs)}, ${s(rateMs)}) = **${(tfStep.wallMs / bound).toFixed(2)}**`;
    };
    lines.push(
      `| ${r.n} | ${s(t.planNoChange.wallMs)} / ${s(f.planNoChange.wallMs)} = **${(t.planNoChange.wallMs / f.planNoChange.wallMs).toFixed(2)}** | ${applyCell(t.applyEmpty, f.applyEmpty)} | ${applyCell(t.applyChanged, f.applyChanged)} |`,
    );
  }
  if (results.some((r) => r.rounds?.length)) {
    lines.push("", "### Repeated, paired", "");
    lines.push(
      `The same two ratios measured again in ${REPEATS} more rounds, each provider command followed at once by the floor's (each 10% changed apply to a revision of its own), since this machine's speed drifts by tens of percent within minutes. Each cell: the ratios of the first measurement and of every round, then their median.`,
      "",
    );
    lines.push("| N | plan no-change: provider / floor | median | apply 10% changed: provider / max(floor, writes/R) | median |", "|---:|---|---:|---|---:|");
    for (const r of results) {
      const t = r.terraform;
      const f = r.floor;
      if (!r.rounds?.length || !t || "skipped" in t || !f || "skipped" in f) continue;
      const plans = [t.planNoChange.wallMs / f.planNoChange.wallMs, ...r.rounds.map((x) => x.planProvider.wallMs / x.planFloor.wallMs)];
      const applies = [applyRatio(t.applyChanged, f.applyChanged), ...r.rounds.map((x) => applyRatio(x.applyProvider, x.applyFloor))];
      lines.push(`| ${r.n} | ${ratioList(plans)} | **${median(plans).toFixed(2)}** | ${ratioList(applies)} | **${median(applies).toFixed(2)}** |`);
    }
  }
  const cpuRows = results.flatMap((r) => {
    const t = r.terraform;
    const f = r.floor;
    if (!t || "skipped" in t || !f || "skipped" in f) return [];
    const pairs: [Step, Step][] = [[t.planNoChange, f.planNoChange], ...(r.rounds ?? []).map((x): [Step, Step] => [x.planProvider, x.planFloor])];
    if (pairs.some(([p, fl]) => p.cpuMs === undefined || fl.cpuMs === undefined || !p.provider)) return [];
    const m = (pick: (p: Step, fl: Step) => number): string => s(median(pairs.map(([p, fl]) => pick(p, fl))));
    return [
      `| ${r.n} | ${m((p) => p.wallMs)} / ${m((_p, fl) => fl.wallMs)} | ${m((p) => p.cpuMs!)} | ${m((p) => p.provider!.cpuMs)} (${pairs[0][0].provider!.starts} starts) | ${m((p) => p.cpuMs! - p.provider!.cpuMs)} / ${m((_p, fl) => fl.cpuMs!)} |`,
    ];
  });
  pushSection(lines, cpuRows, {
    title: "Where a no-change plan's time goes",
    text: `CPU seconds of the same plans (medians over the first measurement and the rounds), from /usr/bin/time around \`terraform\` (its provider processes included) and each provider process's own count (ODS_PROVIDER_STATS). The machine has ${os.cpus().length} cores.`,
    header: ["| N | wall s: provider / floor | CPU s: terraform + provider | of which provider processes | terraform's own CPU s: with the provider / floor |", "|---:|---:|---:|---:|---:|"],
  });
  const nullRows = results.flatMap((r) => {
    const rounds = r.rounds ?? [];
    if (rounds.length === 0) return [];
    const m = (pick: (x: PairedRound) => number): number => median(rounds.map(pick));
    const cpu = (step: Step): string => (step.provider ? s(step.provider.cpuMs) : "n/a");
    return [
      `| ${r.n} | ${s(m((x) => x.planProvider.wallMs))} / ${s(m((x) => x.planNull.wallMs))} / ${s(m((x) => x.planFloor.wallMs))} | **${m((x) => x.planNull.wallMs / x.planFloor.wallMs).toFixed(2)}** | **${m((x) => x.planProvider.wallMs / x.planNull.wallMs).toFixed(2)}** | ${cpu(rounds[0].planProvider)} / ${cpu(rounds[0].planNull)} |`,
    ];
  });
  pushSection(lines, nullRows, {
    title: "Against a provider that does no work",
    text: "The same no-change plan in each round through a null provider (`bench/null-provider.ts`): this provider's schema, plugin server, transport and value codec, bundled the same way, with handlers that answer what Terraform sent them. It shows the lowest a Node provider built this way reaches on this machine, and what our own handlers add above it. Medians over the rounds.",
    header: ["| N | wall s: provider / null provider / floor | null provider / floor | provider / null provider | provider processes' CPU s: provider / null (round 1) |", "|---:|---:|---:|---:|---:|"],
  });
  lines.push("", `## Under a rate limit`, "");
  lines.push(`Emulator limited to ${rate.ratePerSecond} requests/s (its license still says 100: the client must learn the limit from the answers).`, "");
  lines.push("| N resources | wall s | lower bound N/R s | wall / (N/R) | requests made | wall / (requests/R) | writes | 429 answers provoked |", "|---:|---:|---:|---:|---:|---:|---:|---:|");
  lines.push(
    `| ${rate.n} | ${s(rate.wallMs)} | ${(rate.n / rate.ratePerSecond).toFixed(2)} | ${rate.timeOverBound.toFixed(2)} | ${rate.requests} | ${(rate.wallMs / ((rate.requests / rate.ratePerSecond) * 1000)).toFixed(2)} | ${rate.writes} | ${rate.status429} |`,
  );
  lines.push("", `Kinds: ods_dataset plus ${SPREAD_KINDS.join(", ")} (round robin). 10% changed: every 10th resource (descriptions, URLs, metadata, user roles; a changed token is rotated).`);
  lines.push("Reproduce: `npm run bench` (settings: BENCH_SIZES, BENCH_RATE, BENCH_RATE_N, BENCH_TF_BUDGET_S, BENCH_TF_BACKEND, BENCH_REPEATS, BENCH_CPU_PROF).", "");
  return lines.join("\n");
}

async function main(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "ods-bench-"));
  const m = machine();
  log(`machine: ${JSON.stringify(m)}`);
  const tfMissing = SKIP_TERRAFORM ? "skipped by BENCH_TERRAFORM=skip" : terraformMissing();
  if (tfMissing) log(`terraform side skipped: ${tfMissing}`);
  const cliConfig = tfMissing ? undefined : installProvider(path.join(root, "tf-mirror"));
  // The journals of passed checks the provider processes of a command share (passed-checks.ts).
  const providerCache = path.join(root, "provider-cache");
  fs.mkdirSync(providerCache, { mode: 0o700 });
  process.env.ODS_PROVIDER_CACHE_DIR = providerCache;
  /** BENCH_ONLY=latency: its own report, rewritten after each size. */
  /** Writes one section's results as bench/results/NAME.md and NAME.json (the machine first); answers the markdown. */
  const writeSection = (name: string, title: string, withTerraform: boolean, body: readonly string[], json: Record<string, unknown>): string => {
    const md = [`# Benchmark results: ${title}`, "", `Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, ${m.os}; Node ${m.node}${withTerraform ? `; ${m.terraform}` : ""}. Run at ${m.date}.`, ...body, ""].join("\n");
    fs.mkdirSync(RESULTS, { recursive: true });
    fs.writeFileSync(path.join(RESULTS, `${name}.md`), md);
    fs.writeFileSync(path.join(RESULTS, `${name}.json`), `${JSON.stringify({ machine: m, ...json }, null, 2)}\n`);
    return md;
  };
  const writeLatency = (latency: readonly LatencySize[]): string =>
    writeSection("latency", "latency section", true, latencyMarkdown(latency, LATENCY_MS), { latencyMs: LATENCY_MS, sizes: latency });
  const latencyRun = (): Promise<LatencySize[]> =>
    LATENCY === "skip"
      ? Promise.resolve([])
      : latencySection(root, { sizes: LATENCY_SIZES, latencyMs: LATENCY_MS, cliConfig, backend: TF_BACKEND, log, ...(ONLY_LATENCY ? { onSize: writeLatency } : {}) });
  const pairedRun = (sizes: readonly number[]): Promise<PairedSize[]> =>
    cliConfig && sizes.length > 0 ? pairedSection(root, { sizes, rounds: PAIRED_ROUNDS, cliConfig, backend: TF_BACKEND, log }) : Promise.resolve([]);
  if (ONLY_PAIRED) {
    try {
      const paired = await pairedRun(PAIRED_SIZES);
      const md = writeSection("paired", "paired rounds", true, pairedMarkdown(paired, DEFAULT_RATE), { sizes: paired });
      log(`\n${md}\nwritten: bench/results/paired.md, bench/results/paired.json`);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
    return;
  }
  const growthRun = (): Promise<GrowthSize[]> =>
    SKIP_GROWTH && !ONLY_GROWTH
      ? Promise.resolve([])
      : growthSection(root, { sizes: GROWTH_SIZES, backends: GROWTH_BACKENDS as GrowthBackend[], log, profileAt: CPU_PROF ? Math.max(...GROWTH_SIZES) : undefined, cpuProfDir: CPU_PROF });
  if (ONLY_GROWTH) {
    try {
      const growth = await growthRun();
      const md = writeSection("growth", "growth section", false, growthMarkdown(growth), { sizes: growth });
      log(`\n${md}\nwritten: bench/results/growth.md, bench/results/growth.json`);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
    return;
  }
  if (ONLY_LATENCY) {
    try {
      const md = writeLatency(await latencyRun());
      log(`\n${md}\nwritten: bench/results/latency.md, bench/results/latency.json`);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
    return;
  }
  const results: SizeResult[] = [];
  let tfSkipReason: string | undefined = tfMissing;
  /** The null provider, bundled once for every size's rounds. */
  let nullLauncher: string | undefined;
  try {
    for (const n of SIZES) {
      log(`N = ${n}`);
      const dir = path.join(root, `n${n}`);
      fs.mkdirSync(path.join(dir, "ods"), { recursive: true });
      const emu = await startEmulatorProcess({ dataDir: path.join(dir, "emu") });
      try {
        const layout = layoutOf(n);
        const base = generateStack({ n, prefix: "ods" });
        const changed = generateStack({ n, prefix: "ods", revision: 1 });
        if (resourceCount(base) !== n) throw new Error(`generator made ${resourceCount(base)} resources, not ${n}`);
        const synth = await synthesize(base, path.join(dir, "ods"));
        log(`  synth: ${s(synth.wallMs)} s (constructs ${s(synth.constructMs)} s, app.synth ${s(synth.synthMs)} s), peak RSS ${mib(synth.peakRssMiB)} MiB`);
        await prepareDatasets(emu, "ods", layout);
        await freshRateWindow();
        const odsResult = await odsSide(emu, path.join(dir, "ods"), n, changed);
        const changedList = changedAddresses(base, changed);
        const result: SizeResult = {
          n,
          layout,
          synth,
          listLowerBound: listLowerBound(base),
          changedResources: changedList.length,
          queryChecks: { applyEmpty: queryChecksFor(base), applyChanged: queryChecksFor(changed, changedList) },
          ods: odsResult,
        };
        if (tfSkipReason || !cliConfig) {
          result.terraform = { skipped: tfSkipReason ?? "terraform is not installed" };
          result.floor = { skipped: tfSkipReason ?? "terraform is not installed" };
        } else {
          await prepareDatasets(emu, "tf", layout);
          const tfDir = path.join(dir, "tf");
          // Each working directory keeps its state in a backend of its own for the whole size.
          await withStateBackend(path.join(tfDir, "work"), TF_BACKEND, () =>
            withStateBackend(path.join(tfDir, "floor"), TF_BACKEND, async () => {
              const started = Date.now();
              const tfBase = generateStack({ n, prefix: "tf" });
              const tfChanged = generateStack({ n, prefix: "tf", revision: 1 });
              const terraform = await fourCommands(emu, cliConfig, providerSide(tfDir, tfBase), tfBase, tfChanged);
              result.terraform = terraform;
              log(`  terraform: the four commands took ${((Date.now() - started) / 1000).toFixed(0)} s of a budget of 4 x ${TF_BUDGET_S} s`);
              if ("skipped" in terraform) {
                tfSkipReason = `N=${n} ran over the budget`;
                log(`  terraform: ${terraform.skipped}; larger sizes skipped`);
              }
              const floor = await fourCommands(emu, cliConfig, floorSide(tfDir), tfBase, tfChanged);
              result.floor = floor;
              if ("skipped" in floor) log(`  ${floor.skipped}`);
              if (!("skipped" in terraform) && !("skipped" in floor) && REPEATS > 0) {
                nullLauncher ??= nullProviderLauncher(path.join(root, "null-provider"));
                result.rounds = await pairedRounds(emu, tfDir, cliConfig, tfBase, nullLauncher);
              }
            }),
          );
        }
        results.push(result);
      } finally {
        await emu.stop();
      }
    }
    const paired = tfSkipReason ? [] : await pairedRun(PAIRED_SIZES.filter((n) => SIZES.includes(n)));
    const rate = await rateLimited(root);
    const latency = await latencyRun();
    const growth = await growthRun();
    fs.mkdirSync(RESULTS, { recursive: true });
    results.sort((a, b) => a.n - b.n);
    const md = [markdown(results, rate, m), ...pairedMarkdown(paired, DEFAULT_RATE), ...latencyMarkdown(latency, LATENCY_MS), ...growthMarkdown(growth), ""].join("\n");
    fs.writeFileSync(path.join(RESULTS, "latest.md"), md);
    fs.writeFileSync(path.join(RESULTS, "latest.json"), `${JSON.stringify({ machine: m, sizes: results, paired, rateLimited: rate, latency: { latencyMs: LATENCY_MS, sizes: latency }, growth }, null, 2)}\n`);
    log(`\n${md}`);
    log(`written: bench/results/latest.md, bench/results/latest.json`);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
