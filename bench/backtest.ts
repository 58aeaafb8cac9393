// `npm run bench:backtest`: what the backtest adds to a plan. An emulator (its own
// process) holds 1,000,000 events over the last 7 days; a stack of 50 threshold monitors
// is applied, every threshold changed, and `ods plan` timed with and without the
// backtest, alternating, in the same run. Queries are counted from the emulator's
// request log. Prints the medians and their ratio.
//
// Settings (environment): BENCH_BACKTEST_EVENTS=1000000 BENCH_BACKTEST_MONITORS=50
// BENCH_BACKTEST_ROUNDS=3
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { ROOT, envNumber, ingestWeek, isQuery, odsAgainst as ods, startEmulatorProcess, writeBenchStack, type EmulatorProcess } from "./harness";

const EVENTS = envNumber("BENCH_BACKTEST_EVENTS", 1_000_000);
const MONITORS = envNumber("BENCH_BACKTEST_MONITORS", 50);
const ROUNDS = envNumber("BENCH_BACKTEST_ROUNDS", 3);
const SERVICES = ["api", "web", "cart", "search", "auth", "pay", "mail", "img", "feed", "ads"];

/**
 * `changed`: every threshold moves, and every other monitor's query changes too (its
 * duration floor), so that half the live definitions need a query of their own.
 */
function stack(changed: boolean): Record<string, unknown> {
  const monitors: Record<string, unknown> = {};
  for (let i = 0; i < MONITORS; i++) {
    monitors[`m${i}`] = {
      "//": { metadata: { path: `bench/m${i}`, uniqueId: `m${i}` } },
      name: `bench monitor ${i}`,
      type: "Threshold",
      // Each monitor its own query, as real monitors are: a different status floor.
      apl_query: `['bench'] | where status >= ${500 + (i % 4)} and duration > ${changed && i % 2 === 1 ? i + 1 : i} | summarize count() by service`,
      operator: "Above",
      threshold: 20 + i + (changed ? 5 : 0),
      interval_minutes: 5,
      range_minutes: 5,
      notify_by_group: true,
      resolvable: true,
    };
  }
  return { terraform: { required_providers: { ods: { source: "registry.terraform.io/ods/ods" } } }, provider: { ods: [{}] }, resource: { ods_monitor: monitors } };
}

function ingest(emu: EmulatorProcess, nowMs: number): Promise<void> {
  return ingestWeek(emu, "bench", EVENTS, nowMs, (i) => ({ service: SERVICES[i % SERVICES.length], status: i % 17 === 0 ? 500 + (i % 4) : 200, duration: i % 97 }));
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ods-bench-backtest-"));
  const emu = await startEmulatorProcess({ dataDir: path.join(dir, "emulator"), rateLimit: 100_000 });
  try {
    const t0 = performance.now();
    await ingest(emu, Date.now());
    process.stdout.write(`ingested ${EVENTS} events over 7 days in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
    writeBenchStack(dir, stack(false));
    const applied = await ods(dir, emu, ["apply", "--auto-approve", "--no-backtest"]);
    if (applied.code !== 0) throw new Error(`apply failed: ${applied.stderr}`);
    writeBenchStack(dir, stack(true));

    const withBacktest: number[] = [];
    const without: number[] = [];
    const queriesPerPlan: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const plain = await ods(dir, emu, ["plan", "--no-backtest", "--no-check-queries"]);
      if (plain.code !== 0) throw new Error(`plan failed: ${plain.stderr}`);
      without.push(plain.seconds);
      await emu.resetRequests();
      const backtested = await ods(dir, emu, ["plan", "--no-check-queries", "--format", "json"]);
      if (backtested.code !== 0) throw new Error(`plan failed: ${backtested.stderr}`);
      withBacktest.push(backtested.seconds);
      queriesPerPlan.push((await emu.requests()).filter(isQuery).length);
      const changes = (JSON.parse(backtested.stdout) as { resource_changes: { backtest?: unknown; skipped?: string }[] }).resource_changes;
      const skipped = changes.filter((c) => !c.backtest);
      if (skipped.length > 0) throw new Error(`${skipped.length} monitors were not backtested: ${skipped[0].skipped}`);
    }
    const a = median(withBacktest);
    const b = median(without);
    const lines = [
      `# Backtest in a plan (${new Date().toISOString().slice(0, 10)}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")})`,
      "",
      `${MONITORS} changed threshold monitors (every threshold, and the query of every other one), each backtested over 7 days (new and live definition), against ${EVENTS.toLocaleString("en")} events; ${ROUNDS} rounds, alternating, medians.`,
      "",
      "| plan | median s | queries | queries per monitor |",
      "| --- | ---: | ---: | ---: |",
      `| \`ods plan --no-backtest\` | ${b.toFixed(2)} | 0 | 0 |`,
      `| \`ods plan\` (backtest 7d) | ${a.toFixed(2)} | ${median(queriesPerPlan)} | ${(median(queriesPerPlan) / MONITORS).toFixed(2)} |`,
      "",
      `Ratio with / without backtest: **${(a / b).toFixed(2)}**`,
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
    const out = path.join(ROOT, "bench", "results", "backtest.md");
    fs.writeFileSync(out, `${lines.join("\n")}\n`);
    process.stdout.write(`written to ${path.relative(ROOT, out)}\n`);
  } finally {
    await emu.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exitCode = 1;
});
