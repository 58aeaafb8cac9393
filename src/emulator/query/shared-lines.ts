// Lines of text in SharedArrayBuffer chunks that only ever grow at their end: written by
// one thread, read by others without a copy per reader. A view (the chunks and the bytes
// written in each) stays valid while the writer goes on; a reader keeps its position and
// reads only what was written since. Both the event store's JSON lines
// (query-host/shared-log.ts) and a string column's dictionary (columns.ts) are these.

/** Chunks hold whole lines; a line longer than this gets a chunk of its own size. */
const DEFAULT_CHUNK_BYTES = 4 * 1024 * 1024;

/** Every chunk, and the bytes written in each when the view was taken. */
export interface SharedLinesView {
  chunks: SharedArrayBuffer[];
  lengths: number[];
}

/** The writing side. */
export class SharedLines {
  private readonly chunks: SharedArrayBuffer[] = [];
  private readonly lengths: number[] = [];
  private readonly encoder = new TextEncoder();

  constructor(private readonly chunkBytes = DEFAULT_CHUNK_BYTES) {}

  /** Appends lines (without their newline; a line holds none). */
  append(lines: readonly string[]): void {
    for (const line of lines) {
      const bytes = this.encoder.encode(`${line}\n`);
      let last = this.chunks.length - 1;
      if (last < 0 || this.lengths[last]! + bytes.length > this.chunks[last]!.byteLength) {
        this.chunks.push(new SharedArrayBuffer(Math.max(this.chunkBytes, bytes.length)));
        this.lengths.push(0);
        last++;
      }
      new Uint8Array(this.chunks[last]!).set(bytes, this.lengths[last]!);
      this.lengths[last]! += bytes.length;
    }
  }

  view(): SharedLinesView {
    return { chunks: this.chunks.slice(), lengths: this.lengths.slice() };
  }
}

/** Where a reader has got to. */
export interface ReadPosition {
  chunk: number;
  offset: number;
}

/**
 * The text of the lines of `view` after `from`, one string per chunk read (each ends
 * with a newline); `from` moves to the end of what was read. Bytes are copied out of
 * the shared chunk before decoding (TextDecoder refuses shared memory).
 */
export function readNewText(view: SharedLinesView, from: ReadPosition): string[] {
  const decoder = new TextDecoder();
  const out: string[] = [];
  for (let c = from.chunk; c < view.chunks.length; c++) {
    const start = c === from.chunk ? from.offset : 0;
    const end = view.lengths[c]!;
    if (end > start) out.push(decoder.decode(new Uint8Array(view.chunks[c]!, start, end - start).slice()));
    from.chunk = c;
    from.offset = end;
  }
  return out;
}

/** The JSON values of the lines of `view` after `from`, parsed a chunk at a time as one array. */
export function readNewValues(view: SharedLinesView, from: ReadPosition): unknown[] {
  const out: unknown[] = [];
  for (const text of readNewText(view, from)) {
    const values = JSON.parse(`[${text.slice(0, -1).replaceAll("\n", ",")}]`) as unknown[];
    for (const v of values) out.push(v);
  }
  return out;
}
