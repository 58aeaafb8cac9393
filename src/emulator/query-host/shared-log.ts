// How a dataset's events reach the query workers without being copied per query.
//
// The event store keeps, beside its in-memory events, the same JSON lines it writes to
// disk in SharedArrayBuffer chunks that only ever grow at their end. A query job carries
// a view of them: the chunks (shared, so posting them copies no bytes) and how many
// bytes of each are written. A worker parses what it has not parsed yet and keeps the
// events it parsed, so each event is parsed once per worker, not once per query.
//
// This is the one boundary between storage and the workers: a columnar store (issue 45)
// can replace the JSON lines with shared columns behind the same `EventLogView` shape.

/** Chunks hold whole lines; a line longer than this gets a chunk of its own size. */
const CHUNK_BYTES = 4 * 1024 * 1024;

/** What a job carries of one dataset's events: every chunk, and the bytes written in each. */
export interface EventLogView {
  chunks: SharedArrayBuffer[];
  /** Bytes written in each chunk when the view was taken; later bytes are not read. */
  lengths: number[];
}

/** The writing side (the emulator's request thread). */
export class SharedEventLog {
  private readonly chunks: SharedArrayBuffer[] = [];
  private readonly lengths: number[] = [];
  private readonly encoder = new TextEncoder();

  /** Appends JSON lines (without their newline). */
  append(lines: readonly string[]): void {
    for (const line of lines) {
      const bytes = this.encoder.encode(`${line}\n`);
      let last = this.chunks.length - 1;
      if (last < 0 || this.lengths[last]! + bytes.length > this.chunks[last]!.byteLength) {
        this.chunks.push(new SharedArrayBuffer(Math.max(CHUNK_BYTES, bytes.length)));
        this.lengths.push(0);
        last++;
      }
      new Uint8Array(this.chunks[last]!).set(bytes, this.lengths[last]!);
      this.lengths[last]! += bytes.length;
    }
  }

  view(): EventLogView {
    return { chunks: this.chunks.slice(), lengths: this.lengths.slice() };
  }
}

/** Where a reader has got to in a log. */
export interface ReadPosition {
  chunk: number;
  offset: number;
}

/**
 * The lines of `view` after `from`, parsed; `from` moves to the end of what was read.
 * Bytes are copied out of the shared chunk before decoding (TextDecoder refuses shared memory).
 */
export function readNewLines(view: EventLogView, from: ReadPosition): unknown[] {
  const decoder = new TextDecoder();
  const out: unknown[] = [];
  for (let c = from.chunk; c < view.chunks.length; c++) {
    const start = c === from.chunk ? from.offset : 0;
    const end = view.lengths[c]!;
    if (end > start) {
      const text = decoder.decode(new Uint8Array(view.chunks[c]!, start, end - start).slice());
      let lineStart = 0;
      for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", lineStart)) {
        out.push(JSON.parse(text.slice(lineStart, i)));
        lineStart = i + 1;
      }
    }
    from.chunk = c;
    from.offset = end;
  }
  return out;
}
