// Write-only credentials through `ods plan` / `ods apply` against the emulator: the values
// reach the service, and neither the state, its backup, a saved plan nor the output holds
// them; a changed value with the same version plans nothing, a bumped version sends it;
// a stack moving from the plain attribute to the write-only one updates in place and the
// old value leaves the state.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { storedRecords } from "../helpers/emulator-store";
import { removeTempDirs, runOds, stackFlags, tempDir, writeStack, type RunResult, type StackSpec } from "../helpers/ods-cli";

let emu: EmulatorHandle;
let admin: OdsClient;
let dataDir: string;

beforeAll(async () => {
  dataDir = tempDir("ods-wo-emu-");
  emu = await startEmulator({ port: 0, dataDir, rateLimitPerSecond: 100_000 });
  admin = new OdsClient({ url: emu.url, token: emu.adminToken });
});
afterAll(async () => {
  await admin?.close();
  await emu?.close();
  removeTempDirs();
});

const spec = (name: string, version: number): StackSpec & { variable: unknown } => ({
  variable: { hook: { type: "string", sensitive: true }, chat: { type: "string", sensitive: true } },
  resource: {
    ods_notifier: {
      n: {
        name,
        properties: {
          webhook: { url_wo: "${var.hook}", url_wo_version: version },
          chat_b: { chat_b_channel: "#ops", chat_b_token_wo: "${var.chat}", chat_b_token_wo_version: version },
        },
      },
    },
  },
});

/** The stack file, with the variables block writeStack leaves out. */
function writeSpec(dir: string, s: StackSpec & { variable?: unknown }): void {
  const file = writeStack(dir, s);
  const json = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>;
  if (s.variable) json.variable = s.variable;
  fs.writeFileSync(file, JSON.stringify(json, null, 2));
}

function ods(dir: string, args: string[], vars: Record<string, string>): Promise<RunResult> {
  return runOds([...args, ...stackFlags(dir)], { cwd: dir, env: { ODS_URL: emu.url, ODS_TOKEN: emu.adminToken, ...vars }, timeoutMs: 120_000 });
}

/** Every file under DIR, as text. */
function filesUnder(dir: string): { file: string; text: string }[] {
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .map((file) => ({ file, text: fs.readFileSync(file, "utf8") }));
}

async function delivered(name: string): Promise<{ url: unknown; token: unknown; id: string }> {
  const live = (await admin.listNotifiers()).find((n) => n.name === name)!;
  const stored = storedRecords(dataDir, "notifiers").find((r) => r.name === name) as { properties: { chatB: { chatBToken: string } } };
  return { url: live.properties.webhook?.url, token: stored.properties.chatB.chatBToken, id: live.id };
}

describe("write-only credentials in the ods engine", () => {
  it("reach the service and no file ods writes; a new value is sent only with a new version", async () => {
    const dir = tempDir("ods-wo-");
    const first = { TF_VAR_hook: "https://hooks.example.com/services/MARKERhook1a2b3c4d5e6f", TF_VAR_chat: "MARKER-chat-token-1" };
    writeSpec(dir, spec("wo-ods", 1));
    const applied = await ods(dir, ["apply", "--auto-approve"], first);
    expect(applied.code, applied.stderr).toBe(0);
    expect(await delivered("wo-ods")).toMatchObject({ url: first.TF_VAR_hook, token: first.TF_VAR_chat });

    const state = JSON.parse(fs.readFileSync(path.join(dir, "state.json"), "utf8")) as { resources: { instances: { attributes: { properties: { webhook: Record<string, unknown> } } }[] }[] };
    expect(state.resources[0].instances[0].attributes.properties.webhook).toEqual({ url: null, url_wo: null, url_wo_version: 1 });

    // New values, same version: nothing to do, and nothing sent.
    const second = { TF_VAR_hook: "https://hooks.example.com/services/MARKERhook9z8y7x6w5v4u", TF_VAR_chat: "MARKER-chat-token-2" };
    const planFile = path.join(dir, "saved.plan.json");
    const plan = await ods(dir, ["plan", "--detailed-exitcode", "--out", planFile], second);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout).toContain("No changes");
    expect((await ods(dir, ["apply", "--auto-approve"], second)).code).toBe(0);
    expect(await delivered("wo-ods")).toMatchObject({ url: first.TF_VAR_hook, token: first.TF_VAR_chat });

    // A bumped version sends the values again, in place.
    const before = await delivered("wo-ods");
    writeSpec(dir, spec("wo-ods", 2));
    const bumped = await ods(dir, ["plan", "--detailed-exitcode"], second);
    expect(bumped.code, bumped.stderr).toBe(2);
    expect(bumped.stdout).toMatch(/update|~/);
    const output = [applied.stdout, applied.stderr, plan.stdout, plan.stderr, bumped.stdout, bumped.stderr];
    const reapplied = await ods(dir, ["apply", "--auto-approve"], second);
    expect(reapplied.code, reapplied.stderr).toBe(0);
    expect(await delivered("wo-ods")).toEqual({ url: second.TF_VAR_hook, token: second.TF_VAR_chat, id: before.id });

    // No marker in any file under the working directory (state, backup, saved plan), nor in the output.
    const texts = [...filesUnder(dir), ...output.map((text, i) => ({ file: `output ${i}`, text })), { file: "apply", text: reapplied.stdout + reapplied.stderr }];
    expect(texts.filter((t) => t.text.includes("MARKER")).map((t) => t.file)).toEqual([]);
  });

  it("moving from the plain attribute to the write-only one updates in place and clears the old value from the state", async () => {
    const dir = tempDir("ods-wo-switch-");
    const plainUrl = "https://hooks.example.com/services/PLAINmarker0a1b2c3d4e5f";
    writeSpec(dir, { resource: { ods_notifier: { n: { name: "wo-switch", properties: { webhook: { url: plainUrl } } } } } });
    expect((await ods(dir, ["apply", "--auto-approve"], {})).code).toBe(0);
    expect(fs.readFileSync(path.join(dir, "state.json"), "utf8")).toContain(plainUrl);
    const { id } = (await admin.listNotifiers()).find((n) => n.name === "wo-switch")!;

    const woUrl = "https://hooks.example.com/services/WOmarker9f8e7d6c5b4a";
    writeSpec(dir, {
      variable: { hook: { type: "string", sensitive: true } },
      resource: { ods_notifier: { n: { name: "wo-switch", properties: { webhook: { url_wo: "${var.hook}" } } } } },
    } as StackSpec);
    const plan = await ods(dir, ["plan", "--detailed-exitcode"], { TF_VAR_hook: woUrl });
    expect(plan.code, plan.stderr).toBe(2);
    expect(plan.stdout).toContain("will be updated in place");
    expect(plan.stdout).toContain("1 to update, 0 to replace");
    const applied = await ods(dir, ["apply", "--auto-approve"], { TF_VAR_hook: woUrl });
    expect(applied.code, applied.stderr).toBe(0);
    const live = (await admin.listNotifiers()).find((n) => n.name === "wo-switch")!;
    expect(live.id).toBe(id);
    expect(live.properties.webhook?.url).toBe(woUrl);
    const stateText = fs.readFileSync(path.join(dir, "state.json"), "utf8");
    expect(stateText).not.toContain(plainUrl);
    expect(stateText).not.toContain(woUrl);
    expect((await ods(dir, ["plan", "--detailed-exitcode"], { TF_VAR_hook: woUrl })).code).toBe(0);
  });

  it("refuses the plain and the write-only form together at plan, naming the path", async () => {
    const dir = tempDir("ods-wo-both-");
    writeSpec(dir, { resource: { ods_notifier: { n: { name: "wo-both", properties: { webhook: { url: "https://a.example.com/x", url_wo: "https://b.example.com/y" } } } } } });
    const plan = await ods(dir, ["plan"], {});
    expect(plan.code).toBe(1);
    expect(plan.stderr).toMatch(/main\/n.*properties\.webhook\.url" and url_wo are both set/s);
    expect(plan.stderr).not.toContain("b.example.com");
  });
});
