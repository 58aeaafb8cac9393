// examples/environments: one app, two stacks (staging, production) from one construct
// class, each stack's target and notifier secret from variables.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { ROOT, leakedSecrets, removeTempDirs, runOds, tempDir } from "../helpers/ods-cli";
import { TerraformWorkspace, hasTerraform, installProvider } from "../terraform/harness";

const EXAMPLE = path.join(ROOT, "examples/environments");
const fullRun = process.env.ODS_REPLICATION === "full";
const PAGER_SECRET = { staging: "staging-pager-4c1d0e", production: "prod-pager-8b2f7a" };

let out: string;
const outputs: string[] = [];
const orgs: Partial<Record<"staging" | "production", EmulatorHandle>> = {};

beforeAll(async () => {
  out = tempDir("ods-envs-");
  const r = await runOds(["synth", "--app", "node main.js", "--out", out], { cwd: EXAMPLE });
  outputs.push(r.stdout, r.stderr);
  expect(r.code, r.stderr).toBe(0);
});
afterAll(async () => {
  for (const emu of Object.values(orgs)) await emu?.close();
  removeTempDirs();
});

type Stack = { provider: { ods: Record<string, unknown>[] }; variable: Record<string, { sensitive?: boolean }>; resource: Record<string, Record<string, Record<string, unknown>>> };
const stackOf = (name: string): Stack => JSON.parse(fs.readFileSync(path.join(out, "stacks", name, "cdk.tf.json"), "utf8")) as Stack;

describe("examples/environments", () => {
  it("synthesizes a staging and a production stack from one construct, credentials from variables", () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(out, "manifest.json"), "utf8")) as { stacks: Record<string, unknown> };
    expect(Object.keys(manifest.stacks).sort()).toEqual(["production", "staging"]);
    for (const name of ["staging", "production"]) {
      const s = stackOf(name);
      expect(s.provider.ods[0]).toEqual({ url: "${var.ods_url}", token: "${var.ods_token}" });
      expect(s.variable.ods_token.sensitive).toBe(true);
      expect(s.variable.pager_chat_b_token.sensitive).toBe(true);
      const notifier = Object.values(s.resource.ods_notifier)[0] as { properties: { chat_b: { chat_b_token: string } } };
      expect(notifier.properties.chat_b.chat_b_token).toBe("${var.pager_chat_b_token}");
    }
    // Same kinds and attributes, per-environment values.
    const names = (s: Stack): string[] => Object.values(s.resource).flatMap((byName) => Object.values(byName).map((r) => String(r.name))).sort();
    expect(names(stackOf("staging"))).toContain("stg-oncall");
    expect(names(stackOf("production"))).toContain("prod-oncall");
    expect(Object.keys(stackOf("staging").resource)).toEqual(Object.keys(stackOf("production").resource));
  });

  it.skipIf(!(hasTerraform && fullRun))("both stacks apply through terraform, each into its own organization", async () => {
    const cli = installProvider();
    for (const name of ["staging", "production"] as const) {
      const emu = (orgs[name] = await startEmulator({ port: 0, dataDir: tempDir(`ods-emu-${name}-`) }));
      const vars = { TF_VAR_ods_url: emu.url, TF_VAR_ods_token: emu.adminToken, TF_VAR_pager_chat_b_token: PAGER_SECRET[name] };
      Object.assign(process.env, vars);
      try {
        // No ODS_URL/ODS_TOKEN: the provider block's variables name the target.
        const tf = new TerraformWorkspace(cli, { url: "", token: "" });
        // cdktf writes the local backend's path as an absolute path into the app's
        // directory: keep the Terraform state in the test's own directory instead.
        const config = stackOf(name) as Stack & { terraform: { backend?: { local?: { path: string } } } };
        config.terraform.backend = { local: { path: path.join(tf.dir, "terraform.tfstate") } };
        fs.writeFileSync(path.join(tf.dir, "cdk.tf.json"), JSON.stringify(config));
        expect((await tf.run("init")).status).toBe(0);
        const apply = await tf.run("apply", "-auto-approve");
        outputs.push(apply.out);
        expect(apply.status, apply.out).toBe(0);
      } finally {
        for (const k of Object.keys(vars)) delete process.env[k];
      }
    }
    // Each organization holds its own environment only.
    const cross = await runOds(["compare", "--from", orgs.staging!.url, "--to", orgs.production!.url, "--from-token-env", "A", "--to-token-env", "B"], {
      env: { A: orgs.staging!.adminToken, B: orgs.production!.adminToken },
    });
    outputs.push(cross.stdout, cross.stderr);
    expect(cross.code).toBe(2);
    expect(cross.stdout).toContain(`- ods_notifier "stg-oncall": only in --from`);
    expect(cross.stdout).toContain(`+ ods_notifier "prod-oncall": only in --to`);
  }, 240_000);

  it("no secret value reached any output", () => {
    expect(leakedSecrets(outputs, [...Object.values(PAGER_SECRET), ...Object.values(orgs).map((e) => e!.adminToken)])).toEqual([]);
  });
});
