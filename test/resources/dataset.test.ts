// ods_dataset's guard: deleting or replacing a dataset deletes its events, so both
// engines refuse it, in words, unless allow_destroy is true.
import { describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { deletionRefusal, replacementRefusal } from "../../src/lifecycle";
import { dataset } from "../../src/resources/dataset";
import { tempDir } from "../emulator/helpers";
import { odsApply, provider, tfApply, useRig } from "../lifecycle/helpers";

const use = useRig();

describe("ods_dataset guard", () => {
  it("states what deleting does and how to allow it", () => {
    expect(deletionRefusal(dataset, { allow_destroy: false }, { name: "logs" }, "logs", "")).toBe(
      'deleting ods_dataset "logs" deletes all of its data; set allow_destroy = true and apply before removing it',
    );
    expect(deletionRefusal(dataset, { allow_destroy: true }, { name: "logs" }, "logs", "")).toBeUndefined();
    expect(replacementRefusal(dataset, { name: "b" }, ["name cannot be changed in place"])).toMatch(/replacing it deletes all of its data; set allow_destroy = true/);
  });

  it("ods refuses to remove a guarded dataset from the stack, and nothing is deleted", async () => {
    const dir = tempDir();
    const client = new OdsClient({ url: use.rig.emu.url, token: use.rig.emu.adminToken });
    try {
      await odsApply(client, dir, { resource: { ods_dataset: { d: { name: "guarded-ods" } } } });
      // Another object stays declared: a stack emptied altogether is refused as such (plan.ts).
      await expect(odsApply(client, dir, { resource: { ods_dataset: { other: { name: "kept-ods" } } } })).rejects.toThrow(/deleting ods_dataset "guarded-ods" deletes all of its data/);
      const names = (await use.rig.admin.listDatasets()).map((d) => d.name);
      expect(names).toContain("guarded-ods");
      expect(names, "nothing of the refused apply is written").not.toContain("kept-ods");
    } finally {
      await client.close();
    }
  });

  it("the provider refuses the same delete and replacement at plan time", async () => {
    const p = provider(use.rig.emu.url, use.rig.emu.adminToken);
    const state = await tfApply(p, "ods_dataset", null, { name: "guarded-tf" });
    const destroy = await p.planResourceChange({ typeName: "ods_dataset", priorState: state, proposedNewState: null, config: null });
    expect(destroy.diagnostics?.[0]?.summary).toBe('Refusing to delete ods_dataset "guarded-tf"');
    expect(destroy.diagnostics?.[0]?.detail).toMatch(/deletes all of its data; set allow_destroy = true/);
    await expect(tfApply(p, "ods_dataset", state, { name: "guarded-tf-2" })).rejects.toThrow(/Refusing to replace ods_dataset "guarded-tf"/);
    expect((await use.rig.admin.listDatasets()).map((d) => d.name)).toContain("guarded-tf");
  });
});
