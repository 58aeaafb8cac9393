// The legacy structured query: filter tree, aggregations, groupBy, resolution, order,
// project, limit, cursor and continuation.

import { describe, expect, it } from "vitest";
import { DEFAULT_QUERY_LIMITS, runLegacyQuery, type QueryLimits } from "../../src/emulator/query";
import { END, queryError, START, WEB, WEB_FIELDS, type Legacy } from "./fixtures";

function run(body: Record<string, unknown>, limits: Partial<QueryLimits> = {}): Legacy {
  return runLegacyQuery(WEB, { startTime: START, endTime: END, ...body }, { ...DEFAULT_QUERY_LIMITS, ...limits }) as Legacy;
}

const seqsOf = (r: Legacy): unknown[] => r.matches.map((m) => m.data.seq);
const where = (filter: Record<string, unknown>): unknown[] => seqsOf(run({ filter }));

describe("filter", () => {
  it("no filter, or an empty one, matches everything newest first", () => {
    expect(seqsOf(run({}))).toEqual([6, 5, 4, 3, 2, 1]);
    expect(where({})).toEqual([6, 5, 4, 3, 2, 1]);
    expect(where({ op: "and", children: [] })).toEqual([6, 5, 4, 3, 2, 1]);
  });

  it("== and != (a missing field is not equal)", () => {
    expect(where({ op: "==", field: "status", value: 200 })).toEqual([6, 4, 1]);
    expect(where({ op: "==", field: "status", value: "200" })).toEqual([6, 4, 1]);
    expect(where({ op: "!=", field: "user", value: "alice" })).toEqual([6, 5, 4, 2]);
    expect(where({ op: "==", field: "user", value: null })).toEqual([4]);
  });

  it(">, >=, <, <= on numbers and on _time", () => {
    expect(where({ op: ">", field: "duration", value: 100 })).toEqual([5, 2]);
    expect(where({ op: ">=", field: "duration", value: 250 })).toEqual([5, 2]);
    expect(where({ op: "<", field: "duration", value: 15 })).toEqual([4, 1]);
    expect(where({ op: "<=", field: "duration", value: 15 })).toEqual([6, 4, 1]);
    expect(where({ op: ">=", field: "_time", value: "2024-01-01T00:02:00Z" })).toEqual([6, 5, 4]);
  });

  it("and, or, not", () => {
    const is200 = { op: "==", field: "status", value: 200 };
    expect(where({ op: "and", children: [is200, { op: ">", field: "duration", value: 10 }] })).toEqual([6, 1]);
    expect(where({ op: "or", children: [{ op: "==", field: "method", value: "POST" }, { op: "==", field: "status", value: 500 }] })).toEqual([5, 2]);
    expect(where({ op: "not", children: [is200] })).toEqual([5, 3, 2]);
  });

  it("exists and not-exists", () => {
    expect(where({ op: "exists", field: "user" })).toEqual([6, 5, 3, 2, 1]);
    expect(where({ op: "not-exists", field: "user" })).toEqual([4]);
  });

  it("string operations are case-sensitive unless caseInsensitive", () => {
    expect(where({ op: "contains", field: "req.path", value: "users" })).toEqual([3, 1]);
    expect(where({ op: "contains", field: "req.path", value: "users", caseInsensitive: true })).toEqual([6, 3, 1]);
    expect(where({ op: "not-contains", field: "req.path", value: "users" })).toEqual([6, 5, 4, 2]);
    expect(where({ op: "starts-with", field: "req.path", value: "/api" })).toEqual([5, 3, 2, 1]);
    expect(where({ op: "not-starts-with", field: "req.path", value: "/api" })).toEqual([6, 4]);
    expect(where({ op: "ends-with", field: "req.path", value: "S", caseInsensitive: true })).toEqual([6, 2, 1]);
    expect(where({ op: "regexp", field: "req.path", value: "/[0-9]+$" })).toEqual([5, 3]);
  });

  it("virtual fields of the dataset and of the request", () => {
    expect(where({ op: "==", field: "slow", value: true })).toEqual([5, 2]);
    const r = run({ virtualFields: [{ alias: "kb", expr: "duration / 1000" }], filter: { op: ">", field: "kb", value: 0.2 } });
    expect(r.matches.map((m) => [m.data.seq, m.data.kb])).toEqual([
      [5, 0.90025],
      [2, 0.25],
    ]);
  });
});

describe("matches", () => {
  it("carry row id, times and every field", () => {
    const r = run({ filter: { op: "==", field: "seq", value: 1 } });
    expect(r.matches).toEqual([
      {
        _rowId: "r1",
        _sysTime: "2024-01-01T00:00:05.5Z",
        _time: "2024-01-01T00:00:05Z",
        data: { duration: 12.5, method: "GET", ok: true, "req.path": "/api/users", seq: 1, status: 200, user: "alice" },
      },
    ]);
    expect(r.buckets).toEqual({ series: [], totals: [] });
    expect(r.fieldsMeta).toEqual(WEB_FIELDS);
    expect(Object.keys(r).sort()).toEqual(["buckets", "fieldsMeta", "matches", "status"]);
  });

  it("project with aliases, order, limit", () => {
    const r = run({ project: [{ field: "seq" }, { field: "req.path", alias: "path" }], order: [{ field: "duration", desc: false }], limit: 2 });
    expect(r.matches.map((m) => m.data)).toEqual([
      { seq: 4, path: "/health" },
      { seq: 1, path: "/api/users" },
    ]);
  });

  it("limit with more rows gives a continuation token that resumes after the last match", () => {
    const first = run({ limit: 4 });
    expect(seqsOf(first)).toEqual([6, 5, 4, 3]);
    expect(first.status.continuationToken).not.toBe("");
    const second = run({ limit: 4, continuationToken: first.status.continuationToken });
    expect(seqsOf(second)).toEqual([2, 1]);
    expect(second.status.continuationToken).toBe("");
  });

  it("cursor continues after a row id, or at it with includeCursor", () => {
    expect(seqsOf(run({ cursor: "r4" }))).toEqual([3, 2, 1]);
    expect(seqsOf(run({ cursor: "r4", includeCursor: true }))).toEqual([4, 3, 2, 1]);
  });
});

describe("aggregations", () => {
  it("count, distinct, sum, avg, min, max by groupBy; op is the alias, else the op", () => {
    const r = run({
      aggregations: [
        { op: "count", field: "*" },
        { op: "distinct", field: "user", alias: "users" },
        { op: "sum", field: "duration" },
        { op: "avg", field: "duration", alias: "mean" },
        { op: "min", field: "status" },
        { op: "max", field: "status" },
      ],
      groupBy: ["method"],
    });
    expect(r.matches).toEqual([]);
    expect(r.buckets.series).toEqual([]);
    const aggs = (count: number, users: number, sum: number, mean: number, min: number, max: number): unknown[] => [
      { op: "count", value: count },
      { op: "users", value: users },
      { op: "sum", value: sum },
      { op: "mean", value: mean },
      { op: "min", value: min },
      { op: "max", value: max },
    ];
    expect(r.buckets.totals).toEqual([
      { id: 0, group: { method: "GET" }, aggregations: aggs(4, 2, 58.5, 14.625, 200, 404) },
      { id: 1, group: { method: "DELETE" }, aggregations: aggs(1, 1, 900.25, 900.25, 500, 500) },
      { id: 2, group: { method: "POST" }, aggregations: aggs(1, 1, 250, 250, 201, 201) },
    ]);
    expect(r.status.numGroups).toBe(3);
  });

  it("with a filter and an order on an aggregation", () => {
    const r = run({
      filter: { op: "!=", field: "method", value: "DELETE" },
      aggregations: [{ op: "count", alias: "n" }],
      groupBy: ["ok"],
      order: [{ field: "n", desc: false }],
    });
    expect(r.buckets.totals.map((g) => [g.group, g.aggregations])).toEqual([
      [{ ok: false }, [{ op: "n", value: 1 }]],
      [{ ok: true }, [{ op: "n", value: 4 }]],
    ]);
  });

  it("resolution fills the series with intervals of that width", () => {
    const r = run({ aggregations: [{ op: "count" }], resolution: "2m" });
    expect(r.buckets.series).toEqual([
      { startTime: "2024-01-01T00:00:00Z", endTime: "2024-01-01T00:02:00Z", groups: [{ id: 0, group: {}, aggregations: [{ op: "count", value: 3 }] }] },
      { startTime: "2024-01-01T00:02:00Z", endTime: "2024-01-01T00:04:00Z", groups: [{ id: 0, group: {}, aggregations: [{ op: "count", value: 3 }] }] },
      { startTime: "2024-01-01T00:04:00Z", endTime: "2024-01-01T00:06:00Z", groups: [] },
    ]);
    expect(r.buckets.totals).toEqual([{ id: 0, group: {}, aggregations: [{ op: "count", value: 6 }] }]);
  });

  it("Go-style and auto resolutions", () => {
    expect(run({ aggregations: [{ op: "count" }], resolution: "1m0s" }).buckets.series).toHaveLength(5);
    expect(run({ aggregations: [{ op: "count" }], resolution: "auto" }).buckets.series).toHaveLength(60);
  });
});

describe("errors", () => {
  it("an unknown field names where it was written", () => {
    const err = queryError(() => run({ filter: { op: "and", children: [{ op: "==", field: "nope", value: 1 }] } }));
    expect(err.status).toBe(400);
    expect(err.message).toBe('filter.children[0].field: unknown field "nope"');
    expect(queryError(() => run({ aggregations: [{ op: "sum", field: "nope" }] })).message).toBe('aggregations[0].field: unknown field "nope"');
    expect(queryError(() => run({ project: [{ field: "nope" }] })).message).toBe('project[0].field: unknown field "nope"');
  });

  it("bad operations, bodies and values", () => {
    expect(queryError(() => run({ filter: { op: "~~", field: "seq", value: 1 } })).message).toBe('filter.op "~~" is not a filter operation');
    expect(queryError(() => run({ aggregations: [{ op: "median", field: "seq" }] })).message).toContain("aggregations[0].op");
    expect(queryError(() => run({ aggregations: [{ op: "sum" }] })).message).toBe('aggregations[0].field is required for "sum"');
    expect(queryError(() => run({ resolution: "soon", aggregations: [{ op: "count" }] })).message).toContain("resolution");
    expect(queryError(() => run({ limit: -1 })).message).toBe("limit must be a non-negative integer");
    expect(queryError(() => run({ cursor: "nope" })).status).toBe(400);
    expect(queryError(() => run({ continuationToken: "%%%" })).message).toBe("continuationToken is not valid");
    expect(queryError(() => runLegacyQuery(WEB, [1, 2], DEFAULT_QUERY_LIMITS)).status).toBe(400);
  });
});
