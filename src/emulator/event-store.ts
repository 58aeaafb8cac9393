// Ingested events, one JSON-lines file per dataset under `events/`. A file is named by
// the dataset's storage key (random, fixed at creation), not by its name: a dataset
// deleted and re-created under the same name can never see its predecessor's events,
// even if a crash left the old file behind (files without a dataset are removed at start).
//
// In memory the request thread keeps no event objects: an append goes, at once, into
// the dataset's shared columns (query/columns.ts, built here once for every query
// worker) and its JSON lines into shared memory (query-host/shared-log.ts, parsed by a
// worker only for a query the columns cannot answer), then to the file.
import * as fs from "node:fs";
import * as path from "node:path";
import { AppendLog, forEachJsonLine, syncDirectory } from "./append-log";
import { SharedEventLog, type EventsView } from "./query-host/shared-log";
import { ColumnWriter, positionalRowId } from "./query/columns";
import type { StoredEvent } from "./query/types";

interface DatasetEvents {
  columns: ColumnWriter;
  /** The same events as JSON lines, for the row path of the query workers. */
  shared: SharedEventLog;
  /** Opened on the first append; a promise so that concurrent first appends share it. */
  log: Promise<AppendLog> | undefined;
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
      let lines: string[] = [];
      const fold = (): void => {
        entry.columns.append(events);
        entry.shared.append(lines);
        events = [];
        lines = [];
      };
      forEachJsonLine(path.join(store.dir, file), (value, line) => {
        events.push(value as StoredEvent);
        // The stored text as is: nothing to serialize again.
        lines.push(line);
        if (events.length >= RELOAD_BATCH) fold();
      });
      fold();
    }
    return store;
  }

  private entry(key: string): DatasetEvents {
    let entry = this.byKey.get(key);
    if (!entry) {
      entry = { columns: new ColumnWriter(), shared: new SharedEventLog(), log: undefined };
      this.byKey.set(key, entry);
    }
    return entry;
  }

  /** Events stored under `key`. */
  count(key: string): number {
    return this.byKey.get(key)?.columns.length ?? 0;
  }

  /** What a query worker reads of `key`'s events (all of them, as of now). */
  view(key: string): EventsView {
    const entry = this.entry(key);
    return { columns: entry.columns.view(), log: entry.shared.view() };
  }

  /**
   * Adds events in memory at once, numbering them in arrival order (the `_rowId`), and
   * resolves when they are durable.
   */
  async append(key: string, events: readonly Omit<StoredEvent, "_rowId">[]): Promise<void> {
    if (events.length === 0) return;
    const entry = this.entry(key);
    const first = entry.columns.length;
    const stored = events.map((e, k): StoredEvent => ({ _rowId: positionalRowId(first + k), ...e }));
    // Serialized before memory changes, so that an event that cannot be written is not kept.
    const lines = stored.map((e) => JSON.stringify(e));
    entry.columns.append(stored);
    entry.shared.append(lines);
    entry.log ??= AppendLog.open(path.join(this.dir, `${key}.ndjson`));
    await (await entry.log).append(lines);
  }

  /** Deletes a dataset's events for good. */
  async drop(key: string): Promise<void> {
    const entry = this.byKey.get(key);
    this.byKey.delete(key);
    if (entry?.log) await (await entry.log).close();
    fs.rmSync(path.join(this.dir, `${key}.ndjson`), { force: true });
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
