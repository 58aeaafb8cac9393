// `npm run bench:query`: the emulator's query engine on large in-memory datasets.
// Each scenario runs in its own Node process (so that its peak RSS is its own) and
// prints queries per second and peak memory above the process's RSS once the data is
// built; ratios compare scenarios measured in this same run.
//
//   summarize   ['bench'] | summarize count(), avg(duration) by bin(_time, 1h)   1,000,000 events
//   count       ['bench'] | count                                               (the plain scan, same events)
//   join        ['left'] | join kind=inner (['right']) on id | count           2 x 100,000 events
//   scan both   union ['left'], ['right'] | count                               (the scans the join needs)
//
// Before these (engine-only, run when BENCH_QUERY_ENGINE=1), query-http.ts measures the
// issue-45 shapes through the emulator's HTTP endpoint against a plain loop.
//
// Settings (environment): BENCH_QUERY_EVENTS=1000000 BENCH_QUERY_JOIN_EVENTS=100000
// BENCH_QUERY_RUNS=3
import { fork } from "node:child_process";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import type * as Engine from "../lib/emulator/query";
import { envNumber } from "./harness";
import { httpShapes } from "./query-http";

const ROOT = path.resolve(__dirname, "../..");

const EVENTS = envNumber("BENCH_QUERY_EVENTS", 1_000_000);
const JOIN_EVENTS = envNumber("BENCH_QUERY_JOIN_EVENTS", 100_000);
const RUNS = envNumber("BENCH_QUERY_RUNS", 3);

interface Scenario {
  name: string;
  apl: string;
  /** Dataset name -> event count. */
  datasets: Record<string, number>;
}

const SCENARIOS: Scenario[] = [
  { name: "summarize", apl: "['bench'] | summarize count(), avg(duration) by bin(_time, 1h)", datasets: { bench: EVENTS } },
  { name: "count", apl: "['bench'] | count", datasets: { bench: EVENTS } },
  { name: "join", apl: "['left'] | join kind=inner (['right']) on id | count", datasets: { left: JOIN_EVENTS, right: JOIN_EVENTS } },
  { name: "scan both", apl: "union ['left'], ['right'] | count", datasets: { left: JOIN_EVENTS, right: JOIN_EVENTS } },
];

interface Measured {
  name: string;
  events: number;
  runs: number;
  seconds: number;
  qps: number;
  msPerQuery: number;
  nsPerEvent: number;
  baselineRssMiB: number;
  peakRssMiB: number;
  peakAboveBaselineMiB: number;
  rows: number;
  isPartial: boolean;
}

const MIB = 1024 * 1024;
const START_MS = Date.UTC(2024, 0, 1);
const SPAN_MS = 7 * 24 * 3_600_000;
const METHODS = ["GET", "POST", "PUT", "DELETE"];

function makeDataset(name: string, count: number): Engine.QueryDataset {
  const events: Engine.StoredEvent[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const time = new Date(START_MS + Math.floor((i * SPAN_MS) / count)).toISOString();
    events[i] = {
      _rowId: `${name}-${i}`,
      _sysTime: time,
      _time: time,
      // Join keys: every id appears once on each side.
      data: { id: i, status: i % 10 === 0 ? 500 : 200, method: METHODS[i % METHODS.length], duration: (i % 1000) / 10 },
    };
  }
  const meta = (n: string, type: string): Engine.QueryFieldMeta => ({ name: n, type, unit: "", description: "", hidden: false });
  return { name, events, fields: [meta("id", "integer"), meta("status", "integer"), meta("method", "string"), meta("duration", "float")], virtualFields: [] };
}

/** Runs in the child: build the data, run the query RUNS times, report. */
function child(scenario: Scenario): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const engine = require(path.join(ROOT, "lib/emulator/query")) as typeof Engine;
  const datasets = Object.entries(scenario.datasets).map(([n, c]) => makeDataset(n, c));
  const lookup = (n: string): Engine.QueryDataset | undefined => datasets.find((d) => d.name === n);
  const limits = { ...engine.DEFAULT_QUERY_LIMITS, maxMillis: 600_000 };
  const request = { apl: scenario.apl, startTime: new Date(START_MS).toISOString(), endTime: new Date(START_MS + SPAN_MS).toISOString() };
  // One warm-up run (JIT, the parsed-time cache), not counted.
  engine.runAplQuery(request, "tabular", lookup, limits);
  const baseline = process.memoryUsage().rss;
  let last: { tables: { columns: unknown[][] }[]; status: { isPartial: boolean } } | undefined;
  const started = performance.now();
  for (let i = 0; i < RUNS; i++) last = engine.runAplQuery(request, "tabular", lookup, limits) as typeof last;
  const seconds = (performance.now() - started) / 1000;
  const peak = process.resourceUsage().maxRSS * 1024;
  const events = Object.values(scenario.datasets).reduce((a, b) => a + b, 0);
  const result: Measured = {
    name: scenario.name,
    events,
    runs: RUNS,
    seconds,
    qps: RUNS / seconds,
    msPerQuery: (seconds * 1000) / RUNS,
    nsPerEvent: (seconds * 1e9) / RUNS / events,
    baselineRssMiB: baseline / MIB,
    peakRssMiB: peak / MIB,
    peakAboveBaselineMiB: Math.max(0, peak - baseline) / MIB,
    rows: last?.tables[0].columns[0]?.length ?? 0,
    isPartial: last?.status.isPartial ?? true,
  };
  process.send?.(result);
}

function runChild(scenario: Scenario): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const p = fork(__filename, [scenario.name], { execArgv: ["--max-old-space-size=6144"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
    let got: Measured | undefined;
    p.on("message", (m) => (got = m as Measured));
    p.on("error", reject);
    p.on("exit", (code) => (got ? resolve(got) : reject(new Error(`scenario ${scenario.name} exited with ${code}`))));
  });
}

const f = (n: number, digits = 1): string => n.toFixed(digits);

async function main(): Promise<void> {
  // The issue-45 shapes through the emulator's HTTP endpoint first; the engine-only
  // scenarios below only when asked (BENCH_QUERY_ENGINE=1): they take minutes on 1M events.
  await httpShapes();
  if (process.env.BENCH_QUERY_ENGINE !== "1") return;
  const cpus = os.cpus();
  console.log(`query engine bench: ${cpus.length} cores (${cpus[0]?.model ?? "?"}), ${f(os.totalmem() / 1024 ** 3, 0)} GiB, Node ${process.version}; ${RUNS} runs per scenario after one warm-up`);
  const results: Measured[] = [];
  for (const s of SCENARIOS) {
    const r = await runChild(s);
    results.push(r);
    console.log(
      `${r.name.padEnd(10)} ${String(r.events).padStart(8)} events  ${f(r.qps, 2).padStart(7)} queries/s  ${f(r.msPerQuery, 0).padStart(6)} ms/query  ${f(r.nsPerEvent, 0).padStart(5)} ns/event  peak RSS ${f(r.peakRssMiB, 0)} MiB (${f(r.peakAboveBaselineMiB, 0)} MiB above the ${f(r.baselineRssMiB, 0)} MiB with data loaded)  rows=${r.rows} partial=${r.isPartial}`,
    );
  }
  const by = (n: string): Measured => results.find((r) => r.name === n) as Measured;
  console.log(`ratios (same run): summarize by bin(_time, 1h) / plain count per event = ${f(by("summarize").nsPerEvent / by("count").nsPerEvent, 2)}`);
  console.log(`                   join of 2 x ${JOIN_EVENTS} / scanning both sides = ${f(by("join").msPerQuery / by("scan both").msPerQuery, 2)}`);
}

const scenarioArg = process.argv[2];
if (scenarioArg && process.send) {
  const s = SCENARIOS.find((x) => x.name === scenarioArg);
  if (!s) throw new Error(`unknown scenario ${scenarioArg}`);
  child(s);
} else {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
