// The Terraform path refuses at plan what the organization's license refuses, as far as
// one resource's plan can count: the live counts plus this create, and its query windows.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { provider, tfApply, tfState } from "../lifecycle/helpers";
import { removeTempDirs, tempDir } from "../helpers/ods-cli";

let emu: EmulatorHandle;
let admin: OdsClient;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, dataDir: tempDir("ods-emu-"), license: "maxDatasets=1,maxQueryWindowSeconds=3600" });
  admin = new OdsClient({ url: emu.url, token: emu.adminToken });
  await admin.createDataset({ name: "tf-lic" });
});
afterAll(async () => {
  await admin.close();
  await emu.close();
  removeTempDirs();
});

const monitor = (rangeMinutes: number): Record<string, unknown> => ({
  name: `tf-lic-${rangeMinutes}`,
  type: "Threshold",
  apl_query: "['tf-lic'] | summarize count() by bin(_time, 1m)",
  operator: "Above",
  threshold: 1,
  interval_minutes: 5,
  range_minutes: rangeMinutes,
});

const writes = (): string[] => emu.requests().filter((r) => r.method !== "GET" && r.path !== "/v1/datasets/_apl").map((r) => `${r.method} ${r.path}`);

describe("license limits in the provider's plan", () => {
  it("refuses a dataset past maxDatasets, counting the live ones, with nothing written", async () => {
    const p = provider(emu.url, emu.adminToken);
    emu.resetRequests();
    const values = { name: "tf-lic-2" };
    const plan = await p.planResourceChange({ typeName: "ods_dataset", priorState: null, proposedNewState: tfState("ods_dataset", values), config: tfState("ods_dataset", values) });
    const text = (plan.diagnostics ?? []).map((d) => `${d.summary}: ${d.detail ?? ""}`).join("\n");
    expect(text).toContain("Over the organization's license: ods_dataset");
    expect(text).toContain('license limit maxDatasets: after this apply the organization would hold 2 datasets (1 now, 1 created); the license allows 1. Created: ods_dataset "tf-lic-2"');
    expect(writes()).toEqual([]);
    await p.close();
  });

  it("refuses a monitor whose range passes maxQueryWindowSeconds, and plans one within it", async () => {
    const p = provider(emu.url, emu.adminToken);
    const refused = await tfApply(p, "ods_monitor", null, monitor(90)).then(() => undefined, (e: unknown) => String(e));
    expect(refused).toContain('ods_monitor "tf-lic-90": license limit maxQueryWindowSeconds: its query reads 5400 s of data; the license allows 3600 (60 min)');
    const made = await tfApply(p, "ods_monitor", null, monitor(30));
    expect(made?.id).toBeTruthy();
    await p.close();
  });
});
