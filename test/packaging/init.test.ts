// `ods init`: the first project, from this checkout (the packed tarball's journey is
// init.e2e.test.ts, with npm installs). The files it writes, an app that type-checks,
// and plan, apply, plan again against the project's embedded emulator.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, linkProjectDependencies, removeTempDirs, runOds, tempDir } from "../helpers/ods-cli";

afterAll(() => removeTempDirs());

const noService = { ODS_URL: undefined, ODS_TOKEN: undefined, ODS_ORG_ID: undefined };

describe("ods init", () => {
  it("writes a project whose app type-checks and plans, applies and converges against the embedded emulator", async () => {
    const parent = tempDir("ods-init-");
    const init = await runOds(["init", "first"], { cwd: parent });
    expect(init.code, init.stderr).toBe(0);
    const dir = path.join(parent, "first");
    expect(fs.readdirSync(dir).sort()).toEqual([".gitignore", "cdktf.json", "main.ts", "package.json", "tsconfig.json"]);
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as { dependencies: Record<string, string>; devDependencies: Record<string, string>; "//": string };
    expect(pkg.dependencies).toEqual({ "cdktf-provider-ods": `file:${path.relative(dir, ROOT)}`, cdktf: "^0.21.0", constructs: "^10.6.0" });
    expect(pkg.devDependencies.typescript).toBe("~5.8");
    expect(pkg["//"]).toContain("this checkout of cdktf-provider-ods");
    const ignored = fs.readFileSync(path.join(dir, ".gitignore"), "utf8").split("\n");
    for (const line of ["node_modules/", "cdktf.out/", ".ods/", "*.tfstate", "*.tfstate.*"]) expect(ignored).toContain(line);
    expect(fs.readFileSync(path.join(dir, "main.ts"), "utf8")).toMatch(/new monitor\.Monitor\(this, "errors"/);

    linkProjectDependencies(dir);
    const tsc = spawnSync(process.execPath, [path.join(ROOT, "node_modules/typescript/bin/tsc"), "--noEmit", "-p", dir], { encoding: "utf8", timeout: 180_000 });
    expect(tsc.status, tsc.stdout + tsc.stderr).toBe(0);

    const plan = await runOds(["plan"], { cwd: dir, env: noService, timeoutMs: 180_000 });
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stderr).toContain(`No ODS_URL: using this project's embedded emulator (data in .ods/emulator)`);
    expect(plan.stdout).toMatch(/^Target of stack app, provider ods: http:\/\/127\.0\.0\.1:\d+, organization "ODS Emulator"/m);
    expect(plan.stdout).toContain("Plan: 3 to create");
    const apply = await runOds(["apply", "--auto-approve", "--no-synth"], { cwd: dir, env: noService, timeoutMs: 180_000 });
    expect(apply.code, apply.stderr).toBe(0);
    const again = await runOds(["plan", "--no-synth", "--detailed-exitcode"], { cwd: dir, env: noService, timeoutMs: 180_000 });
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.stdout).toContain("No changes.");
  }, 300_000);

  it("keeps what a directory has: an existing package.json gains what is missing, an app is never overwritten", async () => {
    const dir = tempDir("ods-init-");
    fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "mine", dependencies: { "cdktf-provider-ods": "file:../ods.tgz" }, scripts: { plan: "ods plan --all-stacks" } }));
    fs.writeFileSync(path.join(dir, ".gitignore"), "secrets/\nnode_modules/\n");
    const init = await runOds(["init"], { cwd: dir });
    expect(init.code, init.stderr).toBe(0);
    const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as { name: string; dependencies: Record<string, string>; scripts: Record<string, string> };
    expect(pkg.name).toBe("mine");
    expect(pkg.dependencies["cdktf-provider-ods"]).toBe("file:../ods.tgz");
    expect(pkg.dependencies.cdktf).toBe("^0.21.0");
    expect(pkg.scripts.plan).toBe("ods plan --all-stacks");
    expect(fs.readFileSync(path.join(dir, ".gitignore"), "utf8")).toMatch(/^secrets\/\nnode_modules\/\ndist\/\n/);

    const before = fs.readFileSync(path.join(dir, "main.ts"), "utf8");
    const twice = await runOds(["init"], { cwd: dir });
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain("already has cdktf.json, main.ts, tsconfig.json; nothing was written");
    expect(fs.readFileSync(path.join(dir, "main.ts"), "utf8")).toBe(before);
  });
});
