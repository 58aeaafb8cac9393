// `ods terraform install` in a project made by `ods init`: the lock file lands where the
// guide says to commit it (the project's root, beside the configuration), and the
// project's .gitignore, which keeps this machine's mirror (.ods/) out, lets git see it.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, removeTempDirs, runOds, tempDir } from "../helpers/ods-cli";

afterAll(() => removeTempDirs());

function git(dir: string, args: string[]): { status: number | null; stdout: string } {
  const r = spawnSync("git", args, { cwd: dir, encoding: "utf8", env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" } });
  return { status: r.status, stdout: r.stdout };
}

describe("the Terraform lock file of an ods init project", () => {
  it("is written at the project's root and is not ignored by the .gitignore ods init writes", async () => {
    const parent = tempDir("ods-lock-");
    expect((await runOds(["init", "proj"], { cwd: parent })).code).toBe(0);
    const dir = path.join(parent, "proj");
    const install = await runOds(["terraform", "install"], { cwd: dir, timeoutMs: 120_000 });
    expect(install.code, install.stderr).toBe(0);
    expect(install.stderr).toContain("into .terraform.lock.hcl: commit it");
    const lock = path.join(dir, ".terraform.lock.hcl");
    expect(fs.readFileSync(lock, "utf8")).toMatch(/provider "registry\.terraform\.io\/ods\/ods" \{[\s\S]*"h1:/);
    expect(fs.existsSync(path.join(dir, ".ods", "terraform", ".terraform.lock.hcl"))).toBe(false);

    expect(git(dir, ["init", "-q"]).status).toBe(0);
    // check-ignore exits 1 for a path no rule ignores, 0 for an ignored one.
    expect(git(dir, ["check-ignore", "-q", ".terraform.lock.hcl"]).status).toBe(1);
    expect(git(dir, ["check-ignore", "-q", ".ods/terraform/terraform.rc"]).status).toBe(0);
    expect(git(dir, ["status", "--porcelain", "--untracked-files=all"]).stdout.split("\n")).toContain("?? .terraform.lock.hcl");
  }, 180_000);

  it("is where the guide tells users to commit it", () => {
    const guide = fs.readFileSync(path.join(ROOT, "docs/guides/environments-in-practice.md"), "utf8");
    const section = guide.slice(guide.indexOf("## Lock files for the whole team"));
    expect(section).toMatch(/writes the provider's checksums into `\.terraform\.lock\.hcl` in\s+the directory it runs in/);
    expect(section).toMatch(/and commit it/);
    expect(section).not.toContain(".ods/terraform/.terraform.lock.hcl");
  });
});
