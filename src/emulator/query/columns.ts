// A dataset's events as columns, built once where events are ingested (the request
// thread) on SharedArrayBuffers, and read by every query worker without a copy.
//
// Rows are cut into fixed blocks of 2^shift rows (65,536 by default). A block, once
// made, never moves: an append fills the last block or makes a new one, so a view taken
// earlier (the buffers and a row count) stays valid while the writer goes on, and
// posting a view to a worker copies no bytes. Per field of `data`:
//   - numbers in a Float64Array per block; null or missing is NaN (JSON, which both
//     ingest and the append-only file speak, cannot carry NaN, so the marker costs no
//     byte and every comparison with it is false, as a comparison with null is);
//   - strings dictionary-encoded: an Int32Array of codes per block (-1: null), the
//     dictionary an append-only table of JSON strings in shared chunks, which a reader
//     decodes once and then only its new entries;
//   - anything else (objects, arrays, booleans, a field mixing numbers and strings) is
//     "fallback": the vectorized path leaves queries that read it to the row path.
// A field that first appears in later events becomes a column then; a block where a
// column has no value at all is not allocated (it reads as nulls).
//
// Each numeric block, and each block of `_time`, keeps its min and max after its rows
// (slots blockRows and blockRows + 1; +Infinity / -Infinity when it holds no value), so
// that a time range or a predicate such as `duration_ms > 500` skips whole blocks.
//
// Time order: while events arrive in `_time` order (the usual case) a row's position is
// its rank in time, and a time range is a range of positions found by binary search.
// Once an event arrives out of order, a permutation sorted by (time, position) is kept
// beside (rebuilt into new buffers when a merge would move entries a view can see).

import { canonicalIsoMillis } from "../time";
import { readNewValues, SharedLines, type ReadPosition, type SharedLinesView } from "./shared-lines";
import { parseIsoTime } from "./time";
import type { IndexedEvent, StoredEvent, TimeIndex } from "./types";

export const DEFAULT_BLOCK_SHIFT = 16;

/** A string column's dictionary: one JSON string per line in append-only shared chunks. */
export interface StringTableView extends SharedLinesView {
  /** Entries in the table when the view was taken. */
  count: number;
}

/** One column as a view carries it; a null block holds no value. */
export type ColumnView =
  | { kind: "number"; blocks: (SharedArrayBuffer | null)[] }
  | { kind: "string"; blocks: (SharedArrayBuffer | null)[]; dictionary: StringTableView }
  | { kind: "fallback" };

/** What a query job carries of a dataset's columns: plain data and shared buffers. */
export interface ColumnsView {
  rows: number;
  shift: number;
  /** `_time` in ms per block (NaN when not a time), min and max after the rows. */
  time: SharedArrayBuffer[];
  /** `_sysTime` in ms per block. */
  sys: SharedArrayBuffer[];
  /** Positions are in time order and every row has a time. */
  ordered: boolean;
  /** Otherwise: the positions of the rows with a time, sorted by (time, position), and their times. */
  order?: { positions: SharedArrayBuffer; ms: SharedArrayBuffer; size: number };
  columns: [string, ColumnView][];
  /** Every row's `_rowId` is positionalRowId(position) (true of every event this emulator stored). */
  positionalRowIds: boolean;
}

/** The `_rowId` the event store gives the event at `position`. */
export function positionalRowId(position: number): string {
  return (position + 1).toString(36).padStart(10, "0");
}

/**
 * Stored times are written by ingest as `toISOString()` text, read by arithmetic (Date.parse
 * per row was 8% of a restart's reload); anything else takes the general parser.
 */
export function storedTimeMs(text: string): number {
  if (typeof text !== "string") return NaN;
  return canonicalIsoMillis(text) ?? parseIsoTime(text) ?? NaN;
}

const TABLE_CHUNK_BYTES = 1024 * 1024;

/** The writing side of a string table. */
class StringTableWriter {
  private readonly lines = new SharedLines(TABLE_CHUNK_BYTES);
  private count = 0;

  add(value: string): void {
    this.lines.append([JSON.stringify(value)]);
    this.count++;
  }

  view(): StringTableView {
    return { ...this.lines.view(), count: this.count };
  }
}

type WriterColumn =
  | { kind: "number"; blocks: (Float64Array | null)[] }
  | { kind: "string"; blocks: (Int32Array | null)[]; codeOf: Map<string, number>; table: StringTableWriter }
  | { kind: "fallback" };

const FALLBACK: WriterColumn = { kind: "fallback" };

/** A block of numbers: NaN values, then min = +Infinity and max = -Infinity. */
function numberBlock(rows: number): Float64Array {
  const block = new Float64Array(new SharedArrayBuffer((rows + 2) * 8));
  block.fill(NaN, 0, rows);
  block[rows] = Infinity;
  block[rows + 1] = -Infinity;
  return block;
}

function noteStat(block: Float64Array, rows: number, x: number): void {
  if (x < block[rows]!) block[rows] = x;
  if (x > block[rows + 1]!) block[rows + 1] = x;
}

const bufferOf = (a: Float64Array | Int32Array | null): SharedArrayBuffer | null => (a ? (a.buffer as SharedArrayBuffer) : null);

/** The writing side: the request thread appends; views of it go to the query workers. */
export class ColumnWriter {
  private rows = 0;
  private readonly blockRows: number;
  private readonly mask: number;
  private readonly time: Float64Array[] = [];
  private readonly sys: Float64Array[] = [];
  private readonly columns = new Map<string, WriterColumn>();
  private ordered = true;
  private lastMs = -Infinity;
  private order: { positions: Uint32Array; ms: Float64Array; size: number } | undefined;
  private positional = true;

  constructor(private readonly shift: number = DEFAULT_BLOCK_SHIFT) {
    this.blockRows = 2 ** shift;
    this.mask = this.blockRows - 1;
  }

  /** Rows appended so far. */
  get length(): number {
    return this.rows;
  }

  /**
   * Appends events in arrival order; `timesMs[k]`, when given, is `_time` of events[k] in
   * ms (storedTimeMs's answer). `positional`: the caller numbered them by position (their
   * `_rowId` is positionalRowId of it), so their ids are not checked.
   */
  append(events: readonly (Omit<StoredEvent, "_rowId"> & { _rowId?: string })[], timesMs?: readonly number[], positional = false): void {
    const { blockRows, mask, shift } = this;
    const firstFresh = this.rows;
    let unorderedFrom = -1;
    // An ingest's events share one `_sysTime`: parsed once.
    let sysText = "";
    let sysMs = NaN;
    for (let k = 0; k < events.length; k++) {
      const e = events[k]!;
      const i = this.rows++;
      const b = i >>> shift;
      const j = i & mask;
      if (j === 0) {
        this.time.push(numberBlock(blockRows));
        this.sys.push(numberBlock(blockRows));
      }
      const ms = timesMs ? timesMs[k]! : storedTimeMs(e._time);
      const timeBlock = this.time[b]!;
      timeBlock[j] = ms;
      if (ms === ms) noteStat(timeBlock, blockRows, ms);
      if (e._sysTime !== sysText) {
        sysText = e._sysTime;
        sysMs = storedTimeMs(sysText);
      }
      this.sys[b]![j] = sysMs;
      if (this.ordered) {
        if (ms === ms && ms >= this.lastMs) this.lastMs = ms;
        else {
          this.ordered = false;
          unorderedFrom = i;
        }
      }
      if (this.positional && !positional && e._rowId !== positionalRowId(i)) this.positional = false;
      const data = e.data;
      for (const name in data) {
        const raw = data[name];
        if (raw === null || raw === undefined) continue;
        this.put(name, raw, b, j);
      }
    }
    if (!this.ordered) this.indexOrder(unorderedFrom >= 0 ? 0 : firstFresh);
  }

  private put(name: string, raw: unknown, b: number, j: number): void {
    let col = this.columns.get(name);
    if (!col) {
      col = typeof raw === "number" ? { kind: "number", blocks: [] } : typeof raw === "string" ? { kind: "string", blocks: [], codeOf: new Map(), table: new StringTableWriter() } : FALLBACK;
      this.columns.set(name, col);
    }
    if (col.kind === "number") {
      if (typeof raw !== "number") return void this.columns.set(name, FALLBACK);
      let block = col.blocks[b];
      if (!block) {
        while (col.blocks.length <= b) col.blocks.push(null);
        block = col.blocks[b] = numberBlock(this.blockRows);
      }
      block[j] = raw;
      noteStat(block, this.blockRows, raw);
    } else if (col.kind === "string") {
      if (typeof raw !== "string") return void this.columns.set(name, FALLBACK);
      let block = col.blocks[b];
      if (!block) {
        while (col.blocks.length <= b) col.blocks.push(null);
        block = col.blocks[b] = new Int32Array(new SharedArrayBuffer(this.blockRows * 4)).fill(-1);
      }
      let code = col.codeOf.get(raw);
      if (code === undefined) {
        code = col.codeOf.size;
        col.codeOf.set(raw, code);
        col.table.add(raw);
      }
      block[j] = code;
    }
  }

  private timeAt(i: number): number {
    return this.time[i >>> this.shift]![i & this.mask]!;
  }

  /**
   * Folds rows [from, rows) into the time order. Entries a view may read are never
   * moved: a merge that would move them writes new buffers.
   */
  private indexOrder(from: number): void {
    const fresh: number[] = [];
    for (let i = from; i < this.rows; i++) if (this.timeAt(i) === this.timeAt(i)) fresh.push(i);
    const ms = (i: number): number => this.timeAt(i);
    fresh.sort((a, b) => ms(a) - ms(b) || a - b);
    const old = from === 0 ? undefined : this.order;
    const size = (old?.size ?? 0) + fresh.length;
    const inPlace = old !== undefined && old.positions.length >= size && (fresh.length === 0 || old.size === 0 || old.ms[old.size - 1]! <= ms(fresh[0]!));
    if (inPlace) {
      for (let k = 0; k < fresh.length; k++) {
        old.positions[old.size + k] = fresh[k]!;
        old.ms[old.size + k] = ms(fresh[k]!);
      }
      old.size = size;
      return;
    }
    const capacity = Math.max(1024, size * 2);
    const positions = new Uint32Array(new SharedArrayBuffer(capacity * 4));
    const orderMs = new Float64Array(new SharedArrayBuffer(capacity * 8));
    // Merge: on equal times the older entry (a smaller position) goes first.
    let a = 0;
    let f = 0;
    for (let k = 0; k < size; k++) {
      const takeOld = old !== undefined && a < old.size && (f >= fresh.length || old.ms[a]! <= ms(fresh[f]!));
      if (takeOld) {
        positions[k] = old.positions[a]!;
        orderMs[k] = old.ms[a]!;
        a++;
      } else {
        positions[k] = fresh[f]!;
        orderMs[k] = ms(fresh[f]!);
        f++;
      }
    }
    this.order = { positions, ms: orderMs, size };
  }

  /** Everything appended so far, as a worker reads it. */
  view(): ColumnsView {
    const columns: [string, ColumnView][] = [];
    for (const [name, col] of this.columns) {
      if (col.kind === "number") columns.push([name, { kind: "number", blocks: col.blocks.map(bufferOf) }]);
      else if (col.kind === "string") columns.push([name, { kind: "string", blocks: col.blocks.map(bufferOf), dictionary: col.table.view() }]);
      else columns.push([name, { kind: "fallback" }]);
    }
    const order = this.order && !this.ordered ? { positions: this.order.positions.buffer as SharedArrayBuffer, ms: this.order.ms.buffer as SharedArrayBuffer, size: this.order.size } : undefined;
    return {
      rows: this.rows,
      shift: this.shift,
      time: this.time.map((t) => t.buffer as SharedArrayBuffer),
      sys: this.sys.map((t) => t.buffer as SharedArrayBuffer),
      ordered: this.ordered,
      ...(order ? { order } : {}),
      columns,
      positionalRowIds: this.positional,
    };
  }
}

/** A column as the vectorized path reads it. */
export type Column =
  | { kind: "number"; blocks: Float64Array[] }
  | { kind: "string"; blocks: Int32Array[]; dictionary: string[]; codeOf: Map<string, number> }
  | { kind: "fallback" };

/** A reader's decoded dictionaries, kept between views of the same store. */
export interface DictionaryCache {
  tables: Map<string, DecodedTable>;
}

interface DecodedTable {
  values: string[];
  codeOf: Map<string, number>;
  at: ReadPosition;
}

export function newDictionaryCache(): DictionaryCache {
  return { tables: new Map() };
}

/** Decodes the entries of `view` not decoded yet. */
function catchUpTable(view: StringTableView, into: DecodedTable): void {
  if (into.values.length >= view.count) return;
  for (const v of readNewValues(view, into.at) as string[]) {
    into.codeOf.set(v, into.values.length);
    into.values.push(v);
  }
}

const nullBlockCache = new Map<number, { numbers: Float64Array; codes: Int32Array }>();

/** The block a column without values in a block reads: all null (one per block size, shared by every reader). */
function nullBlocks(rows: number): { numbers: Float64Array; codes: Int32Array } {
  let got = nullBlockCache.get(rows);
  if (!got) nullBlockCache.set(rows, (got = { numbers: numberBlock(rows), codes: new Int32Array(rows).fill(-1) }));
  return got;
}

/** The reading side: a view's buffers wrapped as typed arrays. */
export class Columns {
  readonly rows: number;
  readonly shift: number;
  readonly blockRows: number;
  readonly mask: number;
  /** `_time` per block (length blockRows + 2: min and max after the rows). */
  readonly time: Float64Array[];
  readonly sys: Float64Array[];
  readonly ordered: boolean;
  readonly order: { positions: Uint32Array; ms: Float64Array } | undefined;
  /** Rows in time order (all rows when ordered; those with a time otherwise). */
  readonly timed: number;
  private readonly columns = new Map<string, Column>();
  private readonly nullNumbers: Float64Array;
  private readonly nullCodes: Int32Array;

  constructor(
    view: ColumnsView,
    cache: DictionaryCache,
    /** The `_rowId` of a position, when the view's are not positional. */
    private readonly rowIdOf?: (position: number) => string,
  ) {
    this.rows = view.rows;
    this.shift = view.shift;
    this.blockRows = 2 ** view.shift;
    this.mask = this.blockRows - 1;
    this.time = view.time.map((b) => new Float64Array(b));
    this.sys = view.sys.map((b) => new Float64Array(b));
    this.ordered = view.ordered;
    this.order = view.order ? { positions: new Uint32Array(view.order.positions, 0, view.order.size), ms: new Float64Array(view.order.ms, 0, view.order.size) } : undefined;
    this.timed = view.ordered ? view.rows : (view.order?.size ?? 0);
    ({ numbers: this.nullNumbers, codes: this.nullCodes } = nullBlocks(this.blockRows));
    const blocks = this.time.length;
    for (const [name, col] of view.columns) {
      if (col.kind === "number") {
        const bs: Float64Array[] = [];
        for (let b = 0; b < blocks; b++) bs.push(col.blocks[b] ? new Float64Array(col.blocks[b]!) : this.nullNumbers);
        this.columns.set(name, { kind: "number", blocks: bs });
      } else if (col.kind === "string") {
        const bs: Int32Array[] = [];
        for (let b = 0; b < blocks; b++) bs.push(col.blocks[b] ? new Int32Array(col.blocks[b]!) : this.nullCodes);
        let table = cache.tables.get(name);
        // A dictionary only grows; one shorter than what was decoded is another store's.
        if (!table || table.values.length > col.dictionary.count) {
          table = { values: [], codeOf: new Map(), at: { chunk: 0, offset: 0 } };
          cache.tables.set(name, table);
        }
        catchUpTable(col.dictionary, table);
        this.columns.set(name, { kind: "string", blocks: bs, dictionary: table.values, codeOf: table.codeOf });
      } else this.columns.set(name, { kind: "fallback" });
    }
    if (!rowIdOf && !view.positionalRowIds) throw new Error("columns: row ids are not positional and no reader of them was given");
  }

  /** The column of `name`; undefined when no event had the field. */
  column(name: string): Column | undefined {
    return this.columns.get(name);
  }

  /** `_time` of the row at `position`. */
  timeAt(position: number): number {
    return this.time[position >>> this.shift]![position & this.mask]!;
  }

  sysAt(position: number): number {
    return this.sys[position >>> this.shift]![position & this.mask]!;
  }

  /** The row at rank k of the time order. */
  positionAt(k: number): number {
    return this.ordered ? k : this.order!.positions[k]!;
  }

  /** The `_time` of rank k. */
  timeOfRank(k: number): number {
    return this.ordered ? this.timeAt(k) : this.order!.ms[k]!;
  }

  rowIdAt(position: number): string {
    return this.rowIdOf ? this.rowIdOf(position) : positionalRowId(position);
  }

  /** The first rank whose time is >= ms. */
  private lowerBound(ms: number): number {
    let lo = 0;
    let hi = this.timed;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.timeOfRank(mid) < ms) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The ranks [lo, hi) of the rows with startMs <= _time < endMs. */
  ranks(startMs: number | undefined, endMs: number): { lo: number; hi: number } {
    return { lo: startMs === undefined ? 0 : this.lowerBound(startMs), hi: this.lowerBound(endMs) };
  }
}

/** The row path's time index over columns: events come from `events` (parsed only when a query needs rows). */
export class ColumnsTimeIndex implements TimeIndex {
  constructor(
    private readonly columns: Columns,
    private readonly events: () => readonly StoredEvent[],
  ) {}

  range(startMs: number | undefined, endMs: number): IndexedEvent[] {
    const c = this.columns;
    const { lo, hi } = c.ranks(startMs, endMs);
    const out: IndexedEvent[] = [];
    if (hi <= lo) return out;
    const events = this.events();
    for (let k = hi - 1; k >= lo; k--) {
      const i = c.positionAt(k);
      out.push({ event: events[i]!, ms: c.timeOfRank(k), sys: c.sysAt(i) });
    }
    return out;
  }
}

/**
 * Columns and a time index over events held in this thread (tests, and engine benches):
 * the same store the emulator builds at ingest.
 */
export function columnarOf(events: readonly StoredEvent[], shift = DEFAULT_BLOCK_SHIFT): { columns: Columns; timeIndex: TimeIndex } {
  const writer = new ColumnWriter(shift);
  writer.append(events);
  const columns = new Columns(writer.view(), newDictionaryCache(), (i) => events[i]!._rowId);
  return { columns, timeIndex: new ColumnsTimeIndex(columns, () => events) };
}
