// Both engines manage monitors identically: one stack with a monitor of each type and
// the notifiers they alert through, applied by `ods apply` into one fresh emulator and
// by `terraform apply` into another. Each engine then plans clean, updates a threshold
// in place (same id), replaces a monitor whose type changed (new id), plans clean again,
// and shows the bin_auto warning; the two emulators end with the same monitors.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OdsClient, type Monitor } from "../../src/api";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { removeTempDirs, runOds, stackFlags, tempDir } from "../helpers/ods-cli";
import { TerraformWorkspace, hasTerraform, installProvider } from "../terraform/harness";

let cliConfig: string;
const emulators: EmulatorHandle[] = [];
const fresh = async (): Promise<EmulatorHandle> => {
  const e = await startEmulator({ port: 0, dataDir: tempDir("ods-emu-"), rateLimitPerSecond: 100_000, clock: "manual" });
  emulators.push(e);
  return e;
};

beforeAll(() => {
  if (hasTerraform) cliConfig = installProvider();
});
afterAll(async () => {
  for (const e of emulators) await e.close();
  removeTempDirs();
});

interface Version {
  /** The threshold monitor's query and threshold. */
  query: string;
  threshold: number;
  /** The type of the "latency" monitor (a change replaces it). */
  latencyType: "AnomalyDetection" | "Threshold";
}

const FIRST: Version = { query: "['mon-app'] | where status >= 500 | summarize count() by bin_auto(_time)", threshold: 5, latencyType: "AnomalyDetection" };
const SECOND: Version = { query: "['mon-app'] | where status >= 500 | summarize count() by bin(_time, 1m)", threshold: 7, latencyType: "Threshold" };

/** One stack, valid both as cdk.tf.json (ods) and main.tf.json (terraform). */
function stack(v: Version): Record<string, unknown> {
  return {
    terraform: { required_providers: { ods: { source: "registry.terraform.io/ods/ods" } } },
    provider: { ods: [{}] },
    resource: {
      ods_dataset: { app: { name: "mon-app" } },
      ods_notifier: {
        hook: { name: "mon-hook", properties: { webhook: { url: "http://127.0.0.1:9/hook" } } },
        custom: {
          name: "mon-custom",
          properties: { custom_webhook: { url: "http://127.0.0.1:9/custom", body: '{"action":"{{.Action}}","title":"{{.Title}}"}', headers: { "X-Team": "sre" } } },
        },
      },
      ods_monitor: {
        errors: {
          name: "mon-errors",
          type: "Threshold",
          description: "5xx responses",
          apl_query: v.query,
          operator: "Above",
          threshold: v.threshold,
          interval_minutes: 1,
          range_minutes: 5,
          resolvable: true,
          notify_by_group: false,
          notifier_ids: ["${ods_notifier.custom.id}", "${ods_notifier.hook.id}"],
          trigger_after_n_positive_results: 2,
          trigger_from_n_runs: 3,
        },
        panics: {
          name: "mon-panics",
          type: "MatchEvent",
          apl_query: "['mon-app'] | where message contains 'panic' | project-keep message, host",
          interval_minutes: 1,
          range_minutes: 1,
          notifier_ids: ["${ods_notifier.hook.id}"],
        },
        latency: {
          name: "mon-latency",
          type: v.latencyType,
          apl_query: "['mon-app'] | summarize avg(duration_ms) by bin(_time, 5m)",
          operator: "Above",
          interval_minutes: 5,
          range_minutes: 30,
          ...(v.latencyType === "AnomalyDetection" ? { compare_days: 3, tolerance: 25 } : { threshold: 250 }),
        },
      },
    },
  };
}

type Snapshot = Record<string, Record<string, unknown>>;

/** The live monitors by name, notifier ids shown as notifier names (ids differ per emulator). */
async function monitors(e: EmulatorHandle): Promise<{ ids: Record<string, string>; shown: Snapshot }> {
  const c = new OdsClient({ url: e.url, token: e.adminToken });
  try {
    const notifierNames = new Map((await c.listNotifiers()).map((n) => [n.id, n.name]));
    const ids: Record<string, string> = {};
    const shown: Snapshot = {};
    for (const m of await c.listMonitors()) {
      ids[m.name] = m.id;
      const { id: _id, createdAt: _c, createdBy: _b, updatedAt: _u, notifierIds, ...rest } = m as Monitor;
      shown[m.name] = { ...rest, notifiers: (notifierIds ?? []).map((id) => notifierNames.get(id) ?? `missing ${id}`).sort() };
    }
    return { ids, shown };
  } finally {
    await c.close();
  }
}

interface Engine {
  name: string;
  /** Plans; answers whether anything would change, and the printed output. */
  plan(v: Version): Promise<{ changes: boolean; out: string }>;
  apply(v: Version): Promise<string>;
}

async function odsEngine(e: EmulatorHandle): Promise<Engine> {
  const dir = tempDir();
  const file = path.join(dir, "cdktf.out", "stacks", "main", "cdk.tf.json");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const env = { ODS_URL: e.url, ODS_TOKEN: e.adminToken };
  return {
    name: "ods",
    async plan(v) {
      fs.writeFileSync(file, JSON.stringify(stack(v)));
      const r = await runOds(["plan", "--detailed-exitcode", ...stackFlags(dir)], { env });
      expect([0, 2], r.stderr + r.stdout).toContain(r.code);
      return { changes: r.code === 2, out: r.stdout + r.stderr };
    },
    async apply(v) {
      fs.writeFileSync(file, JSON.stringify(stack(v)));
      const r = await runOds(["apply", "--auto-approve", ...stackFlags(dir)], { env });
      expect(r.code, r.stderr + r.stdout).toBe(0);
      return r.stdout + r.stderr;
    },
  };
}

async function terraformEngine(e: EmulatorHandle): Promise<Engine> {
  const tf = new TerraformWorkspace(cliConfig, { url: e.url, token: e.adminToken });
  tf.writeConfig(stack(FIRST));
  expect((await tf.run("init")).status).toBe(0);
  return {
    name: "terraform",
    async plan(v) {
      tf.writeConfig(stack(v));
      const r = await tf.run("plan", "-detailed-exitcode");
      expect([0, 2], r.out).toContain(r.status);
      return { changes: r.status === 2, out: r.out };
    },
    async apply(v) {
      tf.writeConfig(stack(v));
      const r = await tf.run("apply", "-auto-approve");
      expect(r.status, r.out).toBe(0);
      return r.out;
    },
  };
}

/** The same steps for either engine; answers the live monitors at the end. */
async function manage(e: EmulatorHandle, engine: Engine): Promise<Snapshot> {
  const first = await engine.plan(FIRST);
  expect(first.changes).toBe(true);
  // The threshold query bins with bin_auto: a warning naming the attribute, not a refusal.
  expect(first.out).toMatch(/apl_query[\s\S]*bin_auto in a Threshold monitor's\s+query/);
  await engine.apply(FIRST);
  expect((await engine.plan(FIRST)).changes, `${engine.name} plans clean after the first apply`).toBe(false);
  const before = await monitors(e);
  expect(Object.keys(before.shown).sort()).toEqual(["mon-errors", "mon-latency", "mon-panics"]);
  expect(before.shown["mon-errors"]).toMatchObject({ threshold: 5, notifiers: ["mon-custom", "mon-hook"], triggerAfterNPositiveResults: 2, triggerFromNRuns: 3 });

  const second = await engine.plan(SECOND);
  expect(second.changes).toBe(true);
  expect(second.out).not.toMatch(/bin_auto in a\s+Threshold/);
  await engine.apply(SECOND);
  expect((await engine.plan(SECOND)).changes, `${engine.name} plans clean after the second apply`).toBe(false);
  const after = await monitors(e);
  // A new threshold and query: updated in place. A new type: a new monitor.
  expect(after.ids["mon-errors"]).toBe(before.ids["mon-errors"]);
  expect(after.shown["mon-errors"]).toMatchObject({ threshold: 7, aplQuery: SECOND.query });
  expect(after.ids["mon-panics"]).toBe(before.ids["mon-panics"]);
  expect(after.ids["mon-latency"]).not.toBe(before.ids["mon-latency"]);
  expect(after.shown["mon-latency"]).toMatchObject({ type: "Threshold", threshold: 250 });
  return after.shown;
}

describe.skipIf(!hasTerraform)("monitors through both engines", () => {
  it("are created, updated in place, replaced on a type change and planned clean alike", async () => {
    const [a, b] = [await fresh(), await fresh()];
    const byOds = await manage(a, await odsEngine(a));
    const byTerraform = await manage(b, await terraformEngine(b));
    expect(byTerraform).toEqual(byOds);
  });
});
