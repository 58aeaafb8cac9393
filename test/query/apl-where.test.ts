// `where` with every comparison, logical and string operator, and every literal kind.

import { describe, expect, it } from "vitest";
import { seqs } from "./fixtures";

const q = (cond: string): unknown[] => seqs(`['web-logs'] | where ${cond}`);

describe("where: comparisons", () => {
  it("reads the source newest first, inside [startTime, endTime)", () => {
    expect(seqs("['web-logs']")).toEqual([6, 5, 4, 3, 2, 1]);
  });

  it("names the source bare, or in brackets with either quote", () => {
    expect(seqs("web-logs | where seq == 1")).toEqual([1]);
    expect(seqs('["web-logs"] | where seq == 1')).toEqual([1]);
  });

  it("== and != on integers", () => {
    expect(q("status == 200")).toEqual([6, 4, 1]);
    expect(q("status != 200")).toEqual([5, 3, 2]);
  });

  it("<, <=, >, >= on floats", () => {
    expect(q("duration > 100")).toEqual([5, 2]);
    expect(q("duration >= 250")).toEqual([5, 2]);
    expect(q("duration < 15")).toEqual([4, 1]);
    expect(q("duration <= 15")).toEqual([6, 4, 1]);
  });

  it("and, or, not()", () => {
    expect(q("status == 200 and duration > 10")).toEqual([6, 1]);
    expect(q("method == 'POST' or status == 500")).toEqual([5, 2]);
    expect(q("not(status == 200)")).toEqual([5, 3, 2]);
    expect(q("not(ok) and status >= 400")).toEqual([5, 3]);
  });

  it("a comparison with a missing value matches nothing, either way", () => {
    expect(q("user == 'alice'")).toEqual([3, 1]);
    expect(q("user != 'alice'")).toEqual([6, 5, 2]);
  });

  it("isnull() and isnotnull()", () => {
    expect(q("isnull(user)")).toEqual([4]);
    expect(q("isnotnull(user)")).toEqual([6, 5, 3, 2, 1]);
  });

  it("in, !in and between", () => {
    expect(q("method in ('POST', 'DELETE')")).toEqual([5, 2]);
    expect(q("status !in (200, 201)")).toEqual([5, 3]);
    expect(q("duration between (10 .. 30)")).toEqual([6, 3, 1]);
  });
});

describe("where: string operators", () => {
  it("contains and !contains ignore case", () => {
    expect(q("['req.path'] contains 'users'")).toEqual([6, 3, 1]);
    expect(q("['req.path'] !contains 'users'")).toEqual([5, 4, 2]);
    expect(q("['req.path'] contains_cs 'users'")).toEqual([3, 1]);
  });

  it("startswith ignores case; startswith_cs does not", () => {
    expect(q("['req.path'] startswith '/api'")).toEqual([6, 5, 3, 2, 1]);
    expect(q("['req.path'] startswith_cs '/api'")).toEqual([5, 3, 2, 1]);
    expect(q("['req.path'] !startswith '/api'")).toEqual([4]);
  });

  it("endswith, has, =~ and matches regex", () => {
    expect(q("['req.path'] endswith 's'")).toEqual([6, 2, 1]);
    expect(q("['req.path'] has 'orders'")).toEqual([5, 2]);
    expect(q("['req.path'] has 'order'")).toEqual([]);
    expect(q("method =~ 'get'")).toEqual([6, 4, 3, 1]);
    expect(q("['req.path'] matches regex '/[0-9]+$'")).toEqual([5, 3]);
  });

  it("a dotted name written without brackets names the flattened field", () => {
    expect(q("req.path == '/health'")).toEqual([4]);
  });
});

describe("where: literals", () => {
  it("double- and single-quoted strings, with escapes", () => {
    expect(q(`method == "GET" and user == 'bob'`)).toEqual([6]);
    expect(q(`strcat(method, "\\t") == 'POST\\t'`)).toEqual([2]);
  });

  it("numbers, true and false", () => {
    expect(q("duration == 12.5")).toEqual([1]);
    expect(q("duration == 1.25e1")).toEqual([1]);
    expect(q("ok == false")).toEqual([5, 3]);
    expect(q("ok == true and status == 201")).toEqual([2]);
  });

  it("datetime() and timespans on _time", () => {
    expect(q("_time >= datetime(2024-01-01T00:02:00Z)")).toEqual([6, 5, 4]);
    expect(q("_time > datetime(2024-01-01T00:00:00Z) + 3m")).toEqual([6]);
    expect(q("_time < datetime('2024-01-01') + 1m")).toEqual([2, 1]);
    expect(q("_time - datetime(2024-01-01T00:00:00Z) >= 90s")).toEqual([6, 5, 4]);
    expect(q("_time >= datetime(2024-01-01T00:00:00Z) + 1h")).toEqual([]);
    expect(q("_time < datetime(2024-01-01T00:00:00Z) + 1d")).toEqual([6, 5, 4, 3, 2, 1]);
  });

  it("_time compares with now() and ago()", () => {
    expect(q("_time < now()")).toEqual([6, 5, 4, 3, 2, 1]);
    expect(q("_time > ago(1d)")).toEqual([]);
  });

  it("comments are ignored", () => {
    expect(seqs("['web-logs'] // all of them\n| where status == 404 // the one miss")).toEqual([3]);
  });
});
