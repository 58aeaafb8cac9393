// The latency section of `npm run bench`: the service across a network. The emulator
// answers every request after BENCH_LATENCY (default 50ms); at each of BENCH_LATENCY_SIZES
// (default 1000,5000) it measures `ods plan` (no change) and `ods apply` (10% changed),
// and the same two commands through terraform and terraform-provider-ods.
//
// Each figure is set against its bound: requests / parallelism x latency (the round trips
// the command must wait for, `parallelism` at a time) plus the CPU the same command takes
// at zero latency (what it computes besides waiting). The service's own rate limit (its
// license: 100 requests/s, which the client keeps under) is a second floor, shown beside.
// The zero-latency runs also give Terraform's no-change plan against the same graph as
// terraform_data (Terraform's floor).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { prepareDatasets, runOdsTimed, startEmulatorProcess, summarizeRequests, synthesizeStack, type EmulatorProcess, type TimedRun } from "./harness";
import { generateStack, layoutOf, type GeneratedStack } from "./stack-gen";
import { datasetImports, TerraformRunner, withStateBackend, writeFloorConfig, writeTerraformConfig, type TerraformBackend } from "./terraform";

/** Both engines' default: ods --parallelism and terraform -parallelism. */
const PARALLELISM = 10;
/** The emulator's license, which the client keeps under. */
const SERVICE_RATE = 100;

export interface LatencySettings {
  readonly sizes: readonly number[];
  readonly latencyMs: number;
  /** The Terraform side's CLI config (ods terraform install); none: ods only. */
  readonly cliConfig?: string;
  readonly backend: TerraformBackend;
  readonly log: (line: string) => void;
  /** Told the sizes measured so far after each one (a long run keeps what it has if stopped). */
  readonly onSize?: (done: readonly LatencySize[]) => void;
}

/** One command measured twice: at zero latency (its CPU) and behind the latency (its wall time). */
export interface LatencyFigure {
  readonly command: string;
  readonly requests: number;
  readonly wallMs: number;
  /** CPU ms of the same command at zero latency (children included: terraform's providers). */
  readonly cpuAtZeroMs: number;
  readonly wallAtZeroMs: number;
  /** requests / parallelism x latency + cpuAtZeroMs. */
  readonly boundMs: number;
  /** requests / the service's rate. */
  readonly rateFloorMs: number;
  readonly ok: boolean;
}

export interface LatencySize {
  readonly n: number;
  readonly figures: LatencyFigure[];
  /** Terraform's no-change plan at zero latency, and terraform_data's on the same graph. */
  readonly floor?: { planMs: number; floorMs: number };
  readonly loadAverage: readonly number[];
}

function setLatency(emu: EmulatorProcess, latencyMs: number): Promise<unknown> {
  return emu.api("PUT", "/_emulator/faults", latencyMs > 0 ? { spec: `latency=${latencyMs}ms` } : {});
}

function cpuOf(run: TimedRun): number {
  if (run.cpuMs === undefined) throw new Error("the latency section needs /usr/bin/time for CPU figures");
  return run.cpuMs;
}

/**
 * Runs `command` at zero latency (for its CPU) and then behind the latency, each time on a
 * state prepared by `before` (a no-change plan: nothing; an apply: the next revision).
 */
async function measure(emu: EmulatorProcess, settings: LatencySettings, command: string, before: (revision: number) => Promise<void>, run: () => Promise<TimedRun>, revisions: [number, number]): Promise<LatencyFigure> {
  await setLatency(emu, 0);
  await before(revisions[0]);
  await emu.resetRequests();
  const zero = await run();
  await setLatency(emu, settings.latencyMs);
  await before(revisions[1]);
  await emu.resetRequests();
  const behind = await run();
  await setLatency(emu, 0);
  const requests = summarizeRequests(await emu.requests()).total;
  const boundMs = (requests / PARALLELISM) * settings.latencyMs + cpuOf(zero);
  const figure: LatencyFigure = {
    command,
    requests,
    wallMs: behind.wallMs,
    cpuAtZeroMs: cpuOf(zero),
    wallAtZeroMs: zero.wallMs,
    boundMs,
    rateFloorMs: (requests / SERVICE_RATE) * 1000,
    ok: zero.code === 0 && behind.code === 0,
  };
  settings.log(
    `  ${command}: ${s(behind.wallMs)} s behind ${settings.latencyMs} ms, ${requests} requests; bound ${s(boundMs)} s (CPU at zero latency ${s(figure.cpuAtZeroMs)} s) = ${(behind.wallMs / boundMs).toFixed(2)} x${figure.ok ? "" : `; FAILED: ${(zero.code !== 0 ? zero : behind).stderr.slice(-2000)}`}`,
  );
  return figure;
}

const s = (ms: number): string => (ms / 1000).toFixed(2);

async function odsFigures(emu: EmulatorProcess, dir: string, n: number, settings: LatencySettings): Promise<LatencyFigure[]> {
  const flags = ["--out-dir", path.join(dir, "cdktf.out"), "--no-synth", "--state", path.join(dir, "state.json")];
  const ods = (args: string[]) => () => runOdsTimed([...args, ...flags], emu, { timeoutMs: 1_800_000 });
  await prepareDatasets(emu, "ods", layoutOf(n));
  await synthesizeStack(generateStack({ n, prefix: "ods" }), dir);
  const setup = await ods(["apply", "--auto-approve"])();
  if (setup.code !== 0) throw new Error(`ods apply (set-up) failed: ${setup.stderr.slice(-2000)}`);
  const nothing = async (): Promise<void> => undefined;
  const revision = async (r: number): Promise<void> => void (await synthesizeStack(generateStack({ n, prefix: "ods", revision: r }), dir));
  return [
    await measure(emu, settings, "ods plan (no change)", nothing, ods(["plan", "--detailed-exitcode"]), [0, 0]),
    await measure(emu, settings, "ods apply (10% changed)", revision, ods(["apply", "--auto-approve"]), [1, 2]),
  ];
}

async function terraformFigures(emu: EmulatorProcess, dir: string, n: number, settings: LatencySettings, cliConfig: string): Promise<{ figures: LatencyFigure[]; floor: LatencySize["floor"] }> {
  await prepareDatasets(emu, "tf", layoutOf(n));
  const work = path.join(dir, "work");
  const floorDir = path.join(dir, "floor");
  const base = generateStack({ n, prefix: "tf" });
  const imports = datasetImports(base);
  const write = async (stack: GeneratedStack): Promise<void> => {
    await synthesizeStack(stack, dir);
    writeTerraformConfig(path.join(dir, "cdktf.out/stacks/main/cdk.tf.json"), work, imports);
  };
  const must = async (what: string, run: Promise<TimedRun>): Promise<TimedRun> => {
    const r = await run;
    if (r.code !== 0) throw new Error(`${what} failed: ${r.stdout.slice(-1500)}${r.stderr.slice(-1500)}`);
    return r;
  };
  return withStateBackend(work, settings.backend, () =>
    withStateBackend(floorDir, settings.backend, async () => {
      await write(base);
      const tf = new TerraformRunner(work, cliConfig, emu);
      await must("terraform init", tf.run(["init"]));
      await must("terraform apply (set-up)", tf.run(["apply", "-auto-approve"]));
      const plan = (): Promise<TimedRun> => tf.run(["plan", "-detailed-exitcode"]);
      const nothing = async (): Promise<void> => undefined;
      const revision = async (r: number): Promise<void> => write(generateStack({ n, prefix: "tf", revision: r }));
      const figures = [
        await measure(emu, settings, "terraform plan (no change)", nothing, plan, [0, 0]),
        await measure(emu, settings, "terraform apply (10% changed)", revision, () => tf.run(["apply", "-auto-approve"]), [1, 2]),
      ];
      // Terraform's floor: the same graph as terraform_data, next to a no-change plan at zero latency.
      writeFloorConfig(generateStack({ n, prefix: "tf", revision: 2 }), floorDir);
      const floorTf = new TerraformRunner(floorDir, cliConfig, emu);
      await must("floor init", floorTf.run(["init"]));
      await must("floor apply", floorTf.run(["apply", "-auto-approve"]));
      const planMs = (await must("terraform plan (zero latency)", plan())).wallMs;
      const floorMs = (await must("floor plan", floorTf.run(["plan", "-detailed-exitcode"]))).wallMs;
      settings.log(`  terraform plan (no change, zero latency) ${s(planMs)} s / terraform_data floor ${s(floorMs)} s = ${(planMs / floorMs).toFixed(2)}`);
      return { figures, floor: { planMs, floorMs } };
    }),
  );
}

export async function latencySection(root: string, settings: LatencySettings): Promise<LatencySize[]> {
  const results: LatencySize[] = [];
  for (const n of settings.sizes) {
    settings.log(`latency ${settings.latencyMs} ms, N = ${n} (load average ${os.loadavg().map((x) => x.toFixed(2)).join(" ")})`);
    const dir = path.join(root, `latency-n${n}`);
    fs.mkdirSync(dir, { recursive: true });
    const emu = await startEmulatorProcess({ dataDir: path.join(dir, "emu") });
    try {
      const figures = await odsFigures(emu, path.join(dir, "ods"), n, settings);
      let floor: LatencySize["floor"];
      if (settings.cliConfig) {
        const tf = await terraformFigures(emu, path.join(dir, "tf"), n, settings, settings.cliConfig);
        figures.push(...tf.figures);
        floor = tf.floor;
      }
      results.push({ n, figures, ...(floor ? { floor } : {}), loadAverage: os.loadavg() });
      settings.onSize?.(results);
    } finally {
      await emu.stop();
    }
  }
  return results;
}

/** The section's part of the report. */
export function latencyMarkdown(results: readonly LatencySize[], latencyMs: number): string[] {
  if (results.length === 0) return [];
  const lines = [
    "",
    `## Behind a network: ${latencyMs} ms per request`,
    "",
    `The emulator answers every request after ${latencyMs} ms. Bound of a command: requests / parallelism (${PARALLELISM}, both engines' default) x ${latencyMs} ms, plus the CPU the same command takes at zero latency (children included: terraform's provider processes). Rate floor: requests / ${SERVICE_RATE} requests/s, the service's license, which the client keeps under; when it is above the latency part of the bound, the rate, not the latency, decides. Load average (1, 5, 15 min) after each size is given: the machine is shared, and on a loaded machine a command's wall time at zero latency is several times its CPU; the last ratio sets the waits plus that wall time (what the command took here without the network) against the wall time behind the network.`,
    "",
    "| N | command | wall s | requests | bound s (waits + CPU at zero latency) | wall / bound | rate floor s | wall s at zero latency | wall / (waits + wall at zero latency) | load average |",
    "|---:|---|---:|---:|---:|---:|---:|---:|---:|---|",
  ];
  for (const r of results) {
    for (const f of r.figures) {
      lines.push(
        `| ${r.n} | ${f.command}${f.ok ? "" : " (FAILED)"} | ${s(f.wallMs)} | ${f.requests} | ${s(f.boundMs)} (${s(f.boundMs - f.cpuAtZeroMs)} + ${s(f.cpuAtZeroMs)}) | **${(f.wallMs / f.boundMs).toFixed(2)}** | ${s(f.rateFloorMs)} | ${s(f.wallAtZeroMs)} | ${(f.wallMs / (f.boundMs - f.cpuAtZeroMs + f.wallAtZeroMs)).toFixed(2)} | ${r.loadAverage.map((x) => x.toFixed(2)).join(" ")} |`,
      );
    }
  }
  const versus = results.flatMap((r) => {
    const odsPlan = r.figures.find((f) => f.command.startsWith("ods plan"));
    const tfPlan = r.figures.find((f) => f.command.startsWith("terraform plan"));
    return odsPlan && tfPlan ? [`| ${r.n} | ${s(odsPlan.wallMs)} | ${s(tfPlan.wallMs)} | **${(odsPlan.wallMs / tfPlan.wallMs).toFixed(2)}** |`] : [];
  });
  if (versus.length > 0) lines.push("", `### ods plan against terraform plan, ${latencyMs} ms`, "", "| N | ods plan s | terraform plan s | ods / terraform |", "|---:|---:|---:|---:|", ...versus);
  const floors = results.flatMap((r) => (r.floor ? [`| ${r.n} | ${s(r.floor.planMs)} | ${s(r.floor.floorMs)} | **${(r.floor.planMs / r.floor.floorMs).toFixed(2)}** |`] : []));
  if (floors.length > 0) {
    lines.push(
      "",
      "### terraform plan (no change) against Terraform's floor, zero latency",
      "",
      "The provider as Terraform starts it (a process per start, grpc-js and protobufjs's generated code, no process left behind) against the same graph as `terraform_data`, one run each, right after one another.",
      "",
      "| N | terraform plan s | terraform_data plan s | ratio |",
      "|---:|---:|---:|---:|",
      ...floors,
    );
  }
  return lines;
}
