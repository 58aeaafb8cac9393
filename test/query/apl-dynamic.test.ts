// dynamic values: literals, indexing, array_length, parse_json, gettype, mv-expand.

import { describe, expect, it } from "vitest";
import { expectRows, queryError, tabular } from "./fixtures";

describe("dynamic literals and indexing", () => {
  it("dynamic([...]) in `in` is read as a list, not as a dataset name", () => {
    expectRows("['web-logs'] | where method in (dynamic(['POST', 'DELETE'])) | project seq", [{ seq: 5 }, { seq: 2 }]);
    expectRows("['web-logs'] | where method !in (dynamic(['GET'])) | project seq", [{ seq: 5 }, { seq: 2 }]);
  });

  it("arrays and bags as values, indexed by position and by key", () => {
    const t = expectRows(
      "print a = dynamic([1, 'two', null, {\"k\": [true]}]), b = dynamic({\"x\": {\"y\": 5}, \"s\": 'v'}) | extend first = a[0], last = a[-1], missing = a[9], y = b['x']['y'], s = b.s, deep = a[3].k[0], none = b['nope']",
      [
        {
          a: [1, "two", null, { k: [true] }],
          b: { x: { y: 5 }, s: "v" },
          first: 1,
          last: { k: [true] },
          missing: null,
          y: 5,
          s: "v",
          deep: true,
          none: null,
        },
      ],
    );
    expect(t.tables[0].fields.map((f) => f.type)).toEqual(["array", "object", "integer", "object", "unknown", "integer", "string", "boolean", "unknown"]);
    expect(t.datasetNames).toEqual([]);
  });

  it("a single-element array and an empty one", () => {
    expectRows("print a = dynamic(['only']), e = dynamic([]), n = dynamic(null) | extend la = array_length(a), le = array_length(e), ln = array_length(n)", [
      { a: ["only"], e: [], n: null, la: 1, le: 0, ln: null },
    ]);
  });

  it("stored arrays: length and index; a missing field is null", () => {
    expectRows("mixed | project seq, len = array_length(tags), first = tags[0] | sort by seq asc", [
      { seq: 1, len: 2, first: "x" },
      { seq: 2, len: 0, first: null },
      { seq: 3, len: null, first: null },
      { seq: 4, len: 1, first: "z" },
    ]);
  });
});

describe("parse_json and gettype", () => {
  it("parse_json reads objects and arrays; text that is not JSON is null; dotted access reads a property", () => {
    expectRows(
      "mixed | extend j = parse_json(payload) | project seq, code = j.code, msg = j['msg'], second = j.list[1], n0 = j[0], t = gettype(j) | sort by seq asc",
      [
        { seq: 1, code: 1, msg: "ok", second: 20, n0: null, t: "dictionary" },
        { seq: 2, code: null, msg: null, second: null, n0: null, t: "null" },
        { seq: 3, code: null, msg: null, second: null, n0: null, t: "null" },
        { seq: 4, code: null, msg: null, second: null, n0: 1, t: "array" },
      ],
    );
  });

  it("gettype names every type as the language does", () => {
    expectRows(
      "print s = gettype('a'), l = gettype(111), r = gettype(1.5), b = gettype(1 == 1), d = gettype(now()), ts = gettype(1s), a = gettype(dynamic([1])), o = gettype(dynamic({})), n = gettype(parse_json('')), one = gettype(parse_json('1')), wr = gettype(todouble(2))",
      [{ s: "string", l: "long", r: "real", b: "bool", d: "datetime", ts: "timespan", a: "array", o: "dictionary", n: "null", one: "long", wr: "real" }],
    );
  });

  it("gettype of a mixed-type field follows each value", () => {
    expectRows("mixed | project seq, t = gettype(v) | sort by seq asc", [
      { seq: 1, t: "long" },
      { seq: 2, t: "real" },
      { seq: 3, t: "string" },
      { seq: 4, t: "null" },
    ]);
  });
});

describe("mv-expand", () => {
  it("one row per array item; empty arrays and nulls make no row", () => {
    const t = expectRows("mixed | mv-expand tags | project seq, tags | sort by seq asc", [
      { seq: 1, tags: "x" },
      { seq: 1, tags: "y" },
      { seq: 4, tags: "z" },
    ]);
    expect(t.tables[0].fields).toEqual([
      { name: "seq", type: "integer" },
      { name: "tags", type: "string" },
    ]);
  });

  it("a named expression, bags as one-property bags, several columns side by side, and limit", () => {
    expectRows("print a = dynamic([1, 2, 3]), b = dynamic(['x']) | mv-expand a, b", [
      { a: 1, b: "x" },
      { a: 2, b: null },
      { a: 3, b: null },
    ]);
    expectRows("print o = dynamic({\"p\": 1, \"q\": 2}) | mv-expand kv = o", [
      { o: { p: 1, q: 2 }, kv: { p: 1 } },
      { o: { p: 1, q: 2 }, kv: { q: 2 } },
    ]);
    expectRows("print a = dynamic([1, 2, 3]) | mv-expand a limit 2 | mv-expand x = split('p,q', ',') to typeof(string)", [
      { a: 1, x: "p" },
      { a: 1, x: "q" },
      { a: 2, x: "p" },
      { a: 2, x: "q" },
    ]);
  });

  it("mv-expand then summarize counts items", () => {
    expectRows("mixed | mv-expand tag = tags | summarize n = count() by t = tostring(tag) | sort by t asc", [
      { t: "x", n: 1 },
      { t: "y", n: 1 },
      { t: "z", n: 1 },
    ]);
  });

  it("stops at the row bound and says the result is partial", () => {
    const r = tabular("print a = dynamic([1, 2, 3, 4, 5]) | mv-expand a", { limits: { maxRowsExamined: 3 } });
    expect(r.tables[0].columns[0]).toEqual([1, 2, 3]);
    expect(r.status.isPartial).toBe(true);
  });

  it("needs a column or a name", () => {
    const err = queryError(() => tabular("print a = 1 | mv-expand dynamic([1])"));
    expect(err.detail).toMatchObject({ line: 1, column: 25, compileErrorCode: "apl_invalidargument" });
  });
});
