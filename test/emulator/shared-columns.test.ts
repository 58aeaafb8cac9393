// A dataset's columns are built once, at ingest, in shared memory, and the query
// workers read them in place (src/emulator/query/columns.ts, query-host/): over HTTP,
// rows ingested after a query are seen by the next one (new values, a new field, a new
// block), answers of the columns equal the row path's, and a restart reloads the same
// answers from the append-only files.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";

interface Answer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

let em: EmulatorHandle;
let dir: string;

async function call(method: string, urlPath: string, body?: unknown): Promise<Answer> {
  const res = await fetch(em.url + urlPath, {
    method,
    headers: { Authorization: `Bearer ${em.adminToken}`, "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text === "" ? undefined : JSON.parse(text) };
}

const START = Date.UTC(2024, 4, 1);
const RANGE = { startTime: new Date(START).toISOString(), endTime: new Date(START + 86_400_000).toISOString() };

function events(from: number, n: number, extra: (i: number) => Record<string, unknown> = () => ({})): Record<string, unknown>[] {
  return Array.from({ length: n }, (_, k) => {
    const i = from + k;
    return { _time: new Date(START + i * 1000).toISOString(), service: ["api", "web", "pay"][i % 3], status: i % 7 === 0 ? 500 : 200, duration_ms: (i * 37) % 1000, ...extra(i) };
  });
}

async function ingest(rows: Record<string, unknown>[]): Promise<void> {
  const r = await call("POST", "/v1/datasets/shop/ingest", rows);
  expect(r.status).toBe(200);
}

/** A query's table as rows of cells, and how it ran. */
async function query(apl: string): Promise<{ rows: unknown[][]; execution: { vectorized: number; rowFallbacks: number } }> {
  const r = await call("POST", "/v1/datasets/_apl?format=tabular", { apl, ...RANGE });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const columns = r.body.tables[0].columns as unknown[][];
  const rows = (columns[0] ?? []).map((_, i) => columns.map((c) => c[i]));
  return { rows, execution: r.body.status.emulatorExecution };
}

const SUMMARY = "['shop'] | where status >= 500 and duration_ms > 100 | summarize n = count(), avg(duration_ms) by service, region, bin(_time, 1h) | sort by service asc, region asc, _time asc";
/** The same question through a stage the columns do not run: the row path's answer. */
const SUMMARY_ON_ROWS = "['shop'] | extend d = duration_ms | where status >= 500 and d > 100 | summarize n = count(), avg(duration_ms) by service, region, bin(_time, 1h) | sort by service asc, region asc, _time asc";

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "ods-shared-columns-"));
  em = await startEmulator({ port: 0, dataDir: dir });
  expect((await call("POST", "/v2/datasets", { name: "shop" })).status).toBeLessThan(300);
});

afterAll(async () => {
  await em?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe("shared columns", () => {
  it("a query sees what was ingested after the last one, and answers as the row path does", async () => {
    await ingest(events(0, 3000, (i) => (i === 7 ? { region: "us" } : {})));
    const first = await query(SUMMARY);
    expect(first.execution).toEqual({ vectorized: 1, rowFallbacks: 0 });
    const onRows = await query(SUMMARY_ON_ROWS);
    expect(onRows.execution).toEqual({ vectorized: 0, rowFallbacks: 1 });
    expect(first.rows).toEqual(onRows.rows);
    expect(JSON.stringify(first.rows)).not.toContain("eu");

    // Past the first block of 65,536 rows, a new field and a new service.
    await ingest(events(3000, 70_000, (i) => (i % 2 === 0 ? { region: "eu" } : {})));
    await ingest([{ _time: new Date(START + 5000).toISOString(), service: "new", status: 503, duration_ms: 999 }]);
    const second = await query(SUMMARY);
    expect(second.execution).toEqual({ vectorized: 1, rowFallbacks: 0 });
    expect(second.rows).toEqual((await query(SUMMARY_ON_ROWS)).rows);
    expect(JSON.stringify(second.rows)).toContain("eu");
    expect(JSON.stringify(second.rows)).toContain("new");
    const total = await query("['shop'] | summarize count()");
    expect(total.rows).toEqual([[73_001]]);
  });

  it("a restart reloads the same answers from the append-only files", async () => {
    const before = await query(SUMMARY);
    const listing = await query("['shop'] | where service == 'new' | project service, status, duration_ms");
    await em.close();
    em = await startEmulator({ port: 0, dataDir: dir });
    const after = await query(SUMMARY);
    expect(after.rows).toEqual(before.rows);
    expect(after.execution).toEqual({ vectorized: 1, rowFallbacks: 0 });
    expect((await query("['shop'] | where service == 'new' | project service, status, duration_ms")).rows).toEqual(listing.rows);
    expect((await query("['shop'] | summarize count()")).rows).toEqual([[73_001]]);
  });
});
