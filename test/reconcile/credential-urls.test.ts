// Webhook and chat URLs carry their credential in the URL itself: they are sensitive,
// hidden in plans (text and JSON), apply output, `ods state show`, `ods drift`,
// validation errors and outputs, and in the Terraform schema; yet still compared, so a
// changed URL plans an update.
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { leakedSecrets, runOds, stackFlags, tempDir, writeStack, type StackSpec } from "../helpers/ods-cli";
import { useRig } from "../lifecycle/helpers";

const use = useRig();

const URLS = {
  chat_a: "https://hooks.chat.example/services/T0/B0/chatAcredential11",
  chat_b_webhook: "https://hooks.chat.example/services/T0/B0/chatBcredential22",
  chat_c: "https://hooks.chat.example/services/T0/B0/chatCcredential33",
  webhook: "https://hooks.example.com/plain/webhookcredential44",
  custom: "https://hooks.example.com/custom/customcredential55",
  changed: "https://hooks.chat.example/services/T0/B0/chatAcredential66",
};

function stack(chatA: string, extra: Partial<StackSpec> = {}): StackSpec {
  return {
    resource: {
      ods_notifier: {
        hooks: {
          name: "url-hooks",
          properties: {
            chat_a: { chat_a_url: chatA },
            chat_b_webhook: { chat_b_webhook_url: URLS.chat_b_webhook },
            chat_c: { chat_c_url: URLS.chat_c },
            webhook: { url: URLS.webhook },
            custom_webhook: { url: URLS.custom },
          },
        },
      },
    },
    ...extra,
  };
}

describe("credential URLs of notifiers", () => {
  it("are marked sensitive in the Terraform schema", () => {
    const schema = JSON.parse(fs.readFileSync(path.join(__dirname, "../../provider-schema.json"), "utf8")) as {
      provider_schemas: Record<string, { resource_schemas: Record<string, { block: { attributes: Record<string, { nested_type?: { attributes: Record<string, { nested_type?: { attributes: Record<string, { sensitive?: boolean }> } }> } }> } }> }>;
    };
    const props = Object.values(schema.provider_schemas)[0].resource_schemas.ods_notifier.block.attributes.properties.nested_type!.attributes;
    const sensitive = (channel: string, attr: string): boolean | undefined => props[channel].nested_type!.attributes[attr].sensitive;
    expect([sensitive("chat_a", "chat_a_url"), sensitive("chat_b_webhook", "chat_b_webhook_url"), sensitive("chat_c", "chat_c_url"), sensitive("webhook", "url"), sensitive("custom_webhook", "url")]).toEqual([true, true, true, true, true]);
    expect(sensitive("chat_b", "chat_b_channel")).toBeFalsy();
  });

  it("are hidden in plans, apply, state show and drift, and a changed URL still plans an update", async () => {
    const dir = tempDir();
    const env = { ODS_URL: use.rig.emu.url, ODS_TOKEN: use.rig.emu.adminToken };
    const seen: string[] = [];
    const ods = async (args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> => {
      const r = await runOds([...args, ...stackFlags(dir)], { env });
      seen.push(r.stdout, r.stderr);
      return r;
    };
    writeStack(dir, stack(URLS.chat_a));
    const plan = await ods(["plan"]);
    expect(plan.stdout).toContain("chat_a_url = (sensitive)");
    expect((await ods(["apply", "--auto-approve"])).code).toBe(0);
    const show = await ods(["state", "show", "ods_notifier.hooks"]);
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toContain("chat_c_url = (sensitive)");
    expect((await ods(["plan", "--detailed-exitcode"])).code).toBe(0);

    // Changed in the stack: compared, planned as an update, the new value hidden too.
    writeStack(dir, stack(URLS.changed));
    const changed = await ods(["plan", "--detailed-exitcode", "--json"]);
    expect(changed.code).toBe(2);
    const changes = (JSON.parse(changed.stdout) as { resource_changes: { address: string; action: string }[] }).resource_changes;
    expect(changes.map((c) => [c.address, c.action])).toEqual([["ods_notifier.hooks", "update"]]);
    expect((await ods(["plan"])).stdout).toMatch(/~ properties = .*\(sensitive\)/);
    expect((await ods(["apply", "--auto-approve"])).code).toBe(0);
    const live = (await use.rig.admin.listNotifiers()).find((n) => n.name === "url-hooks");
    expect(live?.properties.chatA?.chatAUrl).toBe(URLS.changed);

    // Changed by hand: drift names the attribute without printing either URL.
    await use.rig.admin.updateNotifier(live!.id, { ...live!, properties: { ...live!.properties, chatC: { chatCUrl: `${URLS.chat_c}x` } } });
    const drift = await ods(["drift"]);
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain("ods_notifier.hooks.properties");
    expect(leakedSecrets(seen, Object.values(URLS).map((u) => u.slice(u.lastIndexOf("/") + 1)))).toEqual([]);
  });

  it("are not echoed by a validation error, and a plain output of one is refused", async () => {
    const dir = tempDir();
    const env = { ODS_URL: use.rig.emu.url, ODS_TOKEN: use.rig.emu.adminToken };
    writeStack(dir, stack("ftp://hooks.chat.example/services/T0/B0/badcredential77"));
    const bad = await runOds(["plan", ...stackFlags(dir)], { env });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('"properties.chat_a.chat_a_url" expected an http(s) URL');
    expect(bad.stdout + bad.stderr).not.toContain("badcredential77");

    writeStack(dir, stack(URLS.chat_a, { output: { url: { value: "${ods_notifier.hooks.properties.chat_a.chat_a_url}" } } }));
    const out = await runOds(["plan", ...stackFlags(dir)], { env });
    expect(out.code).toBe(1);
    expect(out.stderr).toContain('output "url": Output refers to sensitive values');
  });
});
