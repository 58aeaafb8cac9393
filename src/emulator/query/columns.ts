// A dataset's events as columns, for the vectorized path (vectorized.ts): the same
// events the row path reads, laid out so that a predicate or an aggregation runs as a
// tight loop over a typed array instead of building a row (a Map of values) per event.
//
// Per field of `data`:
//   - numbers in a Float64Array, with a presence byte per event (0: null or missing);
//   - strings dictionary-encoded: an Int32Array of codes into the dictionary (-1: null);
//   - a field whose values are anything else (objects, arrays, booleans, a mix of
//     numbers and strings) is "fallback": the vectorized path leaves queries that read it
//     to the row path, which reads the events themselves.
// `_time` is a Float64Array of ms (NaN when not a time), from the same parse the time index uses.
//
// Columns are built incrementally as events are appended (`catchUp`), so a field that
// first appears in later events becomes a column then, null for the events before it.

import type { StoredEvent } from "./types";

export type Column =
  | { kind: "number"; values: Float64Array; present: Uint8Array }
  | { kind: "string"; codes: Int32Array; dictionary: string[]; codeOf: Map<string, number> }
  | { kind: "fallback" };

function grownF64(a: Float64Array, n: number): Float64Array {
  if (a.length >= n) return a;
  const b = new Float64Array(Math.max(n, a.length * 2, 1024));
  b.set(a);
  return b;
}
function grownU8(a: Uint8Array, n: number): Uint8Array {
  if (a.length >= n) return a;
  const b = new Uint8Array(Math.max(n, a.length * 2, 1024));
  b.set(a);
  return b;
}
function grownI32(a: Int32Array, n: number): Int32Array {
  if (a.length >= n) return a;
  const b = new Int32Array(Math.max(n, a.length * 2, 1024));
  b.fill(-1, a.length);
  b.set(a);
  return b;
}

export class ColumnStore {
  private readonly columns = new Map<string, Column>();
  private size = 0;

  constructor(private readonly events: readonly StoredEvent[]) {}

  /** Events folded in so far. */
  get length(): number {
    return this.size;
  }

  /** The column of `name`, as of the last catchUp; undefined when no event had the field. */
  column(name: string): Column | undefined {
    return this.columns.get(name);
  }

  /** Folds in the events appended since the last call. */
  catchUp(): void {
    const events = this.events;
    const n = events.length;
    if (n === this.size) return;
    for (const col of this.columns.values()) this.grow(col, n);
    for (let i = this.size; i < n; i++) {
      const data = events[i]!.data;
      for (const name in data) {
        const raw = data[name];
        if (raw === null || raw === undefined) continue;
        let col = this.columns.get(name);
        if (!col) {
          col = typeof raw === "number" ? { kind: "number", values: new Float64Array(0), present: new Uint8Array(0) } : typeof raw === "string" ? { kind: "string", codes: new Int32Array(0), dictionary: [], codeOf: new Map() } : { kind: "fallback" };
          this.grow(col, n);
          this.columns.set(name, col);
        }
        if (col.kind === "number") {
          if (typeof raw === "number") {
            col.values[i] = raw;
            col.present[i] = 1;
          } else this.columns.set(name, { kind: "fallback" });
        } else if (col.kind === "string") {
          if (typeof raw === "string") {
            let code = col.codeOf.get(raw);
            if (code === undefined) {
              code = col.dictionary.length;
              col.dictionary.push(raw);
              col.codeOf.set(raw, code);
            }
            col.codes[i] = code;
          } else this.columns.set(name, { kind: "fallback" });
        }
      }
    }
    this.size = n;
  }

  private grow(col: Column, n: number): void {
    if (col.kind === "number") {
      col.values = grownF64(col.values, n);
      col.present = grownU8(col.present, n);
    } else if (col.kind === "string") col.codes = grownI32(col.codes, n);
  }
}
