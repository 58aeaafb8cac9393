// terraform-provider-ods end to end: the real terraform v1.11 against the emulator.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { ODS_BIN, ROOT, removeTempDirs, tempDir } from "../helpers/ods-cli";
import { TerraformWorkspace, hasTerraform, installProvider, odsConfig } from "./harness";

let emu: EmulatorHandle;
let admin: OdsClient;
let cliConfig: string;
const SECRET = "chat-b-token-tf-5d1e77";

beforeAll(async () => {
  if (!hasTerraform) return;
  emu = await startEmulator({ port: 0, dataDir: tempDir("ods-emu-") });
  admin = new OdsClient({ url: emu.url, token: emu.adminToken });
  cliConfig = installProvider();
});
afterAll(async () => {
  await admin?.close();
  await emu?.close();
  removeTempDirs();
});

function stack(opts: { roleDescription: string; datasetName: string; tokenDescription: string }): Record<string, unknown> {
  return odsConfig({
    resource: {
      ods_dataset: { logs: { name: opts.datasetName, description: "tf logs", allow_destroy: true } },
      ods_virtual_field: { lat: { dataset: "${ods_dataset.logs.name}", name: "lat_s", expression: "duration_ms / 1000", type: "float" } },
      ods_notifier: {
        oncall: {
          name: "tf-oncall",
          disabled_until: "2030-01-01T02:00:00+02:00",
          properties: { email: { emails: ["b@example.com", "a@example.com"] }, chat_b: { chat_b_channel: "#tf", chat_b_token: SECRET } },
        },
      },
      ods_role: { readers: { name: "tf-readers", description: opts.roleDescription, members: [], org_capabilities: { datasets: ["read", "create"] } } },
      ods_api_token: { ci: { name: "tf-ci", description: opts.tokenDescription, org_capabilities: { datasets: ["read"] }, rotation_grace_period: "1h" } },
      ods_starred_query: { q: { dataset: "${ods_dataset.logs.name}", name: "tf query", query: { apl: "['tf-logs'] | take 5" } } },
    },
    data: { ods_organization: { org: {} } },
    output: {
      token: { value: "${ods_api_token.ci.token}", sensitive: true },
      token_id: { value: "${ods_api_token.ci.id}" },
      rate: { value: "${data.ods_organization.org.license.api_rate_limit_per_second}" },
    },
  });
}

describe.skipIf(!hasTerraform)("terraform apply with terraform-provider-ods", () => {
  // A dozen terraform runs in a row: a hang guard, not a speed check (a loaded 2-core machine took 185 s).
  it("init, apply, a converged plan, update in place, rotation, replacement, drift, import, destroy", { timeout: 300_000 }, async () => {
    const tf = new TerraformWorkspace(cliConfig, { url: emu.url, token: emu.adminToken });
    const base = { roleDescription: "one", datasetName: "tf-logs", tokenDescription: "ci" };
    tf.writeConfig(stack(base));
    const init = await tf.run("init");
    expect(init.status, init.out).toBe(0);
    const apply = await tf.run("apply", "-auto-approve");
    expect(apply.status, apply.out).toBe(0);
    expect(apply.out).not.toContain(SECRET);
    const plan = await tf.run("plan", "-detailed-exitcode");
    expect(plan.status, plan.out).toBe(0);
    expect((await tf.run("output", "-raw", "rate")).out.trim()).toMatch(/^\d+$/);
    const firstToken = (await tf.run("output", "-raw", "token")).out.trim();
    const firstTokenId = (await tf.run("output", "-raw", "token_id")).out.trim();
    expect(firstToken.length).toBeGreaterThan(10);

    // In place.
    tf.writeConfig(stack({ ...base, roleDescription: "two" }));
    const upd = await tf.run("apply", "-auto-approve");
    expect(upd.status, upd.out).toBe(0);
    expect(upd.out).toMatch(/1 changed, 0 destroyed/);
    { const p = await tf.run("plan", "-detailed-exitcode"); expect(p.status, p.out).toBe(0); }

    // Token change: a rotation (new id, new secret), not an in-place update.
    tf.writeConfig(stack({ ...base, roleDescription: "two", tokenDescription: "ci v2" }));
    const rot = await tf.run("apply", "-auto-approve");
    expect(rot.status, rot.out).toBe(0);
    expect((await tf.run("output", "-raw", "token_id")).out.trim()).not.toBe(firstTokenId);
    expect((await tf.run("output", "-raw", "token")).out.trim()).not.toBe(firstToken);
    { const p = await tf.run("plan", "-detailed-exitcode"); expect(p.status, p.out).toBe(0); }

    // Replacement: a dataset cannot be renamed.
    tf.writeConfig(stack({ ...base, roleDescription: "two", tokenDescription: "ci v2", datasetName: "tf-logs-2" }));
    const planRep = await tf.run("plan");
    expect(planRep.out).toMatch(/ods_dataset.logs must be replaced/);
    const rep = await tf.run("apply", "-auto-approve");
    expect(rep.status, rep.out).toBe(0);
    { const p = await tf.run("plan", "-detailed-exitcode"); expect(p.status, p.out).toBe(0); }

      // Drift: deleted out of band, planned for re-creation.
      const vf = (await admin.listVirtualFields("tf-logs-2")).find((v) => v.name === "lat_s")!;
      await admin.deleteVirtualField(vf.id);
      const drift = await tf.run("plan", "-detailed-exitcode");
      expect(drift.status, drift.out).toBe(2);
      expect(drift.out).toMatch(/ods_virtual_field.lat will be created/);
      expect((await tf.run("apply", "-auto-approve")).status).toBe(0);

      // Import.
      const made = await admin.createNotifier({ name: "tf-imported", properties: { webhook: { url: "https://i.example.com" } } });
      const cfg = stack({ ...base, roleDescription: "two", tokenDescription: "ci v2", datasetName: "tf-logs-2" }) as { resource: Record<string, Record<string, unknown>> };
      cfg.resource.ods_notifier.imp = { name: "tf-imported", properties: { webhook: { url: "https://i.example.com" } } };
      tf.writeConfig(cfg);
      const imp = await tf.run("import", "ods_notifier.imp", made.id);
      expect(imp.status, imp.out).toBe(0);
      { const p = await tf.run("plan", "-detailed-exitcode"); expect(p.status, p.out).toBe(0); }

      const destroy = await tf.run("destroy", "-auto-approve");
      expect(destroy.status, destroy.out).toBe(0);
      expect((await admin.listRoles()).some((r) => r.name === "tf-readers")).toBe(false);
      expect((await admin.listNotifiers()).some((n) => n.name === "tf-oncall" || n.name === "tf-imported")).toBe(false);
  });

  it("stops a broken starred query at plan time with its line and column", async () => {
    const tf = new TerraformWorkspace(cliConfig, { url: emu.url, token: emu.adminToken });
    tf.writeConfig(
      odsConfig({
        resource: { ods_starred_query: { bad: { dataset: "web-requests-tf", name: "broken", query: { apl: "['web-requests-tf']\n| where status >" } } } },
      }),
    );
    expect((await tf.run("init")).status).toBe(0);
      await admin.createDataset({ name: "web-requests-tf" });
      emu.resetRequests();
      const plan = await tf.run("plan");
      expect(plan.status).toBe(1);
      expect(plan.out).toMatch(/Invalid query in ods_starred_query/);
      expect(plan.out).toMatch(/line 2, column/);
      expect(emu.requests().filter((r) => r.method !== "GET" && !r.path.startsWith("/v1/datasets/_apl"))).toEqual([]);
  });

  it("applies the stack that cdktf synthesizes from examples/basic", async () => {
    await admin.createDataset({ name: "web-requests" }).catch(() => undefined);
    await admin.ingest("web-requests", [{ duration_ms: 12, status: 200 }]);
    const out = tempDir("ods-synth-");
    const synth = spawnSync(process.execPath, [ODS_BIN, "synth", "--out", out], { cwd: ROOT, encoding: "utf8", timeout: 120_000 });
    expect(synth.status, synth.stderr).toBe(0);
    const stackDir = path.join(out, "stacks", "basic");
    // Keep terraform's state inside the temp dir rather than the repository.
    const json = JSON.parse(fs.readFileSync(path.join(stackDir, "cdk.tf.json"), "utf8")) as { terraform: { backend?: unknown } };
    json.terraform.backend = { local: { path: path.join(stackDir, "terraform.tfstate") } };
    fs.writeFileSync(path.join(stackDir, "cdk.tf.json"), JSON.stringify(json));
    const tf = new TerraformWorkspace(cliConfig, { url: emu.url, token: emu.adminToken }, stackDir);
    expect((await tf.run("init")).status).toBe(0);
    const apply = await tf.run("apply", "-auto-approve");
    expect(apply.status, apply.out).toBe(0);
    // Every resource of the example: its monitor and the notifier it alerts through, its view and dashboard included.
    expect(apply.out).toMatch(/Apply complete! Resources: 12 added/);
    { const p = await tf.run("plan", "-detailed-exitcode"); expect(p.status, p.out).toBe(0); }
  });
});
