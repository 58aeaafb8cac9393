// A create whose answer was lost (the request reached the emulator, applied and
// persisted, the connection then dropped) leaves exactly one object of its natural key
// behind, for every kind created with a POST, through both engines. A token's lost
// answer held the only copy of its secret: the record it made is removed (revoked), not
// left to expire beside the new one.
import { describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { tempDir } from "../emulator/helpers";
import { odsApply, provider, tfApply, useRig, type Rig } from "./helpers";

const use = useRig();

interface Case {
  typeName: string;
  post: RegExp;
  values: (n: string) => Record<string, unknown>;
  /** Live objects with the case's natural key, whatever their state (expiring ones included). */
  live: (rig: Rig, n: string) => Promise<unknown[]>;
}

const DS = "lost-create-ds";
const CASES: Case[] = [
  { typeName: "ods_api_token", post: /\/v2\/tokens$/, values: (n) => ({ name: n, rotation_grace_period: "1h" }), live: async (r, n) => (await r.admin.listTokens()).filter((t) => t.name === n) },
  { typeName: "ods_notifier", post: /\/v2\/notifiers$/, values: (n) => ({ name: n, properties: { webhook: { url: "https://hooks.example.com/a" } } }), live: async (r, n) => (await r.admin.listNotifiers()).filter((x) => x.name === n) },
  { typeName: "ods_role", post: /\/v2\/rbac\/roles$/, values: (n) => ({ name: n }), live: async (r, n) => (await r.admin.listRoles()).filter((x) => x.name === n) },
  { typeName: "ods_dataset", post: /\/v2\/datasets$/, values: (n) => ({ name: n, allow_destroy: true }), live: async (r, n) => (await r.admin.listDatasets()).filter((x) => x.name === n) },
  { typeName: "ods_user", post: /\/v2\/users$/, values: (n) => ({ email: `${n}@example.com`, name: n, role: "user" }), live: async (r, n) => (await r.admin.listUsers()).filter((x) => x.email === `${n}@example.com`) },
  { typeName: "ods_view", post: /\/v2\/views$/, values: (n) => ({ name: n, apl_query: `['${DS}'] | take 1`, datasets: [DS] }), live: async (r, n) => (await r.admin.listViews()).filter((x) => x.name === n) },
  {
    typeName: "ods_monitor",
    post: /\/v2\/monitors$/,
    values: (n) => ({ name: n, type: "Threshold", apl_query: `['${DS}'] | summarize count() by bin(_time, 1m)`, operator: "Above", threshold: 1, interval_minutes: 5, range_minutes: 5 }),
    live: async (r, n) => (await r.admin.listMonitors()).filter((x) => x.name === n),
  },
  { typeName: "ods_virtual_field", post: /\/v2\/vfields$/, values: (n) => ({ dataset: DS, name: n, expression: "1" }), live: async (r, n) => (await r.admin.listVirtualFields(DS)).filter((x) => x.name === n) },
  {
    typeName: "ods_starred_query",
    post: /\/v2\/apl-starred-queries$/,
    values: (n) => ({ name: n, dataset: DS, kind: "apl", query: { apl: `['${DS}'] | take 1` } }),
    live: async (r, n) => (await r.admin.listStarredQueries()).filter((x) => x.name === n),
  },
  {
    typeName: "ods_dashboard",
    post: /\/v2\/dashboards$/,
    values: (n) => ({ uid: n, dashboard: JSON.stringify({ name: n, owner: "X-AXIOM-EVERYONE", charts: [{ id: "c1", type: "Note", text: "runbook" }], layout: [{ i: "c1", x: 0, y: 0, w: 12, h: 2 }], refreshTime: 60, schemaVersion: 2, timeWindowStart: "qr-now-1h", timeWindowEnd: "qr-now" }) }),
    live: async (r, n) => (await r.admin.listDashboards()).filter((x) => x.uid === n),
  },
];

async function ensureDataset(): Promise<void> {
  if (!(await use.rig.admin.listDatasets()).some((d) => d.name === DS)) await use.rig.admin.createDataset({ name: DS } as never);
}

describe("a create whose answer was lost", () => {
  it.each(CASES)("ods apply: $typeName leaves one object of its natural key, recorded in the state", async (c) => {
    await ensureDataset();
    const name = `lc-ods-${c.typeName.slice(4).replace(/_/g, "-")}`;
    const client = new OdsClient({ url: use.rig.proxy.url, token: use.rig.emu.adminToken });
    try {
      const lost = use.rig.proxy.lost;
      use.rig.proxy.loseNextAnswer("POST", c.post);
      const run = await odsApply(client, tempDir(), { resource: { [c.typeName]: { x: c.values(name) } } });
      expect(use.rig.proxy.lost).toBe(lost + 1);
      expect(run.summary.errors).toEqual([]);
      const live = await c.live(use.rig, name);
      expect(live).toHaveLength(1);
      const entry = run.state.resources[`${c.typeName}.x`];
      expect(entry.id).toBe(c.typeName === "ods_dashboard" ? name : (live[0] as { id: string }).id);
      if (c.typeName === "ods_api_token") {
        expect((live[0] as { expiresAt?: string }).expiresAt || undefined).toBeUndefined();
        const as = new OdsClient({ url: use.rig.emu.url, token: String(entry.sensitive?.token), maxRetries: 0 });
        try {
          await expect(as.getCurrentUser()).resolves.toBeTruthy();
        } finally {
          await as.close();
        }
      }
    } finally {
      await client.close();
    }
  });

  it.each(CASES)("terraform: $typeName leaves one object of its natural key", async (c) => {
    await ensureDataset();
    const name = `lc-tf-${c.typeName.slice(4).replace(/_/g, "-")}`;
    const p = provider(use.rig.proxy.url, use.rig.emu.adminToken);
    const lost = use.rig.proxy.lost;
    use.rig.proxy.loseNextAnswer("POST", c.post);
    const state = await tfApply(p, c.typeName, null, c.values(name));
    expect(use.rig.proxy.lost).toBe(lost + 1);
    const live = await c.live(use.rig, name);
    expect(live).toHaveLength(1);
    if (c.typeName === "ods_api_token") {
      expect((live[0] as { id: string }).id).toBe(state?.id);
      expect(typeof state?.token).toBe("string");
    }
  });
});
