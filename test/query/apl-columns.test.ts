// project, project-away, extend, functions, arithmetic, sort/take/top, count, distinct,
// virtual fields, and the tabular layout's fields, types and column order.

import { describe, expect, it } from "vitest";
import type { QueryDataset } from "../../src/emulator/query";
import { column, legacy, rows, seqs, START, tabular, WEB_FIELDS } from "./fixtures";

const one = (exprs: string): Record<string, unknown> => rows(tabular(`['web-logs'] | where seq == 5 | project ${exprs}`))[0];

describe("tabular layout of a plain query", () => {
  const r = tabular("['web-logs'] | where seq <= 2");
  const t = r.tables[0];

  it("has _time, _sysTime and then the dataset's fields by name, typed from their metadata", () => {
    expect(t.fields).toEqual([
      { name: "_time", type: "datetime" },
      { name: "_sysTime", type: "datetime" },
      { name: "duration", type: "float" },
      { name: "method", type: "string" },
      { name: "ok", type: "boolean" },
      { name: "req.path", type: "string" },
      { name: "seq", type: "integer" },
      { name: "status", type: "integer" },
      { name: "user", type: "string" },
    ]);
  });

  it("is column-oriented: one array per field, in field order", () => {
    expect(t.columns).toEqual([
      ["2024-01-01T00:00:40Z", "2024-01-01T00:00:05Z"],
      ["2024-01-01T00:00:40.5Z", "2024-01-01T00:00:05.5Z"],
      [250, 12.5],
      ["POST", "GET"],
      [true, true],
      ["/api/orders", "/api/users"],
      [2, 1],
      [201, 200],
      ["bob", "alice"],
    ]);
  });

  it("names its table, source, order, groups and range", () => {
    expect(t.name).toBe("0");
    expect(t.sources).toEqual([{ name: "web-logs" }]);
    expect(t.order).toEqual([{ field: "_time", desc: true }]);
    expect(t.groups).toEqual([]);
    expect(t.range).toEqual({ field: "_time", start: "2024-01-01T00:00:00Z", end: "2024-01-01T00:05:00Z" });
    expect(t.buckets).toBeUndefined();
  });

  it("carries the dataset names and field metadata with units", () => {
    expect(r.format).toBe("tabular");
    expect(r.datasetNames).toEqual(["web-logs"]);
    expect(r.fieldsMetaMap).toEqual({ "web-logs": WEB_FIELDS });
    expect(r.fieldsMetaMap["web-logs"].find((f) => f.name === "duration")?.unit).toBe("ms");
  });

  it("fills a missing value with null", () => {
    expect(column(tabular("['web-logs'] | where seq == 4"), "user")).toEqual([null]);
  });
});

describe("project, project-away, extend", () => {
  it("project keeps the listed columns in the listed order, with renames and expressions", () => {
    const r = tabular("['web-logs'] | where seq == 3 | project path = ['req.path'], seq, twice = seq * 2");
    expect(r.tables[0].fields).toEqual([
      { name: "path", type: "string" },
      { name: "seq", type: "integer" },
      { name: "twice", type: "integer" },
    ]);
    expect(r.tables[0].columns).toEqual([["/api/users/7"], [3], [6]]);
  });

  it("project-away drops columns and keeps the rest in place", () => {
    const r = tabular("['web-logs'] | where seq == 3 | project-away duration, ['req.path'], _sysTime");
    expect(r.tables[0].fields.map((f) => f.name)).toEqual(["_time", "method", "ok", "seq", "status", "user"]);
  });

  it("extend appends computed columns, which later stages can use", () => {
    const r = tabular("['web-logs'] | extend ms = duration * 1000, big = ms > 100000 | where big | project seq, ms");
    expect(rows(r)).toEqual([
      { seq: 5, ms: 900250 },
      { seq: 2, ms: 250000 },
    ]);
  });

  it("extend replaces a column of the same name in place", () => {
    const r = tabular("['web-logs'] | where seq == 1 | extend method = tolower(method) | project-away _time, _sysTime");
    expect(r.tables[0].fields.map((f) => f.name)).toEqual(["duration", "method", "ok", "req.path", "seq", "status", "user"]);
    expect(column(r, "method")).toEqual(["get"]);
  });

  it("unnamed expressions are named Column1, Column2; plain fields keep their names", () => {
    const r = tabular("['web-logs'] | where seq == 1 | project seq, seq + 1, strlen(method)");
    expect(r.tables[0].fields.map((f) => f.name)).toEqual(["seq", "Column1", "Column2"]);
  });
});

describe("arithmetic", () => {
  it("integer operands give integers (division truncates); a float operand gives floats", () => {
    expect(one("a = duration * 2, b = status / 200, c = status % 7, d = duration / 4, e = status + 1, f = status - 600, g = -status")).toEqual({
      a: 1800.5,
      b: 2,
      c: 3,
      d: 225.0625,
      e: 501,
      f: -100,
      g: -500,
    });
  });

  it("datetime and timespan arithmetic", () => {
    const r = tabular("['web-logs'] | where seq == 5 | project later = _time + 1h, since = _time - datetime(2024-01-01T00:00:00Z), half = 1m / 2");
    expect(rows(r)).toEqual([{ later: "2024-01-01T01:03:00Z", since: "3m0s", half: "30s" }]);
    expect(r.tables[0].fields).toEqual([
      { name: "later", type: "datetime" },
      { name: "since", type: "timespan" },
      { name: "half", type: "timespan" },
    ]);
  });

  it("whole numbers divide as integers, a fractional value as floats, even in an integer field", () => {
    const nums: QueryDataset = {
      name: "nums",
      fields: [{ name: "n", type: "integer", unit: "", description: "", hidden: false }],
      virtualFields: [],
      events: [
        { _rowId: "a", _sysTime: START, _time: "2024-01-01T00:00:01Z", data: { n: 7 } },
        { _rowId: "b", _sysTime: START, _time: "2024-01-01T00:00:02Z", data: { n: 7.5 } },
      ],
    };
    expect(column(tabular("['nums'] | project q = n / 2", { datasets: [nums] }), "q")).toEqual([3.75, 3]);
    expect(rows(tabular("['nums'] | project f = todouble(n) / 2, t = toint(n) / 2", { datasets: [nums] }))).toEqual([
      { f: 3.75, t: 3 },
      { f: 3.5, t: 3 },
    ]);
  });

  it("division by zero is null rather than a failed query", () => {
    expect(one("z = status / 0")).toEqual({ z: null });
  });
});

describe("string and conversion functions", () => {
  it("strlen, tolower, toupper, strcat, substring", () => {
    expect(one("a = strlen(method), b = tolower(method), c = toupper(user), d = strcat(method, ' ', ['req.path']), e = substring(['req.path'], 5, 6), f = substring(method, 2)")).toEqual({
      a: 6,
      b: "delete",
      c: "CAROL",
      d: "DELETE /api/orders/9",
      e: "orders",
      f: "LETE",
    });
  });

  it("tostring, toint, tolong, todouble, toreal", () => {
    expect(one("a = tostring(status), b = toint('42'), c = tolong(duration), d = todouble('2.5'), e = toreal(status), f = toint('nope')")).toEqual({
      a: "500",
      b: 42,
      c: 900,
      d: 2.5,
      e: 500,
      f: null,
    });
  });

  it("iff and iif pick a branch", () => {
    expect(seqs("['web-logs'] | extend kind = iff(status >= 400, 'error', 'ok') | where kind == 'error'")).toEqual([5, 3]);
    expect(one("a = iif(ok, 1, 0), b = iff(isnull(user), 'anon', user)")).toEqual({ a: 0, b: "carol" });
  });

  it("computed columns are typed by what they compute", () => {
    const r = tabular(
      "['web-logs'] | where seq == 5 | project a = strlen(method), b = tolower(method), c = todouble(status), d = toint(duration), e = duration > 1, f = iff(ok, 'y', 'n'), g = status * 1.5",
    );
    expect(r.tables[0].fields.map((f) => f.type)).toEqual(["integer", "string", "float", "integer", "boolean", "string", "float"]);
  });
});

describe("sort, take, top, count, distinct", () => {
  it("sort by asc, then take", () => {
    expect(seqs("['web-logs'] | sort by duration asc | take 3")).toEqual([4, 1, 6]);
  });

  it("order by is sort by; the default direction is desc; limit is take", () => {
    expect(seqs("['web-logs'] | order by seq | limit 2")).toEqual([6, 5]);
  });

  it("several keys; asc puts nulls first", () => {
    expect(seqs("['web-logs'] | sort by user asc, seq desc")).toEqual([4, 3, 1, 6, 2, 5]);
    expect(seqs("['web-logs'] | sort by user desc, seq asc")).toEqual([5, 2, 6, 1, 3, 4]);
  });

  it("sort sets the table's order", () => {
    const r = tabular("['web-logs'] | sort by status asc, seq desc");
    expect(r.tables[0].order).toEqual([
      { field: "status", desc: false },
      { field: "seq", desc: true },
    ]);
  });

  it("top N by", () => {
    expect(seqs("['web-logs'] | top 2 by duration")).toEqual([5, 2]);
  });

  it("count", () => {
    const r = tabular("['web-logs'] | where status == 200 | count");
    expect(r.tables[0].fields).toEqual([{ name: "count", type: "integer" }]);
    expect(r.tables[0].columns).toEqual([[3]]);
  });

  it("distinct keeps the first appearance of each combination", () => {
    expect(column(tabular("['web-logs'] | distinct method"), "method")).toEqual(["GET", "DELETE", "POST"]);
  });
});

describe("virtual fields", () => {
  it("are usable by name in where and project, typed by their declared type", () => {
    const r = tabular("['web-logs'] | where slow | project seq, slow, path_len");
    expect(rows(r)).toEqual([
      { seq: 5, slow: true, path_len: 13 },
      { seq: 2, slow: true, path_len: 11 },
    ]);
    expect(r.tables[0].fields).toEqual([
      { name: "seq", type: "integer" },
      { name: "slow", type: "boolean" },
      { name: "path_len", type: "integer" },
    ]);
  });

  it("compute from other fields with the full expression language", () => {
    expect(column(tabular("['web-logs'] | where seq <= 3 | project status_class"), "status_class")).toEqual(["4xx", "2xx", "2xx"]);
  });

  it("are not columns of a plain result", () => {
    expect(tabular("['web-logs']").tables[0].fields.map((f) => f.name)).not.toContain("slow");
  });
});

describe("legacy layout of rows", () => {
  it("matches carry row id, times, and every other column in data", () => {
    const r = legacy("['web-logs'] | where seq == 4 | extend fast = duration < 10");
    expect(r.format).toBe("legacy");
    expect(r.matches).toEqual([
      {
        _rowId: "r4",
        _sysTime: "2024-01-01T00:02:30.5Z",
        _time: "2024-01-01T00:02:30Z",
        data: { duration: 1, method: "GET", ok: true, "req.path": "/health", seq: 4, status: 200, user: null, fast: true },
      },
    ]);
    expect(r.buckets).toEqual({ series: [], totals: [] });
    expect(r.fieldsMeta).toEqual(WEB_FIELDS);
    expect(r.datasetNames).toEqual(["web-logs"]);
  });

  it("after project, data holds only the projected columns", () => {
    const r = legacy("['web-logs'] | where seq >= 5 | project seq, p = ['req.path']");
    expect(r.matches.map((m) => [m._rowId, m._time, m.data])).toEqual([
      ["r6", "2024-01-01T00:03:59Z", { seq: 6, p: "/API/Users" }],
      ["r5", "2024-01-01T00:03:00Z", { seq: 5, p: "/api/orders/9" }],
    ]);
  });
});
