// A plain output (no `sensitive = true`) that carries a secret is refused at plan by the
// `ods` CLI, naming the output, as Terraform refuses it ("Output refers to sensitive
// values"): a token's secret, a notifier's write-only secret, a sensitive variable. And
// `ods output` never prints a secret from an output an older engine stored unmarked.
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { runOds, stackFlags, tempDir } from "../helpers/ods-cli";
import { useRig } from "../lifecycle/helpers";

const use = useRig();

const VARIABLE_SECRET = "variable-secret-5e8d21";
const CHAT_SECRET = "chat-secret-19ab77";

function writeStackWithOutput(dir: string, output: { value: unknown; sensitive?: boolean }): void {
  const file = path.join(dir, "cdktf.out", "stacks", "main", "cdk.tf.json");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(
    file,
    JSON.stringify({
      provider: { ods: [{}] },
      variable: { pager: { type: "string", sensitive: true, default: VARIABLE_SECRET } },
      resource: {
        ods_api_token: { ci: { name: "out-ci" } },
        ods_notifier: { chat: { name: "out-chat", properties: { chat_b: { chat_b_channel: "#a", chat_b_token: CHAT_SECRET } } } },
      },
      output: { leak: output },
    }),
  );
}

describe("a plain output carrying a secret", () => {
  const env = (): Record<string, string> => ({ ODS_URL: use.rig.emu.url, ODS_TOKEN: use.rig.emu.adminToken });

  it.each([
    ["a token's secret", "${ods_api_token.ci.token}", "ods_api_token.ci.token"],
    ["a whole token", "${ods_api_token.ci}", "ods_api_token.ci"],
    ["a write-only notifier secret", "${ods_notifier.chat.properties.chat_b.chat_b_token}", "ods_notifier.chat.properties.chat_b.chat_b_token"],
    ["a secret inside a list", ["${ods_api_token.ci.token}"], "ods_api_token.ci.token"],
    ["a sensitive variable", "prefix-${var.pager}", "a sensitive variable"],
  ])("is refused at plan and apply when it carries %s, naming the output; nothing is written", async (_what, value, named) => {
    const dir = tempDir();
    writeStackWithOutput(dir, { value });
    const plan = await runOds(["plan", ...stackFlags(dir)], { env: env() });
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain(`output "leak": Output refers to sensitive values (${named})`);
    use.rig.emu.resetRequests();
    const apply = await runOds(["apply", "--auto-approve", ...stackFlags(dir)], { env: env() });
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain('output "leak": Output refers to sensitive values');
    expect(use.rig.emu.requests().filter((q) => q.method !== "GET")).toEqual([]);
    for (const text of [plan.stdout, plan.stderr, apply.stdout, apply.stderr]) {
      expect(text).not.toContain(VARIABLE_SECRET);
      expect(text).not.toContain(CHAT_SECRET);
    }
  });

  it("is hidden by ods output when an older engine stored it unmarked", async () => {
    const dir = tempDir();
    writeStackWithOutput(dir, { value: "${ods_api_token.ci.token}", sensitive: true });
    const apply = await runOds(["apply", "--auto-approve", ...stackFlags(dir)], { env: env() });
    expect(apply.code, apply.stderr).toBe(0);
    const secret = (await runOds(["output", "leak", "--show-sensitive", ...stackFlags(dir)], { env: env() })).stdout.trim();
    expect(secret.length).toBeGreaterThan(10);
    // What the engine wrote before it refused such outputs: the same value, unmarked.
    const stateFile = path.join(dir, "state.json");
    const state = JSON.parse(fs.readFileSync(stateFile, "utf8")) as { outputs: Record<string, { sensitive?: boolean }> };
    state.outputs.leak.sensitive = false;
    fs.writeFileSync(stateFile, JSON.stringify(state));
    for (const args of [["output"], ["output", "leak"], ["output", "--json"]]) {
      const shown = await runOds([...args, ...stackFlags(dir)], { env: env() });
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout).toContain("(sensitive)");
      expect(shown.stdout + shown.stderr).not.toContain(secret);
    }
  });
});
