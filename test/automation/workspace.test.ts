// The automation API against the CLI on the differential's generated stacks: the same
// plan, the same drift, the same converged apply; no `ods` process spawned by the API;
// an apply aborted part-way leaves a state the next apply converges from, with no
// duplicate on the emulator; watch() yields rounds.
import * as fs from "node:fs";
import { spawn as spawnChild } from "node:child_process";
import { createRequire, syncBuiltinESMExports } from "node:module";
import * as path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { Workspace, type ApplyResult, type AutomationEvent, type PlanResult } from "../../src/automation";
import { createFixture, startService, variableValues, type Service } from "../differential/engines";
import { renderStack, scenarioArbitrary } from "../differential/stack-model";
import { ODS_BIN, ROOT, runOds, tempDir } from "../helpers/ods-cli";

const SEEDS = [3, 11, 25];

let service: Service;
let runs = 0;

beforeAll(async () => {
  service = await startService();
});

afterAll(async () => {
  await service?.emulator.close();
});

interface Project {
  dir: string;
  stateFile: string;
  env: Record<string, string>;
  workspace: Workspace;
  /** `ods ARGS` on the same project, as a user runs it. */
  ods: (...args: string[]) => Promise<{ code: number | null; stdout: string; stderr: string }>;
}

/** A generated stack of the differential (seeded), written as cdktf would, with its fixture dataset. */
async function project(seed: number, maxResources = 8): Promise<Project> {
  const prefix = `au${seed}x${runs++}`;
  const fixture = `${prefix}-fx`;
  await createFixture(service, fixture);
  const [scenario] = fc.sample(scenarioArbitrary({ maxResources, maxSteps: 0 }), { seed, numRuns: 1 });
  const dir = tempDir("ods-automation-");
  const stackDir = path.join(dir, "cdktf.out", "stacks", "main");
  fs.mkdirSync(stackDir, { recursive: true });
  fs.writeFileSync(path.join(stackDir, "cdk.tf.json"), JSON.stringify(renderStack({ stack: scenario.stack }, prefix, fixture), null, 2));
  const stateFile = path.join(stackDir, "terraform.tfstate");
  const env: Record<string, string> = {
    ODS_URL: service.emulator.url,
    ODS_TOKEN: service.emulator.adminToken,
    ...Object.fromEntries(Object.entries(variableValues(prefix, fixture)).map(([k, v]) => [`TF_VAR_${k}`, v])),
  };
  const workspace = new Workspace({ dir, synth: false, state: stateFile, env: { ...process.env, ...env } });
  const flags = ["--out-dir", path.join(dir, "cdktf.out"), "--no-synth", "--state", stateFile, "--no-backtest"];
  return { dir, stateFile, env, workspace, ods: (...args) => runOds([...args, ...flags], { cwd: dir, env, timeoutMs: 120_000 }) };
}

/** Runs a Node script (an example), bounded by the test's timeout. */
function spawnNode(args: string[], env: NodeJS.ProcessEnv): ReturnType<typeof spawnChild> {
  return spawnChild(process.execPath, args, { env, stdio: ["ignore", "pipe", "pipe"] });
}

/** What `ods plan --json` prints for a plan: one stack with one target, that part; else the whole. */
function cliForm(plan: PlanResult): unknown {
  const only = plan.stacks.length === 1 && plan.errors.length === 0 && plan.stacks[0].plans.length === 1;
  return JSON.parse(JSON.stringify(only ? plan.stacks[0].plans[0] : plan));
}

/** Every object on the emulator, by kind, name and id (a duplicate shows as a name twice). */
async function liveNames(): Promise<string[]> {
  const c = new OdsClient({ url: service.emulator.url, token: service.emulator.adminToken });
  try {
    const out: string[] = [];
    for (const d of await c.listDatasets()) out.push(`dataset ${d.name}`);
    for (const n of await c.listNotifiers()) out.push(`notifier ${n.name}`);
    for (const r of await c.listRoles()) out.push(`role ${r.name}`);
    return out.sort();
  } finally {
    await c.close();
  }
}

function duplicates(names: readonly string[]): string[] {
  return names.filter((n, i) => names.indexOf(n) !== i);
}

describe("the automation API and the CLI agree", () => {
  for (const seed of SEEDS) {
    it(`on plan, apply and drift of the differential's stack of seed ${seed}`, { timeout: 180_000 }, async () => {
      const p = await project(seed);
      const cliPlan = await p.ods("plan", "--json");
      expect(cliPlan.code, cliPlan.stderr).toBe(0);
      const apiPlan = await p.workspace.plan({ backtestDays: false });
      expect(apiPlan.has_changes).toBe(true);
      // `ods plan --json` for one stack and one target prints that part of the API's result.
      expect(JSON.parse(cliPlan.stdout)).toEqual(cliForm(apiPlan));

      const applied = await p.workspace.apply(apiPlan);
      expect(applied.failed).toBe(false);
      expect(applied.stacks[0].status).toBe("applied");
      const created = apiPlan.stacks[0].plans.flatMap((part) => part.resource_changes).filter((c) => c.action === "create").length;
      expect(applied.stacks[0].counts?.created).toBe(created);

      // Converged for both: nothing left to do.
      const again = await p.workspace.plan({ backtestDays: false });
      expect(again.has_changes).toBe(false);
      const cliAgain = await p.ods("plan", "--json", "--detailed-exitcode");
      expect(cliAgain.code, cliAgain.stderr).toBe(0);
      expect(JSON.parse(cliAgain.stdout)).toEqual(cliForm(again));

      const apiDrift = await p.workspace.drift();
      const cliDrift = await p.ods("drift", "--json");
      expect(cliDrift.code, cliDrift.stderr).toBe(0);
      expect(JSON.parse(cliDrift.stdout)).toEqual(JSON.parse(JSON.stringify(apiDrift)));
      expect(apiDrift.has_drift).toBe(false);
    });
  }

  it("on drift: an object changed outside the stack, per object and attribute, the CLI's JSON equal to the API's", { timeout: 120_000 }, async () => {
    const p = await project(SEEDS[0]);
    await p.workspace.apply({ autoApprove: true, backtestDays: false });
    const state = JSON.parse(fs.readFileSync(p.stateFile, "utf8")) as { resources: { type: string; name: string; instances: { attributes: Record<string, unknown> }[] }[] };
    const notifier = state.resources.find((r) => r.type === "ods_notifier");
    const dataset = state.resources.find((r) => r.type === "ods_dataset");
    const c = new OdsClient({ url: service.emulator.url, token: service.emulator.adminToken });
    let changed: string;
    try {
      if (dataset) {
        await c.updateDataset(String(dataset.instances[0].attributes.id), { description: "changed by hand" });
        changed = `ods_dataset.${dataset.name}`;
      } else {
        expect(notifier, "the generated stack has a dataset or a notifier").toBeDefined();
        await c.deleteNotifier(String(notifier!.instances[0].attributes.id));
        changed = `ods_notifier.${notifier!.name}`;
      }
    } finally {
      await c.close();
    }
    const apiDrift = await p.workspace.drift();
    expect(apiDrift.has_drift).toBe(true);
    expect(apiDrift.stacks[0].drifted.map((o) => o.address)).toContain(changed);
    const cliDrift = await p.ods("drift", "--json");
    expect(cliDrift.code).toBe(2);
    expect(JSON.parse(cliDrift.stdout)).toEqual(JSON.parse(JSON.stringify(apiDrift)));
  });
});

describe("the automation API", () => {
  it("spawns no ods process", { timeout: 120_000 }, async () => {
    // The CommonJS module every caller shares, its ESM bindings synced: a call from any module is seen.
    const cp = createRequire(__filename)("node:child_process") as Record<string, unknown>;
    const names = ["spawn", "execFile", "fork", "exec", "spawnSync", "execFileSync", "execSync"];
    const saved = names.map((n) => cp[n]);
    const calls: unknown[][] = [];
    for (const n of names) {
      const original = cp[n] as (...args: unknown[]) => unknown;
      cp[n] = (...args: unknown[]): unknown => {
        calls.push([n, ...args]);
        return original(...args);
      };
    }
    syncBuiltinESMExports();
    try {
      const p = await project(SEEDS[1], 4);
      const plan = await p.workspace.plan({ backtestDays: false });
      await p.workspace.apply(plan);
      await p.workspace.drift();
      await p.workspace.destroy({ autoApprove: true });
    } finally {
      names.forEach((n, i) => (cp[n] = saved[i]));
      syncBuiltinESMExports();
    }
    expect(calls.filter((c) => JSON.stringify(c).includes(path.basename(ODS_BIN)) || JSON.stringify(c).includes("cli/main"))).toEqual([]);
    // The one process the engine starts is the local state's lock holder (perl's flock, as `ods apply` does): no node, no ods.
    expect([...new Set(calls.map((c) => `${String(c[0])} ${String(c[1])}`))]).toEqual(["spawn perl"]);
  });

  it("an apply aborted part-way leaves a state the next apply converges from, with no duplicate", { timeout: 180_000 }, async () => {
    const p = await project(SEEDS[2], 24);
    const plan = await p.workspace.plan({ backtestDays: false });
    const changes = plan.stacks[0].plans.flatMap((part) => part.resource_changes).filter((c) => c.action !== "noop").length;
    expect(changes).toBeGreaterThanOrEqual(2);
    const stop = new AbortController();
    const events: AutomationEvent[] = [];
    const first: ApplyResult = await p.workspace.apply(plan, {
      signal: stop.signal,
      onEvent: (e) => {
        events.push(e);
        if (e.type === "change" && e.phase === "done") stop.abort();
      },
    });
    expect(first.interrupted).toBe(true);
    expect(first.stacks[0].status).toBe("interrupted");
    expect(first.stacks[0].counts!.not_started).toBeGreaterThan(0);
    // Every change that finished is in the state.
    const done = events.filter((e) => e.type === "change" && e.phase === "done").length;
    expect(done).toBeGreaterThan(0);
    const state = JSON.parse(fs.readFileSync(p.stateFile, "utf8")) as { resources: unknown[] };
    expect(state.resources.length).toBeGreaterThanOrEqual(1);

    const second = await p.workspace.apply({ autoApprove: true, backtestDays: false });
    expect(second.failed).toBe(false);
    const after: PlanResult = await p.workspace.plan({ backtestDays: false });
    expect(after.has_changes).toBe(false);
    expect(duplicates(await liveNames())).toEqual([]);
  });

  it("refuses a fresh apply without autoApprove or confirm, as a typed refusal, before any write", { timeout: 60_000 }, async () => {
    const p = await project(SEEDS[0], 3);
    const before = await liveNames();
    await expect(p.workspace.apply({ backtestDays: false })).rejects.toMatchObject({ name: "Refusal" });
    expect(await liveNames()).toEqual(before);
  });

  it("watch() yields rounds until stopped, the first applying the stack", { timeout: 120_000 }, async () => {
    const p = await project(SEEDS[1], 4);
    const watch = p.workspace.watch({ intervalMs: 200 });
    const rounds = [];
    for await (const round of watch) {
      rounds.push(round);
      if (rounds.length === 2) watch.stop();
    }
    expect(rounds.map((r) => r.round)).toEqual([1, 2]);
    expect(rounds.every((r) => r.ok)).toBe(true);
    expect(rounds[0].status.stacks[0].name).toBe("main");
    expect((await p.workspace.plan({ backtestDays: false })).has_changes).toBe(false);
  });
});

describe("examples/automation/print-pending", () => {
  it("prints every stack's pending changes as JSON, and nothing once applied", { timeout: 120_000 }, async () => {
    const p = await project(SEEDS[0], 4);
    // The example keeps the stack's own backend: state in the project, as a portal would have it.
    const workspace = new Workspace({ dir: p.dir, synth: false, env: { ...process.env, ...p.env } });
    const script = path.join(ROOT, "examples/automation/print-pending.js");
    const run = (): Promise<{ code: number | null; stdout: string; stderr: string }> =>
      new Promise((resolve) => {
        const child = spawnNode([script, p.dir, "--no-synth"], { ...process.env, ...p.env });
        let stdout = "";
        let stderr = "";
        child.stdout!.on("data", (d: Buffer) => (stdout += d.toString()));
        child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
        child.on("close", (code) => resolve({ code, stdout, stderr }));
      });
    const before = await run();
    expect(before.code, before.stderr).toBe(2);
    const pending = JSON.parse(before.stdout) as { pending: { stack: string; changes: { address: string; action: string }[] }[]; errors: unknown[] };
    const plan = await workspace.plan({ backtestDays: false });
    expect(pending.errors).toEqual([]);
    expect(pending.pending[0].changes.map((c) => `${c.action} ${c.address}`)).toEqual(
      plan.stacks[0].plans.flatMap((part) => part.resource_changes).filter((c) => c.action !== "noop").map((c) => `${c.action} ${c.address}`),
    );
    await workspace.apply(plan);
    const after = await run();
    expect(after.code, after.stderr).toBe(0);
    expect((JSON.parse(after.stdout) as { pending: { changes: unknown[] }[] }).pending[0].changes).toEqual([]);
  });
});
