// Write-only credentials through the real terraform 1.11: the state holds null for
// `<name>_wo`, the value reaches the service, a changed value with the same version plans
// no change, a bumped version updates in place; and `ods plan` agrees on terraform's state.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { storedRecords } from "../helpers/emulator-store";
import { removeTempDirs, runOds, tempDir } from "../helpers/ods-cli";
import { TerraformWorkspace, hasTerraform, installProvider } from "./harness";

let emu: EmulatorHandle;
let admin: OdsClient;
let dataDir: string;
let cliConfig: string;

beforeAll(async () => {
  if (!hasTerraform) return;
  dataDir = tempDir("ods-emu-");
  emu = await startEmulator({ port: 0, dataDir, rateLimitPerSecond: 100_000 });
  admin = new OdsClient({ url: emu.url, token: emu.adminToken });
  cliConfig = installProvider();
}, 120_000);
afterAll(async () => {
  await admin?.close();
  await emu?.close();
  removeTempDirs();
});

function stackJson(dir: string, version: number): unknown {
  return {
    terraform: { required_providers: { ods: { source: "registry.terraform.io/ods/ods" } }, backend: { local: { path: path.join(dir, "terraform.main.tfstate") } } },
    provider: { ods: [{}] },
    variable: { hook: { type: "string", sensitive: true }, chat: { type: "string", sensitive: true } },
    resource: {
      ods_notifier: {
        n: {
          "//": { metadata: { path: "main/n", uniqueId: "n" } },
          name: "wo-terraform",
          properties: {
            webhook: { url_wo: "${var.hook}", url_wo_version: version },
            chat_b: { chat_b_channel: "#ops", chat_b_token_wo: "${var.chat}", chat_b_token_wo_version: version },
          },
        },
      },
    },
  };
}

async function delivered(): Promise<{ url: unknown; token: unknown; id: string }> {
  const live = (await admin.listNotifiers()).find((n) => n.name === "wo-terraform")!;
  const stored = storedRecords(dataDir, "notifiers").find((r) => r.name === "wo-terraform") as { properties: { chatB: { chatBToken: string } } };
  return { url: live.properties.webhook?.url, token: stored.properties.chatB.chatBToken, id: live.id };
}

describe.skipIf(!hasTerraform)("write-only attributes through terraform apply", () => {
  it("stores null, delivers the value, ignores a new value until the version is bumped", async () => {
    const dir = tempDir("ods-tf-wo-");
    const outDir = path.join(dir, "cdktf.out");
    const stackDir = path.join(outDir, "stacks", "main");
    fs.mkdirSync(stackDir, { recursive: true });
    const write = (version: number): void => fs.writeFileSync(path.join(stackDir, "cdk.tf.json"), JSON.stringify(stackJson(dir, version), null, 2));
    const first = { TF_VAR_hook: "https://hooks.example.com/services/MARKERtf1a2b3c4d5e6f", TF_VAR_chat: "MARKER-tf-token-1" };
    const second = { TF_VAR_hook: "https://hooks.example.com/services/MARKERtf9z8y7x6w5v4u", TF_VAR_chat: "MARKER-tf-token-2" };
    const tf = (vars: Record<string, string>): TerraformWorkspace => new TerraformWorkspace(cliConfig, { url: emu.url, token: emu.adminToken }, stackDir, vars);

    write(1);
    expect((await tf(first).run("init")).status).toBe(0);
    const applied = await tf(first).run("apply", "-auto-approve");
    expect(applied.status, applied.out).toBe(0);
    const made = await delivered();
    expect(made).toMatchObject({ url: first.TF_VAR_hook, token: first.TF_VAR_chat });
    const stateFile = path.join(dir, "terraform.main.tfstate");
    const state = JSON.parse(fs.readFileSync(stateFile, "utf8")) as { resources: { instances: { attributes: { properties: Record<string, Record<string, unknown>> } }[] }[] };
    expect(state.resources[0].instances[0].attributes.properties.webhook).toEqual({ url: null, url_wo: null, url_wo_version: 1 });
    expect(state.resources[0].instances[0].attributes.properties.chat_b).toMatchObject({ chat_b_token: null, chat_b_token_wo: null, chat_b_token_wo_version: 1 });

    // A new value under the same version: no changes.
    const same = await tf(second).run("plan", "-detailed-exitcode");
    expect(same.status, same.out).toBe(0);

    // ods agrees on terraform's state.
    const odsPlan = await runOds(["plan", "--detailed-exitcode", "--out-dir", outDir, "--no-synth"], { cwd: dir, env: { ODS_URL: emu.url, ODS_TOKEN: emu.adminToken, ...second }, timeoutMs: 120_000 });
    expect(odsPlan.code, odsPlan.stdout + odsPlan.stderr).toBe(0);

    // A bumped version: an in-place update that sends the new values.
    write(2);
    const bumped = await tf(second).run("apply", "-auto-approve");
    expect(bumped.status, bumped.out).toBe(0);
    expect(bumped.out).toMatch(/1 changed, 0 destroyed/);
    expect(await delivered()).toEqual({ url: second.TF_VAR_hook, token: second.TF_VAR_chat, id: made.id });

    const files = fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && !e.parentPath.includes(".terraform"));
    const leaking = files.map((e) => path.join(e.parentPath, e.name)).filter((f) => fs.readFileSync(f, "utf8").includes("MARKER"));
    expect(leaking).toEqual([]);
    expect(applied.out + same.out + bumped.out + odsPlan.stdout + odsPlan.stderr).not.toContain("MARKER");
  }, 240_000);
});
