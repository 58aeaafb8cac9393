// The Terraform adapter without a terraform binary: its plan, apply, read and import
// functions called in process against an emulator on 127.0.0.1:0, case by case.
import * as fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Values } from "../../src/resources";
import { isUnknown, type TfObject } from "../../src/tfprovider/values";
import { provider, tfApply, tfState, useRig } from "../lifecycle/helpers";
import { removeTempDirs, tempDir } from "../helpers/ods-cli";

afterAll(removeTempDirs);

const use = useRig();
beforeAll(async () => {
  await use.rig.admin.createDataset({ name: "adapter" } as never);
});

interface PlanCase {
  what: string;
  typeName: string;
  create: Values;
  change: Values;
  /** Attributes Terraform must be told force a replacement. */
  replaces: string[];
  /** Whether the id is known at plan time (kept) or known only after apply. */
  idKept: boolean;
  /** The warning the plan carries (a rotation names when the old secret stops working). */
  warns?: RegExp;
}

const CASES: PlanCase[] = [
  { what: "a role's description updates in place", typeName: "ods_role", create: { name: "r1" }, change: { name: "r1", description: "d" }, replaces: [], idKept: true },
  { what: "a user's e-mail replaces the user", typeName: "ods_user", create: { email: "p1@example.com", name: "P", role: "user" }, change: { email: "p2@example.com", name: "P", role: "user" }, replaces: ["email"], idKept: false },
  { what: "a token's description rotates it (new id, no replacement)", typeName: "ods_api_token", create: { name: "t1" }, change: { name: "t1", description: "x" }, replaces: [], idKept: false, warns: /^ods_api_token "t1": old secret stops working at apply \(rotation_grace_period "0s"\)$/ },
  { what: "a token rotated with a grace period says when the grace ends", typeName: "ods_api_token", create: { name: "t3" }, change: { name: "t3", description: "x", rotation_grace_period: "2h" }, replaces: [], idKept: false, warns: /^ods_api_token "t3": old secret stops working at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \(grace 2h, counted from the apply/ },
  { what: "a token's grace period alone changes nothing on the service", typeName: "ods_api_token", create: { name: "t2" }, change: { name: "t2", rotation_grace_period: "2h" }, replaces: [], idKept: true },
  { what: "a virtual field's dataset replaces it", typeName: "ods_virtual_field", create: { dataset: "adapter", name: "v1", expression: "1" }, change: { dataset: "adapter2", name: "v1", expression: "1" }, replaces: ["dataset"], idKept: false },
];

describe("the Terraform adapter", () => {
  it.each(CASES)("plans: $what", async (c) => {
    const p = provider(use.rig.emu.url, use.rig.emu.adminToken);
    const created = await tfApply(p, c.typeName, null, c.create);
    expect(typeof created?.id).toBe("string");
    // A refresh right after apply shows no difference.
    expect((await p.readResource({ typeName: c.typeName, currentState: created! })).newState).toEqual(created);
    const proposed = { ...created!, ...tfState(c.typeName, c.change) };
    for (const [k, v] of Object.entries(created!)) if (proposed[k] === null && !(k in c.change)) proposed[k] = v;
    const before = Date.now();
    const plan = await p.planResourceChange({ typeName: c.typeName, priorState: created!, proposedNewState: proposed, config: tfState(c.typeName, c.change) });
    expect((plan.diagnostics ?? []).map((d) => [d.severity, d.summary])).toEqual(c.warns ? [["warning", expect.stringMatching(c.warns)]] : []);
    if (c.warns && c.change.rotation_grace_period === "2h") {
      const at = Date.parse(/stops working at (\S+)/.exec(plan.diagnostics![0].summary)![1]);
      expect(at).toBeGreaterThanOrEqual(before + 2 * 3600_000 - 1000);
      expect(at).toBeLessThanOrEqual(Date.now() + 2 * 3600_000);
    }
    expect((plan.requiresReplace ?? []).map((path) => path.join("."))).toEqual(c.replaces);
    const planned = plan.plannedState as TfObject;
    if (c.idKept) expect(planned.id).toBe(created?.id);
    else expect(isUnknown(planned.id)).toBe(true);
  });

  it("answers a refresh or plan that changes nothing with the object Terraform sent, so the server returns Terraform's own bytes; drift gives a new object", async () => {
    const p = provider(use.rig.emu.url, use.rig.emu.adminToken);
    const created = (await tfApply(p, "ods_role", null, { name: "as-sent", description: "a" }))!;
    expect((await p.readResource({ typeName: "ods_role", currentState: created })).newState).toBe(created);
    const plan = await p.planResourceChange({ typeName: "ods_role", priorState: created, proposedNewState: created, config: tfState("ods_role", { name: "as-sent", description: "a" }) });
    expect(plan.plannedState).toBe(created);

    await use.rig.admin.updateRole(String(created.id), { name: "as-sent", description: "changed elsewhere" } as never);
    const drifted = (await provider(use.rig.emu.url, use.rig.emu.adminToken).readResource({ typeName: "ods_role", currentState: created })).newState;
    expect(drifted).not.toBe(created);
    expect(drifted).toEqual({ ...created, description: "changed elsewhere" });
  });

  it("plans defaults and computed values of a new object", async () => {
    const p = provider(use.rig.emu.url, use.rig.emu.adminToken);
    const plan = await p.planResourceChange({ typeName: "ods_dataset", priorState: null, proposedNewState: tfState("ods_dataset", { name: "n" }), config: tfState("ods_dataset", { name: "n" }) });
    const planned = plan.plannedState as TfObject;
    expect(planned.allow_destroy).toBe(false);
    expect(isUnknown(planned.id)).toBe(true);
    expect(isUnknown(planned.created)).toBe(true);
    expect(planned.description).toBeNull();
  });

  it("reads a vanished object as gone, so Terraform plans to create it", async () => {
    const p = provider(use.rig.emu.url, use.rig.emu.adminToken);
    const read = await p.readResource({ typeName: "ods_role", currentState: tfState("ods_role", { id: "no-such-role", name: "x" }) });
    expect(read.newState).toBeNull();
  });

  it("imports with engine-only defaults and unset values as null; a bad id names the expected form", async () => {
    const p = provider(use.rig.emu.url, use.rig.emu.adminToken);
    const ds = await use.rig.admin.getDataset("adapter");
    const imported = await p.importResourceState({ typeName: "ods_dataset", id: ds.name });
    expect(imported.imported[0].state).toMatchObject({ name: "adapter", allow_destroy: false, description: null });
    await expect(p.importResourceState({ typeName: "ods_dataset_field", id: "adapter/none" })).rejects.toThrow(/expected "<dataset>\/<field>"/);
  });

  it("reports invalid configuration with the attribute path", () => {
    const p = provider(use.rig.emu.url, use.rig.emu.adminToken);
    const diags = p.validateResourceConfig("ods_user", tfState("ods_user", { email: "not-an-email", name: "x", role: "user" }));
    expect(diags[0]?.detail).toMatch(/attribute "email"/);
    expect(diags[0]?.attribute).toEqual(["email"]);
  });

  it("upgrades stored state through the kind's upgraders (version 0 today: values pass unchanged)", () => {
    const p = provider(use.rig.emu.url, use.rig.emu.adminToken);
    const up = p.upgradeResourceState({ typeName: "ods_role", version: 0, rawState: { id: "r", name: "n" } });
    expect(up.upgradedState).toMatchObject({ id: "r", name: "n", description: null });
    const newer = p.upgradeResourceState({ typeName: "ods_role", version: 9, rawState: { id: "r" } });
    expect(newer.diagnostics?.[0]?.detail).toMatch(/schema version 9, newer/);
  });
});

describe("claiming dataset fields through the adapter", () => {
  it("serves every claim of a dataset from one list of its fields: no read per field, at plan or at apply", async () => {
    const fields = Array.from({ length: 8 }, (_, i) => `claim_f${i}`);
    await use.rig.admin.createDataset({ name: "claims" } as never);
    await use.rig.admin.ingest("claims", [Object.fromEntries(fields.map((f) => [f, 1]))]);
    const plans = provider(use.rig.emu.url, use.rig.emu.adminToken); // Terraform's plan process
    const applies = provider(use.rig.emu.url, use.rig.emu.adminToken); // its apply process
    use.rig.emu.resetRequests();
    const configs = fields.map((name, i) => tfState("ods_dataset_field", { dataset: "claims", name, description: `field ${i}` }));
    for (const config of configs) {
      const plan = await plans.planResourceChange({ typeName: "ods_dataset_field", priorState: null, proposedNewState: config, config });
      expect(plan.diagnostics ?? []).toEqual([]);
    }
    for (const config of configs) {
      const applied = await tfApply(applies, "ods_dataset_field", null, { dataset: "claims", name: String(config.name), description: String(config.description) });
      expect(applied).toMatchObject({ id: `claims/${String(config.name)}`, description: config.description });
    }
    const seen = use.rig.emu.requests().map((r) => `${r.method} ${r.path}`);
    expect(seen.filter((r) => r.startsWith("PUT /v2/datasets/claims/fields/"))).toHaveLength(fields.length);
    // One list per process; no GET of a single field or of the dataset.
    expect(seen.filter((r) => r.startsWith("GET ")).sort()).toEqual(["GET /v2/datasets/claims/fields", "GET /v2/datasets/claims/fields"]);
    for (const [i, name] of fields.entries()) expect((await use.rig.admin.getDatasetField("claims", name)).description).toBe(`field ${i}`);
  });

  it("still refuses at plan, naming the field, a field the dataset does not have", async () => {
    const p = provider(use.rig.emu.url, use.rig.emu.adminToken);
    const config = tfState("ods_dataset_field", { dataset: "claims", name: "never_ingested" });
    const plan = await p.planResourceChange({ typeName: "ods_dataset_field", priorState: null, proposedNewState: config, config });
    expect(plan.diagnostics?.[0]?.detail).toMatch(/dataset field "never_ingested" does not exist in dataset "claims"/);
  });
});

describe("the provider processes of one command, with a journal", () => {
  const checks = (): number => use.rig.emu.requests().filter((r) => r.method === "POST" && r.path === "/v1/datasets/_apl").length;
  const vfield = (expression: string, name = "v-shared"): Values => ({ dataset: "adapter", name, expression });
  const plan = (p: ReturnType<typeof provider>, values: Values) => {
    const config = tfState("ods_virtual_field", values);
    return p.planResourceChange({ typeName: "ods_virtual_field", priorState: null, proposedNewState: config, config });
  };

  it("with a journal, a provider Terraform starts reuses the pass of the command's earlier process, keyed by organization and token, never writing the token", async () => {
    const checkJournalDir = tempDir();
    const started = () => provider(use.rig.emu.url, use.rig.emu.adminToken, { checkJournalDir }); // one process per walk
    use.rig.emu.resetRequests();
    expect((await plan(started(), vfield("3 + 4", "v-journal"))).diagnostics ?? []).toEqual([]);
    expect(checks()).toBe(1);
    expect(await tfApply(started(), "ods_virtual_field", null, vfield("3 + 4", "v-journal"))).toMatchObject({ expression: "3 + 4" });
    expect(checks()).toBe(1);

    // Another token is another target: it asks for itself.
    const other = await use.rig.admin.createToken({ name: "journal-other", datasetCapabilities: { adapter: { query: ["read"] } } } as never);
    expect((await plan(provider(use.rig.emu.url, String(other.token), { checkJournalDir }), vfield("3 + 4", "v-journal"))).diagnostics ?? []).toEqual([]);
    expect(checks()).toBe(2);

    // A failure is not written down: every process asks again.
    for (const p of [started(), started()]) expect((await plan(p, vfield("3 +", "v-journal"))).diagnostics?.[0]?.summary).toMatch(/Invalid query/);
    expect(checks()).toBe(4);

    const files = fs.readdirSync(checkJournalDir);
    // One journal of passed checks per target (and the creations the apply wrote down).
    expect(files.filter((f) => f.startsWith("checks-"))).toHaveLength(2);
    const written = files.map((f) => f + fs.readFileSync(`${checkJournalDir}/${f}`, "utf8"));
    for (const text of written) {
      for (const secret of [use.rig.emu.adminToken, String(other.token), "3 + 4"]) expect(text).not.toContain(secret);
    }
  });

  it("ask again a check that reads the organization's objects: a user's custom role may be gone by the next plan", async () => {
    const role = await use.rig.admin.createRole({ name: "shared-check-role", description: "", members: [], capabilities: {} } as never);
    const checkJournalDir = tempDir();
    const instances = [1, 2].map(() => provider(use.rig.emu.url, use.rig.emu.adminToken, { checkJournalDir }));
    const config = tfState("ods_user", { email: "shared-check@example.com", name: "S", role: role.id });
    use.rig.emu.resetRequests();
    for (const p of instances) {
      expect((await p.planResourceChange({ typeName: "ods_user", priorState: null, proposedNewState: config, config })).diagnostics ?? []).toEqual([]);
    }
    expect(use.rig.emu.requests().filter((r) => r.method === "GET" && r.path === "/v2/rbac/roles")).toHaveLength(2);
  });

  it("reads the notifier list once for the checks of many monitors, and again after it writes a notifier: a monitor planned after its notifier's create finds it", async () => {
    await use.rig.admin.createDataset({ name: "monitored" } as never);
    const p = provider(use.rig.emu.url, use.rig.emu.adminToken); // one process, planning and applying
    const monitor = (name: string, notifierIds: string[] = []): Values => ({
      name,
      type: "Threshold",
      apl_query: "['monitored'] | summarize count() by bin(_time, 1m)",
      operator: "Above",
      threshold: 10,
      interval_minutes: 5,
      range_minutes: 5,
      ...(notifierIds.length > 0 ? { notifier_ids: notifierIds } : {}),
    });
    const planMonitor = (values: Values) => {
      const config = tfState("ods_monitor", values);
      return p.planResourceChange({ typeName: "ods_monitor", priorState: null, proposedNewState: config, config });
    };
    const notifierLists = (): number => use.rig.emu.requests().filter((r) => r.method === "GET" && r.path === "/v2/notifiers").length;
    use.rig.emu.resetRequests();
    for (const name of ["m-a", "m-b", "m-c"]) expect((await planMonitor(monitor(name))).diagnostics ?? []).toEqual([]);
    expect(notifierLists()).toBe(1);
    const notifier = await tfApply(p, "ods_notifier", null, { name: "n-new", properties: { webhook: { url: "https://hooks.example.com/n" } } });
    const afterCreate = notifierLists(); // the create's own lists (its namesakes)
    expect((await planMonitor(monitor("m-d", [String(notifier?.id)]))).diagnostics ?? []).toEqual([]);
    expect(notifierLists()).toBe(afterCreate + 1);
    // A notifier that does not exist is still refused, from the same read.
    expect((await planMonitor(monitor("m-e", ["ntf_absent"]))).diagnostics?.[0]?.detail).toMatch(/no notifier has the id "ntf_absent"/);
    expect(notifierLists()).toBe(afterCreate + 1);
  });

  it("compiles a monitor's query once per command, but asks every process whether its notifiers are still live", async () => {
    await use.rig.admin.createDataset({ name: "walks" } as never);
    const checkJournalDir = tempDir();
    const started = () => provider(use.rig.emu.url, use.rig.emu.adminToken, { checkJournalDir }); // one process per walk
    const notifier = await use.rig.admin.createNotifier({ name: "walk-notifier", properties: { webhook: { url: "https://hooks.example.com/w" } } } as never);
    const values: Values = {
      name: "m-walks",
      type: "Threshold",
      apl_query: "['walks'] | summarize count() by bin(_time, 1m)",
      operator: "Above",
      threshold: 1,
      interval_minutes: 5,
      range_minutes: 5,
      notifier_ids: [String(notifier.id)],
    };
    const planIn = (p: ReturnType<typeof provider>) => {
      const config = tfState("ods_monitor", values);
      return p.planResourceChange({ typeName: "ods_monitor", priorState: null, proposedNewState: config, config });
    };
    const notifierLists = (): number => use.rig.emu.requests().filter((r) => r.method === "GET" && r.path === "/v2/notifiers").length;
    use.rig.emu.resetRequests();
    expect((await planIn(started())).diagnostics ?? []).toEqual([]); // the plan walk
    expect((await planIn(started())).diagnostics ?? []).toEqual([]); // the apply walk plans again
    expect(checks()).toBe(1);
    expect(notifierLists()).toBe(2);
    // The notifier goes between the walks: the reused compile does not hide it.
    await use.rig.admin.deleteNotifier(String(notifier.id));
    expect((await planIn(started())).diagnostics?.[0]?.detail).toMatch(/no notifier has the id/);
    expect(checks()).toBe(1);
  });
});
