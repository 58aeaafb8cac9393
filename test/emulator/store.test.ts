// The journal + snapshot store on its own: compaction while running, and recovery of a
// store that was never closed (as after a crash).
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { Store } from "../../src/emulator/store";
import { tempDir } from "./helpers";

const empty = () => ({ things: new Map<string, { n: number; pad: string }>() });

describe("store", () => {
  it("compacts the journal into the snapshot while running, losing nothing", async () => {
    const dir = tempDir();
    const store = await Store.open(dir, empty, 4096);
    for (let i = 0; i < 200; i++) {
      const tx = store.tx().put("things", `t${i}`, { n: i, pad: "x".repeat(100) });
      if (i % 3 === 0 && i > 0) tx.delete("things", `t${i - 1}`);
      await tx.commit();
    }
    // 200 writes of ~150 bytes (30 KB) passed 4 KiB many times: the journal was cut back
    // whenever it outgrew both that and the snapshot (so that compactions cost O(1) per
    // byte written, however large the state).
    const journalBytes = fs.statSync(path.join(dir, "journal.ndjson")).size;
    const snapshotBytes = fs.statSync(path.join(dir, "state.json")).size;
    expect(journalBytes).toBeLessThan(Math.max(4096, snapshotBytes) + 512);
    expect(journalBytes).toBeLessThan(15_000);
    const expected = [...store.state.things.entries()];
    // Not closed: recovery must work from whatever is on disk.
    const reopened = await Store.open(dir, empty);
    expect([...reopened.state.things.entries()]).toEqual(expected);
    await reopened.close();
    await store.close();
  });

  it("keeps an index by a derived key current through puts, key changes and deletes, and builds it from what a reopened store holds", async () => {
    const dir = tempDir();
    const store = await Store.open(dir, empty);
    const byPad = store.index("things", (t) => t.pad);
    await store.tx().put("things", "a", { n: 1, pad: "x" }).put("things", "b", { n: 2, pad: "y" }).put("things", "c", { n: 3, pad: "x" }).commit();
    expect([...byPad.get("x")]).toEqual(["a", "c"]);
    await store.tx().put("things", "a", { n: 4, pad: "x" }).commit(); // same key: same place
    expect([...byPad.get("x")]).toEqual(["a", "c"]);
    await store.tx().put("things", "c", { n: 3, pad: "y" }).delete("things", "b").commit();
    expect([...byPad.get("x")]).toEqual(["a"]);
    expect([...byPad.get("y")]).toEqual(["c"]);
    expect(byPad.get("z").size).toBe(0);
    await store.close();
    const reopened = await Store.open(dir, empty);
    const again = reopened.index("things", (t) => t.pad);
    expect([...again.get("y")]).toEqual(["c"]);
    await reopened.close();
  });

  it("group-commits concurrent writes and applies them in order", async () => {
    const dir = tempDir();
    const store = await Store.open(dir, empty);
    await Promise.all(Array.from({ length: 100 }, (_, i) => store.tx().put("things", "same", { n: i, pad: "" }).commit()));
    expect(store.state.things.get("same")?.n).toBe(99);
    const reopened = await Store.open(dir, empty);
    expect(reopened.state.things.get("same")?.n).toBe(99);
    await reopened.close();
    await store.close();
  });

  it("a batch with a value that cannot be written changes nothing, in memory or on disk", async () => {
    const dir = tempDir();
    const store = await Store.open(dir, empty);
    await store.tx().put("things", "kept", { n: 1, pad: "" }).commit();
    const cyclic = { n: 2, pad: "" } as { n: number; pad: string; self?: unknown };
    cyclic.self = cyclic;
    expect(() => store.tx().put("things", "kept", { n: 9, pad: "" }).delete("things", "kept").put("things", "bad", cyclic)).toThrow(TypeError);
    expect([...store.state.things.entries()]).toEqual([["kept", { n: 1, pad: "" }]]);
    await store.close();
    const reopened = await Store.open(dir, empty);
    expect([...reopened.state.things.entries()]).toEqual([["kept", { n: 1, pad: "" }]]);
    await reopened.close();
  });
});
