// `npm run bench:automation`: a plan through the automation API against the same plan
// through `ods plan`, on the examples' stacks (synthesized once; both plan what is in
// cdktf.out) and on a generated stack of every kind. Both run against one emulator in its
// own process; rounds alternate API and CLI so that neither gets a warmer service. The
// CLI's time is a user's: a Node process started, the program loaded, the plan printed as
// JSON. The API's is a call in a program that already loaded it. Printed: the medians and
// their ratio (API / CLI, at most 1 is the goal), and that both planned the same changes.
//
// Settings (environment): BENCH_AUTOMATION_ROUNDS=5 BENCH_AUTOMATION_N=200
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { ROOT, envNumber, prepareDatasets, runOdsTimed, startEmulatorProcess, synthesizeStack, type EmulatorProcess } from "./harness";
import { generateStack, layoutOf } from "./stack-gen";

type Automation = typeof import("../lib/automation");
type Synth = typeof import("../lib/reconcile/synth");
/* eslint-disable @typescript-eslint/no-require-imports */
const automation = require(path.join(ROOT, "lib/automation")) as Automation;
const { synth } = require(path.join(ROOT, "lib/reconcile/synth")) as Synth;

const INVENTORY_DATASET = "web-requests";
const ROUNDS = envNumber("BENCH_AUTOMATION_ROUNDS", 5);
const N = envNumber("BENCH_AUTOMATION_N", 200);
const EXAMPLES = (process.env.BENCH_AUTOMATION_EXAMPLES ?? "slo,alert-tests,inventory,environments").split(",").filter(Boolean);

const EXAMPLE_SETUP: Record<string, Pick<Case, "env" | "prepare">> = {
  slo: { env: () => ({}) },
  "alert-tests": { env: () => ({ TF_VAR_pager_key: "bench-pager-key" }) },
  inventory: {
    env: () => ({}),
    prepare: async (emu) => {
      const made = await emu.api("POST", "/v2/datasets", { name: INVENTORY_DATASET, description: "bench" });
      if (made.status >= 300 && made.status !== 409) throw new Error(`creating ${INVENTORY_DATASET}: ${made.status}`);
      await emu.api("POST", `/v1/datasets/${INVENTORY_DATASET}/ingest`, [{ service: "bench", status: 200, duration_ms: 12 }]);
    },
  },
  environments: { env: (emu) => ({ TF_VAR_ods_url: emu.url, TF_VAR_ods_token: emu.token, TF_VAR_pager_chat_b_token: "bench-chat-token" }) },
};

interface Case {
  name: string;
  dir: string;
  outDir: string;
  /** What the stacks' variables need (the service's URL and token for examples/environments). */
  env: (emu: EmulatorProcess) => NodeJS.ProcessEnv;
  /** Objects the stacks read through data sources, made first. */
  prepare?: (emu: EmulatorProcess) => Promise<void>;
}

interface Row {
  name: string;
  apiMs: number;
  cliMs: number;
  changes: number;
  agree: boolean;
  note?: string;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function changeList(plan: unknown): string[] {
  const p = plan as { resource_changes?: { address: string; action: string }[]; stacks?: { plans: { resource_changes: { address: string; action: string }[] }[] }[] };
  const parts = p.stacks ? p.stacks.flatMap((s) => s.plans) : [p as { resource_changes: { address: string; action: string }[] }];
  return parts.flatMap((x) => x.resource_changes.map((c) => `${c.action} ${c.address}`)).sort();
}

async function measure(c: Case, emu: EmulatorProcess): Promise<Row> {
  await c.prepare?.(emu);
  const env = { ...process.env, ODS_URL: emu.url, ODS_TOKEN: emu.token, ...c.env(emu) };
  const workspace = new automation.Workspace({ dir: c.dir, outDir: c.outDir, synth: false, allStacks: true, env });
  const api: number[] = [];
  const cli: number[] = [];
  let apiChanges: string[] = [];
  let cliChanges: string[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t = performance.now();
    const plan = await workspace.plan({ backtestDays: false });
    api.push(performance.now() - t);
    apiChanges = changeList(plan);
    const r = await runOdsTimed(["plan", "--json", "--no-synth", "--all-stacks", "--no-backtest", "--out-dir", c.outDir], emu, { cwd: c.dir, env: c.env(emu) });
    if (r.code !== 0) throw new Error(`${c.name}: ods plan exited ${r.code}: ${r.stderr.trim().split("\n").slice(1).join(" ").slice(0, 400)}`);
    cli.push(r.wallMs);
    cliChanges = changeList(JSON.parse(r.stdout));
  }
  return { name: c.name, apiMs: median(api), cliMs: median(cli), changes: apiChanges.length, agree: JSON.stringify(apiChanges) === JSON.stringify(cliChanges) };
}

async function main(): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "ods-bench-automation-"));
  const emu = await startEmulatorProcess({ dataDir: path.join(work, "emulator") });
  const rows: Row[] = [];
  try {
    const cases: Case[] = [];
    for (const name of EXAMPLES) {
      const dir = path.join(work, name);
      const outDir = path.join(dir, "cdktf.out");
      fs.mkdirSync(dir, { recursive: true });
      // The example's app runs in the bench's own project: cdktf writes the local backend's
      // path from there, so no state is read from (or left in) the repository.
      await synth({ cwd: dir, app: `node ${path.join(ROOT, "examples", name, "main.js")}`, out: outDir, stdio: "pipe", warn: () => undefined });
      cases.push({ name: `examples/${name}`, dir, outDir, ...EXAMPLE_SETUP[name] });
    }
    const prefix = "ba";
    const generated = path.join(work, "generated");
    await synthesizeStack(generateStack({ n: N, prefix, revision: 0 }), generated);
    await prepareDatasets(emu, prefix, layoutOf(N));
    cases.push({ name: `generated, ${N} resources`, dir: generated, outDir: path.join(generated, "cdktf.out"), env: () => ({}) });
    for (const c of cases) {
      try {
        rows.push(await measure(c, emu));
      } catch (e) {
        rows.push({ name: c.name, apiMs: NaN, cliMs: NaN, changes: 0, agree: false, note: (e as Error).message.split("\n")[0] });
      }
    }
  } finally {
    await emu.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
  const lines = [
    `# Automation API: plan through the API against ods plan (median of ${ROUNDS} rounds, one run)`,
    "",
    "| stacks | changes | API ms | CLI ms | API / CLI | same changes |",
    "| --- | --- | --- | --- | --- | --- |",
    ...rows.map((r) => (r.note ? `| ${r.name} | - | - | - | - | skipped: ${r.note.replace(/\|/g, "\\|")} |` : `| ${r.name} | ${r.changes} | ${r.apiMs.toFixed(0)} | ${r.cliMs.toFixed(0)} | ${(r.apiMs / r.cliMs).toFixed(2)} | ${r.agree ? "yes" : "NO"} |`)),
    "",
  ];
  process.stdout.write(`${lines.join("\n")}\n`);
  const file = path.join(ROOT, "bench/results/automation.md");
  fs.writeFileSync(file, `${lines.join("\n")}\n`);
  process.stdout.write(`wrote ${path.relative(ROOT, file)}\n`);
  if (rows.some((r) => !r.note && (!r.agree || r.apiMs > r.cliMs))) process.exitCode = 1;
}

void main();
