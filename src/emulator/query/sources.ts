// Tabular sources other than a dataset: datatable, print, and union of several tables.

import type { NamedExpr, Source } from "./ast";
import { compileExpr, type Scope } from "./compile-expr";
import { COMPILE_ERROR, semanticError } from "./errors";
import { runPlan } from "./execute";
import { PlanBuilder, type Plan, type ScalarBindings } from "./plan";
import type { ColumnSpec, QueryContext, Row } from "./table";
import type { QueryDataset } from "./types";
import { DateTimeValue, TimespanValue, type Value, type ValueType } from "./values";
import { parseIsoTime, parseTimespan } from "./time";

const EMPTY_ROW: Row = { values: new Map(), origin: null };

/** The language's type names (and their synonyms) as the engine's types. */
const TYPE_NAMES: Readonly<Record<string, ValueType>> = {
  string: "string",
  long: "integer",
  int: "integer",
  integer: "integer",
  real: "float",
  double: "float",
  float: "float",
  decimal: "float",
  bool: "boolean",
  boolean: "boolean",
  datetime: "datetime",
  date: "datetime",
  timespan: "timespan",
  time: "timespan",
  dynamic: "dynamic",
};

export function typeOfName(name: string): ValueType | undefined {
  return Object.prototype.hasOwnProperty.call(TYPE_NAMES, name) ? TYPE_NAMES[name] : undefined;
}

function constantScope(ctx: QueryContext, bindings: ScalarBindings): Scope {
  return { column: () => undefined, virtual: () => undefined, binding: (n) => bindings.get(n), ctx, allowBinAuto: false };
}

/** A datatable cell as its column's type holds it (a string in a datetime column is parsed). */
function cellValue(v: Value, type: ValueType): Value {
  if (v === null) return null;
  if (type === "datetime" && typeof v === "string") {
    const ms = parseIsoTime(v);
    return ms === undefined ? null : new DateTimeValue(ms);
  }
  if (type === "timespan" && typeof v === "string") {
    const ms = parseTimespan(v);
    return ms === undefined ? null : new TimespanValue(ms);
  }
  if ((type === "integer" || type === "float") && typeof v !== "number") return null;
  if (type === "string" && typeof v !== "string") return null;
  if (type === "boolean" && typeof v !== "boolean") return null;
  return v;
}

export function datatableBuilder(source: Extract<Source, { kind: "datatable" }>, ctx: QueryContext, bindings: ScalarBindings): PlanBuilder {
  const seen = new Set<string>();
  const columns: ColumnSpec[] = source.columns.map((c) => {
    const type = typeOfName(c.type);
    if (type === undefined) throw semanticError(c.pos, `unknown type "${c.type}" for column "${c.name}"`, COMPILE_ERROR.invalidArgument);
    if (seen.has(c.name)) throw semanticError(c.pos, `column "${c.name}" is defined more than once`, COMPILE_ERROR.duplicateColumn);
    seen.add(c.name);
    return { name: c.name, type };
  });
  const width = columns.length;
  if (source.values.length % width !== 0) {
    throw semanticError(source.pos, `datatable has ${source.values.length} values for ${width} columns: the count must be a multiple of ${width}`, COMPILE_ERROR.invalidArgument);
  }
  const scope = constantScope(ctx, bindings);
  const cells = source.values.map((e) => compileExpr(e, scope));
  const rows = (): Row[] => {
    const out: Row[] = [];
    for (let r = 0; r < cells.length / width; r++) {
      const values = new Map<string, Value>();
      columns.forEach((c, i) => values.set(c.name, cellValue(cells[r * width + i].evaluate(EMPTY_ROW), c.type)));
      out.push({ values, origin: null });
    }
    return out;
  };
  return PlanBuilder.forRows(rows, columns, ctx, [], bindings);
}

/** `print a = 1, 'x'`: one row; unnamed columns are print_0, print_1, ... by position. */
export function printBuilder(items: NamedExpr[], ctx: QueryContext, bindings: ScalarBindings): PlanBuilder {
  const scope = constantScope(ctx, bindings);
  const used = new Set<string>();
  const compiled = items.map((item, i) => {
    const name = item.name ?? `print_${i}`;
    if (used.has(name)) throw semanticError(item.pos, `column "${name}" is defined more than once`, COMPILE_ERROR.duplicateColumn);
    used.add(name);
    return { name, expr: compileExpr(item.expr, scope) };
  });
  const columns: ColumnSpec[] = compiled.map((c) => ({ name: c.name, type: c.expr.type }));
  const row = (): Row[] => [{ values: new Map(compiled.map((c) => [c.name, c.expr.evaluate(EMPTY_ROW)])), origin: null }];
  return PlanBuilder.forRows(row, columns, ctx, [], bindings);
}

/** The columns of several tables by name, in order of first appearance; a type they disagree on is dynamic. */
export function mergedColumns(tables: readonly (readonly ColumnSpec[])[]): ColumnSpec[] {
  const out = new Map<string, ColumnSpec>();
  for (const cols of tables) {
    for (const c of cols) {
      const prev = out.get(c.name);
      if (!prev) out.set(c.name, { name: c.name, type: c.type, ...(c.metaType !== undefined ? { metaType: c.metaType } : {}) });
      else if (prev.type !== c.type || prev.metaType !== c.metaType) out.set(c.name, { name: c.name, type: prev.type === c.type ? c.type : "dynamic" });
    }
  }
  return [...out.values()];
}

export function datasetsOf(plans: readonly Plan[]): QueryDataset[] {
  const out: QueryDataset[] = [];
  for (const p of plans) for (const d of p.datasets) if (!out.includes(d)) out.push(d);
  return out;
}

/** `union A, B`: the rows of each table in turn (each within the run's shared bounds). */
export function unionBuilder(plans: Plan[], ctx: QueryContext, bindings: ScalarBindings): PlanBuilder {
  const columns = mergedColumns(plans.map((p) => p.columns));
  function* rows(env: Parameters<typeof runPlan>[1]): Iterable<Row> {
    // Each table's rows are made again here: `union t, t` doubles them, so they count.
    for (const p of plans) {
      for (const r of runPlan(p, env).rows) {
        // Already kept (and charged) by the table's own run.
        if (!env.countMade()) return;
        yield r;
      }
    }
  }
  return PlanBuilder.forRows(rows, columns, ctx, datasetsOf(plans), bindings);
}
