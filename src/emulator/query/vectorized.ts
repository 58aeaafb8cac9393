// The vectorized path: `['ds'] | where ... | summarize ... by ...` run over a dataset's
// columns (columns.ts) instead of one row (a Map of values) per event.
//
// It takes a plan whose leading stages are `where`s and then a `summarize`, when every
// expression they use has a columnar form: comparisons of a number or string column
// with a constant, and/or, `_time` against a datetime; keys that are columns, bin(_time,
// w) or bin_auto(_time); aggregations over columns (count, sum, avg, min, max and their
// `if` forms in tight loops; any other aggregation fed from the columns). Anything else
// — a fallback column, an extend before the summarize, a cursor, a scan past
// maxRowsExamined — runs on the row path, and `vectorStats.fallbacks` counts it.
//
// Answers are the row path's, bit for bit: rows are visited in the same scan order
// (newest first), so floating-point sums add in the same order, and the groups go through
// the same Summarizer for their order, totals and computed columns.

import { createAggregator } from "./aggregations";
import type { ColumnStore } from "./columns";
import type { RunEnv } from "./execute";
import { TIME_FIELD, type Plan, type StageVector, type TableData } from "./plan";
import type { CompiledExpr } from "./table";
import { autoBinMs } from "./time";
import type { QueryDataset, StoredEvent, TimePositions } from "./types";
import { DateTimeValue, type Value } from "./values";

/**
 * Scans of a dataset with columns in this thread: how many ran vectorized, how many fell
 * back to rows (each query's own counts are in its status, `emulatorExecution`).
 */
export const vectorStats = { vectorized: 0, fallbacks: 0 };

function fellBack(env: RunEnv): undefined {
  vectorStats.fallbacks++;
  env.rowFallbacks++;
  return undefined;
}

/** Thrown while compiling when an expression has no columnar form. */
class NotVectorizable extends Error {}
const refuse = (why: string): never => {
  throw new NotVectorizable(why);
};

/** A value of the event at position i (`ms`: its `_time`). */
type Reader = (i: number, ms: number) => Value;
/** A predicate: 1 true, 0 false, -1 null. */
type Pred = (i: number, ms: number) => number;

type ColumnRef = { kind: "number"; values: Float64Array; present: Uint8Array } | { kind: "string"; codes: Int32Array; dictionary: string[]; codeOf: Map<string, number> } | { kind: "null" } | { kind: "time" };

interface Compiler {
  columns: ColumnStore;
  /** Base columns that come straight from storage (not virtual, not datetime-typed fields). */
  plain: ReadonlySet<string>;
}

function columnRef(e: CompiledExpr, c: Compiler): ColumnRef {
  const name = e.column;
  if (name === undefined || e.vector !== undefined) return refuse("not a column");
  if (name === TIME_FIELD) return { kind: "time" };
  if (!c.plain.has(name)) return refuse(`column ${name} is not read from storage as is`);
  const col = c.columns.column(name);
  if (!col) return { kind: "null" };
  if (col.kind === "fallback") return refuse(`column ${name} holds mixed values`);
  return col;
}

function reader(e: CompiledExpr, c: Compiler): Reader {
  const col = columnRef(e, c);
  switch (col.kind) {
    case "number": {
      const { values, present } = col;
      return (i) => (present[i] === 1 ? values[i]! : null);
    }
    case "string": {
      const { codes, dictionary } = col;
      return (i) => {
        const code = codes[i]!;
        return code < 0 ? null : dictionary[code]!;
      };
    }
    case "null":
      return () => null;
    case "time":
      return refuse("_time as a value");
  }
}

const constOf = (e: CompiledExpr): { value: Value } | undefined => (e.vector?.kind === "const" ? { value: e.vector.value } : undefined);

const FLIP = { "==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<=" } as const;

function numberTest(op: keyof typeof FLIP, k: number): (x: number) => boolean {
  switch (op) {
    case "==":
      return (x) => x === k;
    case "!=":
      return (x) => x !== k;
    case "<":
      return (x) => x < k;
    case "<=":
      return (x) => x <= k;
    case ">":
      return (x) => x > k;
    case ">=":
      return (x) => x >= k;
  }
}

/** One closure per operator, so that the per-row test is not a second call. */
function numberColumnTest({ values, present }: { values: Float64Array; present: Uint8Array }, op: keyof typeof FLIP, k: number): Pred {
  switch (op) {
    case "==":
      return (i) => (present[i] !== 1 ? -1 : values[i] === k ? 1 : 0);
    case "!=":
      return (i) => (present[i] !== 1 ? -1 : values[i] !== k ? 1 : 0);
    case "<":
      return (i) => (present[i] !== 1 ? -1 : values[i]! < k ? 1 : 0);
    case "<=":
      return (i) => (present[i] !== 1 ? -1 : values[i]! <= k ? 1 : 0);
    case ">":
      return (i) => (present[i] !== 1 ? -1 : values[i]! > k ? 1 : 0);
    case ">=":
      return (i) => (present[i] !== 1 ? -1 : values[i]! >= k ? 1 : 0);
  }
}

function predicate(e: CompiledExpr, c: Compiler): Pred {
  const v = e.vector;
  if (v?.kind === "logical") {
    const l = predicate(v.left, c);
    const r = predicate(v.right, c);
    // Three-valued, as the row path's: false and x = false, true or x = true.
    if (v.op === "and") {
      return (i, ms) => {
        const a = l(i, ms);
        if (a === 0) return 0;
        const b = r(i, ms);
        if (b === 0) return 0;
        return a === 1 && b === 1 ? 1 : -1;
      };
    }
    return (i, ms) => {
      const a = l(i, ms);
      if (a === 1) return 1;
      const b = r(i, ms);
      if (b === 1) return 1;
      return a === 0 && b === 0 ? 0 : -1;
    };
  }
  if (v?.kind !== "compare") return refuse("not a comparison");
  let op = v.op as keyof typeof FLIP;
  let colExpr = v.left;
  let k = constOf(v.right);
  if (!k) {
    k = constOf(v.left);
    colExpr = v.right;
    op = FLIP[op];
  }
  if (!k || k.value === null) return refuse("no constant side");
  const col = columnRef(colExpr, c);
  const value = k.value;
  if (col.kind === "null") return () => -1;
  if (col.kind === "time") {
    if (!(value instanceof DateTimeValue)) return refuse("_time against a non-datetime");
    const test = numberTest(op, value.ms);
    return (_i, ms) => (test(ms) ? 1 : 0);
  }
  if (col.kind === "number") {
    if (typeof value !== "number") return refuse("number column against a non-number");
    return numberColumnTest(col, op, value);
  }
  if (typeof value !== "string" || (op !== "==" && op !== "!=")) return refuse("string column: only == and != with a string");
  // The columns were caught up before compiling: a value not in the dictionary is in no event.
  const { codes } = col;
  const target = col.codeOf.get(value) ?? -2;
  const want = op === "==";
  return (i) => {
    const code = codes[i]!;
    if (code < 0) return -1;
    return (code === target) === want ? 1 : 0;
  };
}

/** A group key: the event's dense code (0: null), and the key value of a code. */
interface KeyCoder {
  code(i: number, ms: number): number;
  value(code: number): Value;
}

function numericCoder(of: (i: number, ms: number) => number | null, valueOf: (x: number) => Value): KeyCoder {
  const codeOf = new Map<number, number>();
  const values: Value[] = [null];
  return {
    code(i, ms) {
      const x = of(i, ms);
      if (x === null) return 0;
      let code = codeOf.get(x);
      if (code === undefined) {
        code = values.length;
        values.push(valueOf(x));
        codeOf.set(x, code);
      }
      return code;
    },
    value: (code) => values[code] ?? null,
  };
}

function keyCoder(e: CompiledExpr, c: Compiler, env: RunEnv, range: { startMs: number; endMs: number }): KeyCoder {
  const v = e.vector;
  if (v?.kind === "bin") {
    if (columnRef(v.arg, c).kind !== "time") return refuse("bin of a column other than _time");
    const width = v.width === "auto" ? env.opts.ctx.autoBinMs : v.width;
    if (!(width > 0)) return refuse("bin width");
    // Buckets of the range are numbered from the first: code = 1 + bucket - first.
    const first = Math.floor(range.startMs / width);
    if ((range.endMs - range.startMs) / width > 10_000_000) return refuse("more than 10,000,000 buckets");
    return { code: (_i, ms) => 1 + Math.floor(ms / width) - first, value: (code) => new DateTimeValue((code - 1 + first) * width) };
  }
  const col = columnRef(e, c);
  switch (col.kind) {
    case "string": {
      const { codes, dictionary } = col;
      return { code: (i) => codes[i]! + 1, value: (code) => (code === 0 ? null : dictionary[code - 1]!) };
    }
    case "number": {
      const { values, present } = col;
      return numericCoder(
        (i) => (present[i] === 1 ? values[i]! : null),
        (x) => x,
      );
    }
    case "null":
      return { code: () => 0, value: () => null };
    case "time":
      return refuse("_time as a key");
  }
}

/** Per-group state of one aggregation; groups are numbered densely from 0. */
interface Accumulator {
  add(g: number, i: number, ms: number): void;
  result(g: number): Value;
}

function numberColumn(e: CompiledExpr, c: Compiler): { values: Float64Array; present: Uint8Array } | undefined {
  const col = columnRef(e, c);
  return col.kind === "number" ? col : undefined;
}

function accumulator(fn: string, args: CompiledExpr[], consts: readonly Value[], c: Compiler): Accumulator {
  const conditional = fn.endsWith("if");
  const cond: Pred | undefined = conditional ? predicate(args[args.length - 1]!, c) : undefined;
  const base = conditional ? (fn === "countif" ? "count" : fn.slice(0, -2)) : fn;
  const num = args[0] && base !== "count" ? numberColumn(args[0], c) : undefined;
  if (base === "count") {
    // Counts per group in a typed array, grown as groups appear.
    let n = new Float64Array(64);
    const slot = (g: number): void => {
      if (g >= n.length) {
        const bigger = new Float64Array(Math.max(g + 1, n.length * 2));
        bigger.set(n);
        n = bigger;
      }
    };
    return {
      add: cond
        ? (g, i, ms) => {
            if (cond(i, ms) !== 1) return;
            slot(g);
            n[g]++;
          }
        : (g) => {
            slot(g);
            n[g]++;
          },
      result: (g) => (g < n.length ? n[g]! : 0),
    };
  }
  if (num && (base === "sum" || base === "avg")) {
    const { values, present } = num;
    const sum: number[] = [];
    const n: number[] = [];
    return {
      add(g, i, ms) {
        if (present[i] !== 1 || (cond && cond(i, ms) !== 1)) return;
        sum[g] = (sum[g] ?? 0) + values[i]!;
        n[g] = (n[g] ?? 0) + 1;
      },
      result: (g) => (base === "sum" ? (sum[g] ?? 0) : n[g] ? sum[g]! / n[g]! : null),
    };
  }
  if (num && (base === "min" || base === "max")) {
    const { values, present } = num;
    const best: (number | undefined)[] = [];
    const sign = base === "max" ? 1 : -1;
    return {
      add(g, i, ms) {
        if (present[i] !== 1 || (cond && cond(i, ms) !== 1)) return;
        const x = values[i]!;
        const b = best[g];
        if (b === undefined || sign * (x - b) > 0) best[g] = x;
      },
      result: (g) => best[g] ?? null,
    };
  }
  if (num && base === "percentile" && !conditional && typeof consts[0] === "number") {
    // Nearest rank over the group's values sorted as a typed array (aggregations.ts's rule).
    const { values, present } = num;
    const p = Math.min(100, Math.max(0, consts[0]));
    const collected: number[][] = [];
    return {
      add(g, i) {
        if (present[i] === 1) (collected[g] ??= []).push(values[i]!);
      },
      result(g) {
        const xs = collected[g];
        if (!xs || xs.length === 0) return null;
        const sorted = Float64Array.from(xs).sort();
        return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
      },
    };
  }
  // Any other aggregation: its own aggregator per group, fed the columns' values.
  const readers: Reader[] = args.map((a, j) => {
    if (cond && j === args.length - 1) return (i: number, ms: number) => (cond(i, ms) === 1 ? true : cond(i, ms) === 0 ? false : null);
    return reader(a, c);
  });
  const groups: ReturnType<typeof createAggregator>[] = [];
  const buf: Value[] = readers.map(() => null);
  return {
    add(g, i, ms) {
      for (let j = 0; j < readers.length; j++) buf[j] = readers[j]!(i, ms);
      (groups[g] ??= createAggregator(fn as Parameters<typeof createAggregator>[0], consts)).add(buf);
    },
    result: (g) => (groups[g] ?? createAggregator(fn as Parameters<typeof createAggregator>[0], consts)).result(),
  };
}

/** Maps tuples of key codes to dense group numbers (nested arrays indexed by code: no hashing per row). */
class Grouping {
  private readonly root: unknown[] = [];
  readonly codes: number[][] = [];

  constructor(private readonly coders: KeyCoder[]) {}

  group(i: number, ms: number): number {
    const coders = this.coders;
    const last = coders.length - 1;
    if (last < 0) {
      if (this.codes.length === 0) this.codes.push([]);
      return 0;
    }
    let node = this.root;
    for (let k = 0; k < last; k++) {
      const code = coders[k]!.code(i, ms);
      node = (node[code] ??= []) as unknown[];
    }
    const code = coders[last]!.code(i, ms);
    let g = node[code] as number | undefined;
    if (g === undefined) {
      g = this.codes.length;
      node[code] = g;
      const tuple: number[] = [];
      for (let k = 0; k <= last; k++) tuple.push(coders[k]!.code(i, ms));
      this.codes.push(tuple);
    }
    return g;
  }

  keyValues(g: number): Value[] {
    return this.codes[g]!.map((code, k) => this.coders[k]!.value(code));
  }
}

/** The plan's leading wheres and its summarize, when they have columnar forms. */
type Terminal = Extract<StageVector, { kind: "summarize" | "make-series" }>;

function vectorShape(plan: Plan): { wheres: CompiledExpr[]; terminal: Terminal; index: number } | undefined {
  const wheres: CompiledExpr[] = [];
  for (let s = 0; s < plan.stages.length; s++) {
    const v = plan.stages[s]!.vector;
    if (v?.kind === "where") wheres.push(v.predicate);
    else if (v?.kind === "summarize" || v?.kind === "make-series") return { wheres, terminal: v, index: s };
    else return undefined;
  }
  return undefined;
}

/**
 * Runs the plan's scan and summarize over columns; answers the summarize's table and the
 * index of the stage after it, or undefined (nothing run) when the plan needs the row path.
 */
export function runVectorized(plan: Plan, env: RunEnv): { data: TableData; next: number } | undefined {
  if (plan.source.kind !== "dataset") return undefined;
  const dataset: QueryDataset = plan.source.dataset;
  const columns = dataset.columns;
  const positions = dataset.timeIndex?.positions;
  if (!columns || !positions) return undefined;
  const shape = vectorShape(plan);
  // Only a plan that aggregates counts as a fallback: a row listing belongs on the row path.
  if (!shape) return plan.stages.some((s) => s.vector?.kind === "summarize" || s.vector?.kind === "make-series") ? fellBack(env) : undefined;
  const { opts } = env;
  if (opts.cursor) return fellBack(env);
  const range: TimePositions = positions.call(dataset.timeIndex, opts.startMs, opts.endMs);
  columns.catchUp();
  const { order, orderMs, lo, hi } = range;
  if (env.examined + (hi - lo) > env.limits.maxRowsExamined) return fellBack(env);
  const virtual = new Set(dataset.virtualFields.map((f) => f.name));
  const plain = new Set(plan.baseColumns.filter((c) => c.metaType !== "datetime" && c.type !== "datetime" && !virtual.has(c.name)).map((c) => c.name));
  const compiler: Compiler = { columns, plain };
  // The range's start and bin_auto's width are known before the keys are compiled.
  const rangeStart = opts.startMs ?? (hi > lo ? orderMs[lo]! : opts.endMs);
  const firstScan = env.rangeStartMs === undefined;
  const savedAutoBin = opts.ctx.autoBinMs;
  if (firstScan) opts.ctx.autoBinMs = autoBinMs(Math.max(0, opts.endMs - rangeStart));
  let data: TableData;
  let matched = 0;
  try {
    const preds = shape.wheres.map((w) => predicate(w, compiler));
    const pred: Pred | undefined = preds.length === 0 ? undefined : preds.reduce((a, b) => (i, ms) => (a(i, ms) === 1 && b(i, ms) === 1 ? 1 : 0));
    const terminal = shape.terminal;
    if (terminal.kind === "make-series") {
      const run = makeSeries(terminal, range, pred, compiler, env);
      matched = run.matched;
      data = run.data;
    } else {
      const summarized = summarize(terminal, range, rangeStart, pred, compiler, env);
      matched = summarized.matched;
      data = summarized.data;
    }
  } catch (err) {
    if (!(err instanceof NotVectorizable)) throw err;
    if (firstScan) opts.ctx.autoBinMs = savedAutoBin;
    return fellBack(env);
  }
  return finishScan(dataset, range, rangeStart, firstScan, matched, env, data, shape.index + 1);
}

function summarize(
  terminal: Extract<StageVector, { kind: "summarize" }>,
  range: TimePositions,
  rangeStart: number,
  pred: Pred | undefined,
  compiler: Compiler,
  env: RunEnv,
): { data: TableData; matched: number } {
  const { order, orderMs, lo, hi } = range;
  let matched = 0;
  {
    const { keys, aggs } = terminal;
    const coders = keys.map((k) => keyCoder(k.expr, compiler, env, { startMs: hi > lo ? orderMs[lo]! : rangeStart, endMs: env.opts.endMs }));
    const timeAt = keys.findIndex((k) => k.expr.bucket !== undefined);
    const main = new Grouping(coders);
    const totals = timeAt >= 0 ? new Grouping(coders.filter((_, k) => k !== timeAt)) : undefined;
    const mainAccs = aggs.map((a) => accumulator(a.fn, a.args, a.consts ?? [], compiler));
    const totalAccs = totals ? aggs.map((a) => accumulator(a.fn, a.args, a.consts ?? [], compiler)) : [];
    const nAggs = aggs.length;
    for (let k = hi - 1; k >= lo; k--) {
      if ((k & 4095) === 0 && !env.inTime()) break;
      const i = order[k]!;
      const ms = orderMs[k]!;
      if (pred !== undefined && pred(i, ms) !== 1) continue;
      matched++;
      const g = main.group(i, ms);
      for (let a = 0; a < nAggs; a++) mainAccs[a]!.add(g, i, ms);
      if (totals) {
        const t = totals.group(i, ms);
        for (let a = 0; a < nAggs; a++) totalAccs[a]!.add(t, i, ms);
      }
    }
    const s = terminal.make();
    for (let g = 0; g < main.codes.length; g++) s.putGroup("main", main.keyValues(g), mainAccs.map((acc) => acc.result(g)));
    if (totals) for (let g = 0; g < totals.codes.length; g++) s.putGroup("totals", totals.keyValues(g), totalAccs.map((acc) => acc.result(g)));
    return { data: terminal.finish(s), matched };
  }
}

/** make-series over `_time`: the matching rows' positions first (their range sets the steps when from/to are not given), then the steps per group. */
function makeSeries(
  terminal: Extract<StageVector, { kind: "make-series" }>,
  range: TimePositions,
  pred: Pred | undefined,
  compiler: Compiler,
  env: RunEnv,
): { data: TableData; matched: number } {
  if (columnRef(terminal.axis, compiler).kind !== "time") refuse("make-series on an axis other than _time");
  const { order, orderMs, lo, hi } = range;
  const selected = new Int32Array(hi - lo);
  let matched = 0;
  for (let k = hi - 1; k >= lo; k--) {
    if ((k & 4095) === 0 && !env.inTime()) break;
    if (pred !== undefined && pred(order[k]!, orderMs[k]!) !== 1) continue;
    selected[matched++] = k;
  }
  const { step, keys, aggs } = terminal;
  // Scan order is newest first: the last selected is the oldest.
  const from = terminal.fromMs ?? (matched > 0 ? orderMs[selected[matched - 1]!]! : null);
  const to = terminal.toMs ?? (matched > 0 ? orderMs[selected[0]!]! + step : null);
  if (from === null || to === null) return { data: terminal.empty, matched };
  const coders = keys.map((k) => keyCoder(k.expr, compiler, env, { startMs: from, endMs: to }));
  const data = terminal.seriesOf(from, to, env, (summarizer, start, bins) => {
    const stepCoder: KeyCoder = { code: (_i, ms) => 1 + Math.floor((ms - start) / step), value: (code) => code - 1 };
    const grouping = new Grouping([...coders, stepCoder]);
    const accs = aggs.map((a) => accumulator(a.fn, a.args, a.consts ?? [], compiler));
    const end = start + bins * step;
    for (let j = 0; j < matched; j++) {
      const k = selected[j]!;
      const ms = orderMs[k]!;
      if (ms < start || ms >= end) continue;
      const i = order[k]!;
      const g = grouping.group(i, ms);
      for (let a = 0; a < accs.length; a++) accs[a]!.add(g, i, ms);
    }
    for (let g = 0; g < grouping.codes.length; g++) summarizer.putGroup("main", grouping.keyValues(g), accs.map((acc) => acc.result(g)));
  });
  return { data, matched };
}

/** The run's counters, as the row path's scan keeps them. */
function finishScan(
  dataset: QueryDataset,
  range: TimePositions,
  rangeStart: number,
  firstScan: boolean,
  matched: number,
  env: RunEnv,
  data: TableData,
  next: number,
): { data: TableData; next: number } {
  const { order, orderMs, lo, hi } = range;
  vectorStats.vectorized++;
  env.vectorizedScans++;
  if (firstScan) env.rangeStartMs = rangeStart;
  const examined = hi - lo;
  if (examined > 0) {
    const first = env.examined === 0 && env.maxCursor === "";
    env.minTimeMs = env.minTimeMs === undefined ? orderMs[lo]! : Math.min(env.minTimeMs, orderMs[lo]!);
    env.maxTimeMs = env.maxTimeMs === undefined ? orderMs[hi - 1]! : Math.max(env.maxTimeMs, orderMs[hi - 1]!);
    if (first) {
      const events: readonly StoredEvent[] = dataset.events;
      env.maxCursor = events[order[hi - 1]!]!._rowId;
      env.minCursor = events[order[lo]!]!._rowId;
    }
  }
  env.examined += examined;
  env.matched += matched;
  return { data, next };
}
