// parse-kv and extend-valid, which match monitors may use: the emulator runs them as the
// service documents them, so a monitor written with them fires in the emulator too.

import { describe, expect, it } from "vitest";
import { expectRows, queryError, tabular } from "./fixtures";

const LOG = "datatable(msg:string)['user=alice; status=500; took=12.5', 'status=200;user=\"bob smith\"', 'nothing here']";

describe("parse-kv", () => {
  it("with delimiters: only the listed keys, typed, first occurrence, quotes removed; a missing key is null", () => {
    expectRows(`${LOG} | parse-kv msg as (user:string, status:long, took:real) with (pair_delimiter=';', kv_delimiter='=', quote='"') | project user, status, took`, [
      { user: "alice", status: 500, took: 12.5 },
      { user: "bob smith", status: 200, took: null },
      { user: null, status: null, took: null },
    ]);
  });

  it("with a regex of two groups, key and value", () => {
    expectRows(`datatable(msg:string)['a:1 b:2 a:3'] | parse-kv msg as (a:long, b:long) with (regex=@'(\\w+):(\\d+)') | project a, b`, [{ a: 1, b: 2 }]);
  });

  it("without delimiters: any non-alphanumeric text separates a key from its value", () => {
    expectRows(`datatable(msg:string)['ip: 10.0.0.1, code -> 404, user=eve'] | parse-kv msg as (ip, code:long, user) | project ip, code, user`, [{ ip: "10.0.0.1", code: 404, user: "eve" }]);
  });

  it("refuses a regex without two groups, one delimiter alone, and an unknown option, naming it", () => {
    expect(queryError(() => tabular(`${LOG} | parse-kv msg as (user) with (regex='user=\\w+')`)).message).toMatch(/two capturing groups/);
    expect(queryError(() => tabular(`${LOG} | parse-kv msg as (user) with (pair_delimiter=';')`)).message).toMatch(/both pair_delimiter and kv_delimiter/);
    expect(queryError(() => tabular(`${LOG} | parse-kv msg as (user) with (separator=';')`)).message).toMatch(/unknown parse-kv option 'separator'/);
  });
});

describe("extend-valid", () => {
  it("sets a column only where the value is valid: non-empty text, a non-zero number, true, a non-empty array", () => {
    const table = "datatable(s:string, n:long, b:bool)['x', 3, true, '', 0, false]";
    expectRows(`${table} | extend-valid s2 = s, n2 = n, b2 = b, a2 = split(s, ',') | project s2, n2, b2, a2`, [
      { s2: "x", n2: 3, b2: true, a2: ["x"] },
      { s2: null, n2: null, b2: null, a2: [""] },
    ]);
  });

  it("keeps what a column had where the new value is not valid", () => {
    expectRows("datatable(name:string, alias:string)['ann', 'a', 'bo', ''] | extend-valid name = alias | project name", [{ name: "a" }, { name: "bo" }]);
  });
});
