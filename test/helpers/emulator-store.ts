// What the emulator stored, read from its data directory (snapshot and journal): the
// write-only secrets it never answers are there, so a test can prove they arrived.
import * as fs from "node:fs";
import * as path from "node:path";

/** The records of one collection (`notifiers`), as stored, secrets included. */
export function storedRecords(dataDir: string, collection: string): Record<string, unknown>[] {
  const byId = new Map<string, unknown>();
  const snapshot = path.join(dataDir, "state.json");
  if (fs.existsSync(snapshot)) {
    const s = JSON.parse(fs.readFileSync(snapshot, "utf8")) as { collections: Record<string, [string, unknown][]> };
    for (const [id, v] of s.collections[collection] ?? []) byId.set(id, v);
  }
  const journal = path.join(dataDir, "journal.ndjson");
  if (fs.existsSync(journal)) {
    for (const line of fs.readFileSync(journal, "utf8").split("\n")) {
      if (!line.trim()) continue;
      const j = JSON.parse(line) as { c: string; id: string; v?: unknown; d?: 1 };
      if (j.c !== collection) continue;
      if (j.d) byId.delete(j.id);
      else byId.set(j.id, j.v);
    }
  }
  return [...byId.values()] as Record<string, unknown>[];
}
