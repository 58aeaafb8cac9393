// Ingested events, one JSON-lines file per dataset under `events/`. A file is named by
// the dataset's storage key (random, fixed at creation), not by its name: a dataset
// deleted and re-created under the same name can never see its predecessor's events,
// even if a crash left the old file behind (files without a dataset are removed at start).
import * as fs from "node:fs";
import * as path from "node:path";
import { AppendLog, readJsonLines, syncDirectory } from "./append-log";
import { EventTimeIndex } from "./event-index";
import { SharedEventLog, type EventLogView } from "./query-host/shared-log";
import type { StoredEvent, TimeIndex } from "./query/types";

interface DatasetEvents {
  events: StoredEvent[];
  index: EventTimeIndex;
  /** The same events for the query workers (query-host/shared-log.ts). */
  shared: SharedEventLog;
  /** Opened on the first append; a promise so that concurrent first appends share it. */
  log: Promise<AppendLog> | undefined;
}

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
      const events = readJsonLines(path.join(store.dir, file)) as StoredEvent[];
      const index = new EventTimeIndex(events);
      index.catchUp();
      const shared = new SharedEventLog();
      shared.append(events.map((e) => JSON.stringify(e)));
      store.byKey.set(key, { events, index, shared, log: undefined });
    }
    return store;
  }

  private entry(key: string): DatasetEvents {
    let entry = this.byKey.get(key);
    if (!entry) {
      const events: StoredEvent[] = [];
      entry = { events, index: new EventTimeIndex(events), shared: new SharedEventLog(), log: undefined };
      this.byKey.set(key, entry);
    }
    return entry;
  }

  events(key: string): readonly StoredEvent[] {
    return this.entry(key).events;
  }

  /** What a query worker reads of `key`'s events (all of them, as of now). */
  sharedView(key: string): EventLogView {
    return this.entry(key).shared.view();
  }

  /** The events of `key` ordered by time; created (empty) when the key has none yet. */
  timeIndex(key: string): TimeIndex {
    return this.entry(key).index;
  }

  /**
   * Adds events in memory at once, numbering them in arrival order (the `_rowId`), and
   * resolves when they are durable.
   */
  async append(key: string, events: readonly Omit<StoredEvent, "_rowId">[]): Promise<void> {
    if (events.length === 0) return;
    const entry = this.entry(key);
    let seq = entry.events.length;
    const stored = events.map((e): StoredEvent => ({ _rowId: (++seq).toString(36).padStart(10, "0"), ...e }));
    // Serialized before memory changes, so that an event that cannot be written is not kept.
    const lines = stored.map((e) => JSON.stringify(e));
    entry.events.push(...stored);
    entry.shared.append(lines);
    // Now rather than at the next query: a monitor run must not pay for a large ingest.
    entry.index.catchUp();
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
