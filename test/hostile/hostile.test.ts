// The emulator under hostile input, as an attacker and a careless user would send it:
// catastrophic regular expressions, queries that never end by themselves, huge joins
// and series, deep nesting, large bodies, unicode and control characters in names,
// concurrent load, and kill -9. Throughout, a health probe (GET /v2/user, one after
// another) must be answered: every answer within 1 s, and in the full run
// (`npm run test:hostile`, ODS_HOSTILE=full, larger sizes) a p99 of at most 100 ms.
// `npm test` runs this file at the small sizes. Traffic goes to 127.0.0.1 only; every
// loop is bounded in count.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as fs from "node:fs";
import * as http from "node:http";
import * as path from "node:path";
import { killSpawnedEmulators, spawnEmulator, tempDir, type Subprocess } from "../emulator/helpers";
import { startProbe, type ProbeReport } from "./probe";
import { catastrophicForms, CATASTROPHIC_TEXT, stuckQuery } from "./queries";

const FULL = process.env.ODS_HOSTILE === "full";
const SIZES = FULL
  ? { regexEvents: 5_000, joinEvents: 20_000, concurrent: 100, rounds: 3 }
  : { regexEvents: 5_000, joinEvents: 3_000, concurrent: 24, rounds: 1 };
/**
 * The emulator's limit, far past what any query here needs; the queries meant to be
 * stopped by the clock ask for less (`maxMillis`). A query that asks for nothing is
 * stopped by the bound it is about, whatever the machine's load.
 */
const QUERY_MAX_MILLIS = 60_000;
const STOP_AT = 400;

interface Answer {
  status: number;
  // JSON of any shape: the checks read nested fields directly.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  ms: number;
}

let em: Subprocess;
let dataDir: string;
const reports: { scenario: string; probe: ProbeReport }[] = [];

async function api(method: string, urlPath: string, body?: unknown, raw?: string): Promise<Answer> {
  const t0 = performance.now();
  const res = await fetch(em.url + urlPath, {
    method,
    headers: { Authorization: `Bearer ${em.token}`, "Content-Type": "application/json" },
    body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text === "" ? undefined : JSON.parse(text);
  } catch {
    // not JSON: kept as text
  }
  return { status: res.status, body: parsed, ms: performance.now() - t0 };
}

/** Status of a POST that announces `bytes` of body and sends only a first piece of it. */
function announced(urlPath: string, bytes: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(em.url + urlPath, { method: "POST", headers: { Authorization: `Bearer ${em.token}`, "Content-Type": "application/json", "Content-Length": String(bytes) } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
      req.destroy();
    });
    req.on("error", reject);
    req.write("[");
  });
}

/** Status of a chunked POST of `bytes`, sent in 64 KiB pieces until the answer comes (a write after it may fail). */
function chunked(urlPath: string, bytes: number): Promise<number> {
  return new Promise((resolve) => {
    const req = http.request(em.url + urlPath, { method: "POST", headers: { Authorization: `Bearer ${em.token}`, "Content-Type": "application/json" } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
      req.destroy();
    });
    req.on("error", () => undefined);
    const piece = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const more = (): void => {
      if (req.destroyed || sent >= bytes) return void (req.destroyed || req.end());
      sent += piece.length;
      req.write(piece, more);
    };
    more();
  });
}

const apl = (query: string, extra: Record<string, unknown> = {}): Promise<Answer> => api("POST", "/v1/datasets/_apl?format=tabular", { apl: query, startTime: "2000-01-01T00:00:00Z", ...extra });

/** Runs `work` while the health probe runs; checks and keeps the probe's figures. */
async function probed(scenario: string, work: () => Promise<void>): Promise<void> {
  const probe = startProbe(em.url, em.token);
  try {
    await work();
  } finally {
    const report = await probe.stop();
    reports.push({ scenario, probe: report });
    expect(report.failures, scenario).toBe(0);
    expect(report.count, scenario).toBeGreaterThan(0);
    expect(report.max, `${scenario}: slowest health answer`).toBeLessThan(1_000);
    if (FULL) expect(report.p99, `${scenario}: health p99`).toBeLessThanOrEqual(100);
  }
}

async function ingest(dataset: string, events: unknown[]): Promise<void> {
  for (let i = 0; i < events.length; i += 5_000) {
    const r = await api("POST", `/v1/datasets/${dataset}/ingest`, events.slice(i, i + 5_000));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  }
}

beforeAll(async () => {
  dataDir = tempDir("ods-hostile-");
  em = await spawnEmulator(dataDir, ["--query-max-millis", String(QUERY_MAX_MILLIS)]);
  for (const name of ["regex", "left", "right"]) expect((await api("POST", "/v2/datasets", { name })).status).toBe(200);
  await ingest("regex", Array.from({ length: SIZES.regexEvents }, (_, i) => ({ s: CATASTROPHIC_TEXT, i })));
  const side = Array.from({ length: SIZES.joinEvents }, (_, i) => ({ k: 1, i }));
  await ingest("left", side);
  await ingest("right", side);
}, 180_000);

afterAll(async () => {
  killSpawnedEmulators();
  const lines = reports.map((r) => `${r.scenario.padEnd(44)} probes ${String(r.probe.count).padStart(5)}  p50 ${r.probe.p50.toFixed(1)} ms  p99 ${r.probe.p99.toFixed(1)} ms  max ${r.probe.max.toFixed(1)} ms`);
  console.log(`health probe (GET /v2/user) while hostile work runs${FULL ? " (full sizes)" : ""}:\n${lines.join("\n")}`);
  if (FULL) {
    const out = path.resolve(__dirname, "../../bench/results/hostile.json");
    fs.writeFileSync(out, `${JSON.stringify({ sizes: SIZES, queryMaxMillis: QUERY_MAX_MILLIS, node: process.version, reports }, null, 2)}\n`);
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("hostile queries", () => {
  it(`a catastrophic regex over ${SIZES.regexEvents} events, in every form, ends while every other request is answered`, async () => {
    await probed("catastrophic regex, every form", async () => {
      for (let round = 0; round < SIZES.rounds; round++) {
        for (const q of catastrophicForms("regex")) {
          const a = await apl(q);
          // RE2: every form finishes its scan (a backtracking engine would not end at all).
          expect(a.status, `${q}: ${JSON.stringify(a.body)}`).toBe(200);
          expect(a.body.status.isPartial, q).toBe(false);
          expect(a.body.status.rowsExamined, q).toBe(SIZES.regexEvents);
        }
      }
    });
  });

  it("queries that would never end are stopped at their limit (408), the API answering meanwhile", async () => {
    await probed("queries past their limit", async () => {
      for (let round = 0; round < SIZES.rounds; round++) {
        // Two at once from one token: it holds its share (one thread of two), so the
        // first is stopped at its limit and the second waits its turn (408, or 503 when
        // its wait reached the same limit first).
        const stuck = await Promise.all([apl(stuckQuery(), { maxMillis: STOP_AT }), apl(stuckQuery(), { maxMillis: STOP_AT })]);
        expect(stuck.filter((a) => a.status === 408).length, JSON.stringify(stuck.map((a) => a.body))).toBeGreaterThan(0);
        for (const a of stuck) {
          expect([408, 503], JSON.stringify(a.body)).toContain(a.status);
          if (a.status === 408) expect(a.body.message).toBe(`query stopped: it ran past its time limit of ${STOP_AT} ms (maxMillis); narrow its time range or its datasets`);
          // Stopped at its limit and the grace: bounded, whatever the query would have taken.
          expect(a.ms).toBeLessThan(STOP_AT + 1_000 + 10_000);
        }
      }
      // The pool has recovered: an ordinary query answers.
      expect((await apl("['left'] | count")).status).toBe(200);
    });
  });

  it(`a ${SIZES.joinEvents} x ${SIZES.joinEvents} join and a huge series stay within the bounds`, async () => {
    await probed("huge join and series", async () => {
      // Every pair (9 million at this size) is kept before `count`: the memory a query may build
      // (256 MiB, about 700,000 of these rows, charged per row) ends it long before the
      // row budget (5 million) would. That depends on the rows alone; a short time limit
      // (it asked for 1.5 s) raced it, and a quiet machine reached the memory first.
      const join = await apl("['left'] | join kind=inner (['right']) on k | count");
      expect(join.status, JSON.stringify(join.body)).toBe(400);
      expect(join.body.message).toMatch(/built more than the 256 MiB of memory a query may use/);
      const series = await apl("['left'] | make-series count() default = 0 on _time from datetime(2000-01-01) to datetime(2030-01-01) step 1ms");
      expect(series.status).toBe(400);
      expect(series.body.message).toMatch(/make-series would make more than/);
      const wide = await apl("['left'] | make-series count() default = 0 on _time from ago(1d) to now() step 1s by i", { maxMillis: 1_500 });
      expect([200, 400, 408]).toContain(wide.status);
    });
  });

  it("deep nesting is a 400, not a crash", async () => {
    await probed("deep nesting", async () => {
      const depth = FULL ? 200_000 : 50_000;
      const deep = await apl(`print x = ${"(".repeat(depth)}1${")".repeat(depth)}`);
      expect(deep.status).toBe(400);
      expect(deep.body.message).toMatch(/nests deeper than 256 levels/);
      // A flat chain of operators builds a deep tree without nesting: refused too, not a 500.
      const chain = await apl(`print x = ${Array.from({ length: FULL ? 200_000 : 50_000 }, () => "1").join(" + ")}`);
      expect(chain.status, JSON.stringify(chain.body)).toBe(400);
      const monitor = await api("POST", "/v2/monitors", { name: "deep", type: "Threshold", operator: "Above", threshold: 1, aplQuery: `['left'] | where ${"not(".repeat(depth)}true${")".repeat(depth)} | summarize count()`, intervalMinutes: 1, rangeMinutes: 1 });
      expect(monitor.status).toBe(400);
      const ingestDeep = await api("POST", "/v1/datasets/left/ingest", undefined, `[${"[".repeat(depth)}${"]".repeat(depth)}]`);
      expect(ingestDeep.status).toBe(400);
    });
  });

  it("large bodies are refused at their limit", async () => {
    await probed("large bodies", async () => {
      // Announced larger than the limit: refused before the body is read.
      expect(await announced("/v1/datasets/left/ingest", 11 * 1024 * 1024)).toBe(413);
      expect(await announced("/v1/datasets/_apl", 2 * 1024 * 1024)).toBe(413);
      // Sent without a length (chunked): refused once the bytes read pass the limit.
      expect(await chunked("/v1/datasets/left/ingest", 11 * 1024 * 1024)).toBe(413);
    });
  });

  it("unicode and control characters in names are refused or kept exactly", async () => {
    await probed("unicode and control characters", async () => {
      for (const name of ["bad\u0000name", "new\nline", "rtl\u202eevil", "emoji😀"]) {
        const r = await api("POST", "/v2/datasets", { name });
        expect(r.status, name).toBe(400);
        expect(r.body.message).toMatch(/letters, digits/);
      }
      const fields = { "naïve": 1, "控制": 2, "tab\tfield": 3, "zero\u200bwidth": 4, "nul\u0000": 5 };
      expect((await api("POST", "/v1/datasets/left/ingest", [fields])).status).toBe(200);
      const q = await apl("['left'] | where isnotnull(['naïve']) | project ['naïve'], ['控制'], ['zero\u200bwidth']");
      expect(q.status, JSON.stringify(q.body)).toBe(200);
      const named = "alert \u202e\u0007 ☃ \u{1F600}\u0000end";
      const created = await api("POST", "/v2/notifiers", { name: named, properties: { webhook: { url: "http://127.0.0.1:9/x" } } });
      expect(created.status).toBe(200);
      expect((await api("GET", `/v2/notifiers/${created.body.id}`)).body.name).toBe(named);
    });
  });

  it("concurrent load of hostile and ordinary requests: every one answered", async () => {
    await probed("concurrent load", async () => {
      const work: Promise<Answer>[] = [];
      for (let i = 0; i < SIZES.concurrent; i++) {
        if (i % 6 === 0) work.push(apl(stuckQuery(), { maxMillis: STOP_AT }));
        else if (i % 6 === 1) work.push(apl(catastrophicForms("regex")[i % 7]!));
        else if (i % 6 === 2) work.push(api("POST", "/v1/datasets/right/ingest", [{ k: 2, i }]));
        else if (i % 6 === 3) work.push(apl("['right'] | summarize count() by k"));
        else if (i % 6 === 4) work.push(api("GET", "/v2/datasets"));
        else work.push(api("GET", "/v2/monitors"));
      }
      const answers = await Promise.all(work);
      // 408: stopped at the limit; 503: the queue of waiting queries was full. Never a 500.
      for (const a of answers) expect([200, 408, 503], JSON.stringify(a.body)).toContain(a.status);
      expect(answers.filter((a) => a.status === 200).length).toBeGreaterThan(SIZES.concurrent / 3);
    });
  });
});

describe("kill -9", () => {
  it("loses no acknowledged write, and comes back answering with a stuck monitor stored", async () => {
    const monitor = await api("POST", "/v2/monitors", { name: "stuck", type: "Threshold", operator: "Above", threshold: 0, aplQuery: stuckQuery("summarize count()"), intervalMinutes: 1, rangeMinutes: 1 });
    expect(monitor.status).toBe(200);
    // Writes in flight when the process dies: only acknowledged ones are counted.
    const acked: number[] = [];
    const writes = Array.from({ length: 20 }, (_, i) =>
      api("POST", "/v1/datasets/right/ingest", [{ k: 3, n: i }]).then((a) => {
        if (a.status === 200) acked.push(i);
      }, () => undefined),
    );
    await Promise.race([Promise.all(writes), new Promise((r) => setTimeout(r, 50))]);
    em.child.kill("SIGKILL");
    await em.exited;
    await Promise.all(writes);
    em = await spawnEmulator(dataDir, ["--query-max-millis", String(QUERY_MAX_MILLIS)]);
    await probed("after kill -9", async () => {
      const stored = await apl("['right'] | where k == 3 | project n");
      expect(stored.status).toBe(200);
      const found = new Set((stored.body.tables[0].columns[0] as number[]) ?? []);
      for (const n of acked) expect(found.has(n), `acknowledged event ${n}`).toBe(true);
      expect((await api("GET", `/v2/monitors/${monitor.body.id}`)).status).toBe(200);
    });
  });
});
