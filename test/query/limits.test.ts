// Time range, status counters, and partial results under small limits.

import { describe, expect, it } from "vitest";
import type { QueryDataset, StoredEvent } from "../../src/emulator/query";
import { legacy, seqs, tabular, WEB } from "./fixtures";

/** `count` events one second apart, newest at 2024-01-02T00:00:00Z. */
function many(count: number): QueryDataset {
  const base = Date.parse("2024-01-02T00:00:00Z");
  const events: StoredEvent[] = Array.from({ length: count }, (_, i) => {
    const time = new Date(base - i * 1000).toISOString();
    return { _rowId: `m${String(i).padStart(6, "0")}`, _sysTime: time, _time: time, data: { n: i } };
  });
  return { name: "many", events, fields: [{ name: "n", type: "integer", unit: "", description: "", hidden: false }], virtualFields: [] };
}

describe("time range", () => {
  it("startTime is inclusive, endTime exclusive", () => {
    expect(seqs("['web-logs']", { startTime: "2024-01-01T00:00:05Z", endTime: "2024-01-01T00:03:59Z" })).toEqual([5, 4, 3, 2, 1]);
  });

  it("without startTime the range starts at the oldest event", () => {
    const r = tabular("['web-logs']", { startTime: undefined });
    expect(r.tables[0].columns[r.tables[0].fields.findIndex((f) => f.name === "seq")]).toEqual([6, 5, 4, 3, 2, 1, 0]);
    expect(r.tables[0].range.start).toBe("2023-12-31T23:59:59Z");
  });

  it("now and now-1h are relative to the time of the query", () => {
    const now = Date.now();
    const at = (msAgo: number, n: number): StoredEvent => {
      const t = new Date(now - msAgo).toISOString();
      return { _rowId: `n${n}`, _sysTime: t, _time: t, data: { n } };
    };
    const recent: QueryDataset = {
      name: "recent",
      fields: [{ name: "n", type: "integer", unit: "", description: "", hidden: false }],
      virtualFields: [],
      events: [at(30 * 60_000, 1), at(2 * 3_600_000, 2), at(-3_600_000, 3)],
    };
    const n = (opts: { startTime?: string; endTime?: string }) => {
      const r = tabular("['recent'] | project n", { datasets: [recent], ...opts });
      return r.tables[0].columns[0];
    };
    expect(n({ startTime: "now-1h", endTime: "now" })).toEqual([1]);
    expect(n({ startTime: "now-3h", endTime: undefined })).toEqual([1, 2]);
    expect(n({ startTime: "now-3h", endTime: "now+2h" })).toEqual([3, 1, 2]);
  });
});

describe("status", () => {
  it("counts rows examined and matched, and the examined time span", () => {
    const s = tabular("['web-logs'] | where status == 200").status;
    expect(s).toMatchObject({
      rowsExamined: 6,
      rowsMatched: 3,
      numGroups: 0,
      isPartial: false,
      minBlockTime: "2024-01-01T00:00:05Z",
      maxBlockTime: "2024-01-01T00:03:59Z",
      minCursor: "r1",
      maxCursor: "r6",
      blocksExamined: 1,
      blocksCached: 0,
      blocksMatched: 1,
      cacheStatus: 1,
      messages: [],
    });
    expect(Number.isInteger(s.elapsedTime) && s.elapsedTime >= 0).toBe(true);
  });

  it("legacy status has the legacy fields", () => {
    const s = legacy("['web-logs'] | take 1").status;
    expect(s).toMatchObject({ rowsExamined: 6, rowsMatched: 6, isPartial: false, isEstimate: false, continuationToken: "" });
    expect(Object.keys(s)).toEqual(
      expect.arrayContaining(["blocksExamined", "cacheStatus", "elapsedTime", "numGroups", "minBlockTime", "maxBlockTime", "messages"]),
    );
  });
});

describe("limits", () => {
  it("maxRowsExamined stops the scan at the newest rows and marks the result partial", () => {
    const r = tabular("['web-logs'] | project seq", { limits: { maxRowsExamined: 2 } });
    expect(r.tables[0].columns).toEqual([[6, 5]]);
    expect(r.status).toMatchObject({ isPartial: true, rowsExamined: 2, rowsMatched: 2, minCursor: "r5", maxCursor: "r6" });
    expect(r.status.messages.map((m) => m.code)).toEqual(["license_limit_for_query_warning"]);
  });

  it("a summary over a partial scan is partial too", () => {
    const r = legacy("['web-logs'] | summarize count()", { limits: { maxRowsExamined: 4 } });
    expect(r.buckets.totals).toEqual([{ id: 0, group: {}, aggregations: [{ op: "count_", value: 4 }] }]);
    expect(r.status.isPartial).toBe(true);
  });

  it("maxRowsReturned cuts the result and marks it partial", () => {
    const r = tabular("['web-logs'] | project seq", { limits: { maxRowsReturned: 3 } });
    expect(r.tables[0].columns).toEqual([[6, 5, 4]]);
    expect(r.status.isPartial).toBe(true);
    expect(r.status.messages.map((m) => m.code)).toEqual(["default_limit_warning"]);
  });

  it("a result that fits maxRowsReturned is complete", () => {
    const r = tabular("['web-logs'] | take 3", { limits: { maxRowsReturned: 3 } });
    expect(r.status.isPartial).toBe(false);
  });

  it("maxMillis stops a long scan (checked every 256 rows)", () => {
    const r = tabular("['many'] | count", { datasets: [many(1000)], startTime: undefined, endTime: "2024-01-03T00:00:00Z", limits: { maxMillis: 0 } });
    expect(r.status.isPartial).toBe(true);
    expect(r.status.rowsExamined).toBe(256);
    expect(r.tables[0].columns).toEqual([[256]]);
  });

  it("without limits in the way, the same scan is complete", () => {
    const r = tabular("['many'] | count", { datasets: [many(1000)], startTime: undefined, endTime: "2024-01-03T00:00:00Z" });
    expect(r.status.isPartial).toBe(false);
    expect(r.tables[0].columns).toEqual([[1000]]);
  });
});

describe("inputs are not changed", () => {
  it("running a query leaves the dataset's events as they were", () => {
    const before = JSON.stringify(WEB.events);
    tabular("['web-logs'] | extend x = 1 | project-away seq | sort by x");
    expect(JSON.stringify(WEB.events)).toBe(before);
  });
});
