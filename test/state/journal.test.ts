// The state's journal (src/reconcile/state-journal.ts): an apply's answers appended between
// whole writes of a local state, read back by the next command, including after a SIGKILL.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { LocalBackend } from "../../src/reconcile/backends";
import { emptyState, StateStore, type ResourceState, type StateFile } from "../../src/reconcile/state";
import { ROOT, removeTempDirs, tempDir } from "../helpers/ods-cli";
import { killAfterSaved } from "./kill-trial";

afterEach(() => removeTempDirs());

function role(id: string, name: string): ResourceState {
  return { typeName: "ods_role", id, values: { name, description: `role ${name}` }, engineValues: {}, secretFingerprints: {}, dependsOn: [] };
}

function storeAt(file: string): StateStore {
  return new StateStore(new LocalBackend(file));
}

async function withRoles(store: StateStore, count: number): Promise<StateFile> {
  const state = emptyState();
  for (let i = 0; i < count; i++) state.resources[`ods_role.r${i}`] = role(`id-${i}`, `r${i}`);
  await store.write(state);
  return state;
}

describe("state journal", () => {
  it("appends changes without rewriting the state file; the next read sees them", async () => {
    const file = path.join(tempDir(), "terraform.tfstate");
    const store = storeAt(file);
    const state = await withRoles(store, 3);
    const written = fs.readFileSync(file, "utf8");
    state.resources["ods_role.new"] = role("id-new", "new");
    delete state.resources["ods_role.r1"];
    state.resources["ods_role.r2"] = role("id-2b", "r2");
    await store.writeChanges(state, ["ods_role.new", "ods_role.r1", "ods_role.r2"]);
    expect(fs.readFileSync(file, "utf8")).toBe(written);
    expect(fs.existsSync(`${file}.ods-journal`)).toBe(true);

    const read = await storeAt(file).read();
    expect(Object.keys(read.resources).sort()).toEqual(["ods_role.new", "ods_role.r0", "ods_role.r2"]);
    expect(read.resources["ods_role.r2"].id).toBe("id-2b");
    expect(read.lineage).toBe(state.lineage);
    // `ods state pull` shows the same.
    expect(JSON.parse((await storeAt(file).readText())!).resources).toHaveLength(3);
    await store.close();
  });

  it("a run's first save extends the state it read, with no whole write; a journal a killed run left is written in first", async () => {
    const file = path.join(tempDir(), "terraform.tfstate");
    await withRoles(storeAt(file), 3);
    const written = fs.readFileSync(file, "utf8");
    // The next run reads the state, then saves one answer: appended, the state file untouched.
    const run = storeAt(file);
    const state = await run.read();
    state.resources["ods_role.next"] = role("id-next", "next");
    await run.writeChanges(state, ["ods_role.next"]);
    expect(fs.readFileSync(file, "utf8")).toBe(written);
    expect(Object.keys((await storeAt(file).read()).resources)).toHaveLength(4);
    // That run is killed here (no close). The next one reads the state with its journal;
    // its first save writes the whole state, so the journal's entries stay durable.
    const after = storeAt(file);
    const recovered = await after.read();
    recovered.resources["ods_role.later"] = role("id-later", "later");
    await after.writeChanges(recovered, ["ods_role.later"]);
    expect(JSON.parse(fs.readFileSync(file, "utf8")).resources).toHaveLength(5);
    await after.close();
  });

  it("a whole write takes the journal in and removes it; a journal of an older serial is ignored", async () => {
    const file = path.join(tempDir(), "terraform.tfstate");
    const store = storeAt(file);
    const state = await withRoles(store, 2);
    state.resources["ods_role.x"] = role("id-x", "x");
    await store.writeChanges(state, ["ods_role.x"]);
    const journal = fs.readFileSync(`${file}.ods-journal`, "utf8");
    delete state.resources["ods_role.x"];
    await store.write(state);
    expect(fs.existsSync(`${file}.ods-journal`)).toBe(false);
    // A kill between the whole write and the journal's removal leaves this behind:
    fs.writeFileSync(`${file}.ods-journal`, journal);
    expect(Object.keys((await storeAt(file).read()).resources).sort()).toEqual(["ods_role.r0", "ods_role.r1"]);
  });

  it("ignores a line torn by a kill and keeps the ones before it", async () => {
    const file = path.join(tempDir(), "terraform.tfstate");
    const store = storeAt(file);
    const state = await withRoles(store, 1);
    state.resources["ods_role.a"] = role("id-a", "a");
    await store.writeChanges(state, ["ods_role.a"]);
    state.resources["ods_role.b"] = role("id-b", "b");
    await store.writeChanges(state, ["ods_role.b"]);
    const text = fs.readFileSync(`${file}.ods-journal`, "utf8");
    fs.writeFileSync(`${file}.ods-journal`, text.slice(0, text.length - 20));
    expect(Object.keys((await storeAt(file).read()).resources).sort()).toEqual(["ods_role.a", "ods_role.r0"]);
  });

  it("is compacted into the state once it holds as many entries as half the state (at least 1000)", async () => {
    const file = path.join(tempDir(), "terraform.tfstate");
    const store = storeAt(file);
    const state = await withRoles(store, 10);
    const serial = state.serial;
    for (let i = 0; i < 1000; i++) {
      state.resources[`ods_role.n${i}`] = role(`id-n${i}`, `n${i}`);
      await store.writeChanges(state, [`ods_role.n${i}`]);
    }
    expect(state.serial).toBe(serial);
    state.resources["ods_role.last"] = role("id-last", "last");
    await store.writeChanges(state, ["ods_role.last"]);
    expect(state.serial).toBe(serial + 1);
    expect(fs.existsSync(`${file}.ods-journal`)).toBe(false);
    expect(Object.keys(JSON.parse(fs.readFileSync(file, "utf8")).resources)).toHaveLength(1011);
  });

  it("a SIGKILL at a random moment loses no acknowledged entry and duplicates none", { timeout: 60_000 }, async () => {
    const dir = tempDir();
    const file = path.join(dir, "terraform.tfstate");
    // A child saves one entry at a time (compacting now and then) and prints each once saved.
    const script = `
      const { LocalBackend } = require(${JSON.stringify(path.join(ROOT, "lib/reconcile/backends"))});
      const { StateStore, emptyState } = require(${JSON.stringify(path.join(ROOT, "lib/reconcile/state"))});
      const role = (id, name) => ({ typeName: "ods_role", id, values: { name, description: "role " + name }, engineValues: {}, secretFingerprints: {}, dependsOn: [] });
      (async () => {
        const store = new StateStore(new LocalBackend(${JSON.stringify(file)}));
        const state = emptyState();
        await store.write(state);
        for (let i = 0; i < 5000; i++) {
          state.resources["ods_role.r" + i] = role("id-" + i, "r" + i);
          await store.writeChanges(state, ["ods_role.r" + i]);
          process.stdout.write("saved " + i + "\\n");
        }
      })();
    `;
    for (const killAt of [150, 1003, 2600]) {
      fs.rmSync(file, { force: true });
      fs.rmSync(`${file}.ods-journal`, { force: true });
      const acknowledged = await killAfterSaved(script, [], killAt);
      const read = await storeAt(file).read();
      const ids = Object.values(read.resources).map((r) => r.id);
      expect(new Set(ids).size).toBe(ids.length);
      for (let i = 0; i <= acknowledged; i++) expect(read.resources[`ods_role.r${i}`]?.id).toBe(`id-${i}`);
    }
  });
});
