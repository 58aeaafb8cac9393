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
import * as fs from "node:fs";
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

/** Bytes read from the file at a time, so that a worker never holds the whole text. */
const READ_BYTES = 8 * 1024 * 1024;

/**
 * Appends to `into` the events of `file` after byte `from.offset` (blank lines skipped,
 * as the event store's reload skips them); `from` moves to the end of what was read.
 * Stops at `limit` events in all.
 */
export function readNewEvents(file: EventFileView, from: { offset: number }, into: StoredEvent[], limit: number): void {
  if (from.offset >= file.bytes || into.length >= limit) return;
  const fd = fs.openSync(file.path, "r");
  try {
    let carry = Buffer.alloc(0);
    while (from.offset + carry.length < file.bytes && into.length < limit) {
      const want = Math.min(READ_BYTES, file.bytes - from.offset - carry.length);
      const piece = Buffer.allocUnsafe(want);
      const got = fs.readSync(fd, piece, 0, want, from.offset + carry.length);
      if (got <= 0) throw new Error(`${file.path}: ended at byte ${from.offset + carry.length} of ${file.bytes}`);
      const bytes = carry.length > 0 ? Buffer.concat([carry, piece.subarray(0, got)]) : piece.subarray(0, got);
      const end = bytes.lastIndexOf(10);
      if (end < 0) {
        carry = bytes;
        continue;
      }
      for (const line of bytes.toString("utf8", 0, end).split("\n")) if (line.trim() !== "") into.push(JSON.parse(line) as StoredEvent);
      from.offset += end + 1;
      carry = bytes.subarray(end + 1);
    }
  } finally {
    fs.closeSync(fd);
  }
}
