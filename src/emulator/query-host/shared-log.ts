// How a dataset's events reach the query workers without being copied per query.
//
// A job carries, per dataset, an `EventsView`: its columns (query/columns.ts, built once
// at ingest on shared buffers; what the vectorized path and the time index read), and
// where the same events are on disk: the dataset's append-only file and how many of its
// bytes hold the view's rows (an event becomes part of the views once it is durable, so
// the file holds every row a view has, line for line). A worker reads and parses that
// file only for a query that needs the events themselves (the row path), and then only
// what it has not read yet.
//
// This is the one boundary between storage and the workers.
import { forEachLine } from "../append-log";
import type { ColumnsView } from "../query/columns";
import type { StoredEvent } from "../query/types";

/** The part of a dataset's events file that holds a view's rows. */
export interface EventFileView {
  path: string;
  bytes: number;
}

/** What a query worker reads of a dataset's events, as of one moment. */
export interface EventsView {
  columns: ColumnsView;
  /** Undefined when the file cannot be read back line for line (a write to it failed). */
  file: EventFileView | undefined;
}

/**
 * Appends to `into` the events of `file` after byte `from.offset` (blank lines skipped,
 * as the event store's reload skips them); `from` moves to the end of what was read.
 */
export function readNewEvents(file: EventFileView, from: { offset: number }, into: StoredEvent[]): void {
  if (from.offset >= file.bytes) return;
  const { tailOffset } = forEachLine(file.path, from.offset, file.bytes, (line) => {
    if (line.trim() !== "") into.push(JSON.parse(line) as StoredEvent);
  });
  from.offset = tailOffset;
}
