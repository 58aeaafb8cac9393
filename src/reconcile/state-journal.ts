// The state's journal file: what an apply learned since the state was last written whole.
//
// Rewriting the whole state after every few answers costs O(N) per write, O(N²) per apply.
// Instead each answer is appended (with fsync) to a journal file, one JSON line per changed
// address, and the journal is compacted into the state (a whole, crash-safe write) only
// when it holds as many entries as half the state: O(N) in all. (A pg state keeps its
// journal in a table instead: backends/pg-journal.ts.)
//
// The journal's first line names the state it extends (lineage and serial). A whole write
// bumps the serial and then removes the journal; a journal whose base is not the state
// read is therefore already part of it, and is ignored. A line torn by a kill mid-append
// ends the journal: the answer it carried was never acknowledged, as with a torn write.
import * as fs from "node:fs";
import * as path from "node:path";
import type { JournalBase, JournalEntry, StateJournal } from "./backends/types";

export type { JournalBase, JournalEntry } from "./backends/types";

/** The entries of the journal at FILE that extend the state BASE; none when it extends another. */
export function readJournal(file: string, base: JournalBase): JournalEntry[] {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
  const lines = text.split("\n");
  lines.pop(); // after the last newline: empty, or a line torn by a kill
  const entries: JournalEntry[] = [];
  for (const [i, line] of lines.entries()) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      break; // written no further
    }
    const rec = parsed as { lineage?: unknown; serial?: unknown; a?: unknown; r?: unknown };
    if (i === 0) {
      if (rec.lineage !== base.lineage || rec.serial !== base.serial) return [];
      continue;
    }
    if (typeof rec.a !== "string") break;
    entries.push({ address: rec.a, resource: rec.r ?? null });
  }
  return entries;
}

/**
 * Applies journal entries to a state document in Terraform's format (managed, top-level
 * resources are keyed `type.name`); answers the document's text.
 */
export function replayJournal(text: string, entries: readonly JournalEntry[]): string {
  if (entries.length === 0) return text;
  const doc = JSON.parse(text) as { resources?: { module?: string; mode?: string; type?: string; name?: string }[] };
  const latest = new Map<string, unknown>();
  for (const e of entries) latest.set(e.address, e.resource);
  const kept = (doc.resources ?? []).filter((r) => r.mode !== "managed" || r.module || !latest.has(`${r.type}.${r.name}`));
  for (const resource of latest.values()) if (resource) kept.push(resource as (typeof kept)[number]);
  doc.resources = kept;
  return JSON.stringify(doc, null, 2);
}

/** A journal in one file (mode 0600: its entries hold what the state holds), each batch synced before append resolves. */
export class FileJournal implements StateJournal {
  private fd: number | undefined;
  private base: JournalBase | undefined;

  constructor(
    readonly file: string,
    readonly maxLagSeconds?: number,
  ) {}

  get description(): string {
    return `journal ${this.file}`;
  }

  async read(base: JournalBase): Promise<JournalEntry[]> {
    return readJournal(this.file, base);
  }

  async append(base: JournalBase, entries: readonly JournalEntry[]): Promise<void> {
    if (entries.length === 0) return;
    if (this.fd === undefined || this.base?.lineage !== base.lineage || this.base.serial !== base.serial) {
      // A new journal for this base; whatever was there extends an older state (see above).
      this.closeFd();
      fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
      this.fd = fs.openSync(this.file, "w", 0o600);
      this.base = { ...base };
      fs.writeSync(this.fd, `${JSON.stringify({ lineage: base.lineage, serial: base.serial })}\n`);
    }
    const text = entries.map((e) => `${JSON.stringify({ a: e.address, r: e.resource })}\n`).join("");
    fs.writeSync(this.fd, text);
    fs.fdatasyncSync(this.fd);
  }

  async discard(): Promise<void> {
    this.closeFd();
    fs.rmSync(this.file, { force: true });
  }

  async close(): Promise<void> {
    this.closeFd();
  }

  private closeFd(): void {
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
    this.base = undefined;
  }
}
