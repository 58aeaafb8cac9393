// After a killed `terraform apply` (its create reached the service, its state was never
// written), the provider's next create finds the unmanaged object by natural key and
// adopts it, as `ods apply` does: never a second object. One another resource manages is
// never taken.
import { describe, expect, it } from "vitest";
import { provider, tfApply, tfState, useRig } from "../lifecycle/helpers";

const use = useRig();

describe("the provider's create after a killed apply", () => {
  it("adopts an unmanaged notifier with the same name instead of making a second one", async () => {
    const orphan = await use.rig.admin.createNotifier({ name: "orphan-n", properties: { email: { emails: ["a@example.com"] } } });
    const p = provider(use.rig.emu.url, use.rig.emu.adminToken);
    const state = await tfApply(p, "ods_notifier", null, { name: "orphan-n", properties: { email: { emails: ["b@example.com"] } } });
    const live = (await use.rig.admin.listNotifiers()).filter((n) => n.name === "orphan-n");
    expect(live.map((n) => n.id)).toEqual([orphan.id]);
    expect(state?.id).toBe(orphan.id);
    expect(live[0].properties.email?.emails).toEqual(["b@example.com"]);
  });

  it("adopts an unmanaged token by rotating it: one working token, its secret in state", async () => {
    const orphan = await use.rig.admin.createToken({ name: "orphan-t", description: "ci" } as never);
    const p = provider(use.rig.emu.url, use.rig.emu.adminToken);
    const state = await tfApply(p, "ods_api_token", null, { name: "orphan-t", description: "ci" });
    const current = (await use.rig.admin.listTokens()).filter((t) => t.name === "orphan-t" && !t.expiresAt);
    expect(current.map((t) => t.id)).toEqual([state?.id]);
    expect(state?.id).not.toBe(orphan.id);
    expect(typeof state?.token).toBe("string");
  });

  it("never takes an object another resource of the state manages", async () => {
    const p = provider(use.rig.emu.url, use.rig.emu.adminToken);
    const first = await tfApply(p, "ods_role", null, { name: "held-role" });
    // The provider saw it in Terraform's state (a refresh): it is managed.
    await p.readResource({ typeName: "ods_role", currentState: first ?? tfState("ods_role", {}) });
    const second = await tfApply(p, "ods_role", null, { name: "held-role" }).then(() => undefined, (e: unknown) => e);
    expect(String(second)).toMatch(/Duplicate ods_role/);
    expect((await use.rig.admin.listRoles()).filter((r) => r.name === "held-role")).toHaveLength(1);
  });
});
