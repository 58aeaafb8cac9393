// summarize: every aggregation, names, groups, time bins, and both layouts of a summary.

import { describe, expect, it } from "vitest";
import { legacy, rows, tabular } from "./fixtures";

describe("summarize without time bins", () => {
  it("count() over everything is one row", () => {
    const r = tabular("['web-logs'] | summarize count()");
    expect(r.tables[0].fields).toEqual([{ name: "count_", type: "integer", agg: { name: "count" } }]);
    expect(r.tables[0].columns).toEqual([[6]]);
    expect(r.tables[0].order).toEqual([{ field: "count_", desc: true }]);
    expect(r.tables[0].groups).toEqual([]);
    expect(r.status.numGroups).toBe(1);
  });

  it("every aggregation, named, by a key; ordered by the first aggregation, ties by key", () => {
    const r = tabular(
      "['web-logs'] | summarize n = count(), total = sum(duration), mean = avg(duration), lo = min(duration), hi = max(duration), users = dcount(user) by method",
    );
    expect(rows(r)).toEqual([
      { method: "GET", n: 4, total: 58.5, mean: 14.625, lo: 1, hi: 30, users: 2 },
      { method: "DELETE", n: 1, total: 900.25, mean: 900.25, lo: 900.25, hi: 900.25, users: 1 },
      { method: "POST", n: 1, total: 250, mean: 250, lo: 250, hi: 250, users: 1 },
    ]);
    expect(r.tables[0].fields).toEqual([
      { name: "method", type: "string" },
      { name: "n", type: "integer", agg: { name: "count" } },
      { name: "total", type: "float", agg: { name: "sum", fields: ["duration"] } },
      { name: "mean", type: "float", agg: { name: "avg", fields: ["duration"] } },
      { name: "lo", type: "float", agg: { name: "min", fields: ["duration"] } },
      { name: "hi", type: "float", agg: { name: "max", fields: ["duration"] } },
      { name: "users", type: "integer", agg: { name: "dcount", fields: ["user"] } },
    ]);
    expect(r.tables[0].groups).toEqual([{ name: "method" }]);
    expect(r.tables[0].order).toEqual([{ field: "n", desc: true }]);
    expect(r.status.numGroups).toBe(3);
  });

  it("ordered by a list aggregation: lists compare by their value, descending, ties by key with null first", () => {
    const r = tabular("['web-logs'] | summarize methods = make_set(method) by user");
    // As JSON text, ["GET"] sorts after ["GET","POST"] (`]` after `,`).
    expect(rows(r)).toEqual([
      { user: null, methods: ["GET"] },
      { user: "alice", methods: ["GET"] },
      { user: "bob", methods: ["GET", "POST"] },
      { user: "carol", methods: ["DELETE"] },
    ]);
  });

  it("unnamed aggregations are named fn_field; sum of integers is an integer", () => {
    const r = tabular("['web-logs'] | summarize count(), sum(status), avg(duration), dcount(user), min(['req.path']), countif(status >= 400)");
    expect(r.tables[0].fields.map((f) => [f.name, f.type])).toEqual([
      ["count_", "integer"],
      ["sum_status", "integer"],
      ["avg_duration", "float"],
      ["dcount_user", "integer"],
      ["min_req_path", "string"],
      ["countif_", "integer"],
    ]);
    expect(rows(r)).toEqual([
      { count_: 6, sum_status: 1705, avg_duration: 1208.75 / 6, dcount_user: 3, min_req_path: "/API/Users", countif_: 2 },
    ]);
  });

  it("by several keys, by an expression, and by a virtual field", () => {
    expect(rows(tabular("['web-logs'] | summarize count() by method, ok"))).toEqual([
      { method: "GET", ok: true, count_: 3 },
      { method: "DELETE", ok: false, count_: 1 },
      { method: "GET", ok: false, count_: 1 },
      { method: "POST", ok: true, count_: 1 },
    ]);
    expect(rows(tabular("['web-logs'] | summarize count() by family = status / 100"))).toEqual([
      { family: 2, count_: 4 },
      { family: 4, count_: 1 },
      { family: 5, count_: 1 },
    ]);
    expect(rows(tabular("['web-logs'] | summarize count() by slow"))).toEqual([
      { slow: false, count_: 4 },
      { slow: true, count_: 2 },
    ]);
  });

  it("by a missing value groups the nulls together", () => {
    expect(rows(tabular("['web-logs'] | summarize c = count() by user | sort by user asc"))).toEqual([
      { user: null, c: 1 },
      { user: "alice", c: 2 },
      { user: "bob", c: 2 },
      { user: "carol", c: 1 },
    ]);
  });

  it("over no rows: one row of zero without keys, no rows with keys", () => {
    expect(rows(tabular("['web-logs'] | where status == 999 | summarize count(), sum(duration), avg(duration)"))).toEqual([
      { count_: 0, sum_duration: 0, avg_duration: null },
    ]);
    expect(rows(tabular("['web-logs'] | where status == 999 | summarize count() by method"))).toEqual([]);
  });

  it("later stages work on the groups", () => {
    expect(rows(tabular("['web-logs'] | summarize c = count() by method | where c < 4 | sort by method asc | take 1"))).toEqual([
      { method: "DELETE", c: 1 },
    ]);
  });

  it("legacy layout: totals hold the groups, ids numbered in order", () => {
    const r = legacy("['web-logs'] | summarize count(), total = sum(duration) by method");
    expect(r.matches).toEqual([]);
    expect(r.buckets.series).toEqual([]);
    expect(r.buckets.totals).toEqual([
      { id: 0, group: { method: "GET" }, aggregations: [{ op: "count_", value: 4 }, { op: "total", value: 58.5 }] },
      { id: 1, group: { method: "DELETE" }, aggregations: [{ op: "count_", value: 1 }, { op: "total", value: 900.25 }] },
      { id: 2, group: { method: "POST" }, aggregations: [{ op: "count_", value: 1 }, { op: "total", value: 250 }] },
    ]);
    expect(r.status.numGroups).toBe(3);
  });
});

describe("summarize by bin(_time, ...)", () => {
  const apl = "['web-logs'] | summarize count() by bin(_time, 1m), method";

  it("tabular: rows per bucket and group, time ascending, with the bucket width", () => {
    const r = tabular(apl);
    const t = r.tables[0];
    expect(t.fields).toEqual([
      { name: "_time", type: "datetime" },
      { name: "method", type: "string" },
      { name: "count_", type: "integer", agg: { name: "count" } },
    ]);
    expect(t.columns).toEqual([
      ["2024-01-01T00:00:00Z", "2024-01-01T00:00:00Z", "2024-01-01T00:01:00Z", "2024-01-01T00:02:00Z", "2024-01-01T00:03:00Z", "2024-01-01T00:03:00Z"],
      ["GET", "POST", "GET", "GET", "DELETE", "GET"],
      [1, 1, 1, 1, 1, 1],
    ]);
    expect(t.order).toEqual([
      { field: "_time", desc: false },
      { field: "count_", desc: true },
    ]);
    expect(t.groups).toEqual([{ name: "_time" }, { name: "method" }]);
    expect(t.buckets).toEqual({ field: "_time", size: 60_000_000_000 });
  });

  it("tabular: a _totals table aggregates each group over the whole range", () => {
    const totals = tabular(apl).tables[1];
    expect(totals.name).toBe("_totals");
    expect(totals.fields).toEqual([
      { name: "method", type: "string" },
      { name: "count_", type: "integer", agg: { name: "count" } },
    ]);
    expect(totals.columns).toEqual([
      ["GET", "DELETE", "POST"],
      [4, 1, 1],
    ]);
    expect(totals.groups).toEqual([{ name: "method" }]);
    expect(totals.order).toEqual([{ field: "count_", desc: true }]);
  });

  it("legacy: one interval per bucket over the whole range, groups keep their totals id", () => {
    const r = legacy(apl);
    const g = (id: number, method: string, value: number): unknown => ({ id, group: { method }, aggregations: [{ op: "count_", value }] });
    expect(r.buckets.totals).toEqual([g(0, "GET", 4), g(1, "DELETE", 1), g(2, "POST", 1)]);
    expect(r.buckets.series).toEqual([
      { startTime: "2024-01-01T00:00:00Z", endTime: "2024-01-01T00:01:00Z", groups: [g(0, "GET", 1), g(2, "POST", 1)] },
      { startTime: "2024-01-01T00:01:00Z", endTime: "2024-01-01T00:02:00Z", groups: [g(0, "GET", 1)] },
      { startTime: "2024-01-01T00:02:00Z", endTime: "2024-01-01T00:03:00Z", groups: [g(0, "GET", 1)] },
      { startTime: "2024-01-01T00:03:00Z", endTime: "2024-01-01T00:04:00Z", groups: [g(1, "DELETE", 1), g(0, "GET", 1)] },
      { startTime: "2024-01-01T00:04:00Z", endTime: "2024-01-01T00:05:00Z", groups: [] },
    ]);
    expect(r.status.numGroups).toBe(3);
  });

  it("buckets align to multiples of the width, not to the start time", () => {
    const r = legacy("['web-logs'] | summarize c = count() by bin(_time, 2m)", { startTime: "2024-01-01T00:01:00Z" });
    expect(r.buckets.series.map((s) => [s.startTime, s.endTime, s.groups.map((x) => x.aggregations[0].value)])).toEqual([
      ["2024-01-01T00:00:00Z", "2024-01-01T00:02:00Z", [1]],
      ["2024-01-01T00:02:00Z", "2024-01-01T00:04:00Z", [3]],
      ["2024-01-01T00:04:00Z", "2024-01-01T00:06:00Z", []],
    ]);
    expect(r.buckets.totals).toEqual([{ id: 0, group: {}, aggregations: [{ op: "c", value: 4 }] }]);
  });

  it("bin_auto(_time) picks a width that gives at most 100 buckets over the range", () => {
    const r = tabular("['web-logs'] | summarize count() by bin_auto(_time)");
    expect(r.tables[0].buckets).toEqual({ field: "_time", size: 5_000_000_000 });
    expect(r.tables[0].columns[0]).toEqual([
      "2024-01-01T00:00:05Z",
      "2024-01-01T00:00:40Z",
      "2024-01-01T00:01:10Z",
      "2024-01-01T00:02:30Z",
      "2024-01-01T00:03:00Z",
      "2024-01-01T00:03:55Z",
    ]);
    const l = legacy("['web-logs'] | summarize count() by bin_auto(_time)");
    expect(l.buckets.series).toHaveLength(60);
    expect(l.buckets.series[59]).toEqual({
      startTime: "2024-01-01T00:04:55Z",
      endTime: "2024-01-01T00:05:00Z",
      groups: [],
    });
  });

  it("bin() also rounds numbers", () => {
    expect(rows(tabular("['web-logs'] | summarize c = count() by b = bin(duration, 100) | sort by b asc"))).toEqual([
      { b: 0, c: 4 },
      { b: 200, c: 1 },
      { b: 900, c: 1 },
    ]);
  });
});

describe("group keys on the row path", () => {
  it("a key groups by value and type: 1 apart from '1' and true apart from 'true', 0 with -0, null a group of its own", () => {
    const r = tabular(
      "datatable(k: dynamic, n: long) [1, 1, '1', 2, true, 4, 'true', 8, dynamic(null), 16, 0, 32, 1, 64, 0, 128] | extend k = iff(n == 128, -0.0, k) | summarize s = sum(n) by k | sort by s asc",
    );
    expect(rows(r)).toEqual([
      { k: "1", s: 2 },
      { k: true, s: 4 },
      { k: "true", s: 8 },
      { k: null, s: 16 },
      { k: 1, s: 65 },
      { k: 0, s: 160 },
    ]);
  });
});
