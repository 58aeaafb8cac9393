// `npm run bench:slo`: what an SLO's story costs a plan. An emulator (its own process)
// holds 1,000,000 events over the last 28 days (an outage and a slow burn in them); a stack
// declares one slo.Slo over them (28 days, 4 window pairs). Measured in the same run:
// - `ods plan` with the SLO insight against `ods plan --no-backtest` (medians of rounds),
//   the queries each spends (from the emulator's request log);
// - the monitor backtest of the same monitors: the generic replay (one binned query per
//   monitor) cannot rebuild them (their query ends in extend stages and counts the short
//   window with ago()), so its answer is printed, and beside it what replaying them the way
//   the service runs them costs: each monitor's own query once per run, timed on a sample
//   of runs and multiplied by the runs of 28 days.
//
// Settings (environment): BENCH_SLO_EVENTS=1000000 BENCH_SLO_ROUNDS=3 BENCH_SLO_SAMPLES=8
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { ROOT, envNumber, isQuery, odsAgainst as ods, startEmulatorProcess, type EmulatorProcess } from "./harness";

type Lib = typeof import("../lib");
type Model = typeof import("../lib/resources/backtest/slo-model");
type Backtest = typeof import("../lib/resources/backtest/run");
type Api = typeof import("../lib/api");
/* eslint-disable @typescript-eslint/no-require-imports */
const lib = require(path.join(ROOT, "lib")) as Lib;
const model = require(path.join(ROOT, "lib/resources/backtest/slo-model")) as Model;
const backtest = require(path.join(ROOT, "lib/resources/backtest/run")) as Backtest;
const api = require(path.join(ROOT, "lib/api")) as Api;
const { Testing, TerraformStack } = require(path.join(ROOT, "node_modules/cdktf")) as typeof import("cdktf");

const EVENTS = envNumber("BENCH_SLO_EVENTS", 1_000_000);
const ROUNDS = envNumber("BENCH_SLO_ROUNDS", 3);
const SAMPLES = envNumber("BENCH_SLO_SAMPLES", 8);
const DAY = 86_400_000;
const WINDOW_DAYS = 28;

function stackJson(): Record<string, unknown> {
  const app = Testing.app();
  const stack = new TerraformStack(app, "bench");
  new lib.provider.OdsProvider(stack, "ods", {});
  new lib.slo.Slo(stack, "checkout", { name: "bench checkout", dataset: "bench", badFilter: "status >= 500", objectivePercent: 99.9, windowDays: WINDOW_DAYS, dashboard: false });
  return JSON.parse(Testing.synth(stack)) as Record<string, unknown>;
}

function writeStack(dir: string, spec: Record<string, unknown>): void {
  const stackDir = path.join(dir, "cdktf.out", "stacks", "bench");
  fs.mkdirSync(stackDir, { recursive: true });
  fs.writeFileSync(path.join(stackDir, "cdk.tf.json"), JSON.stringify(spec));
}


/** EVENTS spread evenly over 28 days; 0.05% bad, a 30-minute outage (40% bad) 20 days ago, a 2-day slow burn (0.4%) ending a day ago. */
async function ingest(emu: EmulatorProcess, nowMs: number): Promise<void> {
  const made = await emu.api("POST", "/v2/datasets", { name: "bench" });
  if (made.status >= 300) throw new Error(`creating the dataset: ${made.status}`);
  const start = nowMs - WINDOW_DAYS * DAY;
  const batch = 50_000;
  for (let from = 0; from < EVENTS; from += batch) {
    const events = [];
    for (let i = from; i < Math.min(EVENTS, from + batch); i++) {
      const t = start + Math.floor((i / EVENTS) * WINDOW_DAYS * DAY);
      const outage = t >= nowMs - 20 * DAY && t < nowMs - 20 * DAY + 30 * 60_000;
      const slow = t >= nowMs - 3 * DAY && t < nowMs - DAY;
      const bad = outage ? i % 5 < 2 : slow ? i % 250 === 0 : i % 2000 === 0;
      events.push({ _time: new Date(t).toISOString(), status: bad ? 503 : 200, route: i % 2 === 0 ? "/pay" : "/cart" });
    }
    const answer = await emu.api("POST", "/v1/datasets/bench/ingest", events);
    if (answer.status >= 300) throw new Error(`ingest: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Each monitor's own query over the window of `SAMPLES` runs spread over the range: mean seconds per run. */
async function perRunSeconds(client: InstanceType<Api["OdsClient"]>, apl: string, rangeMinutes: number, nowMs: number): Promise<number> {
  const times: number[] = [];
  for (let k = 0; k < SAMPLES; k++) {
    const end = nowMs - Math.floor(((k + 0.5) / SAMPLES) * WINDOW_DAYS * DAY);
    const t = performance.now();
    await client.queryAplTabular({ apl, startTime: new Date(end - rangeMinutes * 60_000).toISOString(), endTime: new Date(end).toISOString() });
    times.push((performance.now() - t) / 1000);
  }
  return times.reduce((a, b) => a + b, 0) / times.length;
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ods-bench-slo-"));
  const emu = await startEmulatorProcess({ dataDir: path.join(dir, "emulator"), rateLimit: 100_000 });
  const client = new api.OdsClient({ url: emu.url, token: emu.token });
  try {
    const nowMs = Date.now();
    const t0 = performance.now();
    await ingest(emu, nowMs);
    process.stdout.write(`ingested ${EVENTS} events over ${WINDOW_DAYS} days in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
    const spec = stackJson();
    writeStack(dir, spec);

    const withInsight: number[] = [];
    const without: number[] = [];
    const queries: number[] = [];
    let story: Record<string, unknown> = {};
    for (let round = 0; round < ROUNDS; round++) {
      const plain = await ods(dir, emu, ["plan", "--no-backtest", "--no-check-queries"]);
      if (plain.code !== 0) throw new Error(`plan failed: ${plain.stderr}`);
      without.push(plain.seconds);
      await emu.resetRequests();
      const planned = await ods(dir, emu, ["plan", "--no-check-queries", "--format", "json"]);
      if (planned.code !== 0) throw new Error(`plan failed: ${planned.stderr}`);
      withInsight.push(planned.seconds);
      queries.push((await emu.requests()).filter(isQuery).length);
      story = (JSON.parse(planned.stdout) as { slos: Record<string, unknown>[] }).slos[0];
    }

    // The same monitors through the generic monitor backtest, and run by run.
    const monitors = Object.values((spec.resource as { ods_monitor: Record<string, { name: string; apl_query: string; threshold: number; interval_minutes: number; range_minutes: number; column_name: string }> }).ods_monitor);
    const generic = await backtest.runBacktest(
      client,
      { name: monitors[0].name, type: "Threshold", aplQuery: monitors[0].apl_query, operator: "Above", threshold: monitors[0].threshold, intervalMinutes: monitors[0].interval_minutes, rangeMinutes: monitors[0].range_minutes, columnName: monitors[0].column_name },
      { days: WINDOW_DAYS, nowMs },
    );
    const genericText = generic.ok ? `${generic.result.queries} queries` : `not replayable: ${generic.reason}`;
    let runs = 0;
    let perRun = 0;
    const rows: string[] = [];
    for (const m of monitors) {
      const n = Math.floor((WINDOW_DAYS * DAY) / (m.interval_minutes * 60_000));
      const s = await perRunSeconds(client, m.apl_query, m.range_minutes, nowMs);
      runs += n;
      perRun += n * s;
      rows.push(`| ${m.name.replace(/^SLO bench checkout: /, "")} | ${m.interval_minutes} min | ${n} | ${s.toFixed(3)} | ${((n * s) / 60).toFixed(1)} |`);
    }
    const a = median(withInsight);
    const b = median(without);
    const insightSeconds = Math.max(0.001, a - b);
    const lines = [
      `# SLO insight in a plan (${new Date().toISOString().slice(0, 10)}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")})`,
      "",
      `One slo.Slo (99.9% over ${WINDOW_DAYS} days, the default 4 window pairs) over ${EVENTS.toLocaleString("en")} events spread over ${WINDOW_DAYS} days; ${ROUNDS} rounds, alternating, medians.`,
      story.skipped !== undefined
        ? `The SLO was not replayed: ${String(story.skipped)}.`
        : `The SLO told: ${story.events} events, ${story.badEvents} bad, ${story.budgetConsumedPercent}% of budget consumed, ${story.pages} pages, ${story.tickets} tickets.`,
      "",
      "| plan | median s | queries |",
      "| --- | ---: | ---: |",
      `| \`ods plan --no-backtest\` | ${b.toFixed(2)} | 0 |`,
      `| \`ods plan\` (SLO insight, 4 monitors) | ${a.toFixed(2)} | ${median(queries)} |`,
      "",
      `Queries per SLO: **${median(queries)}**. The SLO insight adds ${insightSeconds.toFixed(2)} s to the plan.`,
      "",
      `The monitor backtest of the same monitors (one binned query per monitor): ${genericText}.`,
      `Replayed the way the service runs them, each monitor's own query once per run (${SAMPLES} runs timed per monitor):`,
      "",
      "| monitor | every | runs in 28 d | s per run | min for all runs |",
      "| --- | ---: | ---: | ---: | ---: |",
      ...rows,
      "",
      `Run by run: ${runs.toLocaleString("en")} queries, about ${(perRun / 60).toFixed(0)} min; the SLO insight: ${median(queries)} query, ${insightSeconds.toFixed(2)} s, **${(perRun / insightSeconds).toFixed(0)}×** less time.`,
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
    const out = path.join(ROOT, "bench", "results", "slo.md");
    fs.writeFileSync(out, `${lines.join("\n")}\n`);
    process.stdout.write(`written to ${path.relative(ROOT, out)}\n`);
  } finally {
    await client.close();
    await emu.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exitCode = 1;
});
