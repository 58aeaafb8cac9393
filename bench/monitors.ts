// `npm run bench:monitors`: one evaluation round of 100 threshold monitors (5-minute
// ranges) over 1,000,000 events spread over 7 days, in the emulator, on its manual
// clock; against a plain scan of the same ranges, measured in this same run.
//
//   round       POST /_emulator/clock {"advance": "5m"}: all 100 monitors due, each runs its
//               query over its 5 minutes (time index), state and history committed once.
//   plain scan  the same 100 queries over the same ranges by the query engine, reading
//               every event of the dataset (no time index), in a child process over an
//               identical dataset, so that the emulator's RSS is its own.
//
// Prints the median and the spread of ROUNDS rounds, the peak RSS, and the ratio; writes
// bench/results/monitors.md. Settings (environment): BENCH_MONITOR_EVENTS=1000000
// BENCH_MONITORS=100 BENCH_MONITOR_ROUNDS=9
import { fork } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import type * as Emulator from "../lib/emulator";
import type * as Engine from "../lib/emulator/query";
import { envNumber, ROOT } from "./harness";

const EVENTS = envNumber("BENCH_MONITOR_EVENTS", 1_000_000);
const MONITORS = envNumber("BENCH_MONITORS", 100);
const ROUNDS = envNumber("BENCH_MONITOR_ROUNDS", 9);
const MIB = 1024 * 1024;
const DATA_START = Date.UTC(2026, 0, 1);
const SPAN_MS = 7 * 24 * 3_600_000;
/** The rounds run in the middle of the data: day 4, from 12:00. */
const FIRST_ROUND = DATA_START + 3 * 24 * 3_600_000 + 12 * 3_600_000;
const ROUND_MS = 5 * 60_000;
const HOSTS = 20;
const INGEST_CHUNK = 50_000;

interface BenchEvent {
  _time: string;
  host: string;
  status: number;
  latency: number;
}

/** The same dataset in both processes: event i of n, deterministic. */
function eventAt(i: number): BenchEvent {
  return {
    _time: new Date(DATA_START + Math.floor((i * SPAN_MS) / EVENTS)).toISOString(),
    host: `host-${i % HOSTS}`,
    status: i % 17 === 0 ? 500 : 200,
    latency: (i * 7919) % 1000,
  };
}

/** The monitors' queries: a mix of filters, groupings and aggregations, all over `bench`. */
function queryOf(k: number): string {
  switch (k % 4) {
    case 0:
      return `['bench'] | where status >= 500 | summarize count() by bin(_time, 1m)`;
    case 1:
      return `['bench'] | where host == 'host-${k % HOSTS}' | summarize avg(latency) by bin(_time, 1m)`;
    case 2:
      return `['bench'] | summarize p = max(latency) by host`;
    default:
      return `['bench'] | summarize count()`;
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

interface ScanResult {
  roundsMs: number[];
  peakRssMiB: number;
}

/** Child: the same queries over the same windows, scanning every event each time. */
function plainScanChild(): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const engine = require(path.join(ROOT, "lib/emulator/query")) as typeof Engine;
  const events: Engine.StoredEvent[] = new Array(EVENTS);
  for (let i = 0; i < EVENTS; i++) {
    const { _time, ...data } = eventAt(i);
    events[i] = { _rowId: (i + 1).toString(36).padStart(10, "0"), _sysTime: _time, _time, data };
  }
  const meta = (n: string, type: string): Engine.QueryFieldMeta => ({ name: n, type, unit: "", description: "", hidden: false });
  const dataset: Engine.QueryDataset = {
    name: "bench",
    events,
    fields: [meta("host", "string"), meta("status", "integer"), meta("latency", "integer")],
    virtualFields: [],
  };
  const lookup = (n: string): Engine.QueryDataset | undefined => (n === "bench" ? dataset : undefined);
  const limits = { ...engine.DEFAULT_QUERY_LIMITS, maxMillis: 600_000 };
  const roundAt = (r: number): number => FIRST_ROUND + (r + 1) * ROUND_MS;
  const round = (end: number): void => {
    for (let k = 0; k < MONITORS; k++) {
      engine.runAplQuery({ apl: queryOf(k), startTime: new Date(end - ROUND_MS).toISOString(), endTime: new Date(end).toISOString() }, "tabular", lookup, limits, end);
    }
  };
  round(roundAt(-1)); // warm-up (JIT, the parsed-time cache)
  const roundsMs: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const started = performance.now();
    round(roundAt(r));
    roundsMs.push(performance.now() - started);
  }
  process.send?.({ roundsMs, peakRssMiB: (process.resourceUsage().maxRSS * 1024) / MIB } satisfies ScanResult);
}

function runPlainScan(): Promise<ScanResult> {
  return new Promise((resolve, reject) => {
    const p = fork(__filename, ["plain-scan"], { execArgv: ["--max-old-space-size=6144"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
    let got: ScanResult | undefined;
    p.on("message", (m) => (got = m as ScanResult));
    p.on("error", reject);
    p.on("exit", (code) => (got ? resolve(got) : reject(new Error(`plain scan exited with ${code}`))));
  });
}

async function api(em: Emulator.EmulatorHandle, method: string, urlPath: string, body: string | undefined, contentType = "application/json"): Promise<unknown> {
  const res = await fetch(em.url + urlPath, { method, headers: { Authorization: `Bearer ${em.adminToken}`, "Content-Type": contentType }, body });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${urlPath}: ${res.status} ${text.slice(0, 300)}`);
  return text === "" ? undefined : (JSON.parse(text) as unknown);
}

const f = (n: number, digits = 1): string => n.toFixed(digits);

async function main(): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { startEmulator } = require(path.join(ROOT, "lib/emulator")) as typeof Emulator;
  const cpus = os.cpus();
  const header = `${cpus.length} cores (${cpus[0]?.model ?? "?"}), ${f(os.totalmem() / 1024 ** 3, 0)} GiB, Node ${process.version}`;
  console.log(`monitor bench: ${header}; ${EVENTS} events over 7 days, ${MONITORS} threshold monitors (5-minute ranges), ${ROUNDS} rounds after one warm-up`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ods-bench-monitors-"));
  const em = await startEmulator({ port: 0, dataDir, rateLimitPerSecond: 1_000_000, clock: "manual", clockStart: new Date(FIRST_ROUND - 60_000).toISOString() });
  try {
    await api(em, "POST", "/v2/datasets", JSON.stringify({ name: "bench" }));
    const ingestStarted = performance.now();
    for (let from = 0; from < EVENTS; from += INGEST_CHUNK) {
      const lines: string[] = [];
      for (let i = from; i < Math.min(EVENTS, from + INGEST_CHUNK); i++) lines.push(JSON.stringify(eventAt(i)));
      await api(em, "POST", "/v1/datasets/bench/ingest", lines.join("\n"), "application/x-ndjson");
    }
    const ingestSeconds = (performance.now() - ingestStarted) / 1000;
    console.log(`ingested ${EVENTS} events over HTTP in ${f(ingestSeconds)} s`);
    for (let k = 0; k < MONITORS; k++) {
      await api(
        em,
        "POST",
        "/v2/monitors",
        JSON.stringify({ name: `m${k}`, type: "Threshold", aplQuery: queryOf(k), operator: "Above", threshold: 10 + (k % 50) * 20, intervalMinutes: 5, rangeMinutes: 5, resolvable: true }),
      );
    }
    const move = async (): Promise<number> => {
      const started = performance.now();
      const answer = (await api(em, "POST", "/_emulator/clock", JSON.stringify({ advance: "5m" }))) as { runs: number };
      if (answer.runs !== MONITORS) throw new Error(`a round ran ${answer.runs} monitors, expected ${MONITORS}`);
      return performance.now() - started;
    };
    const rssLoaded = process.memoryUsage().rss / MIB;
    const firstMs = await move(); // warm-up, reported apart
    const roundsMs: number[] = [];
    for (let r = 0; r < ROUNDS; r++) roundsMs.push(await move());
    const peakRssMiB = (process.resourceUsage().maxRSS * 1024) / MIB;
    const history = (await api(em, "GET", "/v2/monitors", undefined)) as { id: string }[];
    const scan = await runPlainScan();

    const med = median(roundsMs);
    const scanMed = median(scan.roundsMs);
    const lines = [
      "# Monitor evaluation bench",
      "",
      `\`npm run bench:monitors\` on ${header}.`,
      "",
      `${EVENTS.toLocaleString("en")} events over 7 days (about ${Math.round(EVENTS / (SPAN_MS / ROUND_MS))} per 5 minutes) in one dataset; ${history.length} threshold monitors, interval and range 5 minutes, queries mixing filters, \`by bin(_time, 1m)\`, \`by host\` and plain counts. A round is one \`POST /_emulator/clock {"advance": "5m"}\` on the manual clock: every monitor is due, runs its query over its own 5 minutes through the time index, and the round's state and history are committed in one journal write. The plain scan runs the same ${MONITORS} queries over the same ranges with the query engine reading every event (no time index), in a child process over an identical dataset.`,
      "",
      "| measure | value |",
      "|---|---|",
      `| one round, median of ${ROUNDS} | ${f(med)} ms |`,
      `| one round, min / max | ${f(Math.min(...roundsMs))} / ${f(Math.max(...roundsMs))} ms |`,
      `| first round after ingest (not counted) | ${f(firstMs)} ms |`,
      `| plain scan of the same ranges, median of ${ROUNDS} | ${f(scanMed)} ms |`,
      `| **ratio round / plain scan (same run)** | **${f(med / scanMed, 3)}** |`,
      `| emulator process RSS with the data loaded | ${f(rssLoaded, 0)} MiB |`,
      `| emulator process peak RSS | ${f(peakRssMiB, 0)} MiB |`,
      `| plain-scan process peak RSS | ${f(scan.peakRssMiB, 0)} MiB |`,
      `| ingest of ${EVENTS.toLocaleString("en")} events over HTTP (NDJSON, ${INGEST_CHUNK.toLocaleString("en")} per request) | ${f(ingestSeconds)} s |`,
      "",
      `Budget: one round of all ${MONITORS} in at most 1 s: ${med <= 1000 ? "met" : "NOT met"}.`,
      "",
    ];
    process.stdout.write(lines.join("\n"));
    fs.mkdirSync(path.join(ROOT, "bench/results"), { recursive: true });
    fs.writeFileSync(path.join(ROOT, "bench/results/monitors.md"), lines.join("\n"));
    console.log("written: bench/results/monitors.md");
  } finally {
    await em.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[2] === "plain-scan" && process.send) {
  plainScanChild();
} else {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
