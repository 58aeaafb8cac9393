// The Terraform path against Terraform's own floor and against a provider that does no
// work, in paired rounds (`npm run bench`, or this section alone with
// BENCH_ONLY=paired). For each size, each round starts a fresh emulator and three fresh
// working directories of the same stack, then runs, one right after the other:
//   - `terraform apply` (creates, from empty): through terraform-provider-ods, through the
//     null provider (bench/null-provider.ts), and as terraform_data (the floor);
//   - `terraform plan` (no changes) of what each just applied, in the same order.
// Every ratio is taken within a round; the report gives each round's and their median.
// The machine's load average is recorded at each round's start: other work on it slows
// every command of a round alike, which the ratios absorb and the wall times do not.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { prepareDatasets, startEmulatorProcess, summarizeRequests, synthesizeStack, type TimedRun } from "./harness";
import { generateStack, layoutOf, resourceCount, type GeneratedStack } from "./stack-gen";
import { datasetImports, nullProviderLauncher, readProviderStats, type TerraformBackend, TerraformRunner, withStateBackend, writeFloorConfig, writeTerraformConfig } from "./terraform";

/** One command's figures. */
export interface PairedStep {
  wallMs: number;
  cpuMs?: number;
  /** The provider processes' CPU and count (ODS_PROVIDER_STATS); absent for the floor. */
  provider?: { cpuMs: number; starts: number };
  code: number | null;
}

export interface PairedRound {
  loadAverage: number;
  /** `requests`: every request ours made to the service during the apply (writes, lists, plan-time checks). */
  apply: { ours: PairedStep; null: PairedStep; floor: PairedStep; writes: number; requests?: number };
  plan: { ours: PairedStep; null: PairedStep; floor: PairedStep };
}

export interface PairedSize {
  n: number;
  rounds: PairedRound[];
}

export interface PairedOptions {
  sizes: readonly number[];
  rounds: number;
  cliConfig: string;
  backend: TerraformBackend;
  log: (line: string) => void;
}

/** Runs one terraform command, with the provider processes' figures. */
async function step(tf: TerraformRunner, args: string[], env: Record<string, string>, okCodes: number[], what: string, log: (line: string) => void): Promise<PairedStep> {
  const statsDir = fs.mkdtempSync(path.join(os.tmpdir(), "ods-paired-stats-"));
  const statsFile = path.join(statsDir, "stats.jsonl");
  try {
    const r: TimedRun = await tf.run(args, { env: { ...env, ODS_PROVIDER_STATS: statsFile } });
    const stats = readProviderStats(statsFile);
    const provider = stats.length ? { cpuMs: stats.reduce((sum, s) => sum + s.cpuMs, 0), starts: stats.length } : undefined;
    log(`    ${what}: ${(r.wallMs / 1000).toFixed(2)} s${r.cpuMs === undefined ? "" : `, CPU ${(r.cpuMs / 1000).toFixed(2)} s`}${provider ? ` (provider ${(provider.cpuMs / 1000).toFixed(2)} s in ${provider.starts} starts)` : ""}, exit ${r.code}`);
    if (r.code === null || !okCodes.includes(r.code)) throw new Error(`${what} exited ${r.code}:\n${r.stderr.slice(0, 3000)}\n${r.stdout.slice(-2000)}`);
    return { wallMs: r.wallMs, cpuMs: r.cpuMs, provider, code: r.code };
  } finally {
    fs.rmSync(statsDir, { recursive: true, force: true });
  }
}

async function init(tf: TerraformRunner): Promise<void> {
  const r = await tf.run(["init"]);
  if (r.code !== 0) throw new Error(`terraform init failed: ${r.stdout.slice(-1000)}${r.stderr.slice(-1000)}`);
}

async function round(root: string, n: number, stack: GeneratedStack, stackJson: string, nullLauncher: string, options: PairedOptions): Promise<PairedRound> {
  const { cliConfig, backend, log } = options;
  const loadAverage = os.loadavg()[0];
  const emu = await startEmulatorProcess({ dataDir: path.join(root, "emu") });
  try {
    await prepareDatasets(emu, "tf", layoutOf(n));
    const ours = path.join(root, "ours");
    const none = path.join(root, "null");
    const floor = path.join(root, "floor");
    writeTerraformConfig(stackJson, ours, datasetImports(stack));
    // The null provider imports nothing (it holds no objects): its datasets are created.
    writeTerraformConfig(stackJson, none);
    writeFloorConfig(stack, floor);
    return await withStateBackend(ours, backend, () =>
      withStateBackend(none, backend, () =>
        withStateBackend(floor, backend, async () => {
          const tfOurs = new TerraformRunner(ours, cliConfig, emu);
          const tfNull = new TerraformRunner(none, cliConfig, emu);
          const tfFloor = new TerraformRunner(floor, cliConfig, emu);
          const nullEnv = { ODS_PROVIDER_NODE: nullLauncher };
          for (const tf of [tfOurs, tfNull, tfFloor]) await init(tf);
          await emu.resetRequests();
          const applyOurs = await step(tfOurs, ["apply", "-auto-approve"], {}, [0], "terraform apply (creates), provider", log);
          const { writes, total: requests } = summarizeRequests(await emu.requests());
          const applyNull = await step(tfNull, ["apply", "-auto-approve"], nullEnv, [0], "terraform apply (creates), null provider", log);
          const applyFloor = await step(tfFloor, ["apply", "-auto-approve"], {}, [0], "terraform apply (creates), floor", log);
          const planOurs = await step(tfOurs, ["plan", "-detailed-exitcode"], {}, [0], "terraform plan (no changes), provider", log);
          const planNull = await step(tfNull, ["plan", "-detailed-exitcode"], nullEnv, [0], "terraform plan (no changes), null provider", log);
          const planFloor = await step(tfFloor, ["plan", "-detailed-exitcode"], {}, [0], "terraform plan (no changes), floor", log);
          return { loadAverage, apply: { ours: applyOurs, null: applyNull, floor: applyFloor, writes, requests }, plan: { ours: planOurs, null: planNull, floor: planFloor } };
        }),
      ),
    );
  } finally {
    await emu.stop();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/** The paired rounds of every size, each size's stack synthesized once. */
export async function pairedSection(root: string, options: PairedOptions): Promise<PairedSize[]> {
  const nullLauncher = nullProviderLauncher(path.join(root, "paired-null-provider"));
  const sizes: PairedSize[] = [];
  for (const n of options.sizes) {
    options.log(`paired rounds, N = ${n}`);
    const stack = generateStack({ n, prefix: "tf" });
    if (resourceCount(stack) !== n) throw new Error(`generator made ${resourceCount(stack)} resources, not ${n}`);
    const synthDir = path.join(root, `paired-${n}-synth`);
    await synthesizeStack(stack, synthDir);
    const stackJson = path.join(synthDir, "cdktf.out/stacks/main/cdk.tf.json");
    const rounds: PairedRound[] = [];
    for (let r = 1; r <= options.rounds; r++) {
      options.log(`  round ${r} (load average ${os.loadavg()[0].toFixed(1)})`);
      rounds.push(await round(path.join(root, `paired-${n}-${r}`), n, stack, stackJson, nullLauncher, options));
    }
    sizes.push({ n, rounds });
  }
  return sizes;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** The report's section: per size and command, each round's three ratios and their medians. */
export function pairedMarkdown(sizes: readonly PairedSize[], defaultRate: number): string[] {
  if (sizes.length === 0) return [];
  const lines = [
    "",
    "## The Terraform path, paired rounds",
    "",
    `Each round: a fresh emulator and three fresh working directories of the same stack; \`terraform apply\` (creates, from empty) through terraform-provider-ods, through the null provider (bench/null-provider.ts: this provider's schema, plugin server, transport, value codec and start-up, handlers that do no work) and as \`terraform_data\` (Terraform's own floor), then \`terraform plan\` (no changes) of each, one right after the other. Each cell lists the rounds' ratios, then their median. For applies, "ours / floor" divides by the larger of the floor and writes / ${defaultRate} requests/s (the service's rate limit).`,
    "",
    "| N | command | null / floor | median | ours / null | median | ours / floor | median | wall s: ours / null / floor (medians) | provider CPU s: ours / null (medians) | load average at each round's start |",
    "|---:|---|---|---:|---|---:|---|---:|---:|---:|---|",
  ];
  const s = (ms: number): string => (ms / 1000).toFixed(2);
  const list = (xs: number[]): string => xs.map((x) => x.toFixed(2)).join(", ");
  for (const size of sizes) {
    const loads = size.rounds.map((r) => r.loadAverage.toFixed(1)).join(", ");
    for (const command of ["plan", "apply"] as const) {
      const pick = (r: PairedRound) => r[command];
      const bound = (r: PairedRound): number => (command === "apply" ? Math.max(r.apply.floor.wallMs, (r.apply.writes / defaultRate) * 1000) : r.plan.floor.wallMs);
      const nullFloor = size.rounds.map((r) => pick(r).null.wallMs / pick(r).floor.wallMs);
      const oursNull = size.rounds.map((r) => pick(r).ours.wallMs / pick(r).null.wallMs);
      const oursFloor = size.rounds.map((r) => pick(r).ours.wallMs / bound(r));
      const label = command === "plan" ? "`terraform plan` (no changes)" : "`terraform apply` (creates)";
      const cpu = (x: PairedStep): number => x.provider?.cpuMs ?? 0;
      lines.push(
        `| ${size.n} | ${label} | ${list(nullFloor)} | **${median(nullFloor).toFixed(2)}** | ${list(oursNull)} | **${median(oursNull).toFixed(2)}** | ${list(oursFloor)} | **${median(oursFloor).toFixed(2)}** | ${s(median(size.rounds.map((r) => pick(r).ours.wallMs)))} / ${s(median(size.rounds.map((r) => pick(r).null.wallMs)))} / ${s(median(size.rounds.map((r) => pick(r).floor.wallMs)))} | ${s(median(size.rounds.map((r) => cpu(pick(r).ours))))} / ${s(median(size.rounds.map((r) => cpu(pick(r).null))))} | ${loads} |`,
      );
    }
  }
  // The apply's own bound: ours asks the service for more than its writes (the kinds'
  // lists, the plan-time checks), all under the same rate limit; neither the null
  // provider nor the floor asks for anything.
  lines.push("");
  for (const size of sizes) {
    const rounds = size.rounds.filter((r) => r.apply.requests !== undefined);
    if (rounds.length === 0) continue;
    const bound = (r: PairedRound): number => ((r.apply.requests ?? 0) / defaultRate) * 1000;
    const ratios = rounds.map((r) => r.apply.ours.wallMs / bound(r));
    lines.push(
      `N=${size.n}, \`terraform apply\` (creates) through ours: ${rounds.map((r) => r.apply.requests ?? 0).join(", ")} requests to the service (${rounds.map((r) => r.apply.writes).join(", ")} of them writes); at ${defaultRate} requests/s that alone takes ${list(rounds.map((r) => bound(r) / 1000))} s. Ours / that bound: ${list(ratios)}, median **${median(ratios).toFixed(2)}**.`,
    );
  }
  return lines;
}
