// The provider package `ods terraform install` lays out depends on the version only: two
// checkouts at different paths make byte-identical archives, and a .terraform.lock.hcl
// written with one is accepted by `terraform init` with the other (teammates, CI).
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { output, ROOT, run, runAsync } from "./consumer-harness";

import { hasTerraform } from "../helpers/terraform-probe";
if (!hasTerraform) console.warn("portable provider: the terraform init half is skipped: `terraform` is not on PATH");

/** A checkout of the built package at another path: its files, its dependencies linked. */
function checkoutAt(dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  for (const entry of ["package.json", "bin", "lib"]) fs.cpSync(path.join(ROOT, entry), path.join(dir, entry), { recursive: true });
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
  return dir;
}

async function install(checkout: string, into: string): Promise<Record<string, string>> {
  const r = await runAsync(process.execPath, [path.join(checkout, "bin/ods.js"), "terraform", "install", "--dir", into, "--lock-file", path.join(into, ".terraform.lock.hcl")], { cwd: checkout, timeoutMs: 60_000 });
  if (r.status !== 0) throw new Error(output(r));
  const env: Record<string, string> = {};
  for (const m of r.stdout.matchAll(/^export ([A-Z_a-z]+)=(.*)$/gm)) env[m[1]] = m[2];
  return env;
}

const CONFIG = { terraform: { required_providers: { ods: { source: "registry.terraform.io/ods/ods", version: "0.1.0" } } } };

describe("a provider package that depends on its version only", () => {
  let tmp: string;
  let envA: Record<string, string>;
  let envB: Record<string, string>;

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "ods-portable-"));
    envA = await install(checkoutAt(path.join(tmp, "alice", "src", "ods")), path.join(tmp, "alice", "tf"));
    envB = await install(checkoutAt(path.join(tmp, "ci", "work", "checkout")), path.join(tmp, "ci", "tf"));
  });
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it("makes identical archives and SHA256SUMS from two checkout paths", () => {
    const sums = (who: string) => fs.readFileSync(path.join(tmp, who, "tf/release/terraform-provider-ods_0.1.0_SHA256SUMS"), "utf8");
    expect(sums("alice")).toBe(sums("ci"));
    expect(sums("alice")).toMatch(/^[0-9a-f]{64} {2}terraform-provider-ods_0\.1\.0_linux_amd64\.zip$/m);
    expect(sums("alice")).toMatch(/_darwin_arm64\.zip$/m);
    expect(envA.TF_CLI_CONFIG_FILE).not.toBe(envB.TF_CLI_CONFIG_FILE);
  });

  it.skipIf(!hasTerraform)("accepts in one checkout the lock file made in the other", async () => {
    const work = (who: string): string => {
      const dir = path.join(tmp, who, "stack");
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, "main.tf.json"), JSON.stringify(CONFIG));
      return dir;
    };
    const clean = { TF_DATA_DIR: undefined, TF_PLUGIN_CACHE_DIR: undefined, TF_LOG: undefined, TF_IN_AUTOMATION: "1" };
    const a = work("alice");
    const initA = await runAsync("terraform", ["init", "-input=false", "-no-color"], { cwd: a, env: { ...envA, ...clean }, timeoutMs: 120_000 });
    expect(initA.status, output(initA)).toBe(0);
    const lock = fs.readFileSync(path.join(a, ".terraform.lock.hcl"), "utf8");
    expect(lock).toMatch(/h1:/);

    const b = work("ci");
    fs.writeFileSync(path.join(b, ".terraform.lock.hcl"), lock);
    // -lockfile=readonly: a checksum that differs is an error, not a silent update.
    const initB = await runAsync("terraform", ["init", "-input=false", "-no-color", "-lockfile=readonly"], { cwd: b, env: { ...envB, ...clean }, timeoutMs: 120_000 });
    expect(initB.status, output(initB)).toBe(0);
    expect(fs.readFileSync(path.join(b, ".terraform.lock.hcl"), "utf8")).toBe(lock);
    // The lock step cdktf runs on a fresh cdktf.out, pointed at the mirror by the printed variable.
    const lockB = await runAsync("terraform", ["providers", "lock", "-platform=linux_amd64", "-no-color"], { cwd: b, env: { ...envB, ...clean }, timeoutMs: 120_000 });
    expect(lockB.status, output(lockB)).toBe(0);
  });

  it("writes a lock file with each shipped platform's checksums", () => {
    const lock = fs.readFileSync(path.join(tmp, "alice", "tf", ".terraform.lock.hcl"), "utf8");
    expect(lock).toContain(`provider "registry.terraform.io/ods/ods" {\n  version     = "0.1.0"\n  constraints = "0.1.0"\n`);
    for (const platform of ["linux_amd64", "linux_arm64", "darwin_amd64", "darwin_arm64"]) {
      const zip = fs.readFileSync(path.join(tmp, "alice", "tf", "release", `terraform-provider-ods_0.1.0_${platform}.zip`));
      expect(lock, platform).toContain(`"zh:${createHash("sha256").update(zip).digest("hex")}"`);
    }
    expect(lock).toMatch(/"h1:[A-Za-z0-9+/]{43}="/);
    // The same from either checkout.
    expect(fs.readFileSync(path.join(tmp, "ci", "tf", ".terraform.lock.hcl"), "utf8")).toBe(lock);
  });

  it.skipIf(!hasTerraform)("a lock file written by ods terraform install holds the hash Terraform computes for each platform, and init -lockfile=readonly accepts it", async () => {
    const lock = fs.readFileSync(path.join(tmp, "alice", "tf", ".terraform.lock.hcl"), "utf8");
    const clean = { TF_DATA_DIR: undefined, TF_PLUGIN_CACHE_DIR: undefined, TF_LOG: undefined, TF_IN_AUTOMATION: "1" };
    const dir = path.join(tmp, "ci", "locked");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "main.tf.json"), JSON.stringify(CONFIG));
    for (const platform of ["linux_amd64", "linux_arm64", "darwin_amd64", "darwin_arm64"]) {
      // Terraform hashes that platform's package itself and adds what the lock lacks: nothing.
      fs.writeFileSync(path.join(dir, ".terraform.lock.hcl"), lock);
      const r = await runAsync("terraform", ["providers", "lock", `-platform=${platform}`, "-no-color"], { cwd: dir, env: { ...envB, ...clean }, timeoutMs: 120_000 });
      expect(r.status, output(r)).toBe(0);
      expect(fs.readFileSync(path.join(dir, ".terraform.lock.hcl"), "utf8"), platform).toBe(lock);
    }
    const init = await runAsync("terraform", ["init", "-input=false", "-no-color", "-lockfile=readonly"], { cwd: dir, env: { ...envB, ...clean }, timeoutMs: 120_000 });
    expect(init.status, output(init)).toBe(0);
    expect(fs.readFileSync(path.join(dir, ".terraform.lock.hcl"), "utf8")).toBe(lock);
  });
});
