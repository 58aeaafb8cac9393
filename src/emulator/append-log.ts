// An append-only file of JSON lines whose appends are durable when their promise
// resolves (written and fsynced). Appends that arrive while a flush is in progress are
// written together by the next flush ("group commit"), so many concurrent writers pay
// for one fsync instead of one each.
import * as fs from "node:fs";
import * as path from "node:path";
import { parseJoinedLines } from "./json-text";

interface PendingAppend {
  data: Buffer;
  resolve: () => void;
  reject: (err: unknown) => void;
}

export class AppendLog {
  private queue: PendingAppend[] = [];
  private flushing: Promise<void> | undefined;
  private closed = false;
  private bytes: number;

  private constructor(
    readonly path: string,
    private readonly handle: fs.promises.FileHandle,
    size: number,
    /** Runs between flushes, when no write is in flight (used for compaction). */
    private readonly afterFlush?: (log: AppendLog) => Promise<void>,
  ) {
    this.bytes = size;
  }

  static async open(file: string, afterFlush?: (log: AppendLog) => Promise<void>): Promise<AppendLog> {
    const handle = await fs.promises.open(file, "a", 0o600);
    const { size } = await handle.stat();
    return new AppendLog(file, handle, size, afterFlush);
  }

  /** Bytes in the file, including appends not yet flushed. */
  get size(): number {
    return this.bytes;
  }

  append(lines: readonly string[]): Promise<void> {
    return this.appendBytes(lines.length === 0 ? Buffer.alloc(0) : Buffer.from(lines.join("\n") + "\n"));
  }

  /** Appends `bytes`: whole lines in UTF-8, each ending in a newline. */
  appendBytes(bytes: Buffer): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`append to closed log ${this.path}`));
    if (bytes.length === 0) return Promise.resolve();
    this.bytes += bytes.length;
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ data: bytes, resolve, reject });
      if (!this.flushing) this.flushing = this.drain();
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0);
      try {
        // The appends of one flush in one write.
        await this.handle.write(batch.length === 1 ? batch[0]!.data : Buffer.concat(batch.map((p) => p.data)));
        await this.handle.sync();
        for (const p of batch) p.resolve();
      } catch (err) {
        for (const p of batch) p.reject(err);
      }
      if (this.afterFlush && this.queue.length === 0) {
        try {
          await this.afterFlush(this);
        } catch (err) {
          process.stderr.write(`ods emulator: compaction of ${this.path} failed: ${String(err)}\n`);
        }
      }
    }
    this.flushing = undefined;
  }

  /** Empties the file (after its content was saved elsewhere). Only call from afterFlush. */
  async truncate(): Promise<void> {
    await this.handle.truncate(0);
    await this.handle.sync();
    this.bytes = 0;
  }

  /** Waits for pending appends, then closes the file. */
  async close(): Promise<void> {
    this.closed = true;
    while (this.flushing) await this.flushing;
    await this.handle.close();
  }
}

/**
 * Reads a JSON-lines file written by AppendLog. A crash can leave the last line torn
 * (no newline, or cut JSON); that append was never acknowledged, so it is dropped and
 * the file cut back to the last whole line, so that the next append starts a clean
 * line. A bad line anywhere else is corruption and throws.
 */
export function readJsonLines(file: string): unknown[] {
  const values: unknown[] = [];
  forEachJsonLine(file, (value) => values.push(value));
  return values;
}

/** Bytes read at a time: a large file is never held whole, as text or as lines. */
const READ_BYTES = 8 * 1024 * 1024;

/**
 * Each whole line of `file` in bytes [from, to) (`to` undefined: to the end), with the
 * byte offset where it starts; answers the bytes after the last newline (a torn tail,
 * empty for a clean file). Reads in pieces of READ_BYTES.
 */
export function forEachLine(
  file: string,
  from: number,
  to: number | undefined,
  each: (line: string, offset: number) => void,
  /** Offered each piece's whole lines first, as one text without its last newline; true: taken, `each` is not called for them. */
  whole?: (text: string) => boolean,
): { tail: string; tailOffset: number } {
  const fd = fs.openSync(file, "r");
  try {
    const end = to ?? fs.fstatSync(fd).size;
    let offset = from;
    let carry = Buffer.alloc(0);
    while (offset + carry.length < end) {
      const want = Math.min(READ_BYTES, end - offset - carry.length);
      const piece = Buffer.allocUnsafe(want);
      const got = fs.readSync(fd, piece, 0, want, offset + carry.length);
      if (got <= 0) break;
      const bytes = carry.length > 0 ? Buffer.concat([carry, piece.subarray(0, got)]) : piece.subarray(0, got);
      const last = bytes.lastIndexOf(10);
      if (last < 0) {
        carry = bytes;
        continue;
      }
      let start = whole?.(bytes.toString("utf8", 0, last)) ? last + 1 : 0;
      for (let nl = bytes.indexOf(10, start); nl !== -1 && nl <= last; nl = bytes.indexOf(10, start)) {
        each(bytes.toString("utf8", start, nl), offset + start);
        start = nl + 1;
      }
      offset += last + 1;
      carry = bytes.subarray(last + 1);
    }
    return { tail: carry.toString("utf8"), tailOffset: offset };
  } finally {
    fs.closeSync(fd);
  }
}

/** readJsonLines's reading, handing each value to `each` (a file of millions of lines is read in pieces). */
export function forEachJsonLine(file: string, each: (value: unknown) => void): void {
  let bad: { line: number; offset: number } | undefined;
  let lineNo = 0;
  let tail: { tail: string; tailOffset: number };
  try {
    // A piece whose lines parse as one array is taken whole (a parse per line cost most of a
    // restart's reload); one that does not, or anything after a bad line, goes line by line.
    const whole = (text: string): boolean => {
      if (bad) return false;
      const values = parseJoinedLines(text);
      if (!values) return false;
      lineNo += text.split("\n").length;
      for (const value of values) each(value);
      return true;
    };
    tail = forEachLine(file, 0, undefined, (line, offset) => {
      lineNo++;
      // A bad line is corruption unless it is the last line and nothing follows it.
      if (bad) throw new Error(`${file}: unreadable line ${bad.line}; the file is corrupt`);
      if (line.trim() === "") return;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        bad = { line: lineNo, offset };
        return;
      }
      each(value);
    }, whole);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return;
    throw err;
  }
  if (bad) {
    if (tail.tail.trim() !== "") throw new Error(`${file}: unreadable line ${bad.line}; the file is corrupt`);
    fs.truncateSync(file, bad.offset);
    return;
  }
  if (tail.tail !== "") fs.truncateSync(file, tail.tailOffset);
}

/** Replaces a file atomically: temp file, fsync, rename, fsync of the directory. */
export function writeFileAtomic(file: string, data: string, mode = 0o600): void {
  const tmp = `${file}.tmp-${process.pid}`;
  const fd = fs.openSync(tmp, "w", mode);
  try {
    fs.writeSync(fd, data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
  syncDirectory(path.dirname(file));
}

/** Makes a rename or unlink in `dir` durable. */
export function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, "r");
    fs.fsyncSync(fd);
  } catch {
    // Some filesystems refuse fsync on directories; the rename itself is still atomic.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
