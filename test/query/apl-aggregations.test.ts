// The aggregation functions beyond count/sum/avg/min/max/dcount, their default names,
// and aggregations inside scalar expressions.

import { describe, expect, it } from "vitest";
import { expectRows, queryError, tabular } from "./fixtures";

describe("make_list, make_set and their _if forms", () => {
  it("collect values in scan order (newest first), skipping nulls", () => {
    const t = expectRows(
      "['web-logs'] | summarize make_list(user), make_set(user), make_list_if(user, ok), make_set_if(status, ok) by method | sort by method asc",
      [
        { method: "DELETE", make_list_user: ["carol"], make_set_user: ["carol"], make_list_if_user: [], make_set_if_status: [] },
        { method: "GET", make_list_user: ["bob", "alice", "alice"], make_set_user: ["bob", "alice"], make_list_if_user: ["bob", "alice"], make_set_if_status: [200] },
        { method: "POST", make_list_user: ["bob"], make_set_user: ["bob"], make_list_if_user: ["bob"], make_set_if_status: [201] },
      ],
    );
    expect(t.tables[0].fields[1]).toEqual({ name: "make_list_user", type: "array", agg: { name: "make_list", fields: ["user"] } });
  });

  it("a maximum size keeps the first items", () => {
    expectRows("['web-logs'] | summarize l = make_list(seq, 2)", [{ l: [6, 5] }]);
  });
});

describe("percentile, percentiles_array, stdev, variance", () => {
  it("nearest-rank percentiles, named percentile_field_p", () => {
    expectRows("['web-logs'] | summarize percentile(duration, 50), percentile(duration, 95), percentile(duration, 0), percentiles_array(duration, 25, 50, 99)", [
      { percentile_duration_50: 15, percentile_duration_95: 900.25, percentile_duration_0: 1, percentiles_array_duration: [12.5, 15, 900.25] },
    ]);
  });

  it("sample variance and standard deviation; nulls ignored", () => {
    expectRows("datatable(x: real) [1, 3, null] | summarize variance(x), stdev(x)", [{ variance_x: 2, stdev_x: Math.sqrt(2) }]);
    expectRows("datatable(x: real) [7] | summarize variance(x), stdev(x)", [{ variance_x: 0, stdev_x: 0 }]);
  });
});

describe("histogram and topk", () => {
  it("histogram: equal-width bins from min to max, empty bins left out", () => {
    expectRows("datatable(x: long) [1, 2, 3, 10] | summarize h = histogram(x, 3)", [
      {
        h: [
          { value: 1, count: 3 },
          { value: 7, count: 1 },
        ],
      },
    ]);
  });

  it("topk: the most frequent values, ties by value", () => {
    expectRows("['web-logs'] | summarize topk(method, 2)", [
      {
        topk_method: [
          { key: "GET", count: 4 },
          { key: "DELETE", count: 1 },
        ],
      },
    ]);
  });
});

describe("arg_max and arg_min", () => {
  it("the other columns of the row with the largest value, per group", () => {
    const t = expectRows("['web-logs'] | summarize arg_max(duration, seq, user) by ok | sort by ok asc", [
      { ok: false, duration: 900.25, seq: 5, user: "carol" },
      { ok: true, duration: 250, seq: 2, user: "bob" },
    ]);
    expect(t.tables[0].fields.map((f) => [f.name, f.type])).toEqual([
      ["ok", "boolean"],
      ["duration", "float"],
      ["seq", "integer"],
      ["user", "string"],
    ]);
  });

  it("arg_min(x, *) brings every column; a missing value stays null", () => {
    expectRows("['web-logs'] | summarize arg_min(duration, *)", [
      {
        duration: 1,
        _time: "2024-01-01T00:02:30Z",
        _sysTime: "2024-01-01T00:02:30.5Z",
        method: "GET",
        ok: true,
        "req.path": "/health",
        seq: 4,
        status: 200,
        user: null,
      },
    ]);
  });
});

describe("the *if family", () => {
  it("counts, sums, averages and extremes of the rows whose predicate is true", () => {
    expectRows(
      "['web-logs'] | summarize countif(ok), sumif(duration, ok), avgif(duration, status >= 400), minif(duration, ok), maxif(duration, ok), dcountif(user, ok)",
      [{ countif_: 4, sumif_duration: 278.5, avgif_duration: 465.125, minif_duration: 1, maxif_duration: 250, dcountif_user: 2 }],
    );
  });

  it("over no rows: counts and sums are 0, the rest null or empty", () => {
    expectRows(
      "['web-logs'] | where status == 999 | summarize countif(ok), sumif(duration, ok), avgif(duration, ok), minif(duration, ok), make_list(user), percentile(duration, 50), stdev(duration), topk(user, 3), histogram(duration, 4), arg_max(duration, seq)",
      [
        {
          countif_: 0,
          sumif_duration: 0,
          avgif_duration: null,
          minif_duration: null,
          make_list_user: [],
          percentile_duration_50: null,
          stdev_duration: null,
          topk_user: [],
          histogram_duration: [],
          duration: null,
          seq: null,
        },
      ],
    );
  });
});

describe("aggregations inside expressions", () => {
  it("round(avg(x), 2), ratios of two aggregations; an unnamed one takes its aggregation's name", () => {
    const t = expectRows(
      "['web-logs'] | summarize r = round(avg(duration), 2), pct = countif(ok) * 100.0 / count(), round(avg(duration), 1) by method | sort by method asc",
      [
        { method: "DELETE", r: 900.25, pct: 0, avg_duration: 900.3 },
        { method: "GET", r: 14.63, pct: 75, avg_duration: 14.6 },
        { method: "POST", r: 250, pct: 100, avg_duration: 250 },
      ],
    );
    expect(t.tables[0].fields.map((f) => f.type)).toEqual(["string", "float", "float", "float"]);
  });

  it("by a time bin, the computed column fills the series", () => {
    const t = tabular("['web-logs'] | summarize share = round(100.0 * countif(status >= 400) / count(), 1) by bin(_time, 2m)");
    expect(t.tables[0].columns).toEqual([
      ["2024-01-01T00:00:00Z", "2024-01-01T00:02:00Z"],
      [33.3, 33.3],
    ]);
    expect(t.tables[1].columns).toEqual([[33.3]]);
  });

  it("an unknown aggregation and a scalar function without one stay errors with their position", () => {
    expect(queryError(() => tabular("['web-logs'] | summarize x = median(duration)")).detail).toMatchObject({ line: 1, column: 30, compileErrorCode: "apl_unknownfunction" });
    expect(queryError(() => tabular("['web-logs'] | summarize round(duration, 2)")).detail).toMatchObject({ line: 1, column: 26, compileErrorCode: "apl_unknownfunction" });
    expect(queryError(() => tabular("['web-logs'] | summarize percentile(duration)")).detail).toMatchObject({ line: 1, column: 26, compileErrorCode: "apl_invalidargument" });
  });
});
