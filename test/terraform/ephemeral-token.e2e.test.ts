// An ephemeral ods_api_token through the real terraform 1.11: opened at plan and at apply
// with its capabilities and a bounded expiry, its secret fed to a write-only attribute
// and to a second provider configuration, never in the state, the saved plan or any
// file, and revoked when Terraform closes it. And the ods engine refuses the block.
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OdsApiError, OdsClient } from "../../src/api";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { storedRecords } from "../helpers/emulator-store";
import { removeTempDirs, runOds, tempDir } from "../helpers/ods-cli";
import { TerraformWorkspace, hasTerraform, installProvider } from "./harness";

let emu: EmulatorHandle;
let admin: OdsClient;
let dataDir: string;
let cliConfig: string;

beforeAll(async () => {
  dataDir = tempDir("ods-emu-");
  emu = await startEmulator({ port: 0, dataDir, rateLimitPerSecond: 100_000 });
  admin = new OdsClient({ url: emu.url, token: emu.adminToken });
  if (hasTerraform) cliConfig = installProvider();
}, 120_000);
afterAll(async () => {
  await admin?.close();
  await emu?.close();
  removeTempDirs();
});

const CONFIG = `
terraform {
  required_providers {
    ods = { source = "registry.terraform.io/ods/ods" }
  }
}

provider "ods" {}

ephemeral "ods_api_token" "ci" {
  name       = "ci"
  expires_in = "30m"
  org_capabilities = {
    notifiers = ["read"]
  }
}

# Another provider configuration, authenticated by the ephemeral token alone.
provider "ods" {
  alias = "ci"
  token = ephemeral.ods_api_token.ci.token
}

data "ods_notifiers" "seen_by_ci" {
  provider = ods.ci
}

resource "ods_notifier" "pager" {
  name = "fed-by-ephemeral"
  properties = {
    incident_b = {
      routing_key      = "routing-1"
      token_wo         = ephemeral.ods_api_token.ci.token
      token_wo_version = 1
    }
  }
}
`;

const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex");

/** Every token record the emulator ever stored with this name prefix, deleted ones included (its journal keeps them). */
function everTokens(prefix: string): { id: string; name: string; expiresAt: string; secretSha256: string }[] {
  const seen = new Map<string, { id: string; name: string; expiresAt: string; secretSha256: string }>();
  for (const line of fs.readFileSync(path.join(dataDir, "journal.ndjson"), "utf8").split("\n")) {
    if (!line.trim()) continue;
    const j = JSON.parse(line) as { c: string; id: string; v?: { name?: string; expiresAt?: string; secretSha256?: string } };
    if (j.c === "tokens" && j.v?.name?.startsWith(prefix)) seen.set(j.id, { id: j.id, name: j.v.name, expiresAt: j.v.expiresAt ?? "", secretSha256: j.v.secretSha256 ?? "" });
  }
  return [...seen.values()];
}

describe.skipIf(!hasTerraform)("ephemeral ods_api_token through terraform", () => {
  it("feeds a write-only attribute and a provider, stores nothing of it, and revokes it at close", async () => {
    const dir = tempDir("ods-tf-eph-");
    fs.writeFileSync(path.join(dir, "main.tf"), CONFIG);
    const tf = new TerraformWorkspace(cliConfig, { url: emu.url, token: emu.adminToken }, dir);
    expect((await tf.run("init")).status).toBe(0);

    const started = Date.now();
    const planned = await tf.run("plan", "-out=tfplan");
    expect(planned.status, planned.out).toBe(0);
    const applied = await tf.run("apply", "tfplan");
    expect(applied.status, applied.out).toBe(0);

    // The service received a token secret in the notifier's write-only attribute.
    const stored = storedRecords(dataDir, "notifiers").find((r) => r.name === "fed-by-ephemeral") as { properties: { incidentB: { token: string; routingKey: string } } };
    const secret = stored.properties.incidentB.token;
    expect(secret).toMatch(/\S{16,}/);

    // It was one of the ephemeral tokens Terraform opened (one at plan, one at apply),
    // each with the declared label, a bounded expiry, and gone now.
    const opened = everTokens("ephemeral-ci-");
    expect(opened.length).toBeGreaterThanOrEqual(2);
    expect(opened.map((t) => t.secretSha256)).toContain(sha256(secret));
    for (const t of opened) {
      const ends = Date.parse(t.expiresAt);
      expect(ends).toBeGreaterThan(started + 29 * 60_000);
      expect(ends).toBeLessThanOrEqual(Date.now() + 30 * 60_000);
    }
    const live = await admin.listTokens();
    expect(live.filter((t) => t.name.startsWith("ephemeral-"))).toEqual([]);
    const revoked = new OdsClient({ url: emu.url, token: secret });
    try {
      await expect(revoked.listNotifiers()).rejects.toSatisfy((e: unknown) => e instanceof OdsApiError && e.status === 401);
    } finally {
      await revoked.close();
    }

    // The second provider configuration read with the token's capability.
    const shown = await tf.run("show", "-json");
    expect(shown.status, shown.out).toBe(0);
    expect(shown.out).toContain("seen_by_ci");

    // Nothing of the secret anywhere: the state, the saved plan (raw and as terraform reads
    // it), every other file of the working directory, terraform's output.
    const planJson = await tf.run("show", "-json", "tfplan");
    expect(planJson.status, planJson.out).toBe(0);
    const state = fs.readFileSync(path.join(dir, "terraform.tfstate"), "utf8");
    expect(state).toContain("fed-by-ephemeral");
    const files = fs
      .readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && !e.parentPath.includes(path.join(".terraform", "providers")))
      .map((e) => path.join(e.parentPath, e.name));
    expect(files).toContain(path.join(dir, "tfplan"));
    const holding = files.filter((f) => fs.readFileSync(f).includes(secret));
    expect(holding).toEqual([]);
    for (const text of [state, planJson.out, shown.out, planned.out, applied.out]) expect(text).not.toContain(secret);
    // The write-only attribute is null in the state; only its version is kept.
    const attrs = (JSON.parse(state) as { resources: { type: string; instances: { attributes: { properties: { incident_b: Record<string, unknown> } } }[] }[] }).resources.find(
      (r) => r.type === "ods_notifier",
    )!.instances[0].attributes;
    expect(attrs.properties.incident_b).toMatchObject({ token: null, token_wo: null, token_wo_version: 1 });
  }, 240_000);
});

describe("ods engine and ephemeral blocks", () => {
  it("refuses a synthesized stack with an ephemeral block, naming it and the way that runs it", async () => {
    const dir = tempDir("ods-eph-");
    const stackDir = path.join(dir, "cdktf.out", "stacks", "main");
    fs.mkdirSync(stackDir, { recursive: true });
    // What a cdktf stack override (stack.addOverride("ephemeral.ods_api_token.ci", ...)) writes.
    fs.writeFileSync(
      path.join(stackDir, "cdk.tf.json"),
      JSON.stringify({
        terraform: { required_providers: { ods: { source: "registry.terraform.io/ods/ods" } } },
        provider: { ods: [{}] },
        ephemeral: { ods_api_token: { ci: { name: "ci", org_capabilities: { notifiers: ["read"] } } } },
        resource: {
          ods_notifier: {
            pager: {
              "//": { metadata: { path: "main/pager", uniqueId: "pager" } },
              name: "refused-ephemeral",
              properties: { incident_b: { routing_key: "r", token_wo: "${ephemeral.ods_api_token.ci.token}", token_wo_version: 1 } },
            },
          },
        },
      }),
    );
    const plan = await runOds(["plan", "--out-dir", path.join(dir, "cdktf.out"), "--no-synth"], { cwd: dir, env: { ODS_URL: emu.url, ODS_TOKEN: emu.adminToken }, timeoutMs: 120_000 });
    expect(plan.code).not.toBe(0);
    expect(plan.stderr).toMatch(/ephemeral\.ods_api_token\.ci: the ods engine does not run ephemeral resources/);
    expect(plan.stderr).toMatch(/terraform apply or cdktf deploy/);
    expect((await admin.listNotifiers()).some((n) => n.name === "refused-ephemeral")).toBe(false);
  }, 120_000);
});
