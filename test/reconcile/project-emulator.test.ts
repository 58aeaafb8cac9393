// The project's embedded emulator (cdktf.json's "ods.emulator", as `ods init` writes it)
// is the target only of provider configurations that name no service. Two applies at
// once of stacks that name their own URLs never start it, so they never contend for its
// data directory; a stack without a URL in the same project still gets it.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { removeTempDirs, runOds, tempDir, writeStacks, type RunResult } from "../helpers/ods-cli";

let billing: EmulatorHandle;
let search: EmulatorHandle;

beforeAll(async () => {
  [billing, search] = await Promise.all([startEmulator({ port: 0, dataDir: tempDir("ods-emu-") }), startEmulator({ port: 0, dataDir: tempDir("ods-emu-") })]);
});
afterAll(async () => {
  await Promise.all([billing.close(), search.close()]);
  removeTempDirs();
});

const meta = (p: string): { "//": { metadata: { path: string } } } => ({ "//": { metadata: { path: p } } });

function stackTo(name: string, provider: Record<string, unknown>): { json: unknown } {
  return {
    json: {
      provider: { ods: [provider] },
      resource: { ods_role: { r: { ...meta(`${name}/r`), name: `${name}-readers`, description: `reads ${name}` } } },
    },
  };
}

/** A project as `ods init` writes it: cdktf.json names the embedded emulator's directory. */
function project(stacks: Record<string, { json: unknown }>): string {
  const dir = tempDir("ods-project-");
  fs.writeFileSync(path.join(dir, "cdktf.json"), JSON.stringify({ language: "typescript", app: "false", context: { "ods.emulator": ".ods/emulator" } }));
  writeStacks(dir, stacks);
  return dir;
}

function ods(dir: string, args: string[]): Promise<RunResult> {
  return runOds([...args, "--no-synth"], { cwd: dir, env: { ODS_URL: undefined, ODS_TOKEN: undefined, ODS_ORG_ID: undefined }, timeoutMs: 120_000 });
}

describe("the project's embedded emulator", () => {
  it("is not started by two applies at once of stacks that target their own URLs", async () => {
    const dir = project({
      billing: stackTo("billing", { url: billing.url, token: billing.adminToken }),
      search: stackTo("search", { url: search.url, token: search.adminToken }),
    });
    const [a, b] = await Promise.all([ods(dir, ["apply", "--auto-approve", "--stack", "billing"]), ods(dir, ["apply", "--auto-approve", "--stack", "search"])]);
    expect(a.code, a.stdout + a.stderr).toBe(0);
    expect(b.code, b.stdout + b.stderr).toBe(0);
    for (const r of [a, b]) expect(r.stderr).not.toContain("embedded emulator");
    expect(a.stdout).toContain(`Target of stack billing, provider ods: ${billing.url}`);
    expect(b.stdout).toContain(`Target of stack search, provider ods: ${search.url}`);
    // Nothing made, locked or written in the emulator's data directory.
    expect(fs.existsSync(path.join(dir, ".ods", "emulator"))).toBe(false);
    const names = async (em: EmulatorHandle): Promise<string[]> => {
      const client = new OdsClient({ url: em.url, token: em.adminToken });
      try {
        return (await client.listRoles()).map((r) => r.name);
      } finally {
        await client.close();
      }
    };
    expect(await names(billing)).toContain("billing-readers");
    expect(await names(search)).toContain("search-readers");
  }, 240_000);

  it("is the target of a stack that names no URL, and only of it", async () => {
    const dir = project({
      billing: stackTo("billing", { url: billing.url, token: billing.adminToken }),
      local: stackTo("local", {}),
    });
    const plan = await ods(dir, ["plan", "--all-stacks"]);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stderr.match(/using this project's embedded emulator/g)?.length).toBe(1);
    expect(plan.stdout).toContain(`Target of stack billing, provider ods: ${billing.url}`);
    expect(plan.stdout).toMatch(/Target of stack local, provider ods: http:\/\/127\.0\.0\.1:\d+, organization "ODS Emulator"/);
    expect(plan.stdout).not.toContain(`Target of stack local, provider ods: ${billing.url}`);
    expect(fs.existsSync(path.join(dir, ".ods", "emulator", "credentials.json"))).toBe(true);
    // Stopped with the command: its lock is gone.
    expect(fs.existsSync(path.join(dir, ".ods", "emulator", "emulator.lock"))).toBe(false);
  }, 240_000);
});
