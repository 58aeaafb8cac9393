// One stack, one state, both engines: after `ods apply`, `terraform plan` finds nothing to
// do, with a capability keyed by a dataset reference and a notifier secret from a
// sensitive variable; and a privilege granted by hand is a change for both engines,
// which either apply removes.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { removeTempDirs, runOds, tempDir, type RunResult } from "../helpers/ods-cli";
import { TerraformWorkspace, hasTerraform, installProvider } from "./harness";

const CHAT_SECRET = "chat-secret-from-var-3c1f";
let emu: EmulatorHandle;
let admin: OdsClient;
let cliConfig: string;

beforeAll(async () => {
  if (!hasTerraform) return;
  emu = await startEmulator({ port: 0, dataDir: tempDir("ods-emu-"), rateLimitPerSecond: 100_000 });
  admin = new OdsClient({ url: emu.url, token: emu.adminToken });
  cliConfig = installProvider();
}, 120_000);
afterAll(async () => {
  await admin?.close();
  await emu?.close();
  removeTempDirs();
});

function stackJson(dir: string): unknown {
  const meta = (name: string): Record<string, unknown> => ({ "//": { metadata: { path: `main/${name}`, uniqueId: name } } });
  return {
    terraform: { required_providers: { ods: { source: "registry.terraform.io/ods/ods" } }, backend: { local: { path: path.join(dir, "terraform.main.tfstate") } } },
    provider: { ods: [{}] },
    variable: { chat_token: { type: "string", sensitive: true } },
    resource: {
      ods_dataset: { logs: { ...meta("logs"), name: "agree-logs", allow_destroy: true } },
      ods_role: { readers: { ...meta("readers"), name: "agree-readers", dataset_capabilities: { "${ods_dataset.logs.name}": { query: ["read"] } } } },
      ods_notifier: { chat: { ...meta("chat"), name: "agree-chat", properties: { chat_b: { chat_b_channel: "#ops", chat_b_token: "${var.chat_token}" }, incident_b: { routing_key: "rk-${var.chat_token}", token: "${var.chat_token}" }, custom_webhook: { url: "https://h.example.com/x", secret_headers: { Authorization: "${var.chat_token}" } }, incident_a: { api_key: "${var.chat_token}" } } } },
    },
  };
}

describe.skipIf(!hasTerraform)("ods and terraform on one state", () => {
  it("agree after ods apply, and both remove a privilege granted by hand", async () => {
    const dir = tempDir("ods-agree-");
    const outDir = path.join(dir, "cdktf.out");
    const stackDir = path.join(outDir, "stacks", "main");
    fs.mkdirSync(stackDir, { recursive: true });
    fs.writeFileSync(path.join(stackDir, "cdk.tf.json"), JSON.stringify(stackJson(dir), null, 2));
    const vars = { TF_VAR_chat_token: CHAT_SECRET };
    const ods = (args: string[]): Promise<RunResult> =>
      runOds([...args, "--out-dir", outDir, "--no-synth"], { cwd: dir, env: { ODS_URL: emu.url, ODS_TOKEN: emu.adminToken, ...vars }, timeoutMs: 120_000 });
    const tf = new TerraformWorkspace(cliConfig, { url: emu.url, token: emu.adminToken }, stackDir, vars);

    const applied = await ods(["apply", "--auto-approve"]);
    expect(applied.code, applied.stderr).toBe(0);
    expect((await admin.listRoles()).find((r) => r.name === "agree-readers")?.datasetCapabilities).toEqual({ "agree-logs": { query: ["read"] } });
    // A second run (nothing to change) rewrites nothing Terraform would see differently.
    expect((await ods(["apply", "--auto-approve"])).code).toBe(0);
    expect((await tf.run("init")).status).toBe(0);
    // No phantom update of the notifier whose secret came from the sensitive variable.
    const plan = await tf.run("plan", "-detailed-exitcode");
    expect(plan.status, plan.out).toBe(0);

    const role = (await admin.listRoles()).find((r) => r.name === "agree-readers")!;
    await admin.updateRole(role.id, { ...role, orgCapabilities: { datasets: ["read", "delete"], apiTokens: ["create"] } });
    const odsSees = await ods(["plan", "--detailed-exitcode"]);
    expect(odsSees.code, odsSees.stdout).toBe(2);
    const tfSees = await tf.run("plan", "-detailed-exitcode");
    expect(tfSees.status, tfSees.out).toBe(2);
    expect(tfSees.out).toContain("org_capabilities");
    const tfApply = await tf.run("apply", "-auto-approve");
    expect(tfApply.status, tfApply.out).toBe(0);
    expect((await admin.listRoles()).find((r) => r.name === "agree-readers")?.orgCapabilities ?? {}).toEqual({});
    expect((await ods(["plan", "--detailed-exitcode"])).code).toBe(0);
    expect((await tf.run("plan", "-detailed-exitcode")).status).toBe(0);
    for (const text of [applied.stdout, applied.stderr, plan.out, tfSees.out, tfApply.out]) expect(text).not.toContain(CHAT_SECRET);
  }, 300_000);

  it("labels dropped from the configuration are removed by both engines: an unset attribute plans its default", async () => {
    const dir = tempDir("ods-agree-default-");
    const outDir = path.join(dir, "cdktf.out");
    const stackDir = path.join(outDir, "stacks", "main");
    fs.mkdirSync(stackDir, { recursive: true });
    const write = (metadata?: Record<string, string>): void => {
      const query = { dataset: "${ods_dataset.d.name}", name: "agree-q", query: { apl: "['agree-default'] | take 1" }, ...(metadata ? { metadata } : {}) };
      const stack = {
        terraform: { required_providers: { ods: { source: "registry.terraform.io/ods/ods" } }, backend: { local: { path: path.join(dir, "terraform.main.tfstate") } } },
        provider: { ods: [{}] },
        resource: { ods_dataset: { d: { name: "agree-default", allow_destroy: true } }, ods_starred_query: { q: query } },
      };
      fs.writeFileSync(path.join(stackDir, "cdk.tf.json"), JSON.stringify(stack, null, 2));
    };
    const ods = (args: string[]): Promise<RunResult> => runOds([...args, "--out-dir", outDir, "--no-synth"], { cwd: dir, env: { ODS_URL: emu.url, ODS_TOKEN: emu.adminToken }, timeoutMs: 120_000 });
    const tf = new TerraformWorkspace(cliConfig, { url: emu.url, token: emu.adminToken }, stackDir, {});
    const labels = async (): Promise<unknown> => (await admin.listStarredQueries({ who: "all" })).find((q) => q.name === "agree-q")?.metadata;
    // Through Terraform: declared, then dropped.
    write({ team: "a" });
    expect((await tf.run("init")).status).toBe(0);
    expect((await tf.run("apply", "-auto-approve")).status).toBe(0);
    expect(await labels()).toEqual({ team: "a" });
    write();
    const tfPlan = await tf.run("plan", "-detailed-exitcode");
    expect(tfPlan.status, tfPlan.out).toBe(2);
    expect(tfPlan.out).toMatch(/metadata\s+=/);
    expect((await tf.run("apply", "-auto-approve")).status).toBe(0);
    expect(await labels()).toEqual({});
    expect((await ods(["plan", "--detailed-exitcode"])).code).toBe(0);

    // Through ods: the same, and the plan says what the apply sends.
    write({ team: "b" });
    expect((await ods(["apply", "--auto-approve"])).code).toBe(0);
    expect(await labels()).toEqual({ team: "b" });
    write();
    const odsPlan = await ods(["plan", "--detailed-exitcode"]);
    expect(odsPlan.code, odsPlan.stdout).toBe(2);
    expect(odsPlan.stdout).toMatch(/~ metadata = \{ team = "b" \} -> \{\s*\}/);
    expect((await ods(["apply", "--auto-approve"])).code).toBe(0);
    expect(await labels()).toEqual({});
    expect((await tf.run("plan", "-detailed-exitcode")).status).toBe(0);
    expect((await ods(["destroy", "--auto-approve"])).code).toBe(0);
  }, 300_000);
});
