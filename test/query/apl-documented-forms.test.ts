// Documented forms of the query language that the emulator answers: two-argument trim,
// toarray, array_sort_asc, series_not_equals, sample with a fraction, and join on one
// column name both sides share.

import { describe, expect, it } from "vitest";
import { expectRows, queryError, rows, tabular } from "./fixtures";

describe("scalar functions", () => {
  it("trim(regex, text) removes every leading and trailing match; trim(text) white space", () => {
    expectRows("print a = trim('-+', '--abc-def--'), b = trim(@'\\d', '12ab34'), c = trim('  x  '), d = trim('z', 'abc')", [{ a: "abc-def", b: "ab", c: "x", d: "abc" }]);
    expectRows("['web-logs'] | where seq == 1 | project t = trim('/', ['req.path'])", [{ t: "api/users" }]);
  });

  it("toarray wraps a scalar and keeps an array", () => {
    expectRows("print a = toarray(1), b = toarray(dynamic([1, 2])), c = toarray('x')", [{ a: [1], b: [1, 2], c: ["x"] }]);
  });

  it("array_sort_asc sorts numbers and strings, nulls last unless asked first", () => {
    expectRows("print a = array_sort_asc(dynamic([3, 1, 2])), b = array_sort_asc(dynamic(['b', 'c', 'a'])), c = array_sort_asc(dynamic([2, null, 1]), false), d = array_sort_asc(5)", [
      { a: [1, 2, 3], b: ["a", "b", "c"], c: [null, 1, 2], d: null },
    ]);
  });

  it("series_not_equals compares element by element, or with a scalar", () => {
    expectRows("print a = series_not_equals(dynamic([1, 2, 3]), dynamic([1, 0, 3])), b = series_not_equals(dynamic([1, 2]), 2)", [{ a: [false, true, false], b: [true, false] }]);
  });
});

describe("tabular forms", () => {
  it("sample 0.5 keeps a fraction of the rows, each at most once; sample N keeps N", () => {
    const table = (n: number): string => `datatable(i:long)[${Array.from({ length: n }, (_, k) => k + 1).join(", ")}]`;
    const counts = Array.from({ length: 20 }, () => rows(tabular(`${table(200)} | sample 0.5`)).length);
    for (const c of counts) expect(c).toBeGreaterThan(40);
    for (const c of counts) expect(c).toBeLessThan(160);
    const kept = rows(tabular(`${table(200)} | sample 0.5`)).map((r) => r.i as number);
    expect(new Set(kept).size).toBe(kept.length);
    expect(rows(tabular(`${table(50)} | sample 7`))).toHaveLength(7);
    expect(queryError(() => tabular(`${table(5)} | sample -1`)).message).toMatch(/non-negative whole number/);
  });

  it("join on one column name shared by both sides", () => {
    expectRows("let a = datatable(id:long, x:string)[1, 'a', 2, 'b']; let b = datatable(id:long, y:string)[1, 'p', 3, 'q']; a | join kind=inner b on id | project id, x, y", [
      { id: 1, x: "a", y: "p" },
    ]);
  });
});
