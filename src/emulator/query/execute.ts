// Runs a plan over a dataset's events within the query's bounds.
//
// Scan order is the service's default: newest `_time` first (ties by row id, newest
// first). The time range is [start, end). The scan stops early, and marks the result
// partial, when it has examined `maxRowsExamined` rows (events read and rows the query
// made, together) or run for `maxMillis`; the result is also partial when it had more
// than `maxRowsReturned` rows and was cut. What the run keeps is charged to its memory
// budget (budget.ts), which answers 400 past `maxMemoryBytes`.

import { performance } from "node:perf_hooks";
import { chargeRow, MemoryBudget, withBudget } from "./budget";
import { badRequest } from "./errors";
import { TIME_FIELD, SYS_TIME_FIELD, type Plan, type Stage, type TableData } from "./plan";
import type { QueryContext, Row } from "./table";
import { autoBinMs, parseIsoTime } from "./time";
import type { IndexedEvent, QueryDataset, QueryLimits, StoredEvent } from "./types";
import { DateTimeValue, fromStored, type Value, type ValueType } from "./values";
import { runVectorized } from "./vectorized";

export interface QueryMessage {
  priority: string;
  code: string;
  count: number;
  msg: string;
}

export interface ExecOptions {
  /** Inclusive lower bound on `_time`; unset means "from the oldest event". */
  startMs?: number;
  /** Exclusive upper bound on `_time`. */
  endMs: number;
  limits: QueryLimits;
  ctx: QueryContext;
  /** Resume the scan after this row (or at it, with `include`). */
  cursor?: { rowId: string; include: boolean };
  /** performance.now() when the request started; elapsedTime and maxMillis count from it. */
  startedAt: number;
}

export interface Outcome extends TableData {
  range: { startMs: number; endMs: number };
  rowsExamined: number;
  rowsMatched: number;
  /** `_time` of the oldest and newest examined event. */
  minTimeMs?: number;
  maxTimeMs?: number;
  minCursor: string;
  maxCursor: string;
  isPartial: boolean;
  /** The bucket width bin_auto used for this range. */
  autoBinMs: number;
  /** Rows the result had before `maxRowsReturned` cut it. */
  rowsBeforeCut: number;
  messages: QueryMessage[];
  elapsedMicros: number;
  /** How the run's dataset scans ran (vectorized.ts). */
  execution: { vectorized: number; rowFallbacks: number };
}

type TimedEvent = IndexedEvent;

/** How often (in rows) a loop looks at the clock. */
const CLOCK_EVERY = 256;

/**
 * `_time` and `_sysTime` of a dataset's events, parsed once per event: stored events do
 * not change, and parsing their times was most of the cost of a scan. Kept per events
 * array and checked by identity per index, so an event that was added, replaced or
 * moved is parsed again (NaN: not a time).
 */
interface TimeCache {
  refs: (StoredEvent | undefined)[];
  ms: Float64Array;
  sys: Float64Array;
}

const timeCaches = new WeakMap<readonly StoredEvent[], TimeCache>();

function timesOf(events: readonly StoredEvent[]): TimeCache {
  let c = timeCaches.get(events);
  if (!c || c.ms.length < events.length) {
    const grown: TimeCache = { refs: c ? c.refs.slice() : [], ms: new Float64Array(events.length), sys: new Float64Array(events.length) };
    if (c) {
      grown.ms.set(c.ms);
      grown.sys.set(c.sys);
    }
    c = grown;
    timeCaches.set(events, c);
  }
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    if (c.refs[i] === e) continue;
    c.refs[i] = e;
    c.ms[i] = parseIsoTime(e._time) ?? NaN;
    c.sys[i] = parseIsoTime(e._sysTime) ?? NaN;
  }
  return c;
}

/** The dataset's events in [startMs, endMs), newest first: from its time index when it has one. */
function scanOrder(dataset: QueryDataset, startMs: number | undefined, endMs: number): TimedEvent[] {
  if (dataset.timeIndex) return dataset.timeIndex.range(startMs, endMs);
  const events = dataset.events;
  const times = timesOf(events);
  const timed: TimedEvent[] = [];
  for (let i = 0; i < events.length; i++) {
    const ms = times.ms[i];
    if (Number.isNaN(ms) || ms >= endMs || (startMs !== undefined && ms < startMs)) continue;
    timed.push({ event: events[i], ms, sys: times.sys[i] });
  }
  timed.sort((a, b) => b.ms - a.ms || (a.event._rowId < b.event._rowId ? 1 : a.event._rowId > b.event._rowId ? -1 : 0));
  return timed;
}

function cursorStart(timed: TimedEvent[], cursor: ExecOptions["cursor"]): number {
  if (!cursor) return 0;
  const at = timed.findIndex((t) => t.event._rowId === cursor.rowId);
  if (at < 0) throw badRequest(`cursor "${cursor.rowId}" does not name a row of this query's range`);
  return cursor.include ? at : at + 1;
}

/** A row as storage holds it: `_time`, `_sysTime` and the fields that metadata knows. */
function rowOf({ event, ms, sys }: TimedEvent, types: ReadonlyMap<string, ValueType>): Row {
  const values = new Map<string, Value>();
  values.set(TIME_FIELD, new DateTimeValue(ms, event._time));
  values.set(SYS_TIME_FIELD, Number.isNaN(sys) ? null : new DateTimeValue(sys, event._sysTime));
  const data = event.data;
  for (const name in data) {
    const type = types.get(name);
    if (type !== undefined && name !== TIME_FIELD && name !== SYS_TIME_FIELD) values.set(name, fromStored(data[name], type));
  }
  return { values, origin: event };
}

function runRowWise(row: Row, stages: readonly Stage[]): Row | null {
  let current: Row | null = row;
  for (const s of stages) {
    if (!current) return null;
    current = s.rowWise ? s.rowWise(current) : current;
  }
  return current;
}

/**
 * What one query run shares between its parts (the main pipeline, the right side of a
 * join, the tables of a union): the request's range, one budget of rows and time, and
 * the counters the result's status reports.
 */
export class RunEnv {
  examined = 0;
  /**
   * Rows made by the query itself (union, join, mv-expand, make-series): they share the
   * row budget with `examined`. A `print` or `datatable` makes only the rows its text
   * spells, which the bound on a query's expansion (compile-query.ts) keeps small.
   */
  made = 0;
  matched = 0;
  minTimeMs?: number;
  maxTimeMs?: number;
  minCursor = "";
  maxCursor = "";
  /** Start of the range the result reports: the request's, or the oldest event scanned. */
  rangeStartMs?: number;
  isPartial = false;
  /** Dataset scans this run: summarized over columns, and those with columns that fell back to rows. */
  vectorizedScans = 0;
  rowFallbacks = 0;
  readonly messages: QueryMessage[] = [];
  private ticks = 0;
  private readonly deadline: number;

  constructor(readonly opts: ExecOptions) {
    this.deadline = opts.startedAt + opts.limits.maxMillis;
  }

  get limits(): QueryLimits {
    return this.opts.limits;
  }

  /** Marks the result partial (once per reason). */
  stop(msg: string): void {
    this.isPartial = true;
    if (!this.messages.some((m) => m.msg === msg)) this.messages.push({ priority: "warn", code: "license_limit_for_query_warning", count: 1, msg });
  }

  /** False once the time is up; loops call it per row and stop on false. */
  inTime(): boolean {
    if (++this.ticks % CLOCK_EVERY !== 0) return !this.timedOut;
    if (performance.now() > this.deadline) {
      this.timedOut = true;
      this.stop(`query stopped after ${this.limits.maxMillis} ms`);
    }
    return !this.timedOut;
  }

  /**
   * False when the query may make no more rows: rows made and rows read share one
   * budget (`maxRowsExamined`), so a query that makes its own rows (`print` doubled by
   * `union`, a join, mv-expand) is bounded as one that reads them.
   */
  mayProduce(): boolean {
    if (this.examined + this.made >= this.limits.maxRowsExamined) {
      this.stop(`query stopped after reading and making ${this.examined + this.made} rows (the limit of rows a query may read and make)`);
      return false;
    }
    return this.inTime();
  }

  /** Counts one row a stage makes; false (nothing counted) past the budget. */
  countMade(): boolean {
    if (!this.mayProduce()) return false;
    this.made++;
    return true;
  }

  /** Counts one new row a stage makes and keeps, and charges what it holds to the run's memory. */
  produce(row: Row): boolean {
    if (!this.countMade()) return false;
    chargeRow(row);
    return true;
  }

  private timedOut = false;
}

function scanDataset(dataset: QueryDataset, types: ReadonlyMap<string, ValueType>, env: RunEnv, accept: (row: Row) => void): void {
  const { opts } = env;
  const timed = scanOrder(dataset, opts.startMs, opts.endMs);
  const from = cursorStart(timed, opts.cursor);
  // Without a startTime the range starts at the oldest event in it: the whole dataset.
  const startMs = opts.startMs ?? (timed.length > 0 ? timed[timed.length - 1].ms : opts.endMs);
  if (env.rangeStartMs === undefined) {
    env.rangeStartMs = startMs;
    opts.ctx.autoBinMs = autoBinMs(Math.max(0, opts.endMs - startMs));
  }
  const first = env.examined === 0 && env.maxCursor === "";
  let examinedHere = 0;
  for (let i = from; i < timed.length; i++) {
    if (env.examined + env.made >= env.limits.maxRowsExamined) {
      env.stop(`query stopped after examining ${env.examined} rows`);
      break;
    }
    if (env.examined > 0 && !env.inTime()) break;
    const t = timed[i];
    const ms = t.ms;
    env.examined++;
    examinedHere++;
    env.minTimeMs = env.minTimeMs === undefined ? ms : Math.min(env.minTimeMs, ms);
    env.maxTimeMs = env.maxTimeMs === undefined ? ms : Math.max(env.maxTimeMs, ms);
    accept(rowOf(t, types));
  }
  if (first && examinedHere > 0) {
    env.maxCursor = timed[from].event._rowId;
    env.minCursor = timed[from + examinedHere - 1].event._rowId;
  }
}

/** Runs one plan (source and stages) within the run's bounds; the caller cuts the result. */
export function runPlan(plan: Plan, env: RunEnv): TableData {
  const stages = plan.stages;
  const vectorized = runVectorized(plan, env);
  if (vectorized) return runTableStages(vectorized.data, stages.slice(vectorized.next), env);
  let firstTable = 0;
  while (firstTable < stages.length && stages[firstTable].rowWise) firstTable++;
  const leading = stages.slice(0, firstTable);
  // A stage that can consume rows one by one (summarize, count) does so during the scan,
  // so that a million events never sit in memory at once.
  const sink = stages[firstTable]?.sink?.(env);
  const collected: Row[] = [];
  const fromDataset = plan.source.kind === "dataset";
  const accept = (row: Row): void => {
    const out = runRowWise(row, leading);
    if (!out) return;
    if (fromDataset) env.matched++;
    if (sink) sink.push(out);
    else {
      chargeRow(out);
      collected.push(out);
    }
  };
  if (plan.source.kind === "dataset") {
    scanDataset(plan.source.dataset, new Map(plan.baseColumns.map((c) => [c.name, c.type])), env, accept);
  } else {
    for (const row of plan.source.produce(env)) {
      if (!env.inTime()) break;
      accept(row);
    }
  }
  const data: TableData = sink ? sink.finish() : { rows: collected, totals: null, numGroups: 0 };
  return runTableStages(data, stages.slice(sink ? firstTable + 1 : firstTable), env);
}

/** The stages after the scan (and its sink), over the whole table. */
function runTableStages(data: TableData, stages: readonly Stage[], env: RunEnv): TableData {
  for (const s of stages) {
    if (s.table) data = s.table(data, env);
    else if (s.rowWise) {
      const mapped: Row[] = [];
      for (const r of data.rows) {
        const out = s.rowWise(r);
        if (out) {
          chargeRow(out);
          mapped.push(out);
        }
      }
      data = { ...data, rows: mapped };
    }
  }
  return data;
}

export function execute(plan: Plan, opts: ExecOptions): Outcome {
  const env = new RunEnv(opts);
  const data = withBudget(new MemoryBudget(opts.limits.maxMemoryBytes), () => runPlan(plan, env));
  if (env.rangeStartMs === undefined) env.rangeStartMs = opts.startMs ?? opts.endMs;
  let rows = data.rows;
  const rowsBeforeCut = rows.length;
  let isPartial = env.isPartial;
  const messages = env.messages;
  if (rows.length > opts.limits.maxRowsReturned) {
    rows = rows.slice(0, opts.limits.maxRowsReturned);
    isPartial = true;
    messages.push({ priority: "warn", code: "default_limit_warning", count: 1, msg: `result cut to ${opts.limits.maxRowsReturned} rows` });
  }
  return {
    rows,
    totals: data.totals,
    numGroups: data.numGroups,
    range: { startMs: env.rangeStartMs, endMs: opts.endMs },
    rowsExamined: env.examined,
    rowsMatched: env.matched,
    minTimeMs: env.minTimeMs,
    maxTimeMs: env.maxTimeMs,
    minCursor: env.minCursor,
    maxCursor: env.maxCursor,
    isPartial,
    autoBinMs: opts.ctx.autoBinMs,
    rowsBeforeCut,
    messages,
    elapsedMicros: Math.max(0, Math.round((performance.now() - opts.startedAt) * 1000)),
    execution: { vectorized: env.vectorizedScans, rowFallbacks: env.rowFallbacks },
  };
}
