// ods_dataset_field is claimed, not created (ingest creates fields), and forgotten, not
// deleted, by both engines.
import { beforeAll, describe, expect, it } from "vitest";
import { decideAction } from "../../src/lifecycle";
import { datasetField } from "../../src/resources/dataset-field";
import { provider, tfApply, useRig } from "../lifecycle/helpers";

const use = useRig();
beforeAll(async () => {
  await use.rig.admin.createDataset({ name: "claims" } as never);
  await use.rig.admin.ingest("claims", [{ duration_ms: 12 }] as never);
});

describe("ods_dataset_field", () => {
  it("plans a claim of the existing field", () => {
    expect(decideAction(datasetField, { dataset: "claims", name: "duration_ms" }, undefined, undefined, false, "s").reasons).toContain("claims the existing field");
  });

  it("claims a field that ingest made, sets its metadata, and leaves it in place when forgotten", async () => {
    const p = provider(use.rig.emu.url, use.rig.emu.adminToken);
    const state = await tfApply(p, "ods_dataset_field", null, { dataset: "claims", name: "duration_ms", unit: "ms" });
    expect(state?.id).toBe("claims/duration_ms");
    expect((await use.rig.admin.getDatasetField("claims", "duration_ms")).unit).toBe("ms");
    await tfApply(p, "ods_dataset_field", state, null);
    expect((await use.rig.admin.getDatasetField("claims", "duration_ms")).unit).toBe("ms");
  });

  it("refuses to claim a field that no event has made, saying how fields come to be", async () => {
    const p = provider(use.rig.emu.url, use.rig.emu.adminToken);
    await expect(tfApply(p, "ods_dataset_field", null, { dataset: "claims", name: "nope" })).rejects.toThrow(
      /does not exist in dataset "claims": fields are created by ingesting events, then claimed/,
    );
  });
});
