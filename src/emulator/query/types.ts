// The boundary between the emulator's storage and its query engine. The emulator owns
// storage and HTTP; the engine is a pure function of (request, datasets) so that it can
// be tested without a server.

import type { Columns } from "./columns";

/** One stored event. `data` holds every field but `_time` (flattened, dotted names). */
export interface StoredEvent {
  _rowId: string;
  /** When the emulator received the event (ISO 8601 UTC). */
  _sysTime: string;
  /** The event's own time (ISO 8601 UTC); the ingest time when the event had none. */
  _time: string;
  data: Record<string, unknown>;
}

/** Field metadata as the service shows it (`fieldsMeta`, `fieldsMetaMap`). */
export interface QueryFieldMeta {
  name: string;
  type: string;
  unit: string;
  description: string;
  hidden: boolean;
}

export interface QueryVirtualField {
  name: string;
  expression: string;
  type: string;
  unit: string;
  description: string;
}

/** A stored event with its times parsed (ms since the epoch; `sys` NaN when not a time). */
export interface IndexedEvent {
  event: StoredEvent;
  ms: number;
  sys: number;
}

/**
 * The events of a dataset ordered by `_time`, so that a query reads only its range.
 * `range` answers the events with startMs <= _time < endMs (startMs undefined: from the
 * oldest) in scan order: newest first, ties newest row first.
 */
export interface TimeIndex {
  range(startMs: number | undefined, endMs: number): IndexedEvent[];
}

/** What the engine may read of one dataset. */
export interface QueryDataset {
  name: string;
  events: readonly StoredEvent[];
  /** When set, scans use it instead of reading every event (`events` must be what it indexes). */
  timeIndex?: TimeIndex;
  fields: readonly QueryFieldMeta[];
  virtualFields: readonly QueryVirtualField[];
  /** The same events as columns (columns.ts): when set, summaries may run vectorized. */
  columns?: Columns;
}

/** Finds a dataset by its unique name; undefined when there is none. */
export type DatasetLookup = (name: string) => QueryDataset | undefined;

/** Bounds that keep one query from taking the emulator down; `isPartial` reports a stop. */
export interface QueryLimits {
  /** Rows read from datasets and rows the query makes (print, datatable, union, join, mv-expand, make-series), together. */
  maxRowsExamined: number;
  maxRowsReturned: number;
  maxMillis: number;
  /** What the query may build while it runs (budget.ts); past it, 400. */
  maxMemoryBytes: number;
  /** The answer's JSON text; past it, 400. */
  maxAnswerBytes: number;
}

/** The body of POST /v1/datasets/_apl (fields beyond the seed's are ignored). */
export interface AplRequest {
  apl: string;
  startTime?: string;
  endTime?: string;
}

export type AplFormat = "legacy" | "tabular";

/** Where in the query text a problem is (1-based), as `detail` of a 400 answer. */
export interface QueryErrorDetail {
  line: number;
  column: number;
  message: string;
  errorType: string;
  compileErrorCode: string;
}

/** Thrown by the engine; the emulator answers `{code: status, message, detail}`. */
export class QueryError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly detail?: QueryErrorDetail,
  ) {
    super(message);
    this.name = "QueryError";
  }
}
