// summarize and make-series: aggregation calls, their default names, aggregations
// inside scalar expressions (`round(avg(x), 2)`, `countif(e) * 100.0 / count()`),
// arg_max/arg_min with their extra columns, and the series that make-series lays out.

import { charge } from "./budget";
import { aggregationArity, isAggregationName, type AggregationName } from "./aggregations";
import type { Expr, NamedExpr, Stage } from "./ast";
import { compileExpr, type Scope } from "./compile-expr";
import { derivedName, exprPos, StageNames } from "./compile-query";
import { COMPILE_ERROR, semanticError } from "./errors";
import type { RunEnv } from "./execute";
import type { PlanBuilder, TableData } from "./plan";
import { Summarizer, type AggregationSpec, type ComputedSpec, type GroupKeySpec } from "./summarize";
import type { ColumnSpec, CompiledExpr, Row } from "./table";
import { DateTimeValue, TimespanValue, type Value, type ValueType } from "./values";

const NUMERIC_ARG: ReadonlySet<AggregationName> = new Set(["sum", "avg", "sumif", "avgif", "stdev", "variance", "percentile", "percentiles_array"]);

const EMPTY_ROW: Row = { values: new Map(), origin: null };

/** A constant argument (a percentile, a bin count): compiled without columns and evaluated once. */
function constantArg(e: Expr, scope: Scope, fn: string): Value {
  const c = compileExpr(e, { column: () => undefined, virtual: () => undefined, binding: scope.binding, ctx: scope.ctx, allowBinAuto: false });
  const v = c.evaluate(EMPTY_ROW);
  if (v === null) throw semanticError(exprPos(e), `function "${fn}" needs a constant here`, COMPILE_ERROR.invalidArgument);
  return v;
}

const clean = (s: string): string => s.replace(/[^A-Za-z0-9_]/g, "_");

/** One aggregation call as a spec; `excluded` are the by-keys, which `arg_max(x, *)` leaves out. */
function aggregationSpec(call: Extract<Expr, { kind: "call" }>, scope: Scope, b: PlanBuilder, excluded: ReadonlySet<string>): AggregationSpec {
  const fn = call.name as AggregationName;
  const { rowArgs, constArgs } = aggregationArity(fn);
  if (fn === "arg_max" || fn === "arg_min") return argExtremeSpec(fn, call, scope, b, excluded);
  const min = rowArgs + constArgs[0];
  const max = rowArgs + constArgs[1];
  if (call.args.length < min || call.args.length > max) {
    const want = min === max ? `${min}` : `${min} to ${max}`;
    throw semanticError(call.pos, `function "${fn}" expects ${want} argument(s), got ${call.args.length}`, COMPILE_ERROR.invalidArgument);
  }
  const args = call.args.slice(0, rowArgs).map((a) => compileExpr(a, scope));
  const consts = call.args.slice(rowArgs).map((a) => constantArg(a, scope, fn));
  const first = args[0];
  if (first && NUMERIC_ARG.has(fn) && first.type !== "integer" && first.type !== "float" && first.type !== "dynamic") {
    throw semanticError(exprPos(call.args[0]), `function "${fn}" needs a number, got ${first.type}`, COMPILE_ERROR.typeMismatch);
  }
  // countif(pred) reads no value field: its name is countif_, as count() is count_.
  const valueArg = fn === "countif" ? undefined : first;
  const column = valueArg ? derivedName(valueArg) : undefined;
  let name = `${fn}_${column === undefined ? "" : clean(column)}`;
  if (fn === "percentile") name += `_${clean(String(consts[0]))}`;
  return { name, fn, args, consts, fields: column === undefined ? [] : [column] };
}

function argExtremeSpec(
  fn: "arg_max" | "arg_min",
  call: Extract<Expr, { kind: "call" }>,
  scope: Scope,
  b: PlanBuilder,
  excluded: ReadonlySet<string>,
): AggregationSpec {
  if (call.args.length < 1) throw semanticError(call.pos, `function "${fn}" expects at least 1 argument(s), got 0`, COMPILE_ERROR.invalidArgument);
  const key = compileExpr(call.args[0], scope);
  const keyName = derivedName(key) ?? `${fn === "arg_max" ? "max" : "min"}_`;
  const cols: string[] = [];
  const exprs: CompiledExpr[] = [];
  for (const a of call.args.slice(1)) {
    if (a.kind === "star") {
      for (const c of b.currentColumns()) {
        if (c.name === keyName || excluded.has(c.name) || cols.includes(c.name)) continue;
        cols.push(c.name);
        exprs.push(compileExpr({ kind: "field", pos: a.pos, name: c.name }, scope));
      }
    } else {
      const e = compileExpr(a, scope);
      const n = derivedName(e) ?? `Column${cols.length + 1}`;
      if (n === keyName || cols.includes(n)) continue;
      cols.push(n);
      exprs.push(e);
    }
  }
  return { name: keyName, fn, args: [key, ...exprs], fields: key.column ? [key.column] : [], spread: [keyName, ...cols] };
}

/** `e` with `f` applied to each direct sub-expression. */
function mapChildren(e: Expr, f: (x: Expr) => Expr): Expr {
  switch (e.kind) {
    case "call":
      return { ...e, args: e.args.map(f) };
    case "unary":
      return { ...e, operand: f(e.operand) };
    case "binary":
      return { ...e, left: f(e.left), right: f(e.right) };
    case "in":
      return { ...e, operand: f(e.operand), list: e.list.map(f) };
    case "between":
      return { ...e, operand: f(e.operand), low: f(e.low), high: f(e.high) };
    case "index":
      return { ...e, target: f(e.target), index: f(e.index) };
    default:
      return e;
  }
}

/** Replaces each aggregation call in `e` by a hidden column, collecting the calls. */
function liftAggregations(e: Expr, found: Extract<Expr, { kind: "call" }>[]): Expr {
  if (e.kind === "call" && isAggregationName(e.name)) {
    found.push(e);
    return { kind: "field", pos: e.pos, name: hiddenName(found.length - 1) };
  }
  return mapChildren(e, (x) => liftAggregations(x, found));
}

const hiddenName = (i: number): string => `\u0000agg${i}`;

interface CompiledAggregations {
  keys: GroupKeySpec[];
  aggs: AggregationSpec[];
  computed: ComputedSpec[];
  outputs: string[];
}

function compileAggregations(aggItems: NamedExpr[], byItems: NamedExpr[], b: PlanBuilder): CompiledAggregations {
  const names = new StageNames();
  const keyScope = b.scope(true);
  const keys: GroupKeySpec[] = byItems.map((item) => {
    const expr = compileExpr(item.expr, keyScope);
    return { name: names.take(item, derivedName(expr)), expr };
  });
  const excluded = new Set(keys.map((k) => k.name));
  const scope = b.scope();
  const aggs: AggregationSpec[] = [];
  const computed: ComputedSpec[] = [];
  const outputs: string[] = [];
  let hidden = 0;
  for (const item of aggItems) {
    const e = item.expr;
    if (e.kind === "call" && isAggregationName(e.name)) {
      const spec = aggregationSpec(e, scope, b, excluded);
      if (spec.spread) {
        const first = names.take(item, spec.spread[0]);
        spec.spread = [first, ...spec.spread.slice(1).map((c) => names.take({ pos: item.pos }, c))];
        spec.name = first;
        outputs.push(...spec.spread);
      } else {
        spec.name = names.take(item, spec.name);
        outputs.push(spec.name);
      }
      aggs.push(spec);
      continue;
    }
    const found: Extract<Expr, { kind: "call" }>[] = [];
    const lifted = liftAggregations(e, found);
    if (found.length === 0) {
      if (e.kind === "call") {
        throw semanticError(e.pos, `unknown aggregation function "${e.name}"`, COMPILE_ERROR.unknownFunction);
      }
      throw semanticError(exprPos(e), "summarize expects an aggregation function such as count() or sum(x)", COMPILE_ERROR.invalidArgument);
    }
    const hiddenColumns = new Map<string, ColumnSpec>();
    const specs = found.map((call) => {
      const spec = aggregationSpec(call, scope, b, excluded);
      const defaultName = spec.name;
      spec.name = `${hiddenName(hidden++)}`;
      if (spec.spread) throw semanticError(call.pos, `"${call.name}" cannot be used inside an expression`, COMPILE_ERROR.invalidArgument);
      return { spec, defaultName };
    });
    // Re-number the lifted references to the hidden names actually used.
    const renamed = renameHidden(lifted, specs.map((s) => s.spec.name));
    for (const { spec } of specs) {
      aggs.push(spec);
      hiddenColumns.set(spec.name, { name: spec.name, type: aggregationType(spec) });
    }
    for (const k of keys) hiddenColumns.set(k.name, { name: k.name, type: k.expr.type });
    const expr = compileExpr(renamed, { ...scope, column: (n) => hiddenColumns.get(n), virtual: () => undefined });
    const name = names.take(item, specs.length === 1 ? specs[0].defaultName : undefined);
    computed.push({ name, expr });
    outputs.push(name);
  }
  return { keys, aggs, computed, outputs };
}

function aggregationType(spec: AggregationSpec): ValueType {
  const t = spec.args[0]?.type ?? "dynamic";
  if (spec.fn === "count" || spec.fn === "countif" || spec.fn === "dcount" || spec.fn === "dcountif") return "integer";
  if (spec.fn === "avg" || spec.fn === "avgif" || spec.fn === "stdev" || spec.fn === "variance") return "float";
  if (spec.fn === "sum" || spec.fn === "sumif" || spec.fn === "min" || spec.fn === "max" || spec.fn === "percentile") return t;
  return "dynamic";
}

function renameHidden(e: Expr, names: string[]): Expr {
  if (e.kind === "field" && e.name.startsWith("\u0000agg")) return { ...e, name: names[Number(e.name.slice(4))] ?? e.name };
  return mapChildren(e, (x) => renameHidden(x, names));
}

export function compileSummarize(aggItems: NamedExpr[], byItems: NamedExpr[], b: PlanBuilder): void {
  const { keys, aggs, computed, outputs } = compileAggregations(aggItems, byItems, b);
  b.summarize(keys, aggs, computed, outputs);
}

type MakeSeries = Extract<Stage, { kind: "make-series" }>;

/** Bins past this many per series make the query an error rather than a memory hog. */
const MAX_SERIES_BINS = 100_000;

/**
 * make-series: per group, one array per aggregation with one item per step from `from`
 * (inclusive) to `to` (exclusive), empty steps holding the default (0 unless given), and
 * the axis as an array of the steps' starts. Rows outside [from, to) are left out.
 */
export function compileMakeSeries(stage: MakeSeries, b: PlanBuilder): void {
  const scope = b.scope();
  const axis = compileExpr(stage.axis.expr, scope);
  if (axis.type !== "datetime" && axis.type !== "integer" && axis.type !== "float" && axis.type !== "dynamic") {
    throw semanticError(exprPos(stage.axis.expr), `make-series needs a datetime or number axis, got ${axis.type}`, COMPILE_ERROR.typeMismatch);
  }
  const stepValue = constantArg(stage.step, scope, "make-series step");
  const step = stepValue instanceof TimespanValue ? stepValue.ms : typeof stepValue === "number" ? stepValue : NaN;
  if (!(step > 0)) throw semanticError(exprPos(stage.step), "make-series step must be a positive timespan or number", COMPILE_ERROR.invalidArgument);
  const bound = (e: Expr | null): number | null => {
    if (e === null) return null;
    const v = constantArg(e, scope, "make-series");
    if (v instanceof DateTimeValue) return v.ms;
    if (typeof v === "number") return v;
    throw semanticError(exprPos(e), "make-series from/to must be a datetime or a number", COMPILE_ERROR.invalidArgument);
  };
  const fromMs = bound(stage.from);
  const toMs = bound(stage.to);
  if (fromMs !== null && toMs !== null && (toMs - fromMs) / step > MAX_SERIES_BINS) {
    throw semanticError(exprPos(stage.step), `make-series would make more than ${MAX_SERIES_BINS} steps`, COMPILE_ERROR.invalidArgument);
  }
  const { keys, aggs, computed, outputs } = compileAggregations(
    stage.aggregations.map((a) => a.item),
    stage.by,
    b,
  );
  const defaults = stage.aggregations.map((a) => (a.defaultValue ? constantArg(a.defaultValue, scope, "default") : 0));
  const names = new StageNames();
  for (const k of keys) names.take({ pos: stage.pos, name: k.name }, undefined);
  for (const o of outputs) names.take({ pos: stage.pos, name: o }, undefined);
  const axisName = names.take(stage.axis, derivedName(axis));
  const asNumber = (v: Value): number | null => (v instanceof DateTimeValue ? v.ms : typeof v === "number" ? v : null);
  const isTime = axis.type === "datetime";
  // The step a row falls in; `start` is known once the rows are (when `from` is not given).
  let start = 0;
  const binKey: GroupKeySpec = {
    name: "\u0000bin",
    expr: {
      type: "integer",
      evaluate: (row) => {
        const t = asNumber(axis.evaluate(row));
        return t === null ? null : Math.floor((t - start) / step);
      },
    },
  };
  const columns: ColumnSpec[] = [
    ...keys.map((k): ColumnSpec => ({ name: k.name, type: k.expr.type })),
    ...outputs.map((o): ColumnSpec => ({ name: o, type: "dynamic" })),
    { name: axisName, type: "dynamic" },
  ];
  /**
   * The series over [lo, hi): `fill` feeds the summarizer (keys, then the step index) the
   * rows in range, from rows (below) or from columns (vectorized.ts).
   */
  const seriesOf = (lo: number, hi: number, env: RunEnv, fill: (summarizer: Summarizer, start: number, bins: number) => void): TableData => {
    start = lo;
    const bins = Math.min(MAX_SERIES_BINS, Math.max(0, Math.ceil((hi - start) / step)));
    const summarizer = new Summarizer([...keys, binKey], aggs, null, computed, outputs);
    fill(summarizer, start, bins);
    const series = new Map<string, { keys: Value[]; arrays: Value[][] }>();
    for (const r of summarizer.finish().rows) {
      const keyValues = keys.map((k) => r.values.get(k.name) ?? null);
      const id = JSON.stringify(keyValues.map((v) => String(v instanceof DateTimeValue ? v.ms : v)));
      let s = series.get(id);
      if (!s) {
        if (!env.countMade()) break;
        charge(64 + outputs.length * (16 + 8 * bins));
        s = { keys: keyValues, arrays: outputs.map((_, i) => new Array<Value>(bins).fill(defaults[i] ?? 0)) };
        series.set(id, s);
      }
      const i = r.values.get(binKey.name);
      if (typeof i !== "number") continue;
      outputs.forEach((o, j) => (s.arrays[j][i] = r.values.get(o) ?? null));
    }
    const axisValues: Value[] = Array.from({ length: bins }, (_, i) => (isTime ? new DateTimeValue(start + i * step) : start + i * step));
    const rows: Row[] = [...series.values()].map((s) => {
      const values = new Map<string, Value>();
      keys.forEach((k, i) => values.set(k.name, s.keys[i]));
      outputs.forEach((o, j) => values.set(o, s.arrays[j]));
      values.set(axisName, axisValues.slice());
      return { values, origin: null };
    });
    return { rows, totals: null, numGroups: rows.length };
  };
  const empty: TableData = { rows: [], totals: null, numGroups: 0 };
  b.tableStage(
    columns,
    (data, env) => {
      let lo = fromMs;
      let hi = toMs;
      if (lo === null || hi === null) {
        for (const row of data.rows) {
          const t = asNumber(axis.evaluate(row));
          if (t === null) continue;
          if (fromMs === null) lo = lo === null ? t : Math.min(lo, t);
          if (toMs === null) hi = hi === null ? t + step : Math.max(hi, t + step);
        }
      }
      if (lo === null || hi === null) return empty;
      return seriesOf(lo, hi, env, (summarizer, from, bins) => {
        for (const row of data.rows) {
          if (!env.inTime()) break;
          const t = asNumber(axis.evaluate(row));
          if (t !== null && t >= from && t < from + bins * step) summarizer.add(row);
        }
      });
    },
    false,
    { kind: "make-series", axis, step, fromMs, toMs, keys, aggs, seriesOf, empty },
  );
}
