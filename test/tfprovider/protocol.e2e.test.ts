// The real `terraform` binary (v1.11) drives our plugin server end to end: the test
// provider (fixtures/thing-provider.ts) is installed into a filesystem mirror with
// installProviderMirror, then init, apply, plan, update, replace, import, drift and
// destroy run in a temp dir, offline.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installProviderMirror } from "../../src/tfprovider/install";

import { hasTerraform } from "../helpers/terraform-probe";

const LAUNCHER = path.join(__dirname, "fixtures", "launch-thing-provider.js");

function mainTf(opts: { size: number; zone: string }): string {
  return `
terraform {
  required_providers {
    tfp = { source = "registry.terraform.io/test/tfp", version = "0.0.1" }
  }
}
provider "tfp" {
  store_file = "\${path.module}/things.json"
  id_prefix  = "thing-"
}
resource "tfp_thing" "a" {
  name     = "alpha"
  secret   = "s3cret-value"
  zone     = "${opts.zone}"
  size     = ${opts.size}
  tags     = { team = "sre" }
  ports    = [80, 443]
  settings = { mode = "fast" }
  rule { action = "allow" }
}
# Its name is unknown until a is created: Terraform sends a refined unknown (prefix "beta-").
resource "tfp_thing" "b" {
  name = "beta-\${tfp_thing.a.id}"
}
data "tfp_thing_lookup" "a" {
  name       = tfp_thing.a.name
  depends_on = [tfp_thing.a]
}
output "a_id" { value = tfp_thing.a.id }
output "a_revision" { value = tfp_thing.a.revision }
output "lookup_zone" { value = data.tfp_thing_lookup.a.zone }
`;
}

describe.skipIf(!hasTerraform)("terraform v1.11 drives the provider over plugin protocol 6", () => {
  let tmp: string;
  let work: string;
  let env: NodeJS.ProcessEnv;

  // Never prompt: commands that could ask for input get -input=false.
  const PROMPTING = new Set(["init", "plan", "apply", "import", "destroy"]);
  function tf(...args: string[]): { status: number | null; out: string } {
    const flags = PROMPTING.has(args[0]) ? ["-no-color", "-input=false"] : ["-no-color"];
    const words = args[0] === "state" ? 2 : 1; // flags go after the (sub)command
    const r = spawnSync("terraform", [...args.slice(0, words), ...flags, ...args.slice(words)], { cwd: work, env, encoding: "utf8", timeout: 120_000 });
    return { status: r.status, out: `${r.stdout}${r.stderr}` };
  }
  const output = (name: string): string => tf("output", "-raw", name).out.trim();
  const things = (): Record<string, unknown> => JSON.parse(fs.readFileSync(path.join(work, "things.json"), "utf8")) as Record<string, unknown>;
  const configure = (opts: { size: number; zone: string }) => fs.writeFileSync(path.join(work, "main.tf"), mainTf(opts));

  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "tfp-e2e-"));
    work = path.join(tmp, "work");
    fs.mkdirSync(work);
    const installed = installProviderMirror({ dir: path.join(tmp, "install"), providerSource: "registry.terraform.io/test/tfp", version: "0.0.1", launcherPath: LAUNCHER });
    env = { ...process.env, TF_CLI_CONFIG_FILE: installed.cliConfigPath, CHECKPOINT_DISABLE: "1", TF_IN_AUTOMATION: "1", TFP_TS_CACHE_DIR: path.join(tmp, "ts-cache") };
    for (const k of ["TF_LOG", "TF_LOG_PATH", "TF_LOG_PROVIDER", "TF_PLUGIN_CACHE_DIR", "TF_DATA_DIR", "TF_DISABLE_PLUGIN_TLS"]) delete env[k];
    configure({ size: 1.5, zone: "z1" });
  });

  afterAll(() => {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("installs from the mirror with terraform init, offline", () => {
    const r = tf("init");
    expect(r.status, r.out).toBe(0);
    expect(fs.readFileSync(path.join(work, ".terraform.lock.hcl"), "utf8")).toContain('provider "registry.terraform.io/test/tfp"');
  });

  it("creates resources and reads the data source, hiding the sensitive value", () => {
    const r = tf("apply", "-auto-approve");
    expect(r.status, r.out).toBe(0);
    expect(r.out).toContain("Resources: 2 added, 0 changed, 0 destroyed");
    expect(r.out).not.toContain("s3cret-value");
    expect(output("a_id")).toMatch(/^thing-[0-9a-f]{8}$/);
    expect(output("lookup_zone")).toBe("z1");
    expect(Object.keys(things())).toHaveLength(2);
  });

  it("plans no changes for an unchanged configuration", () => {
    const r = tf("plan", "-detailed-exitcode");
    expect(r.status, r.out).toBe(0);
    expect(r.out).toContain("No changes.");
  });

  it("updates in place when an ordinary attribute changes", () => {
    const id = output("a_id");
    configure({ size: 2, zone: "z1" });
    const plan = tf("plan", "-detailed-exitcode");
    expect(plan.status, plan.out).toBe(2);
    expect(plan.out).toContain("tfp_thing.a will be updated in-place");
    expect(plan.out).toContain("Plan: 0 to add, 1 to change, 0 to destroy.");
    const apply = tf("apply", "-auto-approve");
    expect(apply.status, apply.out).toBe(0);
    expect(output("a_id")).toBe(id);
    expect(output("a_revision")).toBe("2");
  });

  it("replaces the object when the requires-replace attribute changes", () => {
    const id = output("a_id");
    configure({ size: 2, zone: "z2" });
    const plan = tf("plan", "-detailed-exitcode");
    expect(plan.status, plan.out).toBe(2);
    expect(plan.out).toContain("tfp_thing.a must be replaced");
    expect(plan.out).toMatch(/zone\s+= "z1" -> "z2" # forces replacement/);
    const apply = tf("apply", "-auto-approve");
    expect(apply.status, apply.out).toBe(0);
    expect(output("a_id")).not.toBe(id);
    expect(output("lookup_zone")).toBe("z2");
    expect(things()[id]).toBeUndefined();
  });

  it("imports an existing object that then plans clean", () => {
    const id = output("a_id");
    expect(tf("state", "rm", "tfp_thing.a").status).toBe(0);
    const imported = tf("import", "tfp_thing.a", id);
    expect(imported.status, imported.out).toBe(0);
    const plan = tf("plan", "-detailed-exitcode");
    expect(plan.status, plan.out).toBe(0);
  });

  it("notices an object deleted outside Terraform and plans to create it again", () => {
    const all = things();
    delete all[output("a_id")];
    fs.writeFileSync(path.join(work, "things.json"), JSON.stringify(all));
    const plan = tf("plan", "-detailed-exitcode");
    expect(plan.status, plan.out).toBe(2);
    expect(plan.out).toContain("tfp_thing.a has been deleted");
    expect(plan.out).toContain("tfp_thing.a will be created");
  });

  it("destroys everything it manages", () => {
    const r = tf("destroy", "-auto-approve");
    expect(r.status, r.out).toBe(0);
    expect(things()).toEqual({});
  });
});
