// Column-oriented tabular results turned into rows.
import { describe, expect, it } from "vitest";
import { tabularRows, type TabularTable } from "../../src/api";

const table = (fields: string[], columns: unknown[][]): TabularTable => ({
  name: "0",
  sources: [{ name: "logs" }],
  fields: fields.map((name) => ({ name, type: "string" })),
  order: [],
  groups: [],
  columns,
});

describe("tabularRows", () => {
  it("turns one array per field into one object per row, in row order", () => {
    const rows = tabularRows(table(["_time", "status", "path"], [["t1", "t2", "t3"], [200, 500, 200], ["/", "/a", "/b"]]));
    expect(rows).toEqual([
      { _time: "t1", status: 200, path: "/" },
      { _time: "t2", status: 500, path: "/a" },
      { _time: "t3", status: 200, path: "/b" },
    ]);
  });

  it("gives every row every field, null where a column is short or missing", () => {
    expect(tabularRows(table(["a", "b", "c"], [[1, 2], [true]]))).toEqual([
      { a: 1, b: true, c: null },
      { a: 2, b: null, c: null },
    ]);
  });

  it("keeps null values and answers no rows for an empty table", () => {
    expect(tabularRows(table(["a"], [[null, 0]]))).toEqual([{ a: null }, { a: 0 }]);
    expect(tabularRows(table(["a", "b"], [[], []]))).toEqual([]);
  });
});
