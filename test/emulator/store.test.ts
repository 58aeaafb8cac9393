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
    // 200 writes of ~150 bytes passed 4 KiB many times: the journal was cut back.
    expect(fs.statSync(path.join(dir, "journal.ndjson")).size).toBeLessThan(4096 + 512);
    const expected = [...store.state.things.entries()];
    // Not closed: recovery must work from whatever is on disk.
    const reopened = await Store.open(dir, empty);
    expect([...reopened.state.things.entries()]).toEqual(expected);
    await reopened.close();
    await store.close();
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
