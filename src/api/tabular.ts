// The tabular layout is column-oriented (one array per field); most callers want rows.
import type { TabularTable } from "./types";

export type TabularRow = Record<string, unknown>;

/**
 * The rows of a tabular table, as objects keyed by field name. A column shorter than the
 * longest yields null for the rows it lacks, so that every row has every field.
 */
export function tabularRows(table: TabularTable): TabularRow[] {
  const rowCount = table.columns.reduce((n, column) => Math.max(n, column.length), 0);
  const rows: TabularRow[] = [];
  for (let i = 0; i < rowCount; i++) {
    const row: TabularRow = {};
    table.fields.forEach((field, j) => {
      const column = table.columns[j];
      row[field.name] = column !== undefined && i < column.length ? column[i] : null;
    });
    rows.push(row);
  }
  return rows;
}
