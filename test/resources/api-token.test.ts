// ods_api_token's own rules: changes rotate it; an adopted token (no secret in state) is
// rotated with the old secret kept valid for the adoption grace period, never revoked at once.
import { planJson, renderPlan } from "../../src/reconcile/render";
import { describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { decideAction, oldSecretExpiry } from "../../src/lifecycle";
import { apiToken } from "../../src/resources/api-token";
import { tempDir } from "../emulator/helpers";
import { odsApply, provider, tfApply, tfState, useRig } from "../lifecycle/helpers";

const HOUR = 3_600_000;
const use = useRig();

describe("ods_api_token", () => {
  it("keeps an old secret for the declared grace period on a change, at least a second, and never less than 24h on adoption", () => {
    const now = Date.UTC(2027, 0, 1);
    const at = (iso: string): number => Date.parse(iso) - now;
    expect(at(oldSecretExpiry(apiToken, { rotation_grace_period: "1h" }, "change", now))).toBe(HOUR);
    expect(at(oldSecretExpiry(apiToken, { rotation_grace_period: "0s" }, "change", now))).toBe(1000);
    expect(at(oldSecretExpiry(apiToken, { rotation_grace_period: "0s" }, "adoption", now))).toBe(24 * HOUR);
    expect(at(oldSecretExpiry(apiToken, {}, "adoption", now))).toBe(24 * HOUR);
    expect(at(oldSecretExpiry(apiToken, { rotation_grace_period: "48h" }, "adoption", now))).toBe(48 * HOUR);
  });

  it("rotates on a changed description or trigger; a grace period change alone changes nothing", () => {
    const live = { id: "t1", name: "ci", description: "a" };
    const prior = { id: "t1", engineValues: { rotation_grace_period: "0s" }, secretFingerprints: {}, sensitive: { token: "s" } };
    expect(decideAction(apiToken, { name: "ci", description: "b" }, live, prior, false, "salt").action).toBe("rotate");
    expect(decideAction(apiToken, { name: "ci", description: "a", rotation_trigger: "2" }, live, prior, false, "salt")).toMatchObject({
      action: "rotate",
      reasons: ["rotation_trigger changed"],
    });
    expect(decideAction(apiToken, { name: "ci", description: "a", rotation_grace_period: "2h" }, live, prior, false, "salt").action).toBe("noop");
    expect(decideAction(apiToken, { name: "other", description: "a" }, live, prior, false, "salt").action).toBe("replace");
  });

  it("ods: adopting a token the state has no secret for says why it rotates, and its users' secret stays valid for 24h", async () => {
    const existing = await use.rig.admin.createToken({ name: "adopted-ci", description: "ci" } as never);
    const before = Date.now();
    const dir = tempDir();
    const client = new OdsClient({ url: use.rig.emu.url, token: use.rig.emu.adminToken });
    try {
      const run = await odsApply(client, dir, { resource: { ods_api_token: { ci: { name: "adopted-ci", description: "ci" } } } });
      const change = run.plan.changes.find((c) => c.address === "ods_api_token.ci");
      expect(change?.action).toBe("adopt");
      expect(change?.reasons.join(" ")).toMatch(/will be rotated: its token cannot be read back.*stays valid for 24h/);
      // And how to keep it instead: import it as it is.
      expect(change?.reasons.join(" ")).toContain(`to keep this token instead`);
      expect(change?.reasons.join(" ")).toContain(`"ods import --stack main ods_api_token.ci ${existing.id}"`);
      // The counts match the actions listed: the adoption is a rotation too.
      expect(renderPlan(run.plan)).toContain("Plan: 0 to create, 1 to adopt, 0 to update, 0 to replace, 1 to rotate, 0 to delete, 0 to forget, 0 to move.");
      expect((planJson(run.plan) as { resource_changes: { actions: string[] }[] }).resource_changes[0].actions).toEqual(["adopt", "rotate"]);
      expect(run.summary).toMatchObject({ adopted: 1, rotated: 1 });
      expect(run.summary.errors).toEqual([]);
      const entry = run.state.resources["ods_api_token.ci"];
      expect(entry.id).not.toBe(existing.id);
      expect(entry.sensitive?.token).toBeTruthy();
      const old = await use.rig.admin.getToken(existing.id);
      expect(Date.parse(String(old.expiresAt)) - before).toBeGreaterThanOrEqual(24 * HOUR - 60_000);
    } finally {
      await client.close();
    }
  });

  it("terraform: a create whose answer was lost ends with one token and a secret in state", async () => {
    const p = provider(use.rig.proxy.url, use.rig.emu.adminToken);
    use.rig.proxy.loseNextAnswer("POST", /tokens$/);
    const state = await tfApply(p, "ods_api_token", null, { name: "lost-ci", rotation_grace_period: "1h" });
    const live = (await use.rig.admin.listTokens()).filter((t) => t.name === "lost-ci" && !t.expiresAt);
    expect(live.map((t) => t.id)).toEqual([state?.id]);
    expect(typeof state?.token).toBe("string");
    // A later read keeps the secret the service never returns again.
    const read = await p.readResource({ typeName: "ods_api_token", currentState: state ?? tfState("ods_api_token", {}) });
    expect(read.newState?.token).toBe(state?.token);
  });
});
