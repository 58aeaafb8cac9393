// Both engines manage monitors identically: one stack with a monitor of each type and
// the notifiers they alert through, applied by `ods apply` into one fresh emulator and
// by `terraform apply` into another. Each engine then plans clean, updates a threshold
// in place (same id), replaces a monitor whose type changed (new id), plans clean again,
// and shows the bin_auto warning; the two emulators end with the same monitors.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OdsClient, type Monitor } from "../../src/api";
import type { EmulatorHandle } from "../../src/emulator";
import { removeTempDirs } from "../helpers/ods-cli";
import { hasTerraform, installProvider } from "../terraform/harness";
import { freshEmulator, odsEngine, stackOf, startedEmulators, terraformEngine, type Engine } from "./engines";

let cliConfig: string;
const fresh = (): Promise<EmulatorHandle> => freshEmulator({ clock: "manual" });

beforeAll(() => {
  if (hasTerraform) cliConfig = installProvider();
});
afterAll(async () => {
  for (const e of startedEmulators) await e.close();
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

/** The stack of one version. */
function stack(v: Version): Record<string, unknown> {
  return stackOf({
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
  });
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

/** Plans; answers whether anything would change, and the printed output. */
async function plan(engine: Engine, v: Version): Promise<{ changes: boolean; out: string }> {
  const r = await engine.plan(stack(v));
  expect([0, 2], r.out).toContain(r.code);
  return { changes: r.code === 2, out: r.out };
}

async function apply(engine: Engine, v: Version): Promise<void> {
  const r = await engine.apply(stack(v));
  expect(r.code, r.out).toBe(0);
}

/** The same steps for either engine; answers the live monitors at the end. */
async function manage(e: EmulatorHandle, engine: Engine): Promise<Snapshot> {
  const first = await plan(engine, FIRST);
  expect(first.changes).toBe(true);
  // The threshold query bins with bin_auto: a warning naming the attribute, not a refusal.
  expect(first.out).toMatch(/apl_query[\s\S]*bin_auto in a Threshold monitor's\s+query/);
  await apply(engine, FIRST);
  expect((await plan(engine, FIRST)).changes, `${engine.name} plans clean after the first apply`).toBe(false);
  const before = await monitors(e);
  expect(Object.keys(before.shown).sort()).toEqual(["mon-errors", "mon-latency", "mon-panics"]);
  expect(before.shown["mon-errors"]).toMatchObject({ threshold: 5, notifiers: ["mon-custom", "mon-hook"], triggerAfterNPositiveResults: 2, triggerFromNRuns: 3 });

  const second = await plan(engine, SECOND);
  expect(second.changes).toBe(true);
  expect(second.out).not.toMatch(/bin_auto in a\s+Threshold/);
  await apply(engine, SECOND);
  expect((await plan(engine, SECOND)).changes, `${engine.name} plans clean after the second apply`).toBe(false);
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
    const byOds = await manage(a, odsEngine(a));
    const byTerraform = await manage(b, terraformEngine(b, cliConfig));
    expect(byTerraform).toEqual(byOds);
  });
});
