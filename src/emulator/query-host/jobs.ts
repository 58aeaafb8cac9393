// What a query worker is asked to do, and what it answers: plain data both ways (it
// crosses a thread boundary by structured clone). Everything that reads events runs
// here, in the worker: HTTP queries (both endpoints), monitor runs, the MatchEvent
// create check, and the permission check of a query a monitor, view or starred query
// stores.

import { datasetGrantRefusal } from "../auth";
import { notFound } from "../errors";
import type { MonitorType } from "../model";
import { extractGroups, matchedEvent, type Extracted } from "../monitors/evaluate";
import { checkMonitorQuery } from "../monitors/query-shape";
import type { NameRef } from "../query/ast";
import { compileQuery } from "../query/compile-query";
import { datasetsReadBy } from "../query/datasets-read";
import { execute } from "../query/execute";
import { runAplQuery, runLegacyQuery } from "../query";
import { parseQuery } from "../query/parser";
import { QueryError, type AplFormat, type AplRequest, type DatasetLookup, type QueryDataset, type QueryFieldMeta, type QueryLimits, type QueryVirtualField } from "../query/types";
import type { EventsView } from "./shared-log";

/** One dataset as a job carries it: its metadata and a view of its events. */
export interface DatasetDescriptor {
  name: string;
  /** Fixed at the dataset's creation: workers keep decoded dictionaries and parsed events under it. */
  storageKey: string;
  events: EventsView;
  fields: QueryFieldMeta[];
  virtualFields: QueryVirtualField[];
}

/**
 * On whose behalf a query reads: the organization (a monitor's scheduled run), or a
 * token, with the datasets its grants let it query ("*": all of them).
 */
export type Reader = { kind: "organization" } | { kind: "token"; tokenId: string; wildcard: boolean; datasets: string[] };

interface JobBase {
  /** The datasets the reader may read (a token's job carries no other). */
  datasets: DatasetDescriptor[];
  reader: Reader;
  limits: QueryLimits;
  nowMs: number;
}

export type QueryJob =
  | (JobBase & { kind: "apl"; request: AplRequest; format: AplFormat })
  | (JobBase & { kind: "legacy"; dataset: string; body: unknown })
  /** A monitor's query over a window: its groups, its matched events, or how many rows it matched. */
  | (JobBase & { kind: "monitor"; apl: string; window: { startMs: number; endMs: number }; want: "groups" | "matches" | "count"; columnName: string })
  /**
   * Only the checks of a query to be stored: that the reader may read every dataset it
   * names, and, for a monitor's, that it parses and has the shape its type needs.
   */
  | (JobBase & { kind: "access"; apl: string; monitorType?: MonitorType });

export type MonitorAnswer =
  | { want: "groups"; extracted: Extracted }
  | { want: "matches"; events: Record<string, unknown>[] }
  | { want: "count"; rowsBeforeCut: number };

/** An error as the emulator answers it (`{code, message, detail}`). */
export interface JobError {
  status: number;
  message: string;
  detail?: unknown;
}

/**
 * A value, or (an HTTP query's answer) the value as JSON text: serialized in the worker,
 * it crosses the thread boundary as one string and the request thread sends it as is.
 */
export type JobAnswer = { ok: true; value: unknown } | { ok: true; json: string } | { ok: false; error: JobError };

/** The datasets a job may read, as the engine sees them. */
export type Materialize = (d: DatasetDescriptor) => QueryDataset;

/** Refuses (403, naming the capability and the dataset) the first name the reader may not query. */
function readCheck(reader: Reader): (refs: readonly NameRef[]) => void {
  return (refs) => {
    if (reader.kind === "organization" || reader.wildcard) return;
    for (const ref of refs) {
      if (!reader.datasets.includes(ref.name)) throw new QueryError(403, datasetGrantRefusal(ref.name, "query", "read"));
    }
  };
}

function lookupOf(job: JobBase, materialize: Materialize): DatasetLookup {
  const byName = new Map(job.datasets.map((d) => [d.name, d]));
  return (name) => {
    const d = byName.get(name);
    return d ? materialize(d) : undefined;
  };
}

function runMonitorJob(job: Extract<QueryJob, { kind: "monitor" }>, lookup: DatasetLookup): MonitorAnswer {
  const startedAt = performance.now();
  const ctx = { nowMs: job.nowMs, autoBinMs: 0 };
  const ast = parseQuery(job.apl);
  readCheck(job.reader)(datasetsReadBy(ast));
  const plan = compileQuery(ast, lookup, ctx);
  const outcome = execute(plan, { startMs: job.window.startMs, endMs: job.window.endMs, limits: job.limits, ctx, startedAt });
  switch (job.want) {
    case "groups":
      return { want: "groups", extracted: extractGroups(plan, outcome, job.columnName) };
    case "matches":
      return { want: "matches", events: outcome.rows.map((row) => matchedEvent(plan, row)) };
    case "count":
      return { want: "count", rowsBeforeCut: outcome.rowsBeforeCut };
  }
}

function runAccessJob(job: Extract<QueryJob, { kind: "access" }>): null {
  let refs: NameRef[];
  if (job.monitorType !== undefined) refs = datasetsReadBy(checkMonitorQuery(job.apl, job.monitorType));
  else {
    try {
      refs = datasetsReadBy(parseQuery(job.apl));
    } catch (err) {
      // A view's or starred query's text that does not parse reads nothing; storing it is the caller's business.
      if (err instanceof QueryError) return null;
      throw err;
    }
  }
  readCheck(job.reader)(refs);
  return null;
}

function errorOf(err: unknown): JobError | undefined {
  if (err instanceof QueryError) return { status: err.status, message: err.message, ...(err.detail !== undefined ? { detail: err.detail } : {}) };
  // The engine's HttpError (a bad time, body or field) has the same shape.
  if (err instanceof Error && typeof (err as { status?: unknown }).status === "number") {
    const e = err as Error & { status: number; detail?: unknown };
    return { status: e.status, message: e.message, ...(e.detail !== undefined ? { detail: e.detail } : {}) };
  }
  // The parser and compiler recurse per level of nesting: a query nested past the stack
  // is a query the emulator will not run, not an internal error.
  if (err instanceof RangeError && /call stack/i.test(err.message)) return { status: 400, message: "the query nests too deeply to run (a chain of thousands of operators, say)" };
  // A string or list past what V8 can hold: a value the query made, too large to exist.
  if (err instanceof RangeError && /invalid (string|array) length/i.test(err.message)) return { status: 400, message: "query stopped: it made a string or list larger than a query may build; narrow it" };
  return undefined;
}

const MIB = 1024 * 1024;

/** The answer as JSON text, refused (400, naming the limit) past `maxAnswerBytes`. */
function answerText(value: unknown, limits: QueryLimits): JobAnswer {
  const tooLarge: JobAnswer = {
    ok: false,
    error: {
      status: 400,
      message: `query refused: its answer is larger than the ${Math.round((limits.maxAnswerBytes / MIB) * 10) / 10} MiB an answer may be (the emulator's --query-max-answer-mb); project fewer columns, take fewer rows, or cap make_list/make_set`,
    },
  };
  let json: string;
  try {
    json = JSON.stringify(value);
  } catch (err) {
    if (err instanceof RangeError) return tooLarge;
    throw err;
  }
  // UTF-16 units: the bytes sent are at least as many.
  return json.length > limits.maxAnswerBytes ? tooLarge : { ok: true, json };
}

/** Runs one job; answers the error a route would answer, and throws only for an internal error. */
export function runJob(job: QueryJob, materialize: Materialize): JobAnswer {
  try {
    const lookup = lookupOf(job, materialize);
    switch (job.kind) {
      case "apl":
        return answerText(runAplQuery(job.request, job.format, lookup, job.limits, job.nowMs, readCheck(job.reader)), job.limits);
      case "legacy": {
        const dataset = lookup(job.dataset);
        if (!dataset) throw notFound("dataset", job.dataset);
        return answerText(runLegacyQuery(dataset, job.body, job.limits, job.nowMs), job.limits);
      }
      case "monitor":
        return { ok: true, value: runMonitorJob(job, lookup) };
      case "access":
        return { ok: true, value: runAccessJob(job) };
    }
  } catch (err) {
    const error = errorOf(err);
    if (error) return { ok: false, error };
    throw err;
  }
}
