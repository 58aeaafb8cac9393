// How a dataset's events reach the query workers without being copied per query.
//
// A job carries, per dataset, an `EventsView`: its columns (query/columns.ts, built once
// at ingest on shared buffers; what the vectorized path and the time index read), and
// the same JSON lines the event store writes to disk, in shared chunks that only grow
// at their end (query/shared-lines.ts; posting them copies no bytes). A worker parses
// those lines only for a query that needs the events themselves (the row path), and
// then only what it has not parsed yet.
//
// This is the one boundary between storage and the workers.
import type { ColumnsView } from "../query/columns";
import { readNewValues, SharedLines, type ReadPosition, type SharedLinesView } from "../query/shared-lines";

export type EventLogView = SharedLinesView;
export type { ReadPosition };

/** What a query worker reads of a dataset's events, as of one moment. */
export interface EventsView {
  columns: ColumnsView;
  log: EventLogView;
}

/** The writing side of the JSON lines (the emulator's request thread). */
export class SharedEventLog extends SharedLines {}

/** The events of `view` after `from`, parsed; `from` moves to the end of what was read. */
export const readNewLines: (view: EventLogView, from: ReadPosition) => unknown[] = readNewValues;
