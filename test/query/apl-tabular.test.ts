// Tabular sources and statements: datatable, print, let, union, join, search,
// getschema, sample, make-series, top, distinct, count, project-rename/-reorder/-keep.

import { describe, expect, it } from "vitest";
import { expectRows, legacy, queryError, rows, tabular } from "./fixtures";

const USERS = `datatable(user: string, team: string) ["alice", "core", "bob", "web", "dave", "ops"]`;

describe("datatable and print", () => {
  it("datatable: typed columns, rows in order, outside the request's time range", () => {
    const t = expectRows(
      `datatable(name: string, n: long, t: datetime, d: dynamic, ok: bool) ["a", 1, datetime(2020-01-01), dynamic([1]), true, "b", 2.5, "2020-01-02", dynamic(null), false]`,
      [
        { name: "a", n: 1, t: "2020-01-01T00:00:00Z", d: [1], ok: true },
        { name: "b", n: 2.5, t: "2020-01-02T00:00:00Z", d: null, ok: false },
      ],
    );
    expect(t.tables[0].fields.map((f) => f.type)).toEqual(["string", "integer", "datetime", "array", "boolean"]);
    expect(t.datasetNames).toEqual([]);
    expect(t.tables[0].sources).toEqual([]);
  });

  it("an empty datatable, and one whose values do not fill its rows", () => {
    expect(rows(tabular("datatable(a: string) [] | count"))).toEqual([{ count: 0 }]);
    expect(queryError(() => tabular('datatable(a: string, b: long) ["x", 1, "y"]')).detail).toMatchObject({ line: 1, column: 1, compileErrorCode: "apl_invalidargument" });
    expect(queryError(() => tabular('datatable(a: blob) ["x"]')).detail).toMatchObject({ line: 1, column: 11, compileErrorCode: "apl_invalidargument" });
  });

  it("print: one row; unnamed columns are print_0, print_1, ... by position", () => {
    expectRows("print x = 1 + 2, 'hi', strlen('abc')", [{ x: 3, print_1: "hi", print_2: 3 }]);
  });
});

describe("let", () => {
  it("binds scalars, dynamic values and tabular expressions", () => {
    expectRows("let threshold = 100; let slow = ['web-logs'] | where duration > threshold; slow | project seq", [{ seq: 5 }, { seq: 2 }]);
    expectRows("let methods = dynamic(['POST', 'DELETE']);\n['web-logs'] | where method in (methods) | project seq", [{ seq: 5 }, { seq: 2 }]);
    expectRows(`let users = ${USERS}; users | where team != 'ops' | count`, [{ count: 2 }]);
  });

  it("a let that names a column is an error at the column's name", () => {
    expect(queryError(() => tabular("let x = status; ['web-logs'] | where x > 1")).detail).toMatchObject({ line: 1, column: 9, compileErrorCode: "apl_unknownfield" });
  });
});

describe("union", () => {
  it("the rows of each table in turn; columns merged by name, missing ones null", () => {
    expectRows("['web-logs'] | where seq < 3 | union (mixed | where seq == 1) | project seq, name, method", [
      { seq: 2, name: null, method: "POST" },
      { seq: 1, name: null, method: "GET" },
      { seq: 1, name: "a", method: null },
    ]);
    const t = expectRows("union ['web-logs'], mixed | summarize count()", [{ count_: 10 }]);
    expect(t.datasetNames).toEqual(["web-logs", "mixed"]);
    expect(t.tables[0].sources).toEqual([{ name: "web-logs" }, { name: "mixed" }]);
  });

  it("an unknown dataset in a union answers 404 at its name", () => {
    const err = queryError(() => tabular("union ['web-logs'], ['nope']"));
    expect(err.status).toBe(404);
    expect(err.detail).toMatchObject({ line: 1, column: 21 });
  });
});

describe("join", () => {
  const q = (kind: string, tail = "| project seq, user, team"): string => `let users = ${USERS}; ['web-logs'] | join kind=${kind} users on user ${tail}`;

  it("inner (the default): every matching pair, in the left's order; null keys match nothing", () => {
    const expected = [
      { seq: 6, user: "bob", team: "web" },
      { seq: 3, user: "alice", team: "core" },
      { seq: 2, user: "bob", team: "web" },
      { seq: 1, user: "alice", team: "core" },
    ];
    expectRows(q("inner"), expected);
    expectRows(`let users = ${USERS}; ['web-logs'] | join users on user | project seq, user, team`, expected);
  });

  it("the right's clashing column names get a suffix", () => {
    const t = tabular(q("inner", "| project-keep user*, team | take 1"));
    expect(t.tables[0].fields.map((f) => f.name)).toEqual(["user", "user1", "team"]);
    expect(rows(t)).toEqual([{ user: "bob", user1: "bob", team: "web" }]);
  });

  it("leftouter, rightouter and fullouter keep unmatched rows with nulls", () => {
    expectRows(q("leftouter"), [
      { seq: 6, user: "bob", team: "web" },
      { seq: 5, user: "carol", team: null },
      { seq: 4, user: null, team: null },
      { seq: 3, user: "alice", team: "core" },
      { seq: 2, user: "bob", team: "web" },
      { seq: 1, user: "alice", team: "core" },
    ]);
    expectRows(q("rightouter", "| project seq, user1, team"), [
      { seq: 6, user1: "bob", team: "web" },
      { seq: 3, user1: "alice", team: "core" },
      { seq: 2, user1: "bob", team: "web" },
      { seq: 1, user1: "alice", team: "core" },
      { seq: null, user1: "dave", team: "ops" },
    ]);
    expectRows(q("fullouter", "| summarize n = count(), teams = dcount(team)"), [{ n: 7, teams: 3 }]);
  });

  it("semi and anti joins keep one side's rows and columns", () => {
    expectRows(q("leftsemi", "| project seq"), [{ seq: 6 }, { seq: 3 }, { seq: 2 }, { seq: 1 }]);
    expectRows(q("leftanti", "| project seq, user"), [
      { seq: 5, user: "carol" },
      { seq: 4, user: null },
    ]);
    expectRows(q("rightsemi", ""), [
      { user: "alice", team: "core" },
      { user: "bob", team: "web" },
    ]);
    expectRows(q("rightanti", ""), [{ user: "dave", team: "ops" }]);
  });

  it("innerunique takes the first match on the right only", () => {
    const twice = `datatable(user: string, team: string) ["alice", "core", "alice", "sre"]`;
    expectRows(`['web-logs'] | join kind=innerunique (${twice}) on user | project seq, team`, [
      { seq: 3, team: "core" },
      { seq: 1, team: "core" },
    ]);
    expectRows(`['web-logs'] | join kind=inner (${twice}) on user | project seq, team`, [
      { seq: 3, team: "core" },
      { seq: 3, team: "sre" },
      { seq: 1, team: "core" },
      { seq: 1, team: "sre" },
    ]);
  });

  it("$left.a == $right.b across two datasets; both are named in the result", () => {
    const t = expectRows("['web-logs'] | join kind=inner (mixed | project id = seq, name) on $left.seq == $right.id | project seq, name", [
      { seq: 4, name: null },
      { seq: 3, name: "c" },
      { seq: 2, name: "b" },
      { seq: 1, name: "a" },
    ]);
    expect(t.datasetNames).toEqual(["web-logs", "mixed"]);
    expect(legacy("['web-logs'] | join (mixed) on seq | project seq").datasetNames).toEqual(["web-logs", "mixed"]);
  });

  it("an empty side, an unknown key and an unknown kind", () => {
    expectRows(`['web-logs'] | where seq == 0 | join (${USERS}) on user`, []);
    expectRows(`['web-logs'] | join kind=leftanti (datatable(user: string) []) on user | count`, [{ count: 6 }]);
    expect(queryError(() => tabular(`['web-logs'] | join (${USERS}) on nope`)).detail).toMatchObject({ line: 1, column: 111, compileErrorCode: "apl_unknownfield" });
    expect(queryError(() => tabular(`['web-logs'] | join kind=sideways (${USERS}) on user`)).detail).toMatchObject({ line: 1, column: 26 });
  });

  it("stops at the row bound and marks the result partial", () => {
    const join = "datatable(k: long) [1, 1, 1, 1] | join (datatable(k: long) [1, 1, 1]) on k";
    expect(rows(tabular(`${join} | count`))).toEqual([{ count: 12 }]);
    const r = tabular(join, { limits: { maxRowsExamined: 5 } });
    expect(r.status.isPartial).toBe(true);
    expect(r.tables[0].columns[0]).toEqual([1, 1, 1, 1, 1]);
  });
});

describe("search, getschema, sample", () => {
  it("search a term in any column, or a predicate", () => {
    expectRows("search in (['web-logs']) 'alice' | project seq", [{ seq: 3 }, { seq: 1 }]);
    expectRows("['web-logs'] | search 'bob' | project seq", [{ seq: 6 }, { seq: 2 }]);
    expectRows("['web-logs'] | where * has 'orders' | project seq", [{ seq: 5 }, { seq: 2 }]);
    expectRows("['web-logs'] | where * !has 'api' | project seq", [{ seq: 4 }]);
    expectRows("search in (['web-logs']) status == 404 | project seq", [{ seq: 3 }]);
    expect(queryError(() => tabular("search 'x'")).detail).toMatchObject({ line: 1, column: 1, compileErrorCode: "apl_invalidargument" });
  });

  it("getschema: one row per column", () => {
    expectRows("datatable(a: string, b: long, c: dynamic) [] | extend d = now() | getschema", [
      { ColumnName: "a", ColumnOrdinal: 0, DataType: "System.String", ColumnType: "string" },
      { ColumnName: "b", ColumnOrdinal: 1, DataType: "System.Int64", ColumnType: "long" },
      { ColumnName: "c", ColumnOrdinal: 2, DataType: "System.Object", ColumnType: "dynamic" },
      { ColumnName: "d", ColumnOrdinal: 3, DataType: "System.DateTime", ColumnType: "datetime" },
    ]);
  });

  it("sample N: N of the rows (all of them when there are fewer)", () => {
    const picked = tabular("['web-logs'] | sample 2 | project seq").tables[0].columns[0];
    expect(picked).toHaveLength(2);
    for (const s of picked) expect([1, 2, 3, 4, 5, 6]).toContain(s);
    expectRows("['web-logs'] | sample 10 | count", [{ count: 6 }]);
  });
});

describe("make-series", () => {
  it("one array per aggregation over fixed steps, by a key, empty steps 0", () => {
    const t = expectRows(
      "['web-logs'] | make-series n = count() default = 0 on _time from datetime(2024-01-01T00:00:00Z) to datetime(2024-01-01T00:05:00Z) step 1m by ok | sort by ok asc",
      [
        { ok: false, n: [0, 1, 0, 1, 0], _time: ["2024-01-01T00:00:00Z", "2024-01-01T00:01:00Z", "2024-01-01T00:02:00Z", "2024-01-01T00:03:00Z", "2024-01-01T00:04:00Z"] },
        { ok: true, n: [2, 0, 1, 1, 0], _time: ["2024-01-01T00:00:00Z", "2024-01-01T00:01:00Z", "2024-01-01T00:02:00Z", "2024-01-01T00:03:00Z", "2024-01-01T00:04:00Z"] },
      ],
    );
    expect(t.tables[0].fields.map((f) => f.name)).toEqual(["ok", "n", "_time"]);
  });

  it("in range(...), a default other than 0, and no rows", () => {
    expectRows("['web-logs'] | make-series sum(duration) default = -1 on _time in range(datetime(2024-01-01T00:00:00Z), datetime(2024-01-01T00:05:00Z), 2m)", [
      { sum_duration: [292.5, 916.25, -1], _time: ["2024-01-01T00:00:00Z", "2024-01-01T00:02:00Z", "2024-01-01T00:04:00Z"] },
    ]);
    expectRows("['web-logs'] | where seq == 0 | make-series count() on _time step 1m", []);
  });
});

describe("top, distinct, count", () => {
  it("top N by an expression, ascending", () => {
    expectRows("['web-logs'] | top 2 by duration asc | project seq", [{ seq: 4 }, { seq: 1 }]);
  });

  it("distinct keeps the first appearance, nulls included; count is named count", () => {
    expectRows("mixed | distinct name", [{ name: null }, { name: "c" }, { name: "b" }, { name: "a" }]);
    expectRows("mixed | where isnull(name) | count", [{ count: 1 }]);
    expectRows("['empty'] | count", [{ count: 0 }]);
  });
});

describe("project-rename, project-reorder, project-keep", () => {
  it("rename in place, keep by name or pattern in the input's order", () => {
    expectRows("['web-logs'] | project-rename path = ['req.path'], who = user | project-keep seq, path, who | take 2", [
      { path: "/API/Users", seq: 6, who: "bob" },
      { path: "/api/orders/9", seq: 5, who: "carol" },
    ]);
    const t = tabular("print b = 1, a = 2, c = 3 | project-keep a*, c");
    expect(t.tables[0].fields.map((f) => f.name)).toEqual(["a", "c"]);
  });

  it("reorder: named columns first, patterns sorted when asked, the rest after", () => {
    const names = (q: string): string[] => tabular(q).tables[0].fields.map((f) => f.name);
    expect(names("['web-logs'] | project seq, user, method | project-reorder method, s*")).toEqual(["method", "seq", "user"]);
    expect(names("print b = 1, a = 2, c = 3 | project-reorder * asc")).toEqual(["a", "b", "c"]);
    expect(names("print b = 1, a = 2, c = 3 | project-reorder c")).toEqual(["c", "b", "a"]);
    expectRows("print b = 1, a = 2 | project-reorder a", [{ a: 2, b: 1 }]);
  });

  it("unknown names and clashes are errors at the name", () => {
    expect(queryError(() => tabular("['web-logs'] | project-rename x = nope")).detail).toMatchObject({ line: 1, column: 35, compileErrorCode: "apl_unknownfield" });
    expect(queryError(() => tabular("['web-logs'] | project-keep nope")).detail).toMatchObject({ line: 1, column: 29, compileErrorCode: "apl_unknownfield" });
    expect(queryError(() => tabular("['web-logs'] | project-rename seq = user")).detail).toMatchObject({ line: 1, column: 31, compileErrorCode: "apl_duplicatecolumn" });
  });
});
