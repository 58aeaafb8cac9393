// A credential written as a literal in code draws a synth warning (a cdktf warning
// annotation on the construct, as `cdktf synth` prints it, and as `ods synth` prints
// it from the manifest) naming the construct path and the attribute, suggesting a
// sensitive variable, and never carrying the value.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { App, TerraformStack, TerraformVariable } from "cdktf";
import { afterEach, describe, expect, it } from "vitest";
import { notifier, provider } from "../../src";
import { synthWarnings } from "../../src/reconcile/synth";
import { urlCarriesToken } from "../../src/resources/literal-credentials";

const HOOK = "https://hooks.example.com/services/T000/B000/SuperSecretWebhookKey123";
const CHAT_TOKEN = "xoxb-chat-token-00112233";
const API_KEY = "incident-api-key-9d2c44aa";
const HEADER = "Bearer header-secret-55e0b1";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

interface Annotation {
  constructPath: string;
  level: string;
  message: string;
}

function synthAnnotations(build: (stack: TerraformStack) => void): { annotations: Annotation[]; printed: string[]; written: string } {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), "ods-literal-"));
  dirs.push(outdir);
  const app = new App({ outdir });
  const stack = new TerraformStack(app, "prod");
  new provider.OdsProvider(stack, "ods", {});
  build(stack);
  app.synth();
  const manifest = JSON.parse(fs.readFileSync(path.join(outdir, "manifest.json"), "utf8")) as { stacks: Record<string, { annotations: Annotation[] }> };
  return { annotations: manifest.stacks.prod.annotations, printed: synthWarnings(outdir), written: fs.readFileSync(path.join(outdir, "manifest.json"), "utf8") };
}

describe("literal credentials warn at synth", () => {
  it("a webhook URL with a token-like path, a chat token, an API key and a secret header each draw a warning naming path and attribute", () => {
    const { annotations, printed, written } = synthAnnotations((s) => {
      new notifier.Notifier(s, "oncall", { name: "oncall", properties: { webhook: { url: HOOK } } });
      new notifier.Notifier(s, "pager", {
        name: "pager",
        properties: {
          chatB: { chatBChannel: "#ops", chatBToken: CHAT_TOKEN },
          incidentA: { apiKey: API_KEY },
          customWebhook: { url: "https://alerts.example.com/hook", secretHeaders: { Authorization: HEADER } },
        },
      });
    });
    const warnings = annotations.filter((a) => a.level === "@cdktf/warn");
    const on = (construct: string, attribute: string): Annotation | undefined =>
      warnings.find((w) => w.constructPath === `prod/${construct}` && w.message.includes(`attribute "${attribute}"`));
    expect(on("oncall", "properties.webhook.url")?.message).toMatch(/sensitive variable/);
    expect(on("pager", "properties.chat_b.chat_b_token")).toBeDefined();
    expect(on("pager", "properties.incident_a.api_key")).toBeDefined();
    expect(on("pager", "properties.custom_webhook.secret_headers.Authorization")).toBeDefined();
    // A URL without anything token-like is an address: no warning.
    expect(warnings.find((w) => w.message.includes("custom_webhook.url"))).toBeUndefined();
    expect(warnings).toHaveLength(4);
    expect(printed).toContain(`[prod/oncall] ${on("oncall", "properties.webhook.url")!.message}`);
    for (const secret of [HOOK, "SuperSecretWebhookKey123", CHAT_TOKEN, API_KEY, HEADER]) {
      expect(written).not.toContain(secret);
      expect(printed.join("\n")).not.toContain(secret);
    }
  });

  it("the same values from a sensitive variable draw no warning", () => {
    const { annotations } = synthAnnotations((s) => {
      const hook = new TerraformVariable(s, "hook", { type: "string", sensitive: true });
      const token = new TerraformVariable(s, "chat_token", { type: "string", sensitive: true });
      new notifier.Notifier(s, "oncall", { name: "oncall", properties: { webhook: { url: hook.stringValue }, chatB: { chatBChannel: "#ops", chatBToken: token.stringValue } } });
    });
    expect(annotations.filter((a) => a.level === "@cdktf/warn")).toEqual([]);
  });

  it("tells token-like URLs from addresses", () => {
    expect(urlCarriesToken(HOOK)).toBe(true);
    expect(urlCarriesToken("https://chat.example.com/hook?token=a1b2c3d4e5f6g7h8i9")).toBe(true);
    expect(urlCarriesToken("https://user:pw@alerts.example.com/x")).toBe(true);
    expect(urlCarriesToken("https://alerts.example.com/hooks/alert")).toBe(false);
    expect(urlCarriesToken("https://hooks.example.com/services/checkout-team")).toBe(false);
  });
});
