// The vectorized path: `['ds'] | where ... | summarize ... by ...` run over a dataset's
// columns (columns.ts) instead of one row (a Map of values) per event.
//
// It takes a plan whose leading stages are `where`s and then a `summarize` (or a
// `make-series` on `_time`, or a `count`), when every expression they use has a columnar form:
// comparisons of a number or string column with a constant, and/or, `_time` against a
// datetime; keys that are columns, bin(_time, w) or bin_auto(_time); aggregations over
// columns (count, sum, avg, min, max and their `if` forms, percentile, in tight loops;
// any other aggregation fed from the columns). Anything else — a fallback column, an
// extend before the summarize, a cursor, a scan past maxRowsExamined — runs on the row
// path, and `vectorStats.fallbacks` counts it.
//
// Work goes a batch at a time: a block's rows in the range (when positions are in time
// order), else up to GATHER ranks of the time order with their values gathered. A
// predicate narrows a selection vector (the batch's row indices, newest first) with one
// loop per comparison; keys are coded into arrays, folded into dense group numbers, and
// each aggregation runs one loop over the selection. A block whose min and max rule out
// the predicate is not read at all.
//
// Answers are the row path's, bit for bit: rows are visited in the same scan order
// (newest first), so floating-point sums add in the same order, and the groups go through
// the same Summarizer, in the order they were first seen, for their order, totals and
// computed columns.

import { createAggregator } from "./aggregations";
import type { Columns } from "./columns";
import type { RunEnv } from "./execute";
import { TIME_FIELD, type Plan, type StageVector, type TableData } from "./plan";
import type { Summarizer } from "./summarize";
import type { CompiledExpr } from "./table";
import { autoBinMs } from "./time";
import type { QueryDataset } from "./types";
import { DateTimeValue, type Value } from "./values";

/**
 * Scans of a dataset with columns in this thread: how many ran vectorized, how many fell
 * back to rows (each query's own counts are in its status, `emulatorExecution`).
 */
export const vectorStats = { vectorized: 0, fallbacks: 0, blocksSkipped: 0 };

/** Ranks gathered per batch when positions are not in time order. */
const GATHER = 4096;

function fellBack(env: RunEnv): undefined {
  vectorStats.fallbacks++;
  env.rowFallbacks++;
  return undefined;
}

/** Thrown while compiling (or scanning) when an expression has no columnar form. */
class NotVectorizable extends Error {}
const refuse = (why: string): never => {
  throw new NotVectorizable(why);
};

/**
 * A batch of rows: indices 0..n-1 in time order (scan order is n-1 down to 0). Either a
 * block's slots [from, from + n), or gathered ranks whose positions are `positions`.
 */
interface Batch {
  /** Changes per batch: a column's gathered values are cached under it. */
  serial: number;
  n: number;
  ms: Float64Array;
  block: number;
  from: number;
  positions: Uint32Array | undefined;
}

type ColumnRef = { kind: "number"; blocks: Float64Array[] } | { kind: "string"; blocks: Int32Array[]; dictionary: string[]; codeOf: Map<string, number> } | { kind: "null" } | { kind: "time" };

interface Compiler {
  columns: Columns;
  /** Base columns that come straight from storage (not virtual, not datetime-typed fields). */
  plain: ReadonlySet<string>;
  /** Largest batch: the size of selection vectors and scratch arrays. */
  capacity: number;
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

/** A column's values for the current batch: a view of its block, or gathered into scratch. */
function access<T extends Float64Array | Int32Array>(blocks: T[], c: Compiler, scratch: T): (bt: Batch) => T {
  let serial = -1;
  let cached = scratch;
  const { shift, mask } = c.columns;
  return (bt) => {
    if (bt.serial === serial) return cached;
    serial = bt.serial;
    const p = bt.positions;
    if (p === undefined) cached = blocks[bt.block]!.subarray(bt.from, bt.from + bt.n) as T;
    else {
      for (let j = 0; j < bt.n; j++) {
        const i = p[j]!;
        scratch[j] = blocks[i >>> shift]![i & mask]!;
      }
      cached = scratch;
    }
    return cached;
  };
}

const numbersOf = (col: { blocks: Float64Array[] }, c: Compiler): ((bt: Batch) => Float64Array) => access(col.blocks, c, new Float64Array(GATHER));
const codesOf = (col: { blocks: Int32Array[] }, c: Compiler): ((bt: Batch) => Int32Array) => access(col.blocks, c, new Int32Array(GATHER));

/** A row's value, for the aggregations fed row by row. */
type ValueAt = (bt: Batch) => (j: number) => Value;

function valueAt(e: CompiledExpr, c: Compiler): ValueAt {
  const col = columnRef(e, c);
  switch (col.kind) {
    case "number": {
      const get = numbersOf(col, c);
      return (bt) => {
        const v = get(bt);
        return (j) => (v[j] === v[j] ? v[j]! : null);
      };
    }
    case "string": {
      const get = codesOf(col, c);
      const { dictionary } = col;
      return (bt) => {
        const codes = get(bt);
        return (j) => (codes[j]! < 0 ? null : dictionary[codes[j]!]!);
      };
    }
    case "null":
      return () => () => null;
    case "time":
      return refuse("_time as a value");
  }
}

/**
 * A predicate over a batch: writes to `dst` the rows of `src[0..m)` for which it is true,
 * in their order, and answers how many (null and false are both dropped: only a `where`
 * or an `if` reads it). `dst` may be `src`. `may` says whether a block can hold a true
 * row at all.
 */
interface Filter {
  run(bt: Batch, src: Int32Array, m: number, dst: Int32Array): number;
  may(block: number): boolean;
}

const constOf = (e: CompiledExpr): { value: Value } | undefined => (e.vector?.kind === "const" ? { value: e.vector.value } : undefined);

const FLIP = { "==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<=" } as const;
type Op = keyof typeof FLIP;

/** One loop per operator, NaN (null) failing each; `!=` must test for it. */
function compareRun(get: (bt: Batch) => Float64Array, op: Op, k: number): Filter["run"] {
  switch (op) {
    case "==":
      return (bt, src, m, dst) => {
        const v = get(bt);
        let o = 0;
        for (let t = 0; t < m; t++) {
          const j = src[t]!;
          if (v[j] === k) dst[o++] = j;
        }
        return o;
      };
    case "!=":
      return (bt, src, m, dst) => {
        const v = get(bt);
        let o = 0;
        for (let t = 0; t < m; t++) {
          const j = src[t]!;
          const x = v[j]!;
          if (x !== k && x === x) dst[o++] = j;
        }
        return o;
      };
    case "<":
      return (bt, src, m, dst) => {
        const v = get(bt);
        let o = 0;
        for (let t = 0; t < m; t++) {
          const j = src[t]!;
          if (v[j]! < k) dst[o++] = j;
        }
        return o;
      };
    case "<=":
      return (bt, src, m, dst) => {
        const v = get(bt);
        let o = 0;
        for (let t = 0; t < m; t++) {
          const j = src[t]!;
          if (v[j]! <= k) dst[o++] = j;
        }
        return o;
      };
    case ">":
      return (bt, src, m, dst) => {
        const v = get(bt);
        let o = 0;
        for (let t = 0; t < m; t++) {
          const j = src[t]!;
          if (v[j]! > k) dst[o++] = j;
        }
        return o;
      };
    case ">=":
      return (bt, src, m, dst) => {
        const v = get(bt);
        let o = 0;
        for (let t = 0; t < m; t++) {
          const j = src[t]!;
          if (v[j]! >= k) dst[o++] = j;
        }
        return o;
      };
  }
}

/** Whether a block whose values lie in [min, max] (min > max: none) can satisfy `x op k`. */
function rangeMay(op: Op, k: number, min: number, max: number): boolean {
  if (!(min <= max)) return false;
  switch (op) {
    case "==":
      return min <= k && k <= max;
    case "!=":
      return !(min === k && max === k);
    case "<":
      return min < k;
    case "<=":
      return min <= k;
    case ">":
      return max > k;
    case ">=":
      return max >= k;
  }
}

const NONE: Filter = { run: () => 0, may: () => false };

function predicate(e: CompiledExpr, c: Compiler): Filter {
  const v = e.vector;
  if (v?.kind === "logical") {
    if (v.op === "and") return allOf(conjuncts(e, c), c.capacity)!;
    const l = predicate(v.left, c);
    const r = predicate(v.right, c);
    // or: each side's rows, merged in scan order.
    const a = new Int32Array(c.capacity);
    const z = new Int32Array(c.capacity);
    return {
      run: (bt, src, m, dst) => {
        const ma = l.run(bt, src, m, a);
        const mz = r.run(bt, src, m, z);
        let x = 0;
        let y = 0;
        let o = 0;
        while (x < ma || y < mz) {
          if (y >= mz || (x < ma && a[x]! > z[y]!)) dst[o++] = a[x++]!;
          else if (x >= ma || z[y]! > a[x]!) dst[o++] = z[y++]!;
          else {
            dst[o++] = a[x++]!;
            y++;
          }
        }
        return o;
      },
      may: (b) => l.may(b) || r.may(b),
    };
  }
  if (v?.kind !== "compare") return refuse("not a comparison");
  let op = v.op as Op;
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
  const rows = c.columns.blockRows;
  if (col.kind === "null") return NONE;
  if (col.kind === "time") {
    if (!(value instanceof DateTimeValue)) return refuse("_time against a non-datetime");
    const k = value.ms;
    const time = c.columns.time;
    return { run: compareRun((bt) => bt.ms, op, k), may: (b) => rangeMay(op, k, time[b]![rows]!, time[b]![rows + 1]!) };
  }
  if (col.kind === "number") {
    if (typeof value !== "number") return refuse("number column against a non-number");
    const blocks = col.blocks;
    return { run: compareRun(numbersOf(col, c), op, value), may: (b) => rangeMay(op, value, blocks[b]![rows]!, blocks[b]![rows + 1]!) };
  }
  if (typeof value !== "string" || (op !== "==" && op !== "!=")) return refuse("string column: only == and != with a string");
  // The columns are a view taken before compiling: a value not in the dictionary is in no event.
  const target = col.codeOf.get(value);
  const get = codesOf(col, c);
  if (op === "==") {
    if (target === undefined) return NONE;
    return {
      run: (bt, src, m, dst) => {
        const codes = get(bt);
        let o = 0;
        for (let t = 0; t < m; t++) {
          const j = src[t]!;
          if (codes[j] === target) dst[o++] = j;
        }
        return o;
      },
      may: () => true,
    };
  }
  const other = target ?? -2;
  return {
    run: (bt, src, m, dst) => {
      const codes = get(bt);
      let o = 0;
      for (let t = 0; t < m; t++) {
        const j = src[t]!;
        const code = codes[j]!;
        if (code >= 0 && code !== other) dst[o++] = j;
      }
      return o;
    },
    may: () => true,
  };
}

/** A group key: writes each selected row's code (0: null; codes < bound), and the key value of a code. */
interface KeyKernel {
  /** Codes are below this; Infinity when they are handed out as values appear. */
  bound: number;
  codes(bt: Batch, sel: Int32Array, m: number, out: Int32Array): void;
  value(code: number): Value;
}

function binKernel(width: number, first: number, endMs: number): KeyKernel {
  // One value per bin, shared by the groups of that bin (and printed once).
  const values: DateTimeValue[] = [];
  return {
    bound: Math.floor(endMs / width) - first + 2,
    codes(bt, sel, m, out) {
      const ms = bt.ms;
      for (let t = 0; t < m; t++) out[t] = 1 + Math.floor(ms[sel[t]!]! / width) - first;
    },
    value: (code) => (values[code] ??= new DateTimeValue((code - 1 + first) * width)),
  };
}

/** Codes for a number column, handed out as values appear (small integers through a table). */
function numberKernel(get: (bt: Batch) => Float64Array): KeyKernel {
  const SMALL = 4096;
  const small = new Int32Array(SMALL);
  const codeOf = new Map<number, number>();
  const values: Value[] = [null];
  const codeFor = (x: number): number => {
    let code = codeOf.get(x);
    if (code === undefined) {
      code = values.length;
      values.push(x);
      codeOf.set(x, code);
    }
    return code;
  };
  return {
    bound: Infinity,
    codes(bt, sel, m, out) {
      const v = get(bt);
      for (let t = 0; t < m; t++) {
        const x = v[sel[t]!]!;
        if (x !== x) out[t] = 0;
        else if (x >= 0 && x < SMALL && (x | 0) === x && !Object.is(x, -0)) {
          let code = small[x]!;
          if (code === 0) code = small[x] = codeFor(x);
          out[t] = code;
        } else out[t] = codeFor(x);
      }
    },
    value: (code) => values[code] ?? null,
  };
}

function keyKernel(e: CompiledExpr, c: Compiler, env: RunEnv, range: { startMs: number; endMs: number }): KeyKernel {
  const v = e.vector;
  if (v?.kind === "bin") {
    if (columnRef(v.arg, c).kind !== "time") return refuse("bin of a column other than _time");
    const width = v.width === "auto" ? env.opts.ctx.autoBinMs : v.width;
    if (!(width > 0)) return refuse("bin width");
    if ((range.endMs - range.startMs) / width > 10_000_000) return refuse("more than 10,000,000 buckets");
    // Buckets of the range are numbered from the first: code = 1 + bucket - first.
    return binKernel(width, Math.floor(range.startMs / width), range.endMs);
  }
  const col = columnRef(e, c);
  switch (col.kind) {
    case "string": {
      const get = codesOf(col, c);
      const { dictionary } = col;
      return {
        bound: dictionary.length + 1,
        codes(bt, sel, m, out) {
          const codes = get(bt);
          for (let t = 0; t < m; t++) out[t] = codes[sel[t]!]! + 1;
        },
        value: (code) => (code === 0 ? null : dictionary[code - 1]!),
      };
    }
    case "number":
      return numberKernel(numbersOf(col, c));
    case "null":
      return { bound: 1, codes: (_bt, _sel, m, out) => out.fill(0, 0, m), value: () => null };
    case "time":
      return refuse("_time as a key");
  }
}

const TABLE_LIMIT = 1 << 22;

/**
 * Tuples of key codes to dense group numbers, first seen first. The bounded keys'
 * codes combine into one number by strides; keys coded as values appear (numbers) go
 * above them, through pairwise interning when there are several. A combined number
 * below TABLE_LIMIT is looked up in a table, any other in a Map.
 */
class Groups {
  count = 0;
  /** Per key, the code of each group. */
  readonly codes: number[][];
  private readonly strides: number[];
  private readonly bounded: number[];
  private readonly dynamic: number[];
  private readonly span: number;
  private table = new Int32Array(0);
  private readonly big = new Map<number, number>();
  private readonly pairs = new Map<number, number>();

  constructor(private readonly keys: KeyKernel[]) {
    this.codes = keys.map(() => []);
    this.bounded = [];
    this.dynamic = [];
    this.strides = [];
    let span = 1;
    keys.forEach((k, i) => {
      if (Number.isFinite(k.bound)) {
        this.bounded.push(i);
        this.strides.push(span);
        span *= Math.max(1, k.bound);
      } else this.dynamic.push(i);
    });
    if (span > 2 ** 40) refuse("too many possible groups to number");
    this.span = span;
  }

  /** Writes the group of each selected row into `gid`. */
  assign(codes: Int32Array[], m: number, gid: Int32Array): void {
    const { bounded, strides, dynamic, span } = this;
    const nb = bounded.length;
    const c0 = nb > 0 ? codes[bounded[0]!]! : undefined;
    const c1 = nb > 1 ? codes[bounded[1]!]! : undefined;
    const s1 = nb > 1 ? strides[1]! : 0;
    const d0 = dynamic.length > 0 ? codes[dynamic[0]!]! : undefined;
    for (let t = 0; t < m; t++) {
      let rest = c0 === undefined ? 0 : c0[t]!;
      if (c1 !== undefined) rest += c1[t]! * s1;
      for (let b = 2; b < nb; b++) rest += codes[bounded[b]!]![t]! * strides[b]!;
      let dyn = d0 === undefined ? 0 : d0[t]!;
      for (let d = 1; d < dynamic.length; d++) dyn = this.pair(dyn, codes[dynamic[d]!]![t]!);
      const combined = dyn * span + rest;
      let g: number;
      if (combined < TABLE_LIMIT) {
        if (combined >= this.table.length) this.growTable(combined);
        g = this.table[combined]! - 1;
        if (g < 0) {
          g = this.fresh(codes, t);
          this.table[combined] = g + 1;
        }
      } else {
        const got = this.big.get(combined);
        if (got === undefined) this.big.set(combined, (g = this.fresh(codes, t)));
        else g = got;
      }
      gid[t] = g;
    }
  }

  private pair(a: number, b: number): number {
    if (a >= 2 ** 20 || b >= 2 ** 32) refuse("too many groups to number");
    const key = a * 2 ** 32 + b;
    let got = this.pairs.get(key);
    if (got === undefined) this.pairs.set(key, (got = this.pairs.size + 1));
    return got;
  }

  private growTable(combined: number): void {
    const bigger = new Int32Array(Math.min(TABLE_LIMIT, Math.max(combined + 1, this.table.length * 2, 1024)));
    bigger.set(this.table);
    this.table = bigger;
  }

  private fresh(codes: Int32Array[], t: number): number {
    for (let k = 0; k < this.keys.length; k++) this.codes[k]!.push(codes[k]![t]!);
    return this.count++;
  }

  keyValues(g: number): Value[] {
    return this.keys.map((k, i) => k.value(this.codes[i]![g]!));
  }
}

/** Per-group state of one aggregation, fed a batch's selected rows and their groups. */
interface Accumulator {
  add(bt: Batch, sel: Int32Array, m: number, gid: Int32Array): void;
  result(g: number): Value;
}

/** Grows per-group arrays as groups appear. */
function growable(init: number): { get(): Float64Array; ensure(n: number): Float64Array } {
  let a = new Float64Array(64).fill(init);
  return {
    get: () => a,
    ensure(n) {
      if (n > a.length) {
        const b = new Float64Array(Math.max(n, a.length * 2)).fill(init);
        b.set(a);
        a = b;
      }
      return a;
    },
  };
}

/**
 * The selection narrowed by an `if` condition: marks[t] = 1 for the selected rows
 * where it is true (both lists are in scan order).
 */
function conditionMarks(cond: Filter, capacity: number): (bt: Batch, sel: Int32Array, m: number) => Uint8Array {
  const kept = new Int32Array(capacity);
  const marks = new Uint8Array(capacity);
  return (bt, sel, m) => {
    const mk = cond.run(bt, sel, m, kept);
    let p = 0;
    for (let t = 0; t < m; t++) {
      if (p < mk && kept[p] === sel[t]) {
        marks[t] = 1;
        p++;
      } else marks[t] = 0;
    }
    return marks;
  };
}

function accumulator(fn: string, args: CompiledExpr[], consts: readonly Value[], c: Compiler): Accumulator {
  const conditional = fn.endsWith("if");
  const marksOf = conditional ? conditionMarks(predicate(args[args.length - 1]!, c), c.capacity) : undefined;
  const base = conditional ? (fn === "countif" ? "count" : fn.slice(0, -2)) : fn;
  const numRef = args[0] && base !== "count" ? columnRef(args[0], c) : undefined;
  const num = numRef?.kind === "number" ? numbersOf(numRef, c) : undefined;
  if (base === "count") {
    const n = growable(0);
    return {
      add(bt, sel, m, gid) {
        const counts = n.get();
        if (marksOf) {
          const marks = marksOf(bt, sel, m);
          for (let t = 0; t < m; t++) counts[gid[t]!] += marks[t]!;
        } else for (let t = 0; t < m; t++) counts[gid[t]!]++;
      },
      result: (g) => n.get()[g] ?? 0,
      ...ensureOf(n),
    };
  }
  if (num && (base === "sum" || base === "avg")) {
    const sums = growable(0);
    const ns = growable(0);
    return {
      add(bt, sel, m, gid) {
        const v = num(bt);
        const s = sums.get();
        const n = ns.get();
        const marks = marksOf?.(bt, sel, m);
        for (let t = 0; t < m; t++) {
          const x = v[sel[t]!]!;
          if (x !== x || (marks && marks[t] === 0)) continue;
          const g = gid[t]!;
          s[g] += x;
          n[g]++;
        }
      },
      result: (g) => (base === "sum" ? (sums.get()[g] ?? 0) : ns.get()[g] ? sums.get()[g]! / ns.get()[g]! : null),
      ...ensureOf(sums, ns),
    };
  }
  if (num && (base === "min" || base === "max")) {
    const best = growable(NaN);
    const max = base === "max";
    return {
      add(bt, sel, m, gid) {
        const v = num(bt);
        const b = best.get();
        const marks = marksOf?.(bt, sel, m);
        for (let t = 0; t < m; t++) {
          const x = v[sel[t]!]!;
          if (x !== x || (marks && marks[t] === 0)) continue;
          const g = gid[t]!;
          const cur = b[g]!;
          if (cur !== cur || (max ? x > cur : x < cur)) b[g] = x;
        }
      },
      result: (g) => {
        const x = best.get()[g];
        return x === undefined || x !== x ? null : x;
      },
      ...ensureOf(best),
    };
  }
  if (num && base === "percentile" && !conditional && typeof consts[0] === "number") {
    // Nearest rank over the group's values sorted as a typed array (aggregations.ts's rule).
    const p = Math.min(100, Math.max(0, consts[0]));
    const collected: number[][] = [];
    return {
      add(bt, sel, m, gid) {
        const v = num(bt);
        for (let t = 0; t < m; t++) {
          const x = v[sel[t]!]!;
          if (x === x) (collected[gid[t]!] ??= []).push(x);
        }
      },
      result(g) {
        const xs = collected[g];
        if (!xs || xs.length === 0) return null;
        const sorted = Float64Array.from(xs).sort();
        return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
      },
    };
  }
  // Any other aggregation: its own aggregator per group, fed the columns' values row by row.
  const readers: (ValueAt | undefined)[] = args.map((a, j) => (conditional && j === args.length - 1 ? undefined : valueAt(a, c)));
  const make = (): ReturnType<typeof createAggregator> => createAggregator(fn as Parameters<typeof createAggregator>[0], consts);
  const groups: ReturnType<typeof createAggregator>[] = [];
  const buf: Value[] = readers.map(() => null);
  return {
    add(bt, sel, m, gid) {
      const at = readers.map((r) => r?.(bt));
      const marks = marksOf?.(bt, sel, m);
      for (let t = 0; t < m; t++) {
        const j = sel[t]!;
        for (let a = 0; a < at.length; a++) buf[a] = at[a] ? at[a]!(j) : marks![t] === 1;
        (groups[gid[t]!] ??= make()).add(buf);
      }
    },
    result: (g) => (groups[g] ?? make()).result(),
  };
}

/** Accumulators backed by growable arrays make room for new groups before a batch is added. */
function ensureOf(...arrays: ReturnType<typeof growable>[]): { ensure(n: number): void } {
  return { ensure: (n) => arrays.forEach((a) => a.ensure(n)) };
}

const ensureGroups = (accs: Accumulator[], n: number): void => {
  for (const a of accs) (a as Accumulator & { ensure?(n: number): void }).ensure?.(n);
};

/** The plan's leading wheres and its summarize, when they have columnar forms. */
type Terminal = Extract<StageVector, { kind: "summarize" | "make-series" | "count" }>;

function vectorShape(plan: Plan): { wheres: CompiledExpr[]; terminal: Terminal; index: number } | undefined {
  const wheres: CompiledExpr[] = [];
  for (let s = 0; s < plan.stages.length; s++) {
    const v = plan.stages[s]!.vector;
    if (v?.kind === "where") wheres.push(v.predicate);
    else if (v?.kind === "summarize" || v?.kind === "make-series" || v?.kind === "count") return { wheres, terminal: v, index: s };
    else return undefined;
  }
  return undefined;
}

/** The ranks [lo, hi) of the time order a scan reads. */
interface Range {
  lo: number;
  hi: number;
}

/** What a scan hands each batch: its selected rows (read only). */
type Visit = (bt: Batch, sel: Int32Array, m: number) => void;

const descendingCache = new Map<number, Int32Array>();

/** capacity - 1 down to 0. */
function descending(capacity: number): Int32Array {
  let got = descendingCache.get(capacity);
  if (!got) {
    got = new Int32Array(capacity);
    for (let t = 0; t < capacity; t++) got[t] = capacity - 1 - t;
    descendingCache.set(capacity, got);
  }
  return got;
}

/** Visits, newest first, the batches of the range and in each the rows `filter` keeps; blocks it rules out are skipped. */
function scan(c: Compiler, range: Range, filter: Filter | undefined, env: RunEnv, sel: Int32Array, visit: Visit): void {
  const cols = c.columns;
  const { lo, hi } = range;
  if (hi <= lo) return;
  const bt: Batch = { serial: 0, n: 0, ms: new Float64Array(0), block: -1, from: 0, positions: undefined };
  // Every row of a batch of n, newest first (n - 1 down to 0): the last n entries of this.
  const every = descending(sel.length);
  const all = (n: number): Int32Array => every.subarray(every.length - n);
  if (cols.ordered) {
    const rows = cols.blockRows;
    for (let b = Math.floor((hi - 1) / rows); b >= Math.floor(lo / rows); b--) {
      if (!env.inTime()) break;
      if (filter && !filter.may(b)) {
        vectorStats.blocksSkipped++;
        continue;
      }
      const base = b * rows;
      const from = Math.max(lo, base) - base;
      const to = Math.min(hi, base + rows) - base;
      bt.serial++;
      bt.block = b;
      bt.from = from;
      bt.n = to - from;
      bt.ms = cols.time[b]!.subarray(from, to);
      const n = bt.n;
      if (!filter) visit(bt, all(n), n);
      else {
        const m = filter.run(bt, all(n), n, sel);
        if (m > 0) visit(bt, sel, m);
      }
    }
    return;
  }
  const order = cols.order!;
  for (let kTo = hi; kTo > lo; ) {
    if (!env.inTime()) break;
    const kFrom = Math.max(lo, kTo - GATHER);
    bt.serial++;
    bt.positions = order.positions.subarray(kFrom, kTo);
    bt.ms = order.ms.subarray(kFrom, kTo);
    const n = (bt.n = kTo - kFrom);
    if (!filter) visit(bt, all(n), n);
    else {
      const m = filter.run(bt, all(n), n, sel);
      if (m > 0) visit(bt, sel, m);
    }
    kTo = kFrom;
  }
}

/** The comparisons an `and` chain is made of (`a and (b and c)`: a, b, c), each compiled alone. */
function conjuncts(e: CompiledExpr, c: Compiler): Filter[] {
  const v = e.vector;
  if (v?.kind === "logical" && v.op === "and") return [...conjuncts(v.left, c), ...conjuncts(v.right, c)];
  return [predicate(e, c)];
}

/** A batch of fewer rows tells little about how many rows a filter keeps. */
const SAMPLE_ROWS = 1024;

/**
 * Rows every filter keeps. Each reads only what the ones before it kept, so the one that
 * keeps fewest goes first: measured once, each alone on the scan's first batch of
 * SAMPLE_ROWS rows or more (`where duration_ms > 500 and path == '/pay'` reads the path
 * of every row and the duration of a sixth). The rows kept are the same in any order.
 */
function allOf(filters: Filter[], capacity: number): Filter | undefined {
  if (filters.length <= 1) return filters[0];
  let order = filters;
  let measured = false;
  const kept = new Int32Array(capacity);
  return {
    run(bt, src, m, dst) {
      if (!measured && m >= SAMPLE_ROWS) {
        measured = true;
        const passed = filters.map((f) => f.run(bt, src, m, kept));
        order = filters.map((_, i) => i).sort((a, b) => passed[a]! - passed[b]! || a - b).map((i) => filters[i]!);
      }
      let n = order[0]!.run(bt, src, m, dst);
      for (let i = 1; i < order.length && n > 0; i++) n = order[i]!.run(bt, dst, n, dst);
      return n;
    },
    may: (b) => filters.every((f) => f.may(b)),
  };
}

/**
 * Runs the plan's scan and summarize over columns; answers the summarize's table and the
 * index of the stage after it, or undefined (nothing run) when the plan needs the row path.
 */
export function runVectorized(plan: Plan, env: RunEnv): { data: TableData; next: number } | undefined {
  if (plan.source.kind !== "dataset") return undefined;
  const dataset: QueryDataset = plan.source.dataset;
  const columns = dataset.columns;
  if (!columns) return undefined;
  const shape = vectorShape(plan);
  // Only a plan that aggregates counts as a fallback: a row listing belongs on the row path.
  if (!shape) return plan.stages.some((s) => s.vector !== undefined && s.vector.kind !== "where") ? fellBack(env) : undefined;
  const { opts } = env;
  if (opts.cursor) return fellBack(env);
  const range = columns.ranks(opts.startMs, opts.endMs);
  const { lo, hi } = range;
  if (env.examined + (hi - lo) > env.limits.maxRowsExamined) return fellBack(env);
  const virtual = new Set(dataset.virtualFields.map((f) => f.name));
  const plain = new Set(plan.baseColumns.filter((c) => c.metaType !== "datetime" && c.type !== "datetime" && !virtual.has(c.name)).map((c) => c.name));
  const compiler: Compiler = { columns, plain, capacity: Math.max(columns.blockRows, GATHER) };
  // The range's start and bin_auto's width are known before the keys are compiled.
  const rangeStart = opts.startMs ?? (hi > lo ? columns.timeOfRank(lo) : opts.endMs);
  const firstScan = env.rangeStartMs === undefined;
  const savedAutoBin = opts.ctx.autoBinMs;
  if (firstScan) opts.ctx.autoBinMs = autoBinMs(Math.max(0, opts.endMs - rangeStart));
  let run: { data: TableData; matched: number };
  try {
    const filter = allOf(shape.wheres.flatMap((w) => conjuncts(w, compiler)), compiler.capacity);
    const terminal = shape.terminal;
    run =
      terminal.kind === "make-series"
        ? makeSeries(terminal, range, filter, compiler, env)
        : terminal.kind === "count"
          ? countRows(terminal, range, filter, compiler, env)
          : summarize(terminal, range, rangeStart, filter, compiler, env);
  } catch (err) {
    if (!(err instanceof NotVectorizable)) throw err;
    if (firstScan) opts.ctx.autoBinMs = savedAutoBin;
    return fellBack(env);
  }
  return finishScan(columns, range, rangeStart, firstScan, run.matched, env, run.data, shape.index + 1);
}

/** Codes each key for a batch's selected rows, then the groups of `groups` over the keys it names. */
function coded(keys: KeyKernel[], capacity: number): { codes: Int32Array[]; code(bt: Batch, sel: Int32Array, m: number): void } {
  const codes = keys.map(() => new Int32Array(capacity));
  return {
    codes,
    code(bt, sel, m) {
      for (let k = 0; k < keys.length; k++) keys[k]!.codes(bt, sel, m, codes[k]!);
    },
  };
}

function summarize(terminal: Extract<StageVector, { kind: "summarize" }>, range: Range, rangeStart: number, filter: Filter | undefined, c: Compiler, env: RunEnv): { data: TableData; matched: number } {
  const { lo, hi } = range;
  const { keys, aggs } = terminal;
  const kernels = keys.map((k) => keyKernel(k.expr, c, env, { startMs: hi > lo ? c.columns.timeOfRank(lo) : rangeStart, endMs: env.opts.endMs }));
  const timeAt = keys.findIndex((k) => k.expr.bucket !== undefined);
  const keyCodes = coded(kernels, c.capacity);
  const main = new Groups(kernels);
  const totals = timeAt >= 0 ? new Groups(kernels.filter((_, k) => k !== timeAt)) : undefined;
  const totalCodes = keyCodes.codes.filter((_, k) => k !== timeAt);
  const mainAccs = aggs.map((a) => accumulator(a.fn, a.args, a.consts ?? [], c));
  const totalAccs = totals ? aggs.map((a) => accumulator(a.fn, a.args, a.consts ?? [], c)) : [];
  const gid = new Int32Array(c.capacity);
  const tgid = new Int32Array(c.capacity);
  const sel = new Int32Array(c.capacity);
  let matched = 0;
  scan(c, range, filter, env, sel, (bt, s, m) => {
    matched += m;
    keyCodes.code(bt, s, m);
    main.assign(keyCodes.codes, m, gid);
    ensureGroups(mainAccs, main.count);
    for (const acc of mainAccs) acc.add(bt, s, m, gid);
    if (totals) {
      totals.assign(totalCodes, m, tgid);
      ensureGroups(totalAccs, totals.count);
      for (const acc of totalAccs) acc.add(bt, s, m, tgid);
    }
  });
  const out = terminal.make();
  putGroups(out, "main", main, mainAccs);
  if (totals) putGroups(out, "totals", totals, totalAccs);
  return { data: terminal.finish(out), matched };
}

/** `| count`: the rows of the range the filter keeps (without a filter, the range's size: nothing to read). */
function countRows(terminal: Extract<StageVector, { kind: "count" }>, range: Range, filter: Filter | undefined, c: Compiler, env: RunEnv): { data: TableData; matched: number } {
  let matched = 0;
  if (!filter) matched = Math.max(0, range.hi - range.lo);
  else scan(c, range, filter, env, new Int32Array(c.capacity), (_bt, _sel, m) => void (matched += m));
  return { data: terminal.result(matched), matched };
}

/**
 * Hands each group and its aggregations' results to the Summarizer. A function of its own:
 * the accumulators are new closures per query, and a call to one that optimized code had
 * inlined deoptimizes its caller (measured: the whole summarize, at every query).
 */
function putGroups(out: Summarizer, table: "main" | "totals", groups: Groups, accs: Accumulator[]): void {
  for (let g = 0; g < groups.count; g++) {
    const results: Value[] = new Array(accs.length);
    for (let a = 0; a < accs.length; a++) results[a] = accs[a]!.result(g);
    out.putGroup(table, groups.keyValues(g), results);
  }
}

/** make-series over `_time`: one scan for the matching rows' time span (it sets the steps when from/to are not given), one for the steps per group. */
function makeSeries(terminal: Extract<StageVector, { kind: "make-series" }>, range: Range, filter: Filter | undefined, c: Compiler, env: RunEnv): { data: TableData; matched: number } {
  if (columnRef(terminal.axis, c).kind !== "time") refuse("make-series on an axis other than _time");
  const sel = new Int32Array(c.capacity);
  let matched = 0;
  let newest = NaN;
  let oldest = NaN;
  scan(c, range, filter, env, sel, (bt, s, m) => {
    if (matched === 0) newest = bt.ms[s[0]!]!;
    oldest = bt.ms[s[m - 1]!]!;
    matched += m;
  });
  const { step, keys, aggs } = terminal;
  const from = terminal.fromMs ?? (matched > 0 ? oldest : null);
  const to = terminal.toMs ?? (matched > 0 ? newest + step : null);
  if (from === null || to === null) return { data: terminal.empty, matched };
  const data = terminal.seriesOf(from, to, env, (summarizer, start, bins) => {
    const end = start + bins * step;
    // Rows are cut to [start, end): a bin key's codes stay within what it was sized for.
    const kernels = keys.map((k) => keyKernel(k.expr, c, env, { startMs: Math.min(from, start), endMs: Math.max(to, end) }));
    const stepKernel: KeyKernel = {
      bound: bins + 1,
      codes(bt, s, m, out) {
        for (let t = 0; t < m; t++) out[t] = 1 + Math.floor((bt.ms[s[t]!]! - start) / step);
      },
      value: (code) => code - 1,
    };
    const all = [...kernels, stepKernel];
    const keyCodes = coded(all, c.capacity);
    const groups = new Groups(all);
    const accs = aggs.map((a) => accumulator(a.fn, a.args, a.consts ?? [], c));
    const gid = new Int32Array(c.capacity);
    const time = c.columns.time;
    const rows = c.columns.blockRows;
    const inSteps: Filter = {
      run: (bt, src, m, dst) => {
        const ms = bt.ms;
        let o = 0;
        for (let t = 0; t < m; t++) {
          const j = src[t]!;
          if (ms[j]! >= start && ms[j]! < end) dst[o++] = j;
        }
        return o;
      },
      may: (b) => time[b]![rows + 1]! >= start && time[b]![rows]! < end,
    };
    scan(c, range, allOf(filter ? [filter, inSteps] : [inSteps], c.capacity), env, sel, (bt, s, m) => {
      keyCodes.code(bt, s, m);
      groups.assign(keyCodes.codes, m, gid);
      ensureGroups(accs, groups.count);
      for (const acc of accs) acc.add(bt, s, m, gid);
    });
    putGroups(summarizer, "main", groups, accs);
  });
  return { data, matched };
}

/** The run's counters, as the row path's scan keeps them. */
function finishScan(columns: Columns, range: Range, rangeStart: number, firstScan: boolean, matched: number, env: RunEnv, data: TableData, next: number): { data: TableData; next: number } {
  const { lo, hi } = range;
  vectorStats.vectorized++;
  env.vectorizedScans++;
  if (firstScan) env.rangeStartMs = rangeStart;
  const examined = hi - lo;
  if (examined > 0) {
    const first = env.examined === 0 && env.maxCursor === "";
    const oldest = columns.timeOfRank(lo);
    const newest = columns.timeOfRank(hi - 1);
    env.minTimeMs = env.minTimeMs === undefined ? oldest : Math.min(env.minTimeMs, oldest);
    env.maxTimeMs = env.maxTimeMs === undefined ? newest : Math.max(env.maxTimeMs, newest);
    if (first) {
      env.maxCursor = columns.rowIdAt(columns.positionAt(hi - 1));
      env.minCursor = columns.rowIdAt(columns.positionAt(lo));
    }
  }
  env.examined += examined;
  env.matched += matched;
  return { data, next };
}
