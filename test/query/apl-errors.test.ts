// Errors: status, message, and the line/column of the offending token.

import { describe, expect, it } from "vitest";
import { EMPTY, legacy, queryError, tabular } from "./fixtures";

const fails = (apl: string, opts = {}) => queryError(() => tabular(apl, opts));
const END_AFTER = "2024-02-01T00:00:00Z";

describe("syntax errors", () => {
  it("point at the unexpected token on line 2", () => {
    const err = fails("['web-logs']\n| where status == 200 200");
    expect(err.status).toBe(400);
    expect(err.detail).toEqual({
      line: 2,
      column: 23,
      message: "unexpected '200', expected '|' or end of query",
      errorType: "syntax_error",
      compileErrorCode: "apl_syntaxerror",
    });
    expect(err.message).toBe("unexpected '200', expected '|' or end of query (line 2, column 23)");
  });

  it("a dangling pipe points at the end of the query", () => {
    const err = fails("['web-logs']\n| take 3\n| ");
    expect(err.detail).toMatchObject({ line: 3, column: 3, message: "unexpected end of query, expected a query operator" });
  });

  it("an unterminated string points at its opening quote", () => {
    expect(fails("['web-logs'] | where method == 'GET").detail).toMatchObject({ line: 1, column: 32, message: "unterminated string literal" });
  });

  it("an unknown query operator", () => {
    expect(fails("['web-logs']\n  | frobnicate").detail).toMatchObject({
      line: 2,
      column: 5,
      errorType: "syntax_error",
      compileErrorCode: "apl_unknownoperator",
    });
  });

  it("a bad datetime literal and a bad timespan unit", () => {
    expect(fails("['web-logs'] | where _time > datetime(yesterday)").detail).toMatchObject({ line: 1, column: 30 });
    expect(fails("['web-logs'] | where _time > ago(5q)").detail).toMatchObject({ line: 1, column: 34, message: "invalid literal '5q'" });
  });
});

describe("semantic errors", () => {
  it("an unknown field, at the field", () => {
    const err = fails("['web-logs']\n| where nosuch > 1");
    expect(err.status).toBe(400);
    expect(err.detail).toEqual({
      line: 2,
      column: 9,
      message: 'unknown field "nosuch"',
      errorType: "semantic_error",
      compileErrorCode: "apl_unknownfield",
    });
  });

  it("an unknown field fails even when the dataset has no events", () => {
    expect(EMPTY.events).toHaveLength(0);
    expect(fails("['empty'] | project status, missing").detail).toMatchObject({ line: 1, column: 29, compileErrorCode: "apl_unknownfield" });
    expect(tabular("['empty'] | project status").tables[0].columns).toEqual([[]]);
  });

  it("a field dropped by an earlier stage is unknown afterwards", () => {
    expect(fails("['web-logs'] | project seq | where status == 200").detail).toMatchObject({ column: 36, compileErrorCode: "apl_unknownfield" });
    expect(fails("['web-logs'] | project seq | where slow").detail).toMatchObject({ column: 36, compileErrorCode: "apl_unknownfield" });
    expect(fails("['web-logs'] | summarize count() by method | where status == 1").detail).toMatchObject({ column: 52 });
  });

  it("an unknown function, at its name", () => {
    expect(fails("['web-logs'] | extend x = frobnicate(status)").detail).toEqual({
      line: 1,
      column: 27,
      message: 'unknown function "frobnicate"',
      errorType: "semantic_error",
      compileErrorCode: "apl_unknownfunction",
    });
    expect(fails("['web-logs'] | summarize strlen(method)").detail).toMatchObject({ column: 26, compileErrorCode: "apl_unknownfunction" });
    expect(fails("['web-logs'] | where count() > 1").detail).toMatchObject({ column: 22, compileErrorCode: "apl_unknownfunction" });
  });

  it("wrong argument counts and types", () => {
    expect(fails("['web-logs'] | extend x = strlen(method, 1)").detail).toMatchObject({ column: 27, compileErrorCode: "apl_invalidargument" });
    expect(fails("['web-logs'] | extend x = method + 1").detail).toMatchObject({ column: 34, compileErrorCode: "apl_typemismatch" });
    expect(fails("['web-logs'] | where strlen(method)").detail).toMatchObject({ column: 22, compileErrorCode: "apl_typemismatch" });
    expect(fails("['web-logs'] | summarize sum(method)").detail).toMatchObject({ column: 30, compileErrorCode: "apl_typemismatch" });
    expect(fails("['web-logs'] | where bin_auto(_time) > now()").detail).toMatchObject({ compileErrorCode: "apl_invalidargument" });
  });

  it("project-away of an unknown field, and a column named twice", () => {
    expect(fails("['web-logs'] | project-away seq, nope").detail).toMatchObject({ column: 34, compileErrorCode: "apl_unknownfield" });
    expect(fails("['web-logs'] | project a = seq, a = status").detail).toMatchObject({ column: 33, compileErrorCode: "apl_duplicatecolumn" });
  });

  it("an unknown dataset answers 404, pointing at its name", () => {
    const err = queryError(() => legacy("\n  ['nope'] | count"));
    expect(err.status).toBe(404);
    expect(err.detail).toMatchObject({ line: 2, column: 3, message: 'dataset "nope" not found', compileErrorCode: "apl_unknowndataset" });
  });

  it("a broken virtual field fails where the query names it", () => {
    const broken = { ...EMPTY, name: "vf", virtualFields: [{ name: "bad", expression: "strlen(", type: "", unit: "", description: "" }] };
    const err = queryError(() => tabular("['vf'] | where status > 1\n| project bad", { datasets: [broken] }));
    expect(err.detail).toMatchObject({ line: 2, column: 11, compileErrorCode: "apl_invalidargument" });
    expect(err.detail?.message).toContain('virtual field "bad" cannot be used');
  });
});

describe("request errors", () => {
  it("a bad startTime or endTime is a plain 400", () => {
    const err = queryError(() => tabular("['web-logs']", { startTime: "last tuesday" }));
    expect(err.status).toBe(400);
    expect(err.detail).toBeUndefined();
    expect(err.message).toContain("startTime");
    expect(queryError(() => tabular("['web-logs']", { startTime: END_AFTER, endTime: "2024-01-01T00:00:00Z" })).message).toBe(
      "startTime must not be after endTime",
    );
  });

  it("an empty query is a 400", () => {
    expect(queryError(() => tabular("  ")).status).toBe(400);
  });
});
