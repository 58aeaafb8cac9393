// The SLO replay (per-minute counts from one query, then every run of every window pair's
// monitor replayed) and the emulator's own monitor engine (the generated monitors run on a
// manual clock, 3-day ranges included) must tell the same alerts over the same events.
import { afterEach, describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { defaultPairs, pairMonitor, pairText, type SloDefinition } from "../../src/resources/backtest/slo-model";
import { figuresOf } from "../../src/resources/backtest/slo-insight";
import { startTestEmulator, type TestEmulator } from "../emulator/helpers";

const running: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()));
});

const T0 = Date.parse("2026-01-02T00:00:00Z");
const MIN = 60_000;

/** Two events a minute over [T0 − 1d, T0 + 1d); a 20-minute outage at 03:00 and a slow burn 10:00–20:00 (1 bad in 50). */
function history(): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  let n = 0;
  for (let t = T0 - 1440 * MIN; t < T0 + 1440 * MIN; t += 30_000) {
    const outage = t >= T0 + 180 * MIN && t < T0 + 200 * MIN;
    const slow = t >= T0 + 600 * MIN && t < T0 + 1200 * MIN && n % 50 === 0;
    out.push({ _time: new Date(t).toISOString(), status: outage || slow ? 503 : 200, path: n % 3 === 0 ? "/pay" : "/cart" });
    n++;
  }
  return out;
}

const SLOS: SloDefinition[] = [
  { name: "agreement 99", path: "", dataset: "web", badFilter: "status >= 500", objectivePercent: 99, windowDays: 1, minEvents: 0, pairs: defaultPairs(7) },
  // Stricter, over a subset, with a minimum of events in the short window.
  { name: "agreement 99.9", path: "", dataset: "web", badFilter: "status >= 500", totalFilter: "path == '/pay'", objectivePercent: 99.9, windowDays: 1, minEvents: 4, pairs: defaultPairs(7) },
];

describe("the SLO replay agrees with the emulator's monitor engine", () => {
  it("for every window pair, opens and closes at the same runs", async () => {
    const emu: TestEmulator = await startTestEmulator({ clock: "manual", clockStart: new Date(T0).toISOString() });
    running.push(emu);
    await emu.ok("POST", "/v2/datasets", { name: "web" });
    await emu.ok("POST", "/v1/datasets/web/ingest", history());
    const created: { slo: SloDefinition; pair: number; id: string }[] = [];
    for (const slo of SLOS) {
      for (let i = 0; i < slo.pairs.length; i++) {
        const m = pairMonitor(slo, i);
        const monitor = (await emu.ok("POST", "/v2/monitors", { ...m, type: "Threshold", operator: "Above", resolvable: true })) as { id: string };
        created.push({ slo, pair: i, id: monitor.id });
      }
    }
    for (let t = T0 + 3_600_000; t <= T0 + 86_400_000; t += 3_600_000) await emu.ok("POST", "/_emulator/clock", { set: new Date(t).toISOString() });

    const client = new OdsClient({ url: emu.em.url, token: emu.em.adminToken });
    running.push(client);
    let alerts = 0;
    for (const slo of SLOS) {
      const figures = await figuresOf(client, slo, T0 + 86_400_000);
      if ("error" in figures) throw new Error(figures.error);
      for (const c of created.filter((x) => x.slo === slo)) {
        const entries = (await emu.ok("GET", `/v2/monitors/${c.id}/history?startTime=${new Date(T0).toISOString()}&endTime=${new Date(T0 + 86_400_000).toISOString()}`)) as { state: string; timestamp: string }[];
        const engine: { opened: string; closed: string | null }[] = [];
        for (const e of [...entries].sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp))) {
          const at = new Date(e.timestamp).toISOString();
          if (e.state === "open") engine.push({ opened: at, closed: null });
          else engine[engine.length - 1].closed = at;
        }
        const p = slo.pairs[c.pair];
        const replayed = figures.alerts.filter((a) => a.pair === pairText(p) && a.severity === p.severity).map((a) => ({ opened: a.opened, closed: a.closed }));
        expect(replayed, `${slo.name} ${p.severity} ${pairText(p)}`).toEqual(engine);
        alerts += engine.length;
      }
    }
    // The outage and the slow burn make alerts of every kind: the comparison is not of empty lists.
    expect(alerts).toBeGreaterThanOrEqual(6);
  }, 240_000);
});
