// The shapes that flow between compiler, executor and layouts.

import type { StoredEvent } from "./types";
import type { Value, ValueType } from "./values";

/** One row in flight. `origin` is the stored event it came from (null after summarize). */
export interface Row {
  readonly values: Map<string, Value>;
  readonly origin: StoredEvent | null;
}

/** A column of the result schema as the compiler knows it before any row is read. */
export interface ColumnSpec {
  name: string;
  type: ValueType;
  /** The type string of the dataset's field metadata (or virtual field), passed through. */
  metaType?: string;
  /** For summarize outputs: which aggregation made the column (tabular `fields[].agg`). */
  agg?: { name: string; fields: string[] };
}

/** Sets `spec` in `columns`: in place of the column of its name, or added at the end. */
export function setColumn(columns: ColumnSpec[], spec: ColumnSpec): void {
  const at = columns.findIndex((c) => c.name === spec.name);
  if (at >= 0) columns[at] = spec;
  else columns.push(spec);
}

export interface OrderSpec {
  field: string;
  desc: boolean;
}

/** Values fixed per query run; `autoBinMs` is filled in once the scan knows the range. */
export interface QueryContext {
  nowMs: number;
  autoBinMs: number;
}

/** An expression compiled to a closure over a row, with its static type. */
export interface CompiledExpr {
  type: ValueType;
  evaluate: (row: Row) => Value;
  /** Set when the expression is a plain reference to this column (or virtual field). */
  column?: string;
  /** Metadata type of the referenced field, kept when the column passes through unchanged. */
  metaType?: string;
  /** The name an unnamed item takes (`bin(_time, 1m)` is named `_time`). */
  nameHint?: string;
  /** Set when the expression buckets a datetime: the bucket width, or "auto" for bin_auto. */
  bucket?: number | "auto";
  /** How the vectorized path (vectorized.ts) can run this expression over columns; unset: rows only. */
  vector?: VectorForm;
}

/** The expression shapes the vectorized path runs over columns (a column reference is `column`). */
export type VectorForm =
  | { kind: "const"; value: Value }
  | { kind: "compare"; op: "==" | "!=" | "<" | "<=" | ">" | ">="; left: CompiledExpr; right: CompiledExpr }
  | { kind: "logical"; op: "and" | "or"; left: CompiledExpr; right: CompiledExpr }
  | { kind: "bin"; arg: CompiledExpr; width: number | "auto" };
