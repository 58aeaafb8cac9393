// The vectorized path (src/emulator/query/vectorized.ts) against the row path: each
// query runs on the same events twice, once on a dataset with columns (vectorized when
// it can be) and once without (rows only); the answers must be identical in both
// layouts, and the test checks which path each query actually took.

import { describe, expect, it } from "vitest";
import { DEFAULT_QUERY_LIMITS, runAplQuery, type AplFormat, type QueryDataset, type QueryFieldMeta, type StoredEvent } from "../../src/emulator/query";
import { Columns, ColumnsTimeIndex, ColumnWriter, columnarOf, newDictionaryCache } from "../../src/emulator/query/columns";
import { vectorStats } from "../../src/emulator/query/vectorized";

const START_MS = Date.UTC(2024, 0, 1);
const SPAN_MS = 6 * 3_600_000;
const SERVICES = ["api", "web", "pay", "auth"];
const PATHS = ["/pay", "/login", "/", "/search", "/Pay"];

const meta = (name: string, type: string): QueryFieldMeta => ({ name, type, unit: "", description: "", hidden: false });

/** Deterministic events with nulls, missing fields, out-of-order times and a field that appears half-way. */
function makeEvents(n: number): StoredEvent[] {
  let seed = 42;
  const rnd = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const events: StoredEvent[] = [];
  for (let i = 0; i < n; i++) {
    const t = START_MS + Math.floor(rnd() * SPAN_MS);
    const time = new Date(t).toISOString();
    const data: Record<string, unknown> = {
      status: rnd() < 0.05 ? null : [200, 200, 200, 404, 500, 503][Math.floor(rnd() * 6)],
      service: rnd() < 0.03 ? undefined : SERVICES[Math.floor(rnd() * SERVICES.length)],
      path: PATHS[Math.floor(rnd() * PATHS.length)],
      duration_ms: rnd() < 0.02 ? null : Math.round(rnd() * 2000 * 100) / 100,
      tags: { a: 1 },
    };
    if (i > n / 2) data.region = rnd() < 0.5 ? "eu" : "us";
    events.push({ _rowId: String(i).padStart(8, "0"), _sysTime: time, _time: time, data });
  }
  return events;
}

const FIELDS = [meta("status", "integer"), meta("service", "string"), meta("path", "string"), meta("duration_ms", "float"), meta("region", "string"), meta("tags", "object")];

/** The events with columns (blocks of 2^shift rows), and without: rows only. */
function datasets(events: StoredEvent[], shift?: number): { columnar: QueryDataset; rowsOnly: QueryDataset } {
  const base = { name: "logs", events, fields: FIELDS, virtualFields: [{ name: "slow", expression: "duration_ms > 1000", type: "boolean", unit: "", description: "" }] };
  return { columnar: { ...base, ...columnarOf(events, shift) }, rowsOnly: base };
}

const EVENTS = makeEvents(5000);
const byTime = (events: StoredEvent[]): StoredEvent[] => events.slice().sort((a, b) => Date.parse(a._time) - Date.parse(b._time));
/**
 * The same questions over three layouts: events out of time order (a permutation,
 * gathered), and in time order in blocks of 64 rows (blocks read in place and skipped
 * by their min and max) and of the default size; each against its own rows-only twin.
 */
const LAYOUTS = [datasets(EVENTS), datasets(byTime(EVENTS), 6), datasets(byTime(EVENTS)), datasets(EVENTS, 6)];

type Execution = { vectorized: number; rowFallbacks: number };

function run(apl: string, dataset: QueryDataset, format: AplFormat): { answer: unknown; execution: Execution } {
  const request = { apl, startTime: new Date(START_MS).toISOString(), endTime: new Date(START_MS + SPAN_MS).toISOString() };
  const out = runAplQuery(request, format, (n) => (n === "logs" ? dataset : undefined), DEFAULT_QUERY_LIMITS) as { status: { emulatorExecution: Execution } };
  // Elapsed time differs run to run, and the execution counts say which path ran: the rest must be equal.
  const answer = JSON.parse(JSON.stringify({ ...out, status: { ...out.status, elapsedTime: 0, emulatorExecution: null } })) as unknown;
  return { answer, execution: out.status.emulatorExecution };
}

const answer = (apl: string, dataset: QueryDataset, format: AplFormat): unknown => run(apl, dataset, format).answer;

function bothPaths(apl: string): { vectorized: boolean; execution: Execution } {
  const before = vectorStats.vectorized;
  let execution: Execution = { vectorized: 0, rowFallbacks: 0 };
  for (const [layout, { columnar, rowsOnly }] of LAYOUTS.entries()) {
    for (const format of ["tabular", "legacy"] as const) {
      const fast = run(apl, columnar, format);
      const slow = run(apl, rowsOnly, format);
      expect(fast.answer, `${apl} (${format}, layout ${layout})`).toEqual(slow.answer);
      expect(slow.execution).toEqual({ vectorized: 0, rowFallbacks: 0 });
      if (layout > 0) expect(fast.execution).toEqual(execution);
      execution = fast.execution;
    }
  }
  return { vectorized: vectorStats.vectorized > before, execution };
}

const VECTORIZED = [
  "['logs'] | where status >= 500 | summarize count() by bin(_time, 1h)",
  "['logs'] | summarize avg(duration_ms), percentile(duration_ms, 95) by service",
  "['logs'] | where path == '/pay' and duration_ms > 500 | summarize count() by bin(_time, 5m), status",
  "['logs'] | summarize count(), sum(duration_ms), min(duration_ms), max(duration_ms), dcount(path) by service",
  "['logs'] | summarize countif(status == 500), sumif(duration_ms, status >= 500), avgif(duration_ms, path != '/pay'), minif(duration_ms, status < 300), maxif(duration_ms, status > 200) by bin_auto(_time)",
  "['logs'] | summarize percentiles_array(duration_ms, 50, 90, 99), dcountif(service, status == 200), stdev(duration_ms) by path",
  "['logs'] | where status == 200 or path == '/' | where duration_ms <= 100 | summarize count() by service, path, status",
  "['logs'] | where 500 <= status | summarize count()",
  "['logs'] | where region == 'eu' | summarize count(), avg(duration_ms) by region, bin(_time, 30m)",
  "['logs'] | where service != 'api' | summarize n = count(), slow = round(avg(duration_ms), 2) by service | sort by service asc | take 3",
  "['logs'] | where _time >= datetime(2024-01-01T02:00:00Z) | summarize count() by bin(_time, 15m)",
  "['logs'] | where path == 'no such path' | summarize count(), avg(duration_ms)",
  "['logs'] | summarize make_set(status), min(service) by bin(_time, 1h)",
  "['logs'] | make-series count() default=0 on _time step 1h by service",
  "['logs'] | where status >= 500 | make-series n = count(), avg(duration_ms), percentile(duration_ms, 90) default=-1 on _time from datetime(2024-01-01T01:00:00Z) to datetime(2024-01-01T05:00:00Z) step 20m by path, status",
  "['logs'] | where path == 'no such path' | make-series count() on _time step 1h",
  "['logs'] | make-series sumif(duration_ms, status == 200) on _time step 30m",
  // `| count`: with filters (blocks skipped by duration_ms's min and max in the 64-row layouts), none, and none matching.
  "['logs'] | where status >= 500 and duration_ms > 1500 | count",
  "['logs'] | count",
  "['logs'] | where _time >= datetime(2024-01-01T02:00:00Z) and path == '/pay' | count",
  "['logs'] | where path == 'no such path' | count",
  "['logs'] | where region == 'eu' | count | extend twice = count * 2",
  // A backtest's query: groups by bin and key, then each key's bins as one list (sorted by it).
  "['logs'] | where status >= 500 and duration_ms > 3 | summarize n = count() by _time = bin(_time, 5m), service | summarize points = make_list(pack_array(_time, n)) by service",
  // The selective comparison written last (it runs first), and and-chains inside or and if.
  "['logs'] | where duration_ms > 100 and status >= 0 and path == '/pay' | where service != 'web' | summarize count() by bin(_time, 5m), status",
  "['logs'] | where (duration_ms > 100 and path == '/pay') or (status == 500 and duration_ms < 50) | summarize countif(duration_ms > 10 and path != '/') by service",
  // Sorted by a first aggregation that mixes strings and nulls, ties by two keys.
  "['logs'] | summarize min(region), count() by service, status",
];

const ROW_PATH = [
  // Fallback column, virtual field, an extend before the summarize, a string compared with a number.
  "['logs'] | summarize count() by tostring(tags)",
  "['logs'] | where slow | summarize count() by service",
  "['logs'] | extend d = duration_ms * 2 | summarize avg(d) by service",
  "['logs'] | where path > 'a' | summarize count()",
  "['logs'] | make-series count() on duration_ms step 100 by service",
  "['logs'] | where slow | count",
  "['logs'] | where isnotempty(tags) | count",
];

describe("vectorized summarize gives the row path's answers", () => {
  for (const apl of VECTORIZED) {
    it(apl, () => {
      const { vectorized, execution } = bothPaths(apl);
      expect(vectorized).toBe(true);
      expect(execution).toEqual({ vectorized: 1, rowFallbacks: 0 });
    });
  }
  for (const apl of ROW_PATH) {
    it(`falls back to rows: ${apl}`, () => {
      const { vectorized, execution } = bothPaths(apl);
      expect(vectorized).toBe(false);
      expect(execution).toEqual({ vectorized: 0, rowFallbacks: 1 });
    });
  }

  it("a row listing stays on the row path without counting as a fallback", () => {
    expect(bothPaths("['logs'] | where status >= 500 | take 5").execution).toEqual({ vectorized: 0, rowFallbacks: 0 });
  });

  it("a join's two summaries both run vectorized", () => {
    const { execution } = bothPaths("['logs'] | where status >= 500 | summarize e = count() by service | join kind=inner (['logs'] | summarize t = count() by service) on service");
    expect(execution).toEqual({ vectorized: 2, rowFallbacks: 0 });
  });

  it("a view taken before an append answers as before it; a view after it sees the new rows, values and fields", () => {
    const events = byTime(makeEvents(300));
    const writer = new ColumnWriter(6);
    writer.append(events.slice(0, 250));
    const rowId = (i: number): string => events[i]!._rowId;
    const withColumns = (rows: StoredEvent[], columns: Columns): QueryDataset => ({ ...datasets(rows).rowsOnly, columns, timeIndex: new ColumnsTimeIndex(columns, () => rows) });
    const cache = newDictionaryCache();
    const before = new Columns(writer.view(), cache, rowId);
    // Into the last block and past it, one out of time order, a new field and a new string value.
    events.push({ _rowId: "99999999", _sysTime: new Date(START_MS + 1000).toISOString(), _time: new Date(START_MS + 1000).toISOString(), data: { service: "new", status: 500, region: "ap" } });
    writer.append(events.slice(250));
    const after = new Columns(writer.view(), cache, rowId);
    const apl = "['logs'] | where status >= 500 | summarize count(), avg(duration_ms) by service, region, bin(_time, 1h)";
    const old = events.slice(0, 250);
    expect(answer(apl, withColumns(old, before), "tabular")).toEqual(answer(apl, datasets(old).rowsOnly, "tabular"));
    expect(answer(apl, withColumns(events, after), "tabular")).toEqual(answer(apl, datasets(events).rowsOnly, "tabular"));
    expect(JSON.stringify(answer(apl, withColumns(events, after), "tabular"))).toContain('"ap"');
    expect(JSON.stringify(answer(apl, withColumns(old, before), "tabular"))).not.toContain('"ap"');
  });

  it("blocks whose min and max rule a predicate out are skipped, with the same answers", () => {
    const skipped = vectorStats.blocksSkipped;
    const { execution } = bothPaths("['logs'] | where duration_ms > 1990 or _time < datetime(2024-01-01T00:10:00Z) | summarize count(), max(duration_ms) by bin(_time, 1h)");
    expect(execution).toEqual({ vectorized: 1, rowFallbacks: 0 });
    // 5000 rows in blocks of 64 in time order: most hold no duration over 1990 and start after 00:10.
    expect(vectorStats.blocksSkipped - skipped).toBeGreaterThan(0);
  });
});
