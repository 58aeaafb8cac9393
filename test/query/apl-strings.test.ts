// String operators and functions: has and its relatives, in~, !matches regex,
// `* has`, extract, parse, replace_string, strcat_delim, indexof, case.

import { describe, expect, it } from "vitest";
import { expectRows, queryError, seqs, tabular } from "./fixtures";

describe("term operators", () => {
  it("has / !has match whole terms, case-insensitively; has_any / has_all take a list", () => {
    expect(seqs("['web-logs'] | where ['req.path'] has 'users'")).toEqual([6, 3, 1]);
    expect(seqs("['web-logs'] | where ['req.path'] !has 'users'")).toEqual([5, 4, 2]);
    expect(seqs("['web-logs'] | where ['req.path'] has 'user'")).toEqual([]);
    expect(seqs("['web-logs'] | where ['req.path'] has_any ('orders', 'health')")).toEqual([5, 4, 2]);
    expect(seqs("['web-logs'] | where ['req.path'] has_any (dynamic(['HEALTH']))")).toEqual([4]);
    expect(seqs("['web-logs'] | where ['req.path'] has_all ('api', 'users')")).toEqual([6, 3, 1]);
  });

  it("hasprefix / hassuffix look at the start or end of a term", () => {
    expect(seqs("['web-logs'] | where ['req.path'] hasprefix 'ord'")).toEqual([5, 2]);
    expect(seqs("['web-logs'] | where ['req.path'] hassuffix 'ers'")).toEqual([6, 5, 3, 2, 1]);
    expect(seqs("['web-logs'] | where ['req.path'] hasprefix_cs 'Us'")).toEqual([6]);
    expect(seqs("['web-logs'] | where ['req.path'] !hasprefix 'api'")).toEqual([4]);
  });

  it("in~ / !in~ compare case-insensitively; a missing value is in nothing", () => {
    expect(seqs("['web-logs'] | where user in~ ('ALICE', 'Bob')")).toEqual([6, 3, 2, 1]);
    expect(seqs("['web-logs'] | where user !in~ ('alice')")).toEqual([6, 5, 2]);
  });

  it("!matches regex is the negation; `* has` looks at every column", () => {
    expect(seqs("['web-logs'] | where ['req.path'] !matches regex '^/api/'")).toEqual([6, 4]);
    expect(seqs("['web-logs'] | where * has 'carol'")).toEqual([5]);
    expect(seqs("['web-logs'] | where * contains 'HEAL'")).toEqual([4]);
    expect(queryError(() => tabular("['web-logs'] | where * > 1")).detail).toMatchObject({ line: 1, column: 24, compileErrorCode: "apl_invalidargument" });
  });
});

describe("string functions", () => {
  it("extract: a capture group of the first match, or null", () => {
    expectRows("['web-logs'] | project seq, what = extract(@'/api/(\\w+)', 1, ['req.path']), whole = extract('[0-9]+', 0, ['req.path'])", [
      { seq: 6, what: null, whole: null },
      { seq: 5, what: "orders", whole: "9" },
      { seq: 4, what: null, whole: null },
      { seq: 3, what: "users", whole: "7" },
      { seq: 2, what: "orders", whole: null },
      { seq: 1, what: "users", whole: null },
    ]);
  });

  it("parse: typed columns between the pattern's strings; no match leaves them null", () => {
    const t = expectRows("print s = 'user=alice id=42 took 1.5ms' | parse s with 'user=' user ' id=' id:long ' took ' took:real 'ms'", [
      { s: "user=alice id=42 took 1.5ms", user: "alice", id: 42, took: 1.5 },
    ]);
    expect(t.tables[0].fields.map((f) => f.type)).toEqual(["string", "string", "integer", "float"]);
    expectRows("print s = 'garbage' | parse s with 'user=' user ' id=' id:long *", [{ s: "garbage", user: null, id: null }]);
    expectRows("print s = 'GET /x 200 extra' | parse kind=regex s with '^' verb ' ' path ' ' code:long", [{ s: "GET /x 200 extra", verb: "GET", path: "/x", code: 200 }]);
    expectRows("['web-logs'] | parse ['req.path'] with '/api/' kind '/' id:long | where isnotnull(id) | project seq, kind, id", [
      { seq: 5, kind: "orders", id: 9 },
      { seq: 3, kind: "users", id: 7 },
    ]);
  });

  it("replace_string, strcat_delim, case", () => {
    // The documented order: replace_string(lookup, rewrite, text).
    expectRows("print r = replace_string('.', '-', 'a.b.c'), n = replace_string('', 'x', 'abc'), d = strcat_delim('-', 'a', 1, true)", [{ r: "a-b-c", n: "abc", d: "a-1-true" }]);
    expectRows("['web-logs'] | where seq == 1 | project p = replace_string('api', 'v2', ['req.path'])", [{ p: "/v2/users" }]);
    expectRows("['web-logs'] | project seq, kind = case(status >= 500, 'server', status >= 400, 'client', 'ok')", [
      { seq: 6, kind: "ok" },
      { seq: 5, kind: "server" },
      { seq: 4, kind: "ok" },
      { seq: 3, kind: "client" },
      { seq: 2, kind: "ok" },
      { seq: 1, kind: "ok" },
    ]);
    expect(queryError(() => tabular("print case(true)")).detail).toMatchObject({ line: 1, column: 7, compileErrorCode: "apl_invalidargument" });
  });

  it("indexof with start, length and occurrence", () => {
    expectRows(
      "print a = indexof('abcdefg', 'cde'), b = indexof('abcdefg', 'cde', 1, 4), c = indexof('abcdefg', 'cde', 1, 2), d = indexof('abcdefg', 'cde', 3), e = indexof('abcdefg', 'cde', -5), f = indexof(1234567, 5, 1, 4), g = indexof('abcdefg', 'cde', 2, -1), h = indexof('abcdefgabcdefg', 'cde', 1, -1, 2), i = indexof('abcdefgabcdefg', 'cde', 1, -1, 3), j = indexof('abc', 'b', 9), k = indexof('abc', 'b', 0, -2)",
      [{ a: 2, b: 2, c: -1, d: -1, e: 2, f: 4, g: 2, h: 9, i: -1, j: -1, k: null }],
    );
    expectRows("mixed | project seq, at = indexof(name, 'b') | sort by seq asc", [
      { seq: 1, at: -1 },
      { seq: 2, at: 0 },
      { seq: 3, at: -1 },
      { seq: 4, at: null },
    ]);
  });
});
