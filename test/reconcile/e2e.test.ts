// End to end: the `ods` CLI as a subprocess against the emulator over real HTTP.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { leakedSecrets, readStateFile, removeTempDirs, runOds, stackFlags, tempDir, writeStack, type StackSpec } from "../helpers/ods-cli";

let emu: EmulatorHandle;
let admin: OdsClient;
const outputs: string[] = [];
const SECRETS = ["chat-b-secret-7f3a91", "pager-routing-5521cc", "hdr-secret-99aa77", "chat-b-secret-rotated-11"];

beforeAll(async () => {
  emu = await startEmulator({ port: 0, dataDir: tempDir("ods-emu-") });
  admin = new OdsClient({ url: emu.url, token: emu.adminToken });
});
afterAll(async () => {
  await admin.close();
  await emu.close();
  removeTempDirs();
});

async function ods(dir: string, args: string[], extra: string[] = []): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const r = await runOds([...args, ...stackFlags(dir), ...extra], { env: { ODS_URL: emu.url, ODS_TOKEN: emu.adminToken } });
  outputs.push(r.stdout, r.stderr);
  return r;
}

function baseStack(over: { description?: string; chatToken?: string; tokenDescription?: string; datasetName?: string } = {}): StackSpec {
  const ds = over.datasetName ?? "e2e-logs";
  return {
    resource: {
      ods_dataset: { logs: { name: ds, description: "logs", allow_destroy: true } },
      ods_virtual_field: { lat: { dataset: "${ods_dataset.logs.name}", name: "lat_s", expression: "duration_ms / 1000", type: "float" } },
      ods_notifier: {
        oncall: {
          name: "e2e-oncall",
          properties: {
            email: { emails: ["b@example.com", "a@example.com"] },
            chat_b: { chat_b_channel: "#alerts", chat_b_token: over.chatToken ?? SECRETS[0] },
            incident_b: { routing_key: SECRETS[1] },
            custom_webhook: { url: "https://hooks.example.com/x", secret_headers: { Authorization: SECRETS[2] } },
          },
        },
      },
      ods_role: { readers: { name: "e2e-readers", description: over.description ?? "read logs", dataset_capabilities: { [ds]: { query: ["read"] } }, depends_on: ["ods_dataset.logs"] } },
      ods_api_token: { ci: { name: "e2e-ci", description: over.tokenDescription ?? "ci", org_capabilities: { datasets: ["read"] }, rotation_grace_period: "1h" } },
    },
    output: { ci_token: { value: "${ods_api_token.ci.token}", sensitive: true }, role_id: { value: "${ods_role.readers.id}" } },
  };
}

describe("ods plan/apply against the emulator", () => {
  afterEach(() => {
    expect(leakedSecrets(outputs, SECRETS)).toEqual([]);
  });

  it("creates, then plans no changes; updates in place; rotates a token; replaces; deletes", async () => {
    const dir = tempDir();
    writeStack(dir, baseStack());
    const plan1 = await ods(dir, ["plan", "--detailed-exitcode"]);
    expect(plan1.code, plan1.stderr).toBe(2);
    expect(plan1.stdout).toContain("+ ods_notifier.oncall");
    expect(plan1.stdout).toContain("(sensitive)");

    const apply1 = await ods(dir, ["apply", "--auto-approve"]);
    expect(apply1.code, apply1.stderr).toBe(0);
    expect(apply1.stdout).toMatch(/5 created/);
    const state = readStateFile(path.join(dir, "state.json"));
    expect(fs.statSync(path.join(dir, "state.json")).mode & 0o777).toBe(0o600);
    const firstTokenId = state.resources["ods_api_token.ci"].id;
    const firstSecret = state.resources["ods_api_token.ci"].sensitive?.token;
    expect(firstSecret).toBeTruthy();

    expect((await ods(dir, ["plan", "--detailed-exitcode"])).code).toBe(0);

    // In-place update and a changed secret.
    writeStack(dir, baseStack({ description: "read logs, v2", chatToken: SECRETS[3] }));
    const plan2 = await ods(dir, ["plan", "--detailed-exitcode", "--json"]);
    expect(plan2.code).toBe(2);
    const changes = (JSON.parse(plan2.stdout) as { resource_changes: { address: string; action: string }[] }).resource_changes.filter((c) => c.action !== "noop");
    expect(changes.map((c) => [c.address, c.action]).sort()).toEqual([["ods_notifier.oncall", "update"], ["ods_role.readers", "update"]]);
    expect((await ods(dir, ["apply", "--auto-approve"])).stdout).toMatch(/2 updated/);
    expect((await admin.listRoles()).find((r) => r.name === "e2e-readers")?.description).toBe("read logs, v2");

    // Token change: a rotation with a new id and secret; the old one is retired after the grace period.
    writeStack(dir, baseStack({ description: "read logs, v2", chatToken: SECRETS[3], tokenDescription: "ci v2" }));
    const rot = await ods(dir, ["apply", "--auto-approve"]);
    expect(rot.stdout).toContain("+/- ods_api_token.ci");
    expect(rot.stdout).toMatch(/1 rotated/);
    const out = await ods(dir, ["output", "ci_token", "--show-sensitive"]);
    expect(out.stdout.trim()).not.toBe(firstSecret);
    expect(out.stdout.trim().length).toBeGreaterThan(10);
    const hidden = await ods(dir, ["output"]);
    expect(hidden.stdout).toContain("ci_token = (sensitive)");
    const tokens = await admin.listTokens();
    expect(tokens.filter((t) => t.name === "e2e-ci").map((t) => t.description)).toContain("ci v2");
    expect(tokens.find((t) => t.name === "e2e-ci" && t.description === "ci v2")?.id).not.toBe(firstTokenId);

    // Dataset rename: a replacement (allowed by allow_destroy); dependents follow.
    writeStack(dir, baseStack({ description: "read logs, v2", chatToken: SECRETS[3], tokenDescription: "ci v2", datasetName: "e2e-logs-2" }));
    const rep = await ods(dir, ["apply", "--auto-approve"]);
    expect(rep.code, rep.stderr).toBe(0);
    expect(rep.stdout).toContain("-/+ ods_dataset.logs");
    expect((await admin.listDatasets()).map((d) => d.name)).toContain("e2e-logs-2");
    expect((await admin.listDatasets()).map((d) => d.name)).not.toContain("e2e-logs");
    expect((await ods(dir, ["plan", "--detailed-exitcode"])).code).toBe(0);

    // Removing a resource from the config deletes it.
    const spec = baseStack({ description: "read logs, v2", chatToken: SECRETS[3], tokenDescription: "ci v2", datasetName: "e2e-logs-2" });
    delete spec.resource!.ods_notifier;
    writeStack(dir, spec);
    const del = await ods(dir, ["apply", "--auto-approve"]);
    expect(del.stdout).toMatch(/1 deleted/);
    expect((await admin.listNotifiers()).some((n) => n.name === "e2e-oncall")).toBe(false);

    // destroy removes the rest
    const destroy = await ods(dir, ["destroy", "--auto-approve"]);
    expect(destroy.code, destroy.stderr).toBe(0);
    expect((await admin.listRoles()).some((r) => r.name === "e2e-readers")).toBe(false);
    expect((await admin.listDatasets()).some((d) => d.name === "e2e-logs-2")).toBe(false);
  });

  it("adopts by natural key after the state file is lost, creating no duplicates", async () => {
    const dir = tempDir();
    const spec = baseStack({ datasetName: "adopt-logs" });
    spec.resource!.ods_notifier.oncall.name = "adopt-oncall";
    spec.resource!.ods_role.readers.name = "adopt-readers";
    spec.resource!.ods_api_token.ci.name = "adopt-ci";
    writeStack(dir, spec);
    expect((await ods(dir, ["apply", "--auto-approve"])).code).toBe(0);
    fs.rmSync(path.join(dir, "state.json"));
    const plan = await ods(dir, ["plan"]);
    expect(plan.stdout).toContain("<= ods_role.readers");
    const again = await ods(dir, ["apply", "--auto-approve"]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/0 created.*5 adopted/);
    expect((await admin.listNotifiers()).filter((n) => n.name === "adopt-oncall")).toHaveLength(1);
    expect((await admin.listRoles()).filter((r) => r.name === "adopt-readers")).toHaveLength(1);
    expect((await admin.listVirtualFields("adopt-logs")).filter((v) => v.name === "lat_s")).toHaveLength(1);
    // The adopted token's secret could not be read back: it was rotated, so state has one.
    const state = readStateFile(path.join(dir, "state.json"));
    expect(state.resources["ods_api_token.ci"].sensitive?.token).toBeTruthy();
    expect((await ods(dir, ["plan", "--detailed-exitcode"])).code).toBe(0);
  });

  it("reports drift after an out-of-band change (exit 2) and apply repairs it; a deleted object is re-created", async () => {
    const dir = tempDir();
    const spec = baseStack({ datasetName: "drift-logs" });
    spec.resource!.ods_notifier.oncall.name = "drift-oncall";
    spec.resource!.ods_role.readers.name = "drift-readers";
    spec.resource!.ods_api_token.ci.name = "drift-ci";
    writeStack(dir, spec);
    expect((await ods(dir, ["apply", "--auto-approve"])).code).toBe(0);
    expect((await ods(dir, ["drift"])).code).toBe(0);

    const role = (await admin.listRoles()).find((r) => r.name === "drift-readers")!;
    await admin.updateRole(role.id, { ...role, description: "changed by hand" });
    const vf = (await admin.listVirtualFields("drift-logs")).find((v) => v.name === "lat_s")!;
    await admin.deleteVirtualField(vf.id);

    const drift = await ods(dir, ["drift"]);
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain("ods_role.readers.description");
    expect(drift.stdout).toContain("ods_virtual_field.lat");
    const fix = await ods(dir, ["apply", "--auto-approve"]);
    expect(fix.stdout).toMatch(/1 created, 0 adopted, 1 updated/);
    expect((await admin.listRoles()).find((r) => r.name === "drift-readers")?.description).toBe("read logs");
    expect((await ods(dir, ["drift"])).code).toBe(0);
  });

  it("imports an existing object by id and then manages it", async () => {
    const existing = await admin.createNotifier({ name: "imported-hook", properties: { webhook: { url: "https://old.example.com" } } });
    const dir = tempDir();
    writeStack(dir, { resource: { ods_notifier: { hook: { name: "imported-hook", properties: { webhook: { url: "https://new.example.com" } } } } } });
    const imp = await ods(dir, ["import", "ods_notifier.hook", existing.id]);
    expect(imp.code, imp.stderr).toBe(0);
    const list = await ods(dir, ["state", "list"]);
    expect(list.stdout).toContain(`ods_notifier.hook\t${existing.id}`);
    const plan = await ods(dir, ["plan"]);
    // A webhook URL is a credential: the change is planned, its values hidden.
    expect(plan.stdout).toContain("~ properties = { webhook = { url = (sensitive) } } -> { webhook = { url = (sensitive) } }");
    expect((await ods(dir, ["apply", "--auto-approve"])).stdout).toMatch(/1 updated/);
    expect((await admin.getNotifier(existing.id)).properties.webhook?.url).toBe("https://new.example.com");
    const bad = await ods(dir, ["import", "ods_notifier.nope", "x"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("ods_notifier.nope is not declared");
  });

  it("stops bad input before any write, naming the construct path and attribute", async () => {
    const dir = tempDir();
    writeStack(dir, { resource: { ods_notifier: { bad: { name: "bad", properties: { email: { emails: ["not-an-address"] } } } } } });
    emu.resetRequests();
    const r = await ods(dir, ["apply", "--auto-approve"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('[main/bad] ods_notifier.bad: attribute "properties.email.emails[0]" expected an e-mail address');
    expect(emu.requests().filter((q) => q.method !== "GET")).toEqual([]);
  });

  it("refuses a saved plan when the live service moved since", async () => {
    const dir = tempDir();
    writeStack(dir, { resource: { ods_role: { r: { name: "saved-plan-role", description: "one" } } } });
    const planFile = path.join(dir, "plan.json");
    expect((await ods(dir, ["plan", "--out", planFile])).code).toBe(0);
    await admin.createRole({ name: "saved-plan-role", description: "made by someone else" });
    const r = await ods(dir, ["apply", planFile]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toMatch(/stale: the live objects changed/);
  });
});

describe("the API-call budget", () => {
  it("a plan with no changes over 100 resources costs one list per kind and per dataset; an apply one write per change", async () => {
    const dir = tempDir();
    const resource: NonNullable<StackSpec["resource"]> = { ods_dataset: {}, ods_virtual_field: {}, ods_notifier: {}, ods_role: {} };
    for (let d = 0; d < 4; d++) resource.ods_dataset[`d${d}`] = { name: `budget-${d}` };
    for (let i = 0; i < 40; i++) resource.ods_virtual_field[`v${i}`] = { dataset: `\${ods_dataset.d${i % 4}.name}`, name: `f${i}`, expression: "a" };
    for (let i = 0; i < 30; i++) resource.ods_notifier[`n${i}`] = { name: `budget-n${i}`, properties: { webhook: { url: `https://h.example.com/${i}` } } };
    for (let i = 0; i < 26; i++) resource.ods_role[`r${i}`] = { name: `budget-r${i}` };
    writeStack(dir, { resource });
    emu.resetRequests();
    expect((await ods(dir, ["apply", "--auto-approve"])).code).toBe(0);
    // A 429 answer did nothing (the client waits and sends again): it is not a write.
    const writes = emu.requests().filter((r) => r.method !== "GET" && r.status !== 429);
    expect(writes).toHaveLength(100);

    emu.resetRequests();
    expect((await ods(dir, ["plan", "--detailed-exitcode"])).code).toBe(0);
    const reads = emu.requests().filter((r) => r.status !== 429);
    expect(reads.every((r) => r.method === "GET")).toBe(true);
    const lists = reads.filter((r) => !r.path.startsWith("/v2/orgs"));
    // datasets, notifiers, roles: one each; virtual fields: one per dataset.
    expect(lists).toHaveLength(3 + 4);
  });
});
