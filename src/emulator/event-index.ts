// A dataset's events ordered by `_time`, kept next to the append-only events array,
// so that a query over a time range costs what the range holds rather than the whole
// dataset (monitors query short ranges of large datasets every few minutes).
//
// Events are only ever appended. New ones are folded in when the store appends them
// (or at the next query, whichever comes first): they are sorted among themselves and
// merged into the order, which for events that arrive in time order is a plain append.
import { parseIsoTime } from "./query/time";
import type { IndexedEvent, StoredEvent, TimeIndex, TimePositions } from "./query/types";

/**
 * Stored times are written by ingest as `toISOString()` text, which Date.parse reads
 * exactly and much faster than the general parser; anything else takes the general one.
 */
function timeMs(text: string): number {
  if (text.length === 24 && text.charCodeAt(23) === 90 /* Z */ && text.charCodeAt(10) === 84 /* T */) return Date.parse(text);
  return parseIsoTime(text) ?? NaN;
}

function grown<T extends Float64Array | Uint32Array>(array: T, needed: number, make: (n: number) => T): T {
  if (array.length >= needed) return array;
  const bigger = make(Math.max(needed, array.length * 2, 1024));
  bigger.set(array);
  return bigger;
}

export class EventTimeIndex implements TimeIndex {
  /** Per event (by position): `_time` and `_sysTime` in ms, NaN when not a time. */
  private ms = new Float64Array(0);
  private sys = new Float64Array(0);
  /** Positions of the events with a time, ascending by (time, position). */
  private order = new Uint32Array(0);
  /** The time of order[k], so that a binary search reads one array. */
  private orderMs = new Float64Array(0);
  private size = 0;
  /** Events [0, indexed) have been folded in. */
  private indexed = 0;

  constructor(private readonly events: readonly StoredEvent[]) {}

  /** Folds in the events appended since the last call. */
  catchUp(): void {
    const n = this.events.length;
    if (n === this.indexed) return;
    this.ms = grown(this.ms, n, (k) => new Float64Array(k));
    this.sys = grown(this.sys, n, (k) => new Float64Array(k));
    const fresh: number[] = [];
    for (let i = this.indexed; i < n; i++) {
      const e = this.events[i]!;
      const ms = timeMs(e._time);
      this.ms[i] = ms;
      this.sys[i] = timeMs(e._sysTime);
      if (!Number.isNaN(ms)) fresh.push(i);
    }
    this.indexed = n;
    if (fresh.length === 0) return;
    const ms = this.ms;
    let ordered = true;
    for (let k = 1; k < fresh.length && ordered; k++) ordered = ms[fresh[k - 1]!]! <= ms[fresh[k]!]!;
    if (!ordered) fresh.sort((a, b) => ms[a]! - ms[b]! || a - b);
    const total = this.size + fresh.length;
    this.order = grown(this.order, total, (k) => new Uint32Array(k));
    this.orderMs = grown(this.orderMs, total, (k) => new Float64Array(k));
    // Merge from the back, in place. On equal times the fresh event (a later position) goes last.
    let a = this.size - 1;
    let b = fresh.length - 1;
    for (let k = total - 1; b >= 0; k--) {
      const fb = fresh[b]!;
      if (a >= 0 && this.orderMs[a]! > ms[fb]!) {
        this.order[k] = this.order[a]!;
        this.orderMs[k] = this.orderMs[a]!;
        a--;
      } else {
        this.order[k] = fb;
        this.orderMs[k] = ms[fb]!;
        b--;
      }
    }
    this.size = total;
  }

  /** The first position in the order whose time is >= ms. */
  private lowerBound(ms: number): number {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.orderMs[mid]! < ms) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  positions(startMs: number | undefined, endMs: number): TimePositions {
    this.catchUp();
    const lo = startMs === undefined ? 0 : this.lowerBound(startMs);
    return { order: this.order, orderMs: this.orderMs, sysMs: this.sys, lo, hi: this.lowerBound(endMs) };
  }

  range(startMs: number | undefined, endMs: number): IndexedEvent[] {
    this.catchUp();
    const lo = startMs === undefined ? 0 : this.lowerBound(startMs);
    const hi = this.lowerBound(endMs);
    const out: IndexedEvent[] = [];
    for (let k = hi - 1; k >= lo; k--) {
      const i = this.order[k]!;
      out.push({ event: this.events[i]!, ms: this.orderMs[k]!, sys: this.sys[i]! });
    }
    return out;
  }
}
