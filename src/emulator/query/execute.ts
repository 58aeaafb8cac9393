// Runs a plan over a dataset's events within the query's bounds.
//
// Scan order is the service's default: newest `_time` first (ties by row id, newest
// first). The time range is [start, end). The scan stops early, and marks the result
// partial, when it has examined `maxRowsExamined` events or run for `maxMillis`; the
// result is also partial when it had more than `maxRowsReturned` rows and was cut.

import { performance } from "node:perf_hooks";
import { badRequest } from "./errors";
import { TIME_FIELD, SYS_TIME_FIELD, type Plan, type Stage, type TableData } from "./plan";
import type { QueryContext, Row } from "./table";
import { autoBinMs, parseIsoTime } from "./time";
import type { QueryLimits, StoredEvent } from "./types";
import { DateTimeValue, fromStored, type Value, type ValueType } from "./values";

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
}

interface TimedEvent {
  event: StoredEvent;
  ms: number;
}

/** How often (in rows) the scan looks at the clock. */
const CLOCK_EVERY = 256;

function scanOrder(events: readonly StoredEvent[], startMs: number | undefined, endMs: number): TimedEvent[] {
  const timed: TimedEvent[] = [];
  for (const event of events) {
    const ms = parseIsoTime(event._time);
    if (ms === undefined || ms >= endMs || (startMs !== undefined && ms < startMs)) continue;
    timed.push({ event, ms });
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
function rowOf(event: StoredEvent, ms: number, types: ReadonlyMap<string, ValueType>): Row {
  const values = new Map<string, Value>();
  values.set(TIME_FIELD, new DateTimeValue(ms, event._time));
  const sys = parseIsoTime(event._sysTime);
  values.set(SYS_TIME_FIELD, sys === undefined ? null : new DateTimeValue(sys, event._sysTime));
  for (const [name, raw] of Object.entries(event.data)) {
    const type = types.get(name);
    if (type !== undefined && name !== TIME_FIELD && name !== SYS_TIME_FIELD) values.set(name, fromStored(raw, type));
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

export function execute(plan: Plan, opts: ExecOptions): Outcome {
  const { limits } = opts;
  const deadline = opts.startedAt + limits.maxMillis;
  const firstTableStage = plan.stages.findIndex((s) => !s.rowWise);
  const leading = firstTableStage < 0 ? plan.stages : plan.stages.slice(0, firstTableStage);
  const rest = firstTableStage < 0 ? [] : plan.stages.slice(firstTableStage);
  const types = new Map(plan.baseColumns.map((c) => [c.name, c.type]));
  const messages: QueryMessage[] = [];

  const timed = scanOrder(plan.dataset.events, opts.startMs, opts.endMs);
  const from = cursorStart(timed, opts.cursor);
  let rows: Row[] = [];
  let examined = 0;
  let isPartial = false;
  let minTimeMs: number | undefined;
  let maxTimeMs: number | undefined;
  for (let i = from; i < timed.length; i++) {
    if (examined >= limits.maxRowsExamined) {
      isPartial = true;
      messages.push({ priority: "warn", code: "license_limit_for_query_warning", count: 1, msg: `query stopped after examining ${examined} rows` });
      break;
    }
    if (examined % CLOCK_EVERY === 0 && examined > 0 && performance.now() > deadline) {
      isPartial = true;
      messages.push({ priority: "warn", code: "license_limit_for_query_warning", count: 1, msg: `query stopped after ${limits.maxMillis} ms` });
      break;
    }
    const { event, ms } = timed[i];
    examined++;
    minTimeMs = minTimeMs === undefined ? ms : Math.min(minTimeMs, ms);
    maxTimeMs = maxTimeMs === undefined ? ms : Math.max(maxTimeMs, ms);
    const out = runRowWise(rowOf(event, ms, types), leading);
    if (out) rows.push(out);
  }
  const rowsMatched = rows.length;
  const newest = timed[from];
  const oldest = timed[from + examined - 1];

  // Without a startTime the range starts at the oldest event in it: the whole dataset.
  const startMs = opts.startMs ?? (timed.length > 0 ? timed[timed.length - 1].ms : opts.endMs);
  opts.ctx.autoBinMs = autoBinMs(Math.max(0, opts.endMs - startMs));

  let data: TableData = { rows, totals: null, numGroups: 0 };
  for (const s of rest) {
    if (s.table) data = s.table(data);
    else if (s.rowWise) {
      const mapped: Row[] = [];
      for (const r of data.rows) {
        const out = s.rowWise(r);
        if (out) mapped.push(out);
      }
      data = { ...data, rows: mapped };
    }
  }
  rows = data.rows;
  const rowsBeforeCut = rows.length;
  if (rows.length > limits.maxRowsReturned) {
    rows = rows.slice(0, limits.maxRowsReturned);
    isPartial = true;
    messages.push({ priority: "warn", code: "default_limit_warning", count: 1, msg: `result cut to ${limits.maxRowsReturned} rows` });
  }
  return {
    rows,
    totals: data.totals,
    numGroups: data.numGroups,
    range: { startMs, endMs: opts.endMs },
    rowsExamined: examined,
    rowsMatched,
    minTimeMs,
    maxTimeMs,
    minCursor: oldest ? oldest.event._rowId : "",
    maxCursor: newest && examined > 0 ? newest.event._rowId : "",
    isPartial,
    autoBinMs: opts.ctx.autoBinMs,
    rowsBeforeCut,
    messages,
    elapsedMicros: Math.max(0, Math.round((performance.now() - opts.startedAt) * 1000)),
  };
}
