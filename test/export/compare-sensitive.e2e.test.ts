// `ods compare` against emulators over HTTP: credentials (webhook and chat URLs, values
// of sensitive variables) are compared but never printed; --kinds filters the stack's
// side too; --var and --var-file take plan's forms (STACK:NAME=VALUE, STACK=FILE); a
// dashboard document differs by path, not as escaped text.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { removeTempDirs, runOds, tempDir } from "../helpers/ods-cli";

const LIVE_HOOK = "https://hooks.example.com/services/T000/B000/SuperSecretWebhookKey123";
const OTHER_HOOK = "https://hooks.example.com/services/T111/B111/OtherSecretWebhookKey456";
const STACK_HOOK = "https://hooks.example.com/services/T222/B222/StackSecretFromVariable789";
const CHAT_URL = "https://chat.example.com/hooks/ChatSecretPathToken321";

function document(name: string, width: number): Record<string, unknown> {
  return {
    name: "Checkout",
    owner: "X-AXIOM-EVERYONE",
    charts: [
      { id: "c1", type: "TimeSeries", name, query: { apl: "['app-logs'] | summarize count() by bin(_time, 1m)" } },
      { id: "c2", type: "Note", text: "runbook" },
    ],
    layout: [
      { i: "c1", x: 0, y: 0, w: width, h: 4 },
      { i: "c2", x: 0, y: 4, w: 12, h: 2 },
    ],
    refreshTime: 60,
    schemaVersion: 2,
    timeWindowStart: "qr-now-1h",
    timeWindowEnd: "qr-now",
  };
}

let a: EmulatorHandle;
let b: EmulatorHandle;
let stackDir: string;
let varFile: string;

async function fill(emu: EmulatorHandle, hook: string, chartName: string, width: number): Promise<void> {
  const c = new OdsClient({ url: emu.url, token: emu.adminToken });
  try {
    await c.createDataset({ name: "app-logs", description: "" });
    await c.createNotifier({ name: "oncall", properties: { webhook: { url: hook }, chatA: { chatAUrl: CHAT_URL } } });
    await c.createDashboard({ uid: "checkout", dashboard: document(chartName, width) } as never);
  } finally {
    await c.close();
  }
}

beforeAll(async () => {
  a = await startEmulator({ port: 0, dataDir: tempDir("ods-cmp-a-") });
  b = await startEmulator({ port: 0, dataDir: tempDir("ods-cmp-b-") });
  await fill(a, LIVE_HOOK, "errors", 6);
  await fill(b, OTHER_HOOK, "server errors", 8);
  // A stack as cdktf writes it: the webhook URL from a sensitive variable.
  const project = tempDir("ods-cmp-stack-");
  stackDir = path.join(project, "cdktf.out/stacks/prod");
  fs.mkdirSync(stackDir, { recursive: true });
  fs.writeFileSync(
    path.join(stackDir, "cdk.tf.json"),
    JSON.stringify({
      variable: { hook: { type: "string", sensitive: true }, label: { type: "string", default: "x" } },
      provider: { ods: [{}] },
      resource: {
        ods_dataset: { logs: { name: "app-logs" } },
        ods_notifier: { oncall: { name: "oncall", properties: { webhook: { url: "${var.hook}" }, chat_a: { chat_a_url: CHAT_URL } } } },
        ods_dashboard: { checkout: { uid: "checkout", dashboard: JSON.stringify(document("errors", 6), null, 2) } },
      },
    }),
  );
  varFile = path.join(project, "prod.tfvars.json");
  fs.writeFileSync(varFile, JSON.stringify({ hook: STACK_HOOK }));
}, 60_000);

afterAll(async () => {
  await a?.close();
  await b?.close();
  removeTempDirs();
});

const SECRETS = [LIVE_HOOK, OTHER_HOOK, STACK_HOOK, CHAT_URL, "SuperSecretWebhookKey123", "StackSecretFromVariable789", "ChatSecretPathToken321"];

function expectNoSecret(text: string): void {
  for (const s of SECRETS) expect(text, `printed ${s}`).not.toContain(s);
}

describe("ods compare never prints a credential", () => {
  it("two organizations: webhook URLs differ, shown as differs (sensitive); the dashboard differs by path", async () => {
    const r = await runOds(["compare", "--from", a.url, "--to", b.url, "--from-token-env", "A_TOKEN", "--to-token-env", "B_TOKEN"], {
      env: { A_TOKEN: a.adminToken, B_TOKEN: b.adminToken },
    });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expectNoSecret(r.stdout + r.stderr);
    expect(r.stdout).toContain("properties.webhook.url: differs (sensitive)");
    // The chat URL is the same on both sides: compared, equal, not listed.
    expect(r.stdout).not.toContain("chat_a_url");
    expect(r.stdout).toContain(`dashboard.charts[c1].name: "errors" -> "server errors"`);
    expect(r.stdout).toContain("dashboard.layout[c1].w: 6 -> 8");
    expect(r.stdout).not.toContain("\\n");
  });

  it("a stack with a sensitive variable from --var-file STACK=FILE: its value is compared, never shown", async () => {
    const r = await runOds(["compare", "--from", stackDir, "--to", a.url, "--to-token-env", "A_TOKEN", "--var-file", `prod=${varFile}`], {
      env: { A_TOKEN: a.adminToken },
    });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expectNoSecret(r.stdout + r.stderr);
    expect(r.stdout).toContain("properties.webhook.url: differs (sensitive)");
    // The dashboard is the same: no difference.
    expect(r.stdout).not.toContain("ods_dashboard");
  });

  it("--var STACK:NAME=VALUE works as in plan; the same value compares equal", async () => {
    const r = await runOds(["compare", "--from", stackDir, "--to", a.url, "--to-token-env", "A_TOKEN", "--var", `prod:hook=${LIVE_HOOK}`], {
      env: { A_TOKEN: a.adminToken },
    });
    expectNoSecret(r.stdout + r.stderr);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain("No differences");
  });

  it("a --var for a stack that is not compared is refused, as in plan", async () => {
    const r = await runOds(["compare", "--from", stackDir, "--to", a.url, "--to-token-env", "A_TOKEN", "--var", `staging:hook=${LIVE_HOOK}`], {
      env: { A_TOKEN: a.adminToken },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no stack "staging"');
    expectNoSecret(r.stdout + r.stderr);
  });

  it("--kinds filters both sides, the stack's too", async () => {
    const c = new OdsClient({ url: b.url, token: b.adminToken });
    const r = await runOds(["compare", "--from", stackDir, "--to", b.url, "--to-token-env", "B_TOKEN", "--kinds", "ods_notifier", "--var-file", varFile], {
      env: { B_TOKEN: b.adminToken },
    });
    await c.close();
    expectNoSecret(r.stdout + r.stderr);
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stdout).toContain("ods_notifier");
    expect(r.stdout).not.toContain("ods_dataset");
    expect(r.stdout).not.toContain("ods_dashboard");
    expect(r.stdout).toContain("1 matched");
  });
});
