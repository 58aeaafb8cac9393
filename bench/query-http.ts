// The issue-45 figures of `npm run bench:query`: 1,000,000 events over 7 days ingested
// into the emulator over HTTP, then each query shape through POST /v1/datasets/_apl,
// against a plain loop over the same events as JS objects in this process (the loop a
// developer would write by hand: filter first, then parse the time, Map per group).
// Prints medians of RUNS after one warm-up, their ratio, the emulator's RSS after ingest
// and after the queries (the query workers build their copies on the first query),
// ingest time, and a restart's reload time.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { envNumber, startEmulatorProcess, type EmulatorProcess } from "./harness";

export const EVENTS = envNumber("BENCH_QUERY_EVENTS", 1_000_000);
export const RUNS = envNumber("BENCH_QUERY_RUNS", 3);
const HOUR = 3_600_000;
export const SPAN_MS = 7 * 24 * HOUR;
export const START_MS = Date.UTC(2024, 0, 1);
const SERVICES = ["api", "web", "pay", "auth", "search"];
const PATHS = ["/pay", "/login", "/", "/search", "/cart", "/account"];

export interface Event {
  _time: string;
  service: string;
  path: string;
  status: number;
  duration_ms: number;
}

export function makeEvents(): Event[] {
  const events: Event[] = new Array(EVENTS);
  for (let i = 0; i < EVENTS; i++) {
    events[i] = {
      _time: new Date(START_MS + Math.floor((i / EVENTS) * SPAN_MS)).toISOString(),
      service: SERVICES[(i * 7) % SERVICES.length]!,
      path: PATHS[(i * 13) % PATHS.length]!,
      status: i % 17 === 0 ? 500 + (i % 4) : i % 11 === 0 ? 404 : 200,
      duration_ms: (i * 37) % 2000,
    };
  }
  return events;
}

const p95 = (xs: number[]): number => {
  const s = xs.slice().sort((a, b) => a - b);
  return s[Math.max(0, Math.ceil(0.95 * s.length) - 1)]!;
};

export interface Shape {
  name: string;
  apl: string;
  /** The hand-written loop over the JS objects; answers its number of result rows. */
  loop(events: Event[]): number;
}

export const SHAPES: Shape[] = [
  {
    name: "5xx by hour",
    apl: "['bench'] | where status >= 500 | summarize count() by bin(_time, 1h)",
    loop(events) {
      const counts = new Map<number, number>();
      for (const e of events) {
        if (e.status < 500) continue;
        const b = Math.floor(Date.parse(e._time) / HOUR) * HOUR;
        counts.set(b, (counts.get(b) ?? 0) + 1);
      }
      return counts.size;
    },
  },
  {
    name: "avg+p95 by service",
    apl: "['bench'] | summarize avg(duration_ms), percentile(duration_ms, 95) by service",
    loop(events) {
      const groups = new Map<string, { sum: number; values: number[] }>();
      for (const e of events) {
        let g = groups.get(e.service);
        if (!g) groups.set(e.service, (g = { sum: 0, values: [] }));
        g.sum += e.duration_ms;
        g.values.push(e.duration_ms);
      }
      let rows = 0;
      for (const g of groups.values()) rows += g.sum / g.values.length + p95(g.values) > -1 ? 1 : 0;
      return rows;
    },
  },
  {
    name: "/pay slow by 5m,status",
    apl: "['bench'] | where path == '/pay' and duration_ms > 500 | summarize count() by bin(_time, 5m), status",
    loop(events) {
      const counts = new Map<string, number>();
      for (const e of events) {
        if (e.path !== "/pay" || !(e.duration_ms > 500)) continue;
        const k = `${Math.floor(Date.parse(e._time) / 300_000)}|${e.status}`;
        counts.set(k, (counts.get(k) ?? 0) + 1);
      }
      return counts.size;
    },
  },
  {
    name: "join 5xx/all by service",
    apl: "['bench'] | where status >= 500 | summarize errors = count() by service | join kind=inner (['bench'] | summarize total = count() by service) on service",
    loop(events) {
      const errors = new Map<string, number>();
      const total = new Map<string, number>();
      for (const e of events) {
        total.set(e.service, (total.get(e.service) ?? 0) + 1);
        if (e.status >= 500) errors.set(e.service, (errors.get(e.service) ?? 0) + 1);
      }
      let rows = 0;
      for (const k of errors.keys()) if (total.has(k)) rows++;
      return rows;
    },
  },
  {
    name: "make-series 1h by service",
    apl: `['bench'] | make-series count() default=0 on _time from datetime(${new Date(START_MS).toISOString()}) to datetime(${new Date(START_MS + SPAN_MS).toISOString()}) step 1h by service`,
    loop(events) {
      const series = new Map<string, number[]>();
      const bins = SPAN_MS / HOUR;
      for (const e of events) {
        let s = series.get(e.service);
        if (!s) series.set(e.service, (s = new Array<number>(bins).fill(0)));
        const i = Math.floor((Date.parse(e._time) - START_MS) / HOUR);
        if (i >= 0 && i < bins) s[i]!++;
      }
      return series.size;
    },
  },
];

export function rssMiB(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : NaN;
}

export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** A tabular answer's first table: its fields and columns. */
export interface AnswerTable {
  fields: { name: string; type: string }[];
  columns: unknown[][];
}

export async function query(emu: EmulatorProcess, apl: string): Promise<{ ms: number; rows: number; table: AnswerTable | undefined }> {
  const t0 = performance.now();
  const answer = await emu.api("POST", "/v1/datasets/_apl?format=tabular", { apl, startTime: new Date(START_MS).toISOString(), endTime: new Date(START_MS + SPAN_MS).toISOString() });
  const ms = performance.now() - t0;
  if (answer.status !== 200) throw new Error(`query ${apl}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
  const body = answer.body as { tables: AnswerTable[]; status: { isPartial: boolean } };
  if (body.status.isPartial) throw new Error(`query ${apl} answered partial`);
  return { ms, rows: body.tables[0]?.columns[0]?.length ?? 0, table: body.tables[0] };
}

/** Events per ingest request: about 5.5 MB of JSON, within the service's 10 MiB body limit. */
export const INGEST_BATCH = 50_000;

/**
 * Ingests `events` in batches; answers the seconds the emulator took (the requests, one
 * after another) and, apart, the seconds this process spent serializing the bodies, done
 * before the clock starts: what is measured is the emulator's ingest, not the client's.
 */
export async function ingest(emu: EmulatorProcess, events: Event[]): Promise<{ seconds: number; serializeSeconds: number }> {
  const made = await emu.api("POST", "/v2/datasets", { name: "bench" });
  if (made.status >= 300) throw new Error(`creating the dataset: ${made.status}`);
  const s0 = performance.now();
  const bodies: string[] = [];
  for (let start = 0; start < events.length; start += INGEST_BATCH) bodies.push(JSON.stringify(events.slice(start, start + INGEST_BATCH)));
  const serializeSeconds = (performance.now() - s0) / 1000;
  const t0 = performance.now();
  for (const body of bodies) {
    const res = await fetch(`${emu.url}/v1/datasets/bench/ingest`, {
      method: "POST",
      headers: { Authorization: `Bearer ${emu.token}`, "Content-Type": "application/json" },
      body,
      signal: AbortSignal.timeout(60_000),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`ingest: ${res.status} ${text.slice(0, 300)}`);
  }
  return { seconds: (performance.now() - t0) / 1000, serializeSeconds };
}

const f = (n: number, d = 1): string => n.toFixed(d);

export async function httpShapes(): Promise<void> {
  const [load1] = os.loadavg();
  console.log(`issue-45 shapes over HTTP: ${EVENTS} events over 7 days; ${RUNS} runs per shape after one warm-up; load average ${f(load1!, 2)} on ${os.cpus().length} cores`);
  const events = makeEvents();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ods-bench-query-"));
  const dataDir = path.join(dir, "emulator");
  let emu = await startEmulatorProcess({ dataDir, rateLimit: 1_000_000, extraArgs: ["--query-max-millis", "300000"] });
  try {
    const ingested = await ingest(emu, events);
    const rssAfterIngest = rssMiB(emu.pid);
    console.log(
      `ingest: ${f(ingested.seconds, 1)} s for ${EVENTS} events over HTTP (batches of ${INGEST_BATCH}; the bench's JSON.stringify of the bodies, ${f(ingested.serializeSeconds, 1)} s, done before); emulator RSS after ingest ${f(rssAfterIngest, 0)} MiB`,
    );
    // BENCH_QUERY_SHAPES=0: ingest and restart only (profiling the ingest).
    for (const shape of process.env.BENCH_QUERY_SHAPES === "0" ? [] : SHAPES) {
      const warm = await query(emu, shape.apl);
      const loopRows = shape.loop(events);
      const httpMs: number[] = [];
      const loopMs: number[] = [];
      for (let r = 0; r < RUNS; r++) {
        httpMs.push((await query(emu, shape.apl)).ms);
        const t0 = performance.now();
        shape.loop(events);
        loopMs.push(performance.now() - t0);
      }
      const h = median(httpMs);
      const l = median(loopMs);
      console.log(
        `${shape.name.padEnd(26)} HTTP ${f(h, 0).padStart(6)} ms  plain loop ${f(l, 0).padStart(5)} ms  ratio ${f(h / l, 2).padStart(6)}x  (first query ${f(warm.ms, 0)} ms; rows ${warm.rows}, loop ${loopRows})`,
      );
    }
    console.log(`emulator RSS after the queries (main thread + query workers' copies): ${f(rssMiB(emu.pid), 0)} MiB`);
    await emu.stop();
    const t0 = performance.now();
    emu = await startEmulatorProcess({ dataDir, rateLimit: 1_000_000, extraArgs: ["--query-max-millis", "300000"], startTimeoutMs: 300_000 });
    const started = (performance.now() - t0) / 1000;
    const first = await query(emu, SHAPES[0]!.apl);
    console.log(`restart: ${f(started, 1)} s to answer requests (events reloaded from the append-only files), first query after it ${f(first.ms, 0)} ms; RSS ${f(rssMiB(emu.pid), 0)} MiB`);
  } finally {
    await emu.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
