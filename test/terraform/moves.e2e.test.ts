// Renaming every kind's address, through both engines on one state. With moved blocks,
// `terraform apply` and `ods apply` keep every object with its id, and both then plan
// no changes. Without them, `terraform plan` (and apply) refuses at plan with nothing
// written, naming the live ids; `ods apply` moves the objects by natural key (same ids).
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { readStateFile, removeTempDirs, runOds, tempDir, type RunResult } from "../helpers/ods-cli";
import { TerraformWorkspace, hasTerraform, installProvider } from "./harness";

let emu: EmulatorHandle;
let admin: OdsClient;
let cliConfig: string;

beforeAll(async () => {
  if (!hasTerraform) return;
  emu = await startEmulator({ port: 0, dataDir: tempDir("ods-emu-"), rateLimitPerSecond: 100_000 });
  admin = new OdsClient({ url: emu.url, token: emu.adminToken });
  for (const p of ["tfmv", "odsmv"]) {
    await admin.createDataset({ name: `${p}-sample` });
    await admin.ingest(`${p}-sample`, [{ duration_ms: 12, status: 200 }]);
  }
  cliConfig = installProvider();
}, 120_000);
afterAll(async () => {
  await admin?.close();
  await emu?.close();
  removeTempDirs();
});

type Blocks = Record<string, Record<string, Record<string, unknown>>>;

/** One of every kind, names under `p`; `suffix` renames every address (references follow). */
function resources(p: string, suffix: string): Blocks {
  const a = (name: string): string => `${name}${suffix}`;
  return {
    ods_dataset: { [a("logs")]: { name: `${p}-logs`, allow_destroy: true } },
    ods_dataset_field: { [a("dur")]: { dataset: `${p}-sample`, name: "duration_ms", unit: "ms" } },
    ods_virtual_field: { [a("lat")]: { dataset: `\${ods_dataset.${a("logs")}.name}`, name: "lat_s", expression: "duration_ms / 1000" } },
    ods_starred_query: { [a("q")]: { dataset: `\${ods_dataset.${a("logs")}.name}`, name: `${p} query`, query: { apl: `['${p}-logs'] | take 5` } } },
    ods_notifier: { [a("oncall")]: { name: `${p}-oncall`, properties: { email: { emails: ["oncall@example.com"] } } } },
    ods_monitor: {
      [a("errors")]: {
        name: `${p}-errors`,
        type: "Threshold",
        apl_query: `['${p}-logs'] | summarize count() by bin(_time, 1m)`,
        operator: "Above",
        threshold: 3,
        interval_minutes: 1,
        range_minutes: 5,
        notifier_ids: [`\${ods_notifier.${a("oncall")}.id}`],
      },
    },
    ods_user: { [a("bob")]: { email: `${p}-bob@example.com`, name: "Bob", role: "user" } },
    ods_role: { [a("readers")]: { name: `${p}-readers`, org_capabilities: { datasets: ["read"] } } },
    ods_api_token: { [a("ci")]: { name: `${p}-ci`, org_capabilities: { datasets: ["read"] } } },
    ods_view: { [a("errors")]: { name: `${p}-errors`, apl_query: `['${p}-logs'] | where status >= 500` } },
    ods_dashboard: {
      [a("health")]: {
        uid: `${p}-health`,
        dashboard: JSON.stringify({
          name: "Health",
          owner: "X-AXIOM-EVERYONE",
          charts: [{ id: "c1", type: "TimeSeries", query: { apl: `['${p}-logs'] | summarize count() by bin_auto(_time)` } }],
          layout: [{ i: "c1", x: 0, y: 0, w: 12, h: 4 }],
          refreshTime: 60,
          schemaVersion: 2,
          timeWindowStart: "qr-now-1h",
          timeWindowEnd: "qr-now",
        }),
      },
    },
  };
}

/** moved blocks from every address under `from` to the same under `to`, as cdktf synthesizes them. */
function movedBlocks(p: string, from: string, to: string): { from: string; to: string }[] {
  const before = resources(p, from);
  const after = resources(p, to);
  return Object.keys(before).flatMap((type) => {
    const names = [Object.keys(before[type]), Object.keys(after[type])];
    return names[0].map((n, i) => ({ from: `${type}.${n}`, to: `${type}.${names[1][i]}` }));
  });
}

class Stack {
  readonly dir = tempDir("ods-moves-e2e-");
  readonly outDir = path.join(this.dir, "cdktf.out");
  readonly stackDir = path.join(this.outDir, "stacks", "main");
  readonly stateFile = path.join(this.dir, "terraform.main.tfstate");
  readonly tf = new TerraformWorkspace(cliConfig, { url: emu.url, token: emu.adminToken }, (fs.mkdirSync(this.stackDir, { recursive: true }), this.stackDir));
  readonly outputs: string[] = [];

  write(resource: Blocks, moved?: { from: string; to: string }[]): void {
    const json = {
      terraform: { required_providers: { ods: { source: "registry.terraform.io/ods/ods" } }, backend: { local: { path: this.stateFile } } },
      provider: { ods: [{}] },
      resource,
      ...(moved ? { moved } : {}),
    };
    fs.writeFileSync(path.join(this.stackDir, "cdk.tf.json"), JSON.stringify(json, null, 2));
  }

  async ods(...args: string[]): Promise<RunResult> {
    const r = await runOds([...args, "--out-dir", this.outDir, "--no-synth"], { cwd: this.dir, env: { ODS_URL: emu.url, ODS_TOKEN: emu.adminToken }, timeoutMs: 180_000 });
    this.outputs.push(r.stdout, r.stderr);
    return r;
  }

  /** Each object's id by kind and natural position: the identity a rename must keep. */
  ids(): Record<string, string> {
    const state = readStateFile(this.stateFile);
    return Object.fromEntries(Object.values(state.resources).map((r) => [r.typeName, r.id]));
  }

  addresses(): string[] {
    return Object.keys(readStateFile(this.stateFile).resources).sort();
  }
}

function writes(): number {
  return emu.requests().filter((r) => r.method !== "GET").length;
}

const KINDS = 11;

describe.skipIf(!hasTerraform)("renaming every kind's address", () => {
  it("terraform: without moved blocks, plan and apply refuse at plan with nothing written; with them, every id is kept", async () => {
    const s = new Stack();
    s.write(resources("tfmv", ""));
    expect((await s.tf.run("init")).status).toBe(0);
    const made = await s.tf.run("apply", "-auto-approve");
    expect(made.status, made.out).toBe(0);
    const ids = s.ids();
    expect(Object.keys(ids)).toHaveLength(KINDS);

    s.write(resources("tfmv", "_v2"));
    const before = writes();
    const plan = await s.tf.run("plan");
    expect(plan.status, plan.out).toBe(1);
    // Every kind whose natural key is known at plan names its live object: not the claimed
    // field (a claim takes the field whatever its address), nor what names the renamed
    // dataset by reference (its name is known once that dataset is planned), nor the
    // monitor, which Terraform does not plan once its notifier was refused.
    const later = ["ods_dataset_field", "ods_virtual_field", "ods_starred_query", "ods_monitor"];
    for (const [type, id] of Object.entries(ids)) if (!later.includes(type)) expect(plan.out, type).toContain(`exists as ${id}`);
    expect(plan.out).toContain("moveFromId");
    expect(plan.out).toContain("a moved block");
    expect(plan.out).toContain("terraform import");
    const apply = await s.tf.run("apply", "-auto-approve");
    expect(apply.status, apply.out).toBe(1);
    expect(apply.out).not.toMatch(/Destroying\.\.\.|Creating\.\.\./);
    expect(writes()).toBe(before);
    expect(s.ids()).toEqual(ids);

    s.write(resources("tfmv", "_v2"), movedBlocks("tfmv", "", "_v2"));
    const moved = await s.tf.run("apply", "-auto-approve");
    expect(moved.status, moved.out).toBe(0);
    expect(moved.out).toContain("has moved to ods_user.bob_v2");
    expect(moved.out).toMatch(/0 added, \d+ changed, 0 destroyed/);
    expect(s.ids()).toEqual(ids);
    expect(s.addresses().every((a) => a.endsWith("_v2"))).toBe(true);
    const again = await s.tf.run("plan", "-detailed-exitcode");
    expect(again.status, again.out).toBe(0);
    // A replacement the user asks for is the object's own: its create is not refused.
    const replaced = await s.tf.run("apply", "-auto-approve", "-replace=ods_role.readers_v2");
    expect(replaced.status, replaced.out).toBe(0);
    expect(replaced.out).toContain("1 added, 0 changed, 1 destroyed");
    const roles = (await admin.listRoles()).filter((r) => r.name === "tfmv-readers");
    expect(roles.map((r) => r.id)).toEqual([s.ids().ods_role]);
    expect(roles[0].id).not.toBe(ids.ods_role);
    // The other engine, on the same state, agrees.
    const odsPlan = await s.ods("plan", "--detailed-exitcode");
    expect(odsPlan.code, odsPlan.stdout + odsPlan.stderr).toBe(0);
  }, 600_000);

  it("ods: moved blocks, then a rename without them, keep every id; terraform then plans no changes", async () => {
    const s = new Stack();
    s.write(resources("odsmv", ""));
    const made = await s.ods("apply", "--auto-approve");
    expect(made.code, made.stderr).toBe(0);
    const ids = s.ids();
    expect(Object.keys(ids)).toHaveLength(KINDS);
    const token = readStateFile(s.stateFile).resources["ods_api_token.ci"].sensitive?.token;

    s.write(resources("odsmv", "_v2"), movedBlocks("odsmv", "", "_v2"));
    // The plan for a pull request: each move in the table, counted, and Terraform's previous_address in JSON.
    const markdown = await s.ods("plan", "--format", "markdown");
    expect(markdown.stdout).toContain(`**Plan:** ${KINDS} to move`);
    expect(markdown.stdout).toContain("| move: moved from `ods_user.bob` | `ods_user.bob_v2` |");
    const json = JSON.parse((await s.ods("plan", "--json")).stdout) as { stacks?: unknown[] };
    const changes = JSON.stringify(json);
    expect(changes).toContain('"address":"ods_user.bob_v2","previous_address":"ods_user.bob","moved_by":"moved block"');
    const moved = await s.ods("apply", "--auto-approve");
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stdout).toContain("# ods_user.bob has moved to ods_user.bob_v2");
    expect(moved.stdout).toContain(`${KINDS} to move.`);
    expect(moved.stdout).toContain("0 created");
    expect(s.ids()).toEqual(ids);

    // No moved blocks this time: each object is found by its natural key.
    s.write(resources("odsmv", "_v3"));
    const before = writes();
    const found = await s.ods("apply", "--auto-approve");
    expect(found.code, found.stderr).toBe(0);
    expect(found.stdout).toContain("found by natural key");
    expect(found.stdout).toContain('.moveFromId("ods_user.bob_v2")');
    expect(found.stdout).toMatch(/0 created, 0 adopted, 0 updated, 0 replaced, 0 rotated, 0 deleted, 0 forgotten, \d+ moved/);
    expect(writes()).toBe(before);
    expect(s.ids()).toEqual(ids);
    expect(readStateFile(s.stateFile).resources["ods_api_token.ci_v3"].sensitive?.token).toBe(token);
    expect((await s.ods("plan", "--detailed-exitcode")).code).toBe(0);

    expect((await s.tf.run("init")).status).toBe(0);
    const tfPlan = await s.tf.run("plan", "-detailed-exitcode");
    expect(tfPlan.status, tfPlan.out).toBe(0);
    for (const text of s.outputs) expect(text).not.toContain(token);
  }, 600_000);
});
