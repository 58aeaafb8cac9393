// Ingested events, one JSON-lines file per dataset under `events/`. A file is named by
// the dataset's storage key (random, fixed at creation), not by its name: a dataset
// deleted and re-created under the same name can never see its predecessor's events,
// even if a crash left the old file behind (files without a dataset are removed at start).
//
// In memory the request thread keeps no event objects: an append goes to the file, and
// once durable into the dataset's shared columns (query/columns.ts, built here once for
// every query worker). A worker reads the file itself only for a query the columns
// cannot answer (query-host/shared-log.ts): so an event is seen by queries once it is
// durable, and the file then holds every row of the columns, in the same order.
import * as fs from "node:fs";
import * as path from "node:path";
import { AppendLog, forEachJsonLine, syncDirectory } from "./append-log";
import type { EventsView } from "./query-host/shared-log";
import { ColumnWriter, positionalRowId } from "./query/columns";
import type { StoredEvent } from "./query/types";

interface DatasetEvents {
  file: string;
  /** The durable events. */
  columns: ColumnWriter;
  /** Bytes of the file that hold the columns' rows. */
  bytes: number;
  /** Events numbered so far (durable or being written). */
  numbered: number;
  /** Appends in the order they were written, folded into the columns in that order once durable. */
  pending: PendingAppend[];
  /** A write failed: the file may not match the rows line for line any more. */
  untrusted: boolean;
  /** Opened on the first append; a promise so that concurrent first appends share it. */
  log: Promise<AppendLog> | undefined;
}

interface PendingAppend {
  /** Without their `_rowId`: it is their position. */
  events: readonly Omit<StoredEvent, "_rowId">[];
  times: readonly number[] | undefined;
  bytes: number;
  state: "writing" | "durable" | "failed";
}

/** Lines of a reload folded into the columns together. */
const RELOAD_BATCH = 10_000;

export class EventStore {
  private readonly byKey = new Map<string, DatasetEvents>();
  private readonly dir: string;

  private constructor(dataDir: string) {
    this.dir = path.join(dataDir, "events");
  }

  /** Loads the events of every live storage key and removes orphaned files. */
  static load(dataDir: string, liveKeys: ReadonlySet<string>): EventStore {
    const store = new EventStore(dataDir);
    fs.mkdirSync(store.dir, { recursive: true });
    for (const file of fs.readdirSync(store.dir)) {
      const key = file.endsWith(".ndjson") ? file.slice(0, -".ndjson".length) : undefined;
      if (key === undefined || !liveKeys.has(key)) {
        fs.rmSync(path.join(store.dir, file), { force: true });
        continue;
      }
      const entry = store.entry(key);
      let events: StoredEvent[] = [];
      forEachJsonLine(entry.file, (value) => {
        events.push(value as StoredEvent);
        if (events.length >= RELOAD_BATCH) {
          entry.columns.append(events);
          events = [];
        }
      });
      entry.columns.append(events);
      entry.numbered = entry.columns.length;
      // After the reload's truncation of a torn last line: every byte is a whole row's.
      entry.bytes = fs.statSync(entry.file).size;
    }
    return store;
  }

  private entry(key: string): DatasetEvents {
    let entry = this.byKey.get(key);
    if (!entry) {
      entry = { file: path.join(this.dir, `${key}.ndjson`), columns: new ColumnWriter(), bytes: 0, numbered: 0, pending: [], untrusted: false, log: undefined };
      this.byKey.set(key, entry);
    }
    return entry;
  }

  /** What a query worker reads of `key`'s events (all of them, as of now). */
  view(key: string): EventsView {
    const entry = this.entry(key);
    return { columns: entry.columns.view(), file: entry.untrusted ? undefined : { path: entry.file, bytes: entry.bytes } };
  }

  /**
   * Writes events, numbering them in arrival order (the `_rowId`); resolves when they
   * are durable, and queries see them from then on. `timesMs`, when given, are the
   * events' `_time` in ms (what the caller already parsed).
   */
  async append(key: string, events: readonly Omit<StoredEvent, "_rowId">[], timesMs?: readonly number[]): Promise<void> {
    if (events.length === 0) return;
    const entry = this.entry(key);
    const first = entry.numbered;
    // Serialized before anything changes, so that an event that cannot be written is not
    // numbered; the `_rowId` goes first, as in `{_rowId, ...event}`, without a copy of each
    // event. Encoded line by line into one buffer for the batch: a string per line with its
    // byte count, or one text for the batch (flattened, measured, then encoded again), cost
    // more of an ingest.
    let buffer = Buffer.allocUnsafe(Math.max(64 * 1024, events.length * 192));
    let bytes = 0;
    let sysText = "";
    let sysJson = "";
    for (let k = 0; k < events.length; k++) {
      const e = events[k]!;
      if (e._sysTime !== sysText) sysJson = JSON.stringify((sysText = e._sysTime));
      const line = `{"_rowId":"${positionalRowId(first + k)}","_sysTime":${sysJson},"_time":${JSON.stringify(e._time)},"data":${JSON.stringify(e.data)}}\n`;
      // UTF-8 takes at most 3 bytes per UTF-16 unit.
      if (bytes + line.length * 3 > buffer.length) {
        const bigger = Buffer.allocUnsafe(Math.max(buffer.length * 2, bytes + line.length * 3));
        buffer.copy(bigger, 0, 0, bytes);
        buffer = bigger;
      }
      bytes += buffer.write(line, bytes);
    }
    const data = buffer.subarray(0, bytes);
    entry.numbered += events.length;
    const pending: PendingAppend = { events, times: timesMs, bytes, state: "writing" };
    entry.pending.push(pending);
    try {
      entry.log ??= AppendLog.open(entry.file);
      await (await entry.log).appendBytes(data);
      pending.state = "durable";
    } catch (err) {
      pending.state = "failed";
      throw err;
    } finally {
      this.fold(entry);
    }
  }

  /** Folds the leading appends that are done into the columns, in the order they were written. */
  private fold(entry: DatasetEvents): void {
    while (entry.pending.length > 0 && entry.pending[0]!.state !== "writing") {
      const done = entry.pending.shift()!;
      if (done.state === "failed") {
        // What reached the file is unknown: the row path can no longer read it line for line.
        entry.untrusted = true;
        continue;
      }
      // After a failed write the numbering has a gap: the rows' ids are then checked (and found not positional).
      entry.columns.append(done.events, done.times, !entry.untrusted);
      entry.bytes += done.bytes;
    }
  }

  /** Bytes of every dataset's stored events (the license's storageAllowanceGB bounds them). */
  totalBytes(): number {
    let n = 0;
    for (const entry of this.byKey.values()) n += entry.bytes;
    return n;
  }

  /** Deletes a dataset's events for good. */
  async drop(key: string): Promise<void> {
    const entry = this.byKey.get(key);
    this.byKey.delete(key);
    if (entry?.log) await (await entry.log).close();
    fs.rmSync(entry?.file ?? path.join(this.dir, `${key}.ndjson`), { force: true });
    syncDirectory(this.dir);
  }

  async close(): Promise<void> {
    for (const entry of this.byKey.values()) {
      const log = entry.log;
      entry.log = undefined;
      if (log) await (await log).close();
    }
  }
}
