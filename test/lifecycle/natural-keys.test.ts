// Two declarations with one natural key: `ods plan` refuses them naming both addresses,
// before any write; the Terraform provider (which sees one resource at a time) refuses
// the second create before it writes.
import { describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { PlanError } from "../../src/reconcile/plan";
import { tempDir } from "../emulator/helpers";
import { odsApply, provider, tfApply, useRig } from "./helpers";

const use = useRig();
const notifier = (name: string) => ({ name, properties: { webhook: { url: "https://hooks.example.com/a" } } });

function writes(): number {
  return use.rig.emu.requests().filter((r) => r.method !== "GET").length;
}

describe("duplicate natural keys in one stack", () => {
  const cases: [string, Record<string, Record<string, Record<string, unknown>>>, string[]][] = [
    ["two notifiers", { ods_notifier: { a: notifier("nk-one"), b: notifier("nk-one") } }, ["ods_notifier.a", "ods_notifier.b"]],
    ["two roles", { ods_role: { a: { name: "nk-role" }, b: { name: "nk-role" } } }, ["ods_role.a", "ods_role.b"]],
    ["two tokens", { ods_api_token: { a: { name: "nk-tok" }, b: { name: "nk-tok" } } }, ["ods_api_token.a", "ods_api_token.b"]],
    ["two datasets, after other writes would have run", { ods_role: { r: { name: "nk-first" } }, ods_dataset: { a: { name: "nk-ds" }, b: { name: "nk-ds" } } }, ["ods_dataset.a", "ods_dataset.b"]],
    ["two users", { ods_user: { a: { email: "nk@example.com", name: "A", role: "user" }, b: { email: "nk@example.com", name: "B", role: "user" } } }, ["ods_user.a", "ods_user.b"]],
  ];
  for (const [what, resource, addresses] of cases) {
    it(`ods plan refuses ${what}, naming both, with zero writes`, async () => {
      const client = new OdsClient({ url: use.rig.emu.url, token: use.rig.emu.adminToken });
      const before = writes();
      try {
        const err = await odsApply(client, tempDir(), { resource }).then(() => undefined, (e: unknown) => e);
        expect(err).toBeInstanceOf(PlanError);
        for (const a of addresses) expect((err as Error).message).toContain(a);
        expect(writes()).toBe(before);
      } finally {
        await client.close();
      }
    });
  }

  it("terraform: the second create of one name is refused before it writes", async () => {
    const p = provider(use.rig.emu.url, use.rig.emu.adminToken);
    await tfApply(p, "ods_notifier", null, notifier("nk-tf"));
    const before = writes();
    await expect(tfApply(p, "ods_notifier", null, notifier("nk-tf"))).rejects.toThrow(/Refusing to create ods_notifier: name \["nk-tf"\].*another resource of this configuration manages it/s);
    expect(writes()).toBe(before);
    expect((await use.rig.admin.listNotifiers()).filter((n) => n.name === "nk-tf")).toHaveLength(1);
  });
});
