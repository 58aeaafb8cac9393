// A rotation whose answer was lost (a dropped connection, a killed run) is finished on the
// object it made, in both engines: the managed token lives as declared, the intermediate
// is retired, its secret is captured, and nothing unmanaged lives on.
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { StateStore } from "../../src/reconcile/state";
import { LocalBackend } from "../../src/reconcile/backends";
import { tempDir } from "../emulator/helpers";
import { auditToken, odsApply, provider, tfApply, useRig } from "./helpers";

const use = useRig();
const token = (name: string, trigger: string) => ({ name, description: "ci", rotation_grace_period: "1h", rotation_trigger: trigger });
const spec = (name: string, trigger: string) => ({ resource: { ods_api_token: { ci: token(name, trigger) } } });

describe("ods: a lost rotation answer", () => {
  it("a dropped answer is finished in the same apply: no dying token, nothing unmanaged, the secret captured", async () => {
    const dir = tempDir();
    const client = new OdsClient({ url: use.rig.proxy.url, token: use.rig.emu.adminToken });
    try {
      await odsApply(client, dir, spec("rot-drop-ods", "1"));
      use.rig.proxy.loseNextAnswer("POST", /regenerate/);
      const lostBefore = use.rig.proxy.lost;
      const run = await odsApply(client, dir, spec("rot-drop-ods", "2"));
      expect(use.rig.proxy.lost).toBe(lostBefore + 1);
      expect(run.summary.errors).toEqual([]);
      const entry = run.state.resources["ods_api_token.ci"];
      expect(await auditToken(use.rig, "rot-drop-ods", entry.id, entry.sensitive?.token)).toEqual({ dying: 0, unmanaged: 0, secretWorks: true });
      const again = await odsApply(client, dir, spec("rot-drop-ods", "2"));
      expect(again.plan.changes.map((c) => c.action)).toEqual(["noop"]);
    } finally {
      await client.close();
    }
  });

  it("after a kill right after the regenerate call, the next apply finishes it on the token the call made", async () => {
    const dir = tempDir();
    const client = new OdsClient({ url: use.rig.emu.url, token: use.rig.emu.adminToken });
    try {
      const first = await odsApply(client, dir, spec("rot-kill-ods", "1"));
      const old = first.state.resources["ods_api_token.ci"];
      // What a run killed right after the call leaves: the intent in state (carried in the
      // instance's private data of Terraform's format), the rotation done on the service.
      const stateFile = path.join(dir, "state.json");
      const store = new StateStore(new LocalBackend(stateFile));
      const state = await store.read();
      state.resources["ods_api_token.ci"].rotating = old.id;
      await store.write(state);
      expect((await store.read()).resources["ods_api_token.ci"].rotating).toBe(old.id);
      await use.rig.admin.regenerateToken(old.id, { existingTokenExpiresAt: new Date(Date.now() + 3_600_000).toISOString(), newToken: { name: "rot-kill-ods" } } as never);
      const run = await odsApply(client, dir, spec("rot-kill-ods", "2"));
      expect(run.plan.changes[0].reasons.join(" ")).toMatch(/answer was lost/);
      expect(run.summary.errors).toEqual([]);
      const entry = run.state.resources["ods_api_token.ci"];
      expect(entry.rotating).toBeUndefined();
      expect(await auditToken(use.rig, "rot-kill-ods", entry.id, entry.sensitive?.token)).toEqual({ dying: 0, unmanaged: 0, secretWorks: true });
      expect(fs.existsSync(stateFile)).toBe(true);
    } finally {
      await client.close();
    }
  });

  it("plan shows a managed token whose live expiry differs from the declared one as drift", async () => {
    const dir = tempDir();
    const client = new OdsClient({ url: use.rig.emu.url, token: use.rig.emu.adminToken });
    try {
      const first = await odsApply(client, dir, spec("rot-drift-ods", "1"));
      const old = first.state.resources["ods_api_token.ci"];
      await use.rig.admin.regenerateToken(old.id, { existingTokenExpiresAt: new Date(Date.now() + 3_600_000).toISOString(), newToken: {} } as never);
      const run = await odsApply(client, dir, spec("rot-drift-ods", "1"));
      const change = run.plan.changes[0];
      expect(change.action).toBe("rotate");
      expect(change.changed).toContain("expires_at");
      expect(change.reasons.join(" ")).toMatch(/live expires_at is .*declared never/);
      const entry = run.state.resources["ods_api_token.ci"];
      expect(await auditToken(use.rig, "rot-drift-ods", entry.id, entry.sensitive?.token)).toEqual({ dying: 0, unmanaged: 0, secretWorks: true });
    } finally {
      await client.close();
    }
  });
});

describe("ods: the state lost during a rotation's grace period", () => {
  it("adopts the token that is not retiring, says which and why, creates no duplicate, and the next plan converges", async () => {
    const dir = tempDir();
    const client = new OdsClient({ url: use.rig.emu.url, token: use.rig.emu.adminToken });
    try {
      await odsApply(client, dir, spec("rot-lost-state", "1"));
      const rotated = await odsApply(client, dir, spec("rot-lost-state", "2"));
      const current = rotated.state.resources["ods_api_token.ci"].id;
      const live = (await use.rig.admin.listTokens()).filter((t) => t.name === "rot-lost-state");
      expect(live).toHaveLength(2); // the old one lives on in its grace period
      const old = live.find((t) => t.id !== current)!;
      expect(old.expiresAt).toBeTruthy();

      fs.rmSync(path.join(dir, "state.json"));
      const adopt = await odsApply(client, dir, spec("rot-lost-state", "2"));
      const change = adopt.plan.changes[0];
      expect(change.action).toBe("adopt");
      expect(change.id).toBe(current);
      expect(change.reasons[0]).toContain(`adopts id ${current}: of 2 live objects with this name, it is the one not retiring; ${old.id} (expires_at ${old.expiresAt})`);
      // Its secret cannot be read back: adopting it rotates it, its users keep a grace period.
      expect(change.reasons.join(" ")).toMatch(/will be rotated: its token cannot be read back/);
      expect(adopt.summary.errors).toEqual([]);
      const entry = adopt.state.resources["ods_api_token.ci"];
      // No duplicate: the managed token lives as declared, everything else is retiring.
      expect(await auditToken(use.rig, "rot-lost-state", entry.id, entry.sensitive?.token)).toEqual({ dying: 0, unmanaged: 0, secretWorks: true });
      const after = (await use.rig.admin.listTokens()).filter((t) => t.name === "rot-lost-state");
      expect(after.find((t) => t.id === old.id)?.expiresAt).toBe(old.expiresAt); // the old one is left to expire as it was
      expect(after.find((t) => t.id === current)?.expiresAt).toBeTruthy(); // the adopted one, rotated, in its grace period

      const again = await odsApply(client, dir, spec("rot-lost-state", "2"));
      expect(again.plan.changes.map((c) => c.action)).toEqual(["noop"]);
    } finally {
      await client.close();
    }
  });
});

describe("terraform: a lost rotation answer", () => {
  it("a dropped answer is finished in the same apply", async () => {
    const p = provider(use.rig.proxy.url, use.rig.emu.adminToken);
    const first = await tfApply(p, "ods_api_token", null, token("rot-drop-tf", "1"));
    use.rig.proxy.loseNextAnswer("POST", /regenerate/);
    const lostBefore = use.rig.proxy.lost;
    const state = await tfApply(p, "ods_api_token", first, token("rot-drop-tf", "2"));
    expect(use.rig.proxy.lost).toBe(lostBefore + 1);
    expect(await auditToken(use.rig, "rot-drop-tf", state?.id as string, state?.token as string)).toEqual({ dying: 0, unmanaged: 0, secretWorks: true });
  });

  it("after terraform was killed right after the regenerate call, refresh shows the drift and the next apply finishes the rotation", async () => {
    const p = provider(use.rig.emu.url, use.rig.emu.adminToken);
    const first = await tfApply(p, "ods_api_token", null, token("rot-kill-tf", "1"));
    await use.rig.admin.regenerateToken(first?.id as string, { existingTokenExpiresAt: new Date(Date.now() + 3_600_000).toISOString(), newToken: { name: "rot-kill-tf" } } as never);
    // A new terraform run: a new provider process refreshes the state it was given.
    const next = provider(use.rig.emu.url, use.rig.emu.adminToken);
    const refreshed = (await next.readResource({ typeName: "ods_api_token", currentState: first! })).newState;
    expect(refreshed?.expires_at).toBeTruthy();
    const state = await tfApply(next, "ods_api_token", refreshed, token("rot-kill-tf", "2"));
    expect(await auditToken(use.rig, "rot-kill-tf", state?.id as string, state?.token as string)).toEqual({ dying: 0, unmanaged: 0, secretWorks: true });
  });
});

describe("a rotation after the stack dropped an attribute", () => {
  // The service issues the rotated token from the old one, keeping what the body leaves out.
  const granted = (name: string) => ({ name, description: "ci", dataset_capabilities: { logs: { query: ["read"] } }, org_capabilities: { users: ["read"] }, rotation_trigger: "1" });
  const dropped = (name: string) => ({ name, view_capabilities: { "view-a": { query: ["read"] } }, rotation_trigger: "2" });
  const liveToken = async (name: string) => {
    const live = (await use.rig.admin.listTokens()).filter((t) => t.name === name && !t.expiresAt);
    expect(live).toHaveLength(1);
    return live[0];
  };

  it("ods: the new token holds none of what the stack dropped, and the next plan is empty", async () => {
    const dir = tempDir();
    const client = new OdsClient({ url: use.rig.emu.url, token: use.rig.emu.adminToken });
    try {
      await odsApply(client, dir, { resource: { ods_api_token: { ci: granted("rot-drop-attr-ods") } } });
      const run = await odsApply(client, dir, { resource: { ods_api_token: { ci: dropped("rot-drop-attr-ods") } } });
      expect(run.plan.changes.map((c) => c.action)).toEqual(["rotate"]);
      const live = await liveToken("rot-drop-attr-ods");
      expect([live.description, live.datasetCapabilities, live.orgCapabilities]).toEqual(["", {}, {}]);
      const again = await odsApply(client, dir, { resource: { ods_api_token: { ci: dropped("rot-drop-attr-ods") } } });
      expect(again.plan.changes.map((c) => c.action)).toEqual(["noop"]);
    } finally {
      await client.close();
    }
  });

  it("terraform: the new token holds none of what the stack dropped", async () => {
    const p = provider(use.rig.emu.url, use.rig.emu.adminToken);
    const first = await tfApply(p, "ods_api_token", null, granted("rot-drop-attr-tf"));
    await tfApply(p, "ods_api_token", first, dropped("rot-drop-attr-tf"));
    const live = await liveToken("rot-drop-attr-tf");
    expect([live.description, live.datasetCapabilities, live.orgCapabilities]).toEqual(["", {}, {}]);
  });
});
