// The emulator's objects: named collections of records keyed by id, kept in memory and
// made durable by a write-ahead journal.
//
// On disk: `state.json` (a snapshot, replaced atomically) and `journal.ndjson` (one line
// per put or delete since the snapshot, fsynced before a write is acknowledged). A
// journal line is a whole record, so replaying it twice is harmless: that is what makes
// compaction (new snapshot, then truncate the journal) safe at any crash point. A
// request therefore costs one small append, not a rewrite of megabytes.
import * as fs from "node:fs";
import * as path from "node:path";
import { AppendLog, readJsonLines, writeFileAtomic } from "./append-log";

export type Collections = Record<string, Map<string, unknown>>;

export type RecordOf<M> = M extends Map<string, infer R> ? R : never;

interface JournalLine {
  c: string;
  id: string;
  v?: unknown;
  d?: 1;
}

const SNAPSHOT_FORMAT = 1;
/** Compact when the journal passes this size; a snapshot of 5000 objects is ~2 MB. */
export const COMPACT_AT_BYTES = 8 * 1024 * 1024;

/**
 * A batch of puts and deletes. Each is serialized when it is added, so that a value
 * that cannot be written (it throws) leaves memory untouched; commit() applies the
 * whole batch to memory at once and resolves when it is durable. Memory therefore never
 * holds what the journal does not.
 */
export class Transaction<S extends Collections> {
  private readonly lines: string[] = [];
  private readonly changes: (() => void)[] = [];

  constructor(private readonly store: Store<S>) {}

  put<K extends keyof S & string>(collection: K, id: string, value: RecordOf<S[K]>): this {
    this.lines.push(JSON.stringify({ c: collection, id, v: value } satisfies JournalLine));
    this.changes.push(() => this.store.apply(collection, id, value));
    return this;
  }

  delete<K extends keyof S & string>(collection: K, id: string): this {
    this.lines.push(JSON.stringify({ c: collection, id, d: 1 } satisfies JournalLine));
    this.changes.push(() => this.store.apply(collection, id, undefined));
    return this;
  }

  commit(): Promise<void> {
    for (const change of this.changes) change();
    return this.store.journalAppend(this.lines);
  }
}

const NO_IDS: ReadonlySet<string> = new Set();

/**
 * The ids of a collection's records by a key derived from each record (a token's secret
 * hash, a field's dataset, a view's name), kept current by every commit: a route that
 * looked a record up by scanning its collection cost O(N) per request, O(N^2) per apply.
 */
export class KeyIndex<R> {
  private readonly ids = new Map<string, Set<string>>();

  constructor(private readonly keyOf: (record: R) => string | undefined) {}

  /** The ids of the records with KEY (a live view: copy it before writing). */
  get(key: string): ReadonlySet<string> {
    return this.ids.get(key) ?? NO_IDS;
  }

  /** @internal for Store */
  change(id: string, prior: R | undefined, next: R | undefined): void {
    const before = prior === undefined ? undefined : this.keyOf(prior);
    const after = next === undefined ? undefined : this.keyOf(next);
    if (before === after && prior !== undefined && next !== undefined) return;
    if (before !== undefined) {
      const set = this.ids.get(before);
      set?.delete(id);
      if (set?.size === 0) this.ids.delete(before);
    }
    if (after !== undefined) {
      let set = this.ids.get(after);
      if (!set) this.ids.set(after, (set = new Set()));
      set.add(id);
    }
  }
}

export class Store<S extends Collections> {
  private readonly indexes = new Map<string, KeyIndex<unknown>[]>();
  /** Bytes of the last snapshot: the journal is compacted once it outgrows it, so compaction costs O(1) per byte written. */
  private snapshotBytes = 0;

  private constructor(
    readonly dir: string,
    readonly state: S,
    private journal: AppendLog | undefined,
  ) {}

  /**
   * Loads the snapshot, replays the journal on top, and compacts both into a fresh
   * snapshot, so that a start never pays for a long journal twice.
   */
  static async open<S extends Collections>(dir: string, empty: () => S, compactAtBytes = COMPACT_AT_BYTES): Promise<Store<S>> {
    fs.mkdirSync(dir, { recursive: true });
    const state = empty();
    const snapshotPath = path.join(dir, "state.json");
    const journalPath = path.join(dir, "journal.ndjson");
    if (fs.existsSync(snapshotPath)) {
      const snapshot = JSON.parse(fs.readFileSync(snapshotPath, "utf8")) as { format: number; collections: Record<string, [string, unknown][]> };
      if (snapshot.format !== SNAPSHOT_FORMAT) throw new Error(`${snapshotPath}: unsupported format ${String(snapshot.format)}`);
      for (const [name, entries] of Object.entries(snapshot.collections)) {
        const collection = state[name];
        if (!collection) throw new Error(`${snapshotPath}: unknown collection "${name}"`);
        for (const [id, value] of entries) collection.set(id, value);
      }
    }
    for (const raw of readJsonLines(journalPath)) {
      const line = raw as JournalLine;
      const collection = state[line.c];
      if (!collection) throw new Error(`${journalPath}: unknown collection "${line.c}"`);
      if (line.d) collection.delete(line.id);
      else collection.set(line.id, line.v);
    }
    const store = new Store(dir, state, undefined);
    store.writeSnapshot();
    store.journal = await AppendLog.open(journalPath, async (log) => {
      if (log.size < Math.max(compactAtBytes, store.snapshotBytes)) return;
      store.writeSnapshot();
      await log.truncate();
    });
    await store.journal.truncate();
    return store;
  }

  tx(): Transaction<S> {
    return new Transaction(this);
  }

  /** An index of COLLECTION by KEY_OF, built from what it holds and kept current by every commit. */
  index<K extends keyof S & string>(collection: K, keyOf: (record: RecordOf<S[K]>) => string | undefined): KeyIndex<RecordOf<S[K]>> {
    const index = new KeyIndex(keyOf);
    for (const [id, record] of this.state[collection]) index.change(id, undefined, record as RecordOf<S[K]>);
    const list = this.indexes.get(collection) ?? [];
    list.push(index as KeyIndex<unknown>);
    this.indexes.set(collection, list);
    return index;
  }

  /** @internal for Transaction: one put (VALUE) or delete (undefined) in memory, indexes included. */
  apply(collection: keyof S & string, id: string, value: unknown): void {
    const map = this.state[collection];
    const prior = map.get(id);
    if (value === undefined) map.delete(id);
    else map.set(id, value);
    for (const index of this.indexes.get(collection) ?? []) index.change(id, prior, value);
  }

  /** @internal for Transaction */
  journalAppend(lines: readonly string[]): Promise<void> {
    if (!this.journal) return Promise.reject(new Error("store is closed"));
    return this.journal.append(lines);
  }

  private writeSnapshot(): void {
    const collections: Record<string, [string, unknown][]> = {};
    for (const [name, map] of Object.entries(this.state)) collections[name] = [...map.entries()];
    const text = JSON.stringify({ format: SNAPSHOT_FORMAT, collections });
    writeFileAtomic(path.join(this.dir, "state.json"), text);
    this.snapshotBytes = text.length;
  }

  /** Flushes pending writes and compacts the journal into the snapshot. */
  async close(): Promise<void> {
    const journal = this.journal;
    if (!journal) return;
    this.journal = undefined;
    await journal.close();
    this.writeSnapshot();
    fs.truncateSync(journal.path, 0);
  }
}
