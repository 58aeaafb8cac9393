// Saved plans of several stacks: `ods plan --all-stacks --out FILE` saves every stack's
// plan (each provider configuration's), `ods apply FILE` applies exactly those stacks
// without --stack, and a stack that moved since the plan stops the apply before any write.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { removeTempDirs, runOds, tempDir, writeStacks, type RunResult } from "../helpers/ods-cli";

let main: EmulatorHandle;
let other: EmulatorHandle;
let admin: OdsClient;
let otherAdmin: OdsClient;

beforeAll(async () => {
  [main, other] = await Promise.all([startEmulator({ port: 0, dataDir: tempDir("ods-emu-") }), startEmulator({ port: 0, dataDir: tempDir("ods-emu-") })]);
  admin = new OdsClient({ url: main.url, token: main.adminToken });
  otherAdmin = new OdsClient({ url: other.url, token: other.adminToken });
});
afterAll(async () => {
  await admin.close();
  await otherAdmin.close();
  await Promise.all([main.close(), other.close()]);
  removeTempDirs();
});

const meta = (p: string): { "//": { metadata: { path: string } } } => ({ "//": { metadata: { path: p } } });

/** A stack of one role on the environment's service. */
function roleStack(stack: string, role: string): { json: unknown } {
  return { json: { provider: { ods: [{}] }, resource: { ods_role: { r: { ...meta(`${stack}/r`), name: role, description: stack } } } } };
}

/** A stack with two provider configurations: the default one and `ods.other`, on another service. */
function twoTargetStack(stack: string, role: string): { json: unknown } {
  return {
    json: {
      provider: { ods: [{}, { alias: "other", url: other.url, token: other.adminToken }] },
      resource: {
        ods_role: {
          here: { ...meta(`${stack}/here`), name: role, description: stack },
          there: { ...meta(`${stack}/there`), name: role, description: stack, provider: "ods.other" },
        },
      },
    },
  };
}

function ods(dir: string, args: string[]): Promise<RunResult> {
  return runOds([...args, "--out-dir", path.join(dir, "cdktf.out"), "--no-synth"], { cwd: dir, env: { ODS_URL: main.url, ODS_TOKEN: main.adminToken }, timeoutMs: 120_000 });
}

const roleNames = async (client: OdsClient): Promise<string[]> => (await client.listRoles()).map((r) => r.name);

describe("saved plans of several stacks", () => {
  it("plan --all-stacks --out saves every stack's plan, and apply FILE applies them without --stack", async () => {
    const dir = tempDir();
    writeStacks(dir, { alpha: roleStack("alpha", "sp-alpha"), beta: twoTargetStack("beta", "sp-beta") });
    const file = path.join(dir, "all.plan");
    const plan = await ods(dir, ["plan", "--all-stacks", "--out", file]);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stderr).toContain(`Saved the plan of stacks alpha, beta to ${file}; apply it with: ods apply ${file}`);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    // Planning wrote nothing.
    expect(await roleNames(admin)).not.toContain("sp-alpha");

    const apply = await ods(dir, ["apply", file]);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(apply.stdout).toContain("== Stack alpha ==");
    expect(apply.stdout).toContain("== Stack beta ==");
    expect(await roleNames(admin)).toEqual(expect.arrayContaining(["sp-alpha", "sp-beta"]));
    expect(await roleNames(otherAdmin)).toContain("sp-beta");
    const again = await ods(dir, ["plan", "--all-stacks", "--detailed-exitcode"]);
    expect(again.code, again.stdout + again.stderr).toBe(0);
  }, 240_000);

  it("applies exactly the stacks the file was planned for, and refuses another choice", async () => {
    const dir = tempDir();
    writeStacks(dir, { one: roleStack("one", "sp-one"), two: roleStack("two", "sp-two"), three: roleStack("three", "sp-three") });
    const file = path.join(dir, "some.plan");
    expect((await ods(dir, ["plan", "--stack", "one", "--stack", "three", "--out", file])).code).toBe(0);
    const other = await ods(dir, ["apply", file, "--stack", "two"]);
    expect(other.code).toBe(1);
    expect(other.stderr).toContain(`${file} is the plan of stacks one, three, not of two: apply it without --stack`);
    const apply = await ods(dir, ["apply", file]);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    const names = await roleNames(admin);
    expect(names).toEqual(expect.arrayContaining(["sp-one", "sp-three"]));
    expect(names).not.toContain("sp-two");
  }, 240_000);

  it("checks each stack against its own plan: one that moved stops the apply before any write, naming it", async () => {
    const dir = tempDir();
    writeStacks(dir, { first: roleStack("first", "sp-first"), second: twoTargetStack("second", "sp-second") });
    const file = path.join(dir, "all.plan");
    expect((await ods(dir, ["plan", "--all-stacks", "--out", file])).code).toBe(0);
    // Someone makes the second stack's role on its other service meanwhile.
    await otherAdmin.createRole({ name: "sp-second", description: "made by hand" });
    main.resetRequests();
    const apply = await ods(dir, ["apply", file]);
    expect(apply.code, apply.stdout + apply.stderr).toBe(1);
    expect(apply.stderr).toContain(`the saved plan ${file} is stale for stack second: provider ods.other: the live objects changed since the plan was made`);
    expect(apply.stderr).not.toMatch(/stale for stack first/);
    expect(apply.stderr).toContain("nothing was applied");
    expect(main.requests().filter((r) => r.method !== "GET")).toEqual([]);
    expect(await roleNames(admin)).not.toContain("sp-first");
  }, 240_000);
});
