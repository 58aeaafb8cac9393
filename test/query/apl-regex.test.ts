// Every regular expression the query language takes runs on RE2: linear time whatever
// the pattern, and patterns RE2 cannot take are refused with their position.

import { describe, expect, it } from "vitest";
import { DEFAULT_QUERY_LIMITS, runLegacyQuery } from "../../src/emulator/query";
import type { QueryDataset, StoredEvent } from "../../src/emulator/query/types";
import { catastrophicForms, CATASTROPHIC_TEXT } from "../hostile/queries";
import { END, expectRows, queryError, seqs, START, tabular } from "./fixtures";

/** 5,000 events whose text makes a backtracking engine try 2^28 ways to match `(a+)+$`. */
function hostile(count: number): QueryDataset {
  const events: StoredEvent[] = [];
  for (let i = 0; i < count; i++) {
    events.push({ _rowId: `r${i}`, _sysTime: "2024-01-01T00:01:00Z", _time: "2024-01-01T00:01:00Z", data: { s: CATASTROPHIC_TEXT, i } });
  }
  return { name: "hostile", events, virtualFields: [], fields: [{ name: "s", type: "string", unit: "", description: "", hidden: false }] };
}

describe("catastrophic patterns end, every form", () => {
  const data = hostile(5000);
  const forms = catastrophicForms("hostile");
  for (const apl of forms) {
    it(apl, () => {
      // No timing assertion: a backtracking engine would not return from this call at all.
      const out = tabular(apl, { datasets: [data] });
      expect(out.tables[0]!.columns[0]!.length).toBe(1);
    });
  }

  it("the legacy query's regexp filter runs on RE2 too", () => {
    const body = { startTime: START, endTime: END, filter: { op: "regexp", field: "s", value: "(a+)+$" } };
    const out = runLegacyQuery(hostile(2000), body, DEFAULT_QUERY_LIMITS, Date.parse(END)) as { matches: unknown[] };
    expect(out.matches).toEqual([]);
  });
});

describe("RE2's dialect", () => {
  it("a backreference, a lookahead and a lookbehind are refused with their position", () => {
    const back = queryError(() => tabular("['web-logs'] | where method matches regex '(G)E\\\\1'"));
    expect(back.message).toMatch(/invalid escape sequence `\\1` at position 5 of the pattern/);
    expect(back.message).toMatch(/RE2/);
    expect(back.detail).toMatchObject({ line: 1, compileErrorCode: "apl_invalidargument" });
    const ahead = queryError(() => tabular("['web-logs'] | extend x = extract('a(?=b)', 0, method)"));
    expect(ahead.message).toMatch(/`\(\?=` at position 2/);
    const behind = queryError(() => tabular("['web-logs'] | extend x = replace_regex(method, '(?<=G)E', 'x')"));
    expect(behind.message).toMatch(/lookbehind `\(\?<=` is not supported at position 1/);
    const parse = queryError(() => tabular("['web-logs'] | parse kind=regex method with '(?!x)' m"));
    expect(parse.message).toMatch(/position 1/);
    const kv = queryError(() => tabular("['web-logs'] | parse-kv method as (a: string) with (regex = '(\\\\w)=\\\\1')"));
    expect(kv.message).toMatch(/invalid parse-kv regex/);
  });

  it("extract_all answers every match's groups; replace_regex rewrites with \\\\1", () => {
    expectRows("print a = extract_all(@'(\\d+)', 'a1 b22 c333'), b = extract_all(@'(\\w)(\\d)', dynamic([2]), 'a1 b2'), c = extract_all(@'(\\w)(\\d)', 'a1 b2')", [
      { a: ["1", "22", "333"], b: ["1", "2"], c: [["a", "1"], ["b", "2"]] },
    ]);
    expectRows("print r = replace_regex('2024-01-02', @'(\\d+)-(\\d+)-(\\d+)', @'\\3/\\2/\\1'), none = extract_all(@'(x)', 'abc')", [{ r: "02/01/2024", none: null }]);
  });

  it("the engine's own patterns (parse-kv without delimiters, project-keep) keep their answers", () => {
    expectRows("print t = 'user=alice, xuser=bob' | parse-kv t as (user: string)", [{ t: "user=alice, xuser=bob", user: "alice" }]);
    expectRows("print t = 'xuser=bob user: carol' | parse-kv t as (user: string) | project user", [{ user: "carol" }]);
    expect(tabular("['web-logs'] | project-keep re*, s*q | take 1").tables[0]!.fields.map((f) => f.name)).toEqual(["req.path", "seq"]);
    expect(seqs("['web-logs'] | where ['req.path'] matches regex '(?i)^/api/users$'")).toEqual([6, 1]);
  });
});
