// Both engines through the one lifecycle: after a lost create answer they take over the
// object the lost call made, never one already managed; an import records the same
// values in both.
import { describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { importValues } from "../../src/lifecycle";
import { tempDir } from "../emulator/helpers";
import { odsApply, provider, tfApply, tfState, useRig } from "./helpers";

const use = useRig();

async function namedNotifiers(name: string): Promise<string[]> {
  return (await use.rig.admin.listNotifiers()).filter((n) => n.name === name).map((n) => n.id);
}

const notifier = (name: string) => ({ name, properties: { webhook: { url: "https://hooks.example.com/a" } } });

describe("a lost create answer, with an object of the same natural key already managed", () => {
  it("ods apply takes over the object the lost call made, not the managed one", async () => {
    const dir = tempDir();
    const client = new OdsClient({ url: use.rig.proxy.url, token: use.rig.emu.adminToken });
    try {
      const first = await odsApply(client, dir, { resource: { ods_notifier: { a: notifier("dup-ods") } } });
      const managedId = first.state.resources["ods_notifier.a"].id;
      use.rig.proxy.loseNextAnswer("POST", /notifiers/);
      // a is renamed while b takes its old name: until a's update lands, two live objects have it.
      const second = await odsApply(client, dir, { resource: { ods_notifier: { a: notifier("dup-ods-renamed"), b: notifier("dup-ods") } } });
      expect(use.rig.proxy.lost).toBeGreaterThan(0);
      expect(second.summary.errors).toEqual([]);
      const ids = [...(await namedNotifiers("dup-ods")), ...(await namedNotifiers("dup-ods-renamed"))];
      expect(ids).toHaveLength(2);
      expect(second.state.resources["ods_notifier.a"].id).toBe(managedId);
      expect(second.state.resources["ods_notifier.b"].id).not.toBe(managedId);
      expect(ids).toContain(second.state.resources["ods_notifier.b"].id);
    } finally {
      await client.close();
    }
  });

  it("the Terraform provider does the same with the ids Terraform's state showed it", async () => {
    const managed = await use.rig.admin.createNotifier(notifier("dup-tf") as never);
    const p = provider(use.rig.proxy.url, use.rig.emu.adminToken);
    // Terraform refreshes what it manages before it applies.
    const refreshed = await p.readResource({ typeName: "ods_notifier", currentState: tfState("ods_notifier", { id: managed.id, ...notifier("dup-tf") }) });
    expect(refreshed.newState?.id).toBe(managed.id);
    // The managed one is being renamed in the same run, freeing its name for the new one.
    const renamed = { ...refreshed.newState!, ...tfState("ods_notifier", { id: managed.id, ...notifier("dup-tf-renamed") }) };
    const renamePlan = await p.planResourceChange({ typeName: "ods_notifier", priorState: refreshed.newState!, proposedNewState: renamed, config: renamed });
    expect(renamePlan.diagnostics ?? []).toEqual([]);
    const lostBefore = use.rig.proxy.lost;
    use.rig.proxy.loseNextAnswer("POST", /notifiers/);
    const created = await tfApply(p, "ods_notifier", null, notifier("dup-tf"));
    expect(use.rig.proxy.lost).toBe(lostBefore + 1);
    const ids = await namedNotifiers("dup-tf");
    expect(ids).toHaveLength(2);
    expect(created?.id).not.toBe(managed.id);
    expect(ids).toContain(created?.id);
  });
});

describe("import", () => {
  it("ods import and terraform import record the same values", async () => {
    const role = await use.rig.admin.createRole({ name: "imported-role", description: "", members: [] } as never);
    const p = provider(use.rig.emu.url, use.rig.emu.adminToken);
    const tf = await p.importResourceState({ typeName: "ods_role", id: role.id });
    const live = await use.rig.admin.getRole(role.id);
    const expected = importValues((await import("../../src/resources/role")).role, live as never);
    // What the service answers as "" or [] is recorded as unset by both.
    expect(expected.description).toBeNull();
    expect(expected.members).toBeNull();
    expect(tf.imported[0].state).toMatchObject({ id: role.id, name: "imported-role", description: null, members: null });
  });
});

describe("an update of a starred query whose stack drops who", () => {
  // Updates replace the whole query: a who left out of the body would fall back to the caller.
  const query = (who: string | undefined, apl: string) => ({ dataset: "kept-who", name: "kept", ...(who ? { who } : {}), query: { apl } });

  it("keeps who in both engines, as Terraform plans its current value", async () => {
    await use.rig.admin.createDataset({ name: "kept-who", description: "" });
    const dir = tempDir();
    const client = new OdsClient({ url: use.rig.emu.url, token: use.rig.emu.adminToken });
    try {
      await odsApply(client, dir, { resource: { ods_starred_query: { q: query("all", "['kept-who'] | take 1") } } });
      const run = await odsApply(client, dir, { resource: { ods_starred_query: { q: query(undefined, "['kept-who'] | take 2") } } });
      expect(run.plan.changes.map((c) => c.action)).toEqual(["update"]);
    } finally {
      await client.close();
    }
    const p = provider(use.rig.emu.url, use.rig.emu.adminToken);
    const first = await tfApply(p, "ods_starred_query", null, { ...query("all", "['kept-who'] | take 1"), name: "kept-tf" });
    await tfApply(p, "ods_starred_query", first, { ...query(undefined, "['kept-who'] | take 2"), name: "kept-tf" });
    const live = await use.rig.admin.listAllStarredQueries({ dataset: "kept-who", who: "all" });
    expect(live.map((q) => [q.name, q.who, q.query.apl]).sort()).toEqual([
      ["kept", "all", "['kept-who'] | take 2"],
      ["kept-tf", "all", "['kept-who'] | take 2"],
    ]);
  });
});

describe("a dataset renamed in the same change that sets allow_destroy", () => {
  // Replacing a dataset deletes its data: the configuration being applied must allow it.
  const ds = (name: string, allow?: boolean) => ({ name, ...(allow === undefined ? {} : { allow_destroy: allow }) });

  it("is replaced by both engines, and refused by both without allow_destroy", async () => {
    const dir = tempDir();
    const client = new OdsClient({ url: use.rig.emu.url, token: use.rig.emu.adminToken });
    try {
      await odsApply(client, dir, { resource: { ods_dataset: { d: ds("ren-ods-1") } } });
      await expect(odsApply(client, dir, { resource: { ods_dataset: { d: ds("ren-ods-2") } } })).rejects.toThrow(/allow_destroy/);
      const run = await odsApply(client, dir, { resource: { ods_dataset: { d: ds("ren-ods-2", true) } } });
      expect(run.plan.changes.map((c) => c.action)).toEqual(["replace"]);
    } finally {
      await client.close();
    }
    const p = provider(use.rig.emu.url, use.rig.emu.adminToken);
    const first = await tfApply(p, "ods_dataset", null, ds("ren-tf-1"));
    await expect(tfApply(p, "ods_dataset", first, ds("ren-tf-2"))).rejects.toThrow(/allow_destroy/);
    const replaced = await tfApply(p, "ods_dataset", first, ds("ren-tf-2", true));
    expect(replaced?.name).toBe("ren-tf-2");
  });
});

describe("a dataset field whose stack drops its unit", () => {
  // A field's write merges into the field as it is: what the body leaves out would stay.
  it("has no unit left after either engine applies", async () => {
    await use.rig.admin.createDataset({ name: "unit-drop", description: "" });
    await use.rig.admin.ingest("unit-drop", [{ a: 1, b: 2 }]);
    const dir = tempDir();
    const client = new OdsClient({ url: use.rig.emu.url, token: use.rig.emu.adminToken });
    try {
      await odsApply(client, dir, { resource: { ods_dataset_field: { a: { dataset: "unit-drop", name: "a", unit: "ms", description: "x" } } } });
      await odsApply(client, dir, { resource: { ods_dataset_field: { a: { dataset: "unit-drop", name: "a" } } } });
    } finally {
      await client.close();
    }
    const p = provider(use.rig.emu.url, use.rig.emu.adminToken);
    const first = await tfApply(p, "ods_dataset_field", null, { dataset: "unit-drop", name: "b", unit: "ms", description: "x" });
    await tfApply(p, "ods_dataset_field", first, { dataset: "unit-drop", name: "b" });
    const fields = await use.rig.admin.listDatasetFields("unit-drop");
    expect(fields.filter((f) => f.name === "a" || f.name === "b").map((f) => [f.name, f.unit, f.description]).sort()).toEqual([
      ["a", "", ""],
      ["b", "", ""],
    ]);
  });
});
