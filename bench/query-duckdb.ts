// `npm run bench:query-duckdb`: issue 45 point 3, an embedded columnar database measured
// beside the emulator's own engine on the same 1,000,000 events and the three shapes of
// `npm run bench:query`: ingest time, RSS after ingest, each shape's median time, a
// restart's time to the first answer, and whether the answers match ours.
//
// DuckDB (@duckdb/node-api, which ships its binaries as npm optional dependencies) is not
// a dependency of the project: install it for this run only with
//   npm install --no-save @duckdb/node-api
// Without it the bench says so and exits 0.
//
// Ours: the emulator over HTTP, as bench:query measures it (bodies serialized before the
// clock starts, the append-only file fsynced per request). DuckDB: in a child process of
// its own (so that its RSS is its own), the same bodies parsed with JSON.parse and
// appended in data chunks into a database file, flushed per body (one commit each), then
// the same questions in SQL. Both figures come from this one run.
import { fork } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { startEmulatorProcess } from "./harness";
import { EVENTS, INGEST_BATCH, ingest, makeEvents, median, query, rssMiB, RUNS, SHAPES, START_MS, type AnswerTable, type Event } from "./query-http";

const PACKAGE = "@duckdb/node-api";
const HOUR = 3_600_000;

/** The three shapes of issue 45 in DuckDB's SQL, columns in the order of our answers. */
const SQL: Record<string, string> = {
  "5xx by hour": `SELECT floor(t / ${HOUR}) * ${HOUR} AS bin, count(*) AS n FROM events WHERE status >= 500 GROUP BY bin`,
  "avg+p95 by service": "SELECT service, avg(duration_ms), quantile_disc(duration_ms, 0.95) FROM events GROUP BY service",
  "/pay slow by 5m,status": "SELECT floor(t / 300000) * 300000 AS bin, status, count(*) AS n FROM events WHERE path = '/pay' AND duration_ms > 500 GROUP BY bin, status",
};
const SHAPE_NAMES = Object.keys(SQL);

/** The small part of @duckdb/node-api this bench uses (typed here: the package is optional). */
interface DuckDbApi {
  DuckDBInstance: { create(path?: string, options?: Record<string, string>): Promise<DuckDbInstance> };
  DuckDBDataChunk: { create(types: readonly unknown[], rowCount?: number): DuckDbChunk };
  BIGINT: unknown;
  DOUBLE: unknown;
  INTEGER: unknown;
  VARCHAR: unknown;
}
interface DuckDbInstance {
  connect(): Promise<DuckDbConnection>;
  closeSync(): void;
}
interface DuckDbConnection {
  run(sql: string): Promise<unknown>;
  runAndReadAll(sql: string): Promise<{ getRowsJS(): unknown[][] }>;
  createAppender(table: string): Promise<{ appendDataChunk(chunk: DuckDbChunk): void; flushSync(): void; closeSync(): void }>;
  closeSync(): void;
}
interface DuckDbChunk {
  setColumns(columns: readonly (readonly unknown[])[]): void;
}

interface DuckMeasured {
  ingestSeconds: number;
  baselineRssMiB: number;
  rssAfterIngestMiB: number;
  rssAfterQueriesMiB: number;
  /** Per shape: median ms and the answer's rows. */
  shapes: Record<string, { ms: number; firstMs: number; rows: unknown[][] }>;
  reopenSeconds: number;
  firstAfterReopenMs: number;
  version: string;
}

/** DuckDB's data chunks hold at most this many rows. */
const CHUNK_ROWS = 2048;

async function duckChild(): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const duck = require(PACKAGE) as DuckDbApi;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const version = (require(`${PACKAGE}/package.json`) as { version: string }).version;
  const events = makeEvents();
  const bodies: string[] = [];
  for (let start = 0; start < events.length; start += INGEST_BATCH) bodies.push(JSON.stringify(events.slice(start, start + INGEST_BATCH)));
  events.length = 0;
  global.gc?.();
  const baselineRssMiB = process.memoryUsage().rss / 1024 / 1024;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ods-bench-duckdb-"));
  const file = path.join(dir, "events.duckdb");
  try {
    // No extension may be fetched from the network: only what the package ships.
    const options = { autoinstall_known_extensions: "false", autoload_known_extensions: "false" };
    let instance = await duck.DuckDBInstance.create(file, options);
    let conn = await instance.connect();
    await conn.run("CREATE TABLE events (t DOUBLE, service VARCHAR, path VARCHAR, status INTEGER, duration_ms DOUBLE)");
    const types = [duck.DOUBLE, duck.VARCHAR, duck.VARCHAR, duck.INTEGER, duck.DOUBLE];
    const t0 = performance.now();
    const appender = await conn.createAppender("events");
    for (const body of bodies) {
      const batch = JSON.parse(body) as Event[];
      for (let from = 0; from < batch.length; from += CHUNK_ROWS) {
        const part = batch.slice(from, from + CHUNK_ROWS);
        const chunk = duck.DuckDBDataChunk.create(types, part.length);
        chunk.setColumns([part.map((e) => Date.parse(e._time)), part.map((e) => e.service), part.map((e) => e.path), part.map((e) => e.status), part.map((e) => e.duration_ms)]);
        appender.appendDataChunk(chunk);
      }
      appender.flushSync();
    }
    appender.closeSync();
    const ingestSeconds = (performance.now() - t0) / 1000;
    const rssAfterIngestMiB = process.memoryUsage().rss / 1024 / 1024;
    const shapes: DuckMeasured["shapes"] = {};
    for (const name of SHAPE_NAMES) {
      const sql = SQL[name]!;
      const w0 = performance.now();
      const rows = (await conn.runAndReadAll(sql)).getRowsJS().map((r) => r.map((v) => (typeof v === "bigint" ? Number(v) : v)));
      const firstMs = performance.now() - w0;
      const times: number[] = [];
      for (let r = 0; r < RUNS; r++) {
        const q0 = performance.now();
        await conn.runAndReadAll(sql);
        times.push(performance.now() - q0);
      }
      shapes[name] = { ms: median(times), firstMs, rows };
    }
    const rssAfterQueriesMiB = process.memoryUsage().rss / 1024 / 1024;
    conn.closeSync();
    instance.closeSync();
    const r0 = performance.now();
    instance = await duck.DuckDBInstance.create(file, options);
    conn = await instance.connect();
    const reopenSeconds = (performance.now() - r0) / 1000;
    const f0 = performance.now();
    await conn.runAndReadAll(SQL[SHAPE_NAMES[0]!]!);
    const firstAfterReopenMs = performance.now() - f0;
    conn.closeSync();
    instance.closeSync();
    const measured: DuckMeasured = { ingestSeconds, baselineRssMiB, rssAfterIngestMiB, rssAfterQueriesMiB, shapes, reopenSeconds, firstAfterReopenMs, version };
    process.send?.(measured);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function runDuckChild(): Promise<DuckMeasured> {
  return new Promise((resolve, reject) => {
    const p = fork(__filename, ["duckdb-child"], { execArgv: ["--expose-gc", "--max-old-space-size=4096"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
    let got: DuckMeasured | undefined;
    p.on("message", (m) => (got = m as DuckMeasured));
    p.on("error", reject);
    p.on("exit", (code) => (got ? resolve(got) : reject(new Error(`the DuckDB child exited with ${code}`))));
  });
}

/** A row as text for comparing answers: times as ms, numbers to 12 significant digits. */
function rowKey(row: readonly unknown[]): string {
  return row
    .map((v) => {
      if (typeof v === "string" && /^\d{4}-\d{2}-\d{2}T/.test(v)) return String(Date.parse(v));
      if (typeof v === "number") return Number(v.toPrecision(12)).toString();
      return JSON.stringify(v);
    })
    .join("|");
}

const rowsOf = (table: AnswerTable | undefined): unknown[][] => {
  if (!table || table.columns.length === 0) return [];
  return table.columns[0]!.map((_, i) => table.columns.map((c) => c[i]));
};

/** How many rows of `ours` have no equal in `theirs` (as multisets), and the first such pair. */
function compare(ours: unknown[][], theirs: unknown[][]): { differing: number; example?: string } {
  const left = new Map<string, number>();
  for (const r of theirs) left.set(rowKey(r), (left.get(rowKey(r)) ?? 0) + 1);
  let differing = 0;
  let example: string | undefined;
  for (const r of ours) {
    const k = rowKey(r);
    const n = left.get(k) ?? 0;
    if (n > 0) left.set(k, n - 1);
    else {
      differing++;
      example ??= `ours ${k}`;
    }
  }
  differing = Math.max(differing, theirs.length - ours.length + differing);
  if (example && theirs.length > 0) {
    const unmatched = [...left.entries()].find(([, n]) => n > 0)?.[0];
    if (unmatched) example += `; DuckDB ${unmatched}`;
  }
  return { differing, example };
}

const f = (n: number, d = 1): string => n.toFixed(d);

function duSizeMiB(dir: string): number {
  let total = 0;
  const walk = (p: string): void => {
    const st = fs.lstatSync(p);
    if (st.isDirectory()) for (const e of fs.readdirSync(p)) walk(path.join(p, e));
    else total += st.size;
  };
  walk(dir);
  return total / 1024 / 1024;
}

async function main(): Promise<void> {
  let packageDir: string;
  try {
    packageDir = path.dirname(require.resolve(`${PACKAGE}/package.json`));
  } catch {
    console.log(`bench:query-duckdb: ${PACKAGE} is not installed (it is not a dependency of the project). Install it for this run only with\n  npm install --no-save ${PACKAGE}\nthen run npm run bench:query-duckdb again.`);
    return;
  }
  const scope = path.dirname(packageDir);
  const load = (): string => os.loadavg().map((x) => f(x, 2)).join(", ");
  console.log(`bench:query-duckdb: ${EVENTS} events over 7 days, medians of ${RUNS} runs after one warm-up; ${os.cpus().length} cores, Node ${process.version}; load average ${load()}`);
  console.log(`install size of node_modules/@duckdb (every package of the scope, binaries included): ${f(duSizeMiB(scope), 1)} MiB`);

  // Ours, over HTTP, as bench:query measures it.
  const events = makeEvents();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ods-bench-query-duckdb-"));
  const dataDir = path.join(dir, "emulator");
  const args = { dataDir, rateLimit: 1_000_000, extraArgs: ["--query-max-millis", "300000"], startTimeoutMs: 300_000 };
  let emu = await startEmulatorProcess(args);
  const ours: Record<string, { ms: number; firstMs: number; rows: unknown[][] }> = {};
  let oursIngest: number;
  let oursRss: number;
  let oursRssQueries: number;
  let oursRestart: number;
  let oursFirstAfterRestart: number;
  try {
    oursIngest = (await ingest(emu, events)).seconds;
    oursRss = rssMiB(emu.pid);
    console.log(`ours: ingested (load average ${load()})`);
    for (const name of SHAPE_NAMES) {
      const shape = SHAPES.find((s) => s.name === name)!;
      const first = await query(emu, shape.apl);
      const times: number[] = [];
      for (let r = 0; r < RUNS; r++) times.push((await query(emu, shape.apl)).ms);
      ours[name] = { ms: median(times), firstMs: first.ms, rows: rowsOf(first.table) };
    }
    oursRssQueries = rssMiB(emu.pid);
    await emu.stop();
    const r0 = performance.now();
    emu = await startEmulatorProcess(args);
    oursRestart = (performance.now() - r0) / 1000;
    oursFirstAfterRestart = (await query(emu, SHAPES[0]!.apl)).ms;
  } finally {
    await emu.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  events.length = 0;

  console.log(`DuckDB: starting its child process (load average ${load()})`);
  const duck = await runDuckChild();
  console.log(`DuckDB ${duck.version}: done (load average ${load()})`);

  const rows: [string, string, string, string][] = [
    [`ingest of ${EVENTS} events`, `${f(oursIngest, 1)} s (HTTP, fsync per request)`, `${f(duck.ingestSeconds, 1)} s (JSON.parse + appender, commit per body)`, f(duck.ingestSeconds / oursIngest, 2)],
    ["RSS after ingest", `${f(oursRss, 0)} MiB (emulator process)`, `${f(duck.rssAfterIngestMiB, 0)} MiB (${f(duck.rssAfterIngestMiB - duck.baselineRssMiB, 0)} above the child's ${f(duck.baselineRssMiB, 0)} MiB with the request bodies)`, f((duck.rssAfterIngestMiB - duck.baselineRssMiB) / oursRss, 2)],
    ["RSS after the queries", `${f(oursRssQueries, 0)} MiB`, `${f(duck.rssAfterQueriesMiB, 0)} MiB (${f(duck.rssAfterQueriesMiB - duck.baselineRssMiB, 0)} above)`, f((duck.rssAfterQueriesMiB - duck.baselineRssMiB) / oursRssQueries, 2)],
    ["restart to first answer", `${f(oursRestart * 1000 + oursFirstAfterRestart, 0)} ms (reload ${f(oursRestart, 1)} s + query)`, `${f(duck.reopenSeconds * 1000 + duck.firstAfterReopenMs, 0)} ms (open + query)`, f((duck.reopenSeconds * 1000 + duck.firstAfterReopenMs) / (oursRestart * 1000 + oursFirstAfterRestart), 2)],
  ];
  const fidelity: string[] = [];
  for (const name of SHAPE_NAMES) {
    const o = ours[name]!;
    const d = duck.shapes[name]!;
    rows.push([name, `${f(o.ms, 0)} ms over HTTP (first ${f(o.firstMs, 0)})`, `${f(d.ms, 0)} ms in process (first ${f(d.firstMs, 0)})`, f(d.ms / o.ms, 2)]);
    const c = compare(o.rows, d.rows);
    fidelity.push(`${name}: ours ${o.rows.length} rows, DuckDB ${d.rows.length}; ${c.differing === 0 ? "same answers" : `${c.differing} rows differ (e.g. ${c.example})`}`);
  }
  console.log("| | ours (emulator) | DuckDB | DuckDB / ours |");
  console.log("|---|---|---|---:|");
  for (const r of rows) console.log(`| ${r.join(" | ")} |`);
  console.log("fidelity (rows compared as multisets; times as ms, numbers to 12 significant digits):");
  for (const line of fidelity) console.log(`  ${line}`);
  console.log(`load average at the end: ${load()}`);
}

if (process.argv[2] === "duckdb-child" && process.send) {
  duckChild().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
} else {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
