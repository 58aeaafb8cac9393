// Two independent answers must agree: the backtest (queries through the public endpoint,
// then a replay written from the documented rules) and the emulator's own monitor engine
// (the schedule run on a manual clock), over the same events, give the same alerts.
import { afterEach, describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { runBacktest } from "../../src/resources/backtest/run";
import type { BacktestMonitor } from "../../src/resources/backtest/binned-query";
import { startTestEmulator, type TestEmulator } from "../emulator/helpers";
import { startReceiver, type Receiver } from "../emulator/monitor-helpers";
import { at, ingestFixtures } from "./fixtures";

const running: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()));
});

interface EngineAlert {
  opened: string;
  closed: string | null;
  group: string[];
}

/**
 * Runs `monitor` in an emulator whose manual clock starts at `from` and moves to `to` an
 * hour at a time; answers the alerts its notifications tell (each Open, then its Closed).
 */
async function engineAlerts(monitor: BacktestMonitor, from: string, to: string): Promise<{ alerts: EngineAlert[]; opens: number }> {
  const emu: TestEmulator = await startTestEmulator({ clock: "manual", clockStart: from });
  running.push(emu);
  const receiver: Receiver = await startReceiver();
  running.push(receiver);
  await ingestFixtures((method, path, body) => emu.ok(method, path, body));
  const body = '{"action":"{{.Action}}","at":"{{.Timestamp}}","group":{{jsonArray .GroupValues}}}';
  const notifier = await emu.ok("POST", "/v2/notifiers", { name: "to-test", properties: { customWebhook: { url: `${receiver.url}/hook`, body } } });
  const created = await emu.ok("POST", "/v2/monitors", { ...monitor, notifierIds: [notifier.id] });
  for (let t = Date.parse(from) + 3_600_000; t <= Date.parse(to); t += 3_600_000) {
    await emu.ok("POST", "/_emulator/clock", { set: new Date(t).toISOString() });
  }
  const history = (await emu.ok("GET", `/v2/monitors/${created.id}/history?startTime=${from}&endTime=${to}`)) as { state: string }[];
  const alerts: EngineAlert[] = [];
  const open = new Map<string, EngineAlert>();
  for (const r of receiver.received) {
    const parsed = JSON.parse(r.body) as { action: string; at: string; group: string[] };
    // A monitor that alerts as a whole names the group most past the threshold; only the
    // alert's times are compared then.
    const n = { ...parsed, at: new Date(parsed.at).toISOString(), group: monitor.notifyByGroup ? parsed.group : [] };
    const key = JSON.stringify(n.group);
    if (n.action === "Open" && !open.has(key)) {
      const a = { opened: n.at, closed: null, group: n.group };
      open.set(key, a);
      alerts.push(a);
    } else if (n.action === "Closed" && open.has(key)) {
      open.get(key)!.closed = n.at;
      open.delete(key);
    }
  }
  return { alerts, opens: history.filter((h) => h.state === "open").length };
}

async function backtestAlerts(monitor: BacktestMonitor, from: string, to: string) {
  const emu = await startTestEmulator();
  running.push(emu);
  await ingestFixtures((method, path, body) => emu.ok(method, path, body));
  const client = new OdsClient({ url: emu.em.url, token: emu.em.adminToken });
  const days = (Date.parse(to) - Date.parse(from)) / 86_400_000;
  const outcome = await runBacktest(client, monitor, { days, nowMs: Date.parse(to) });
  await client.close();
  if (!outcome.ok) throw new Error(outcome.reason);
  return outcome.result;
}

const base: BacktestMonitor = {
  name: "agreement",
  type: "Threshold",
  aplQuery: "['web'] | where status >= 500 | summarize count() by service",
  operator: "Above",
  threshold: 2,
  intervalMinutes: 5,
  rangeMinutes: 5,
  resolvable: true,
};

const CASES: [string, Partial<BacktestMonitor>][] = [
  ["groups", { notifyByGroup: true }],
  ["the monitor as a whole", {}],
  ["N of M", { aplQuery: "['web'] | where status >= 500 | summarize count()", triggerAfterNPositiveResults: 3, triggerFromNRuns: 4 }],
  ["secondDelay", { aplQuery: "['web'] | where status >= 500 | summarize count()", secondDelay: 300 }],
  ["overlapping windows (avg rebuilt from bins)", { aplQuery: "['web'] | summarize avg(ms)", rangeMinutes: 15, operator: "Below", threshold: 50 }],
  ["a time series", { aplQuery: "['web'] | where status >= 500 | summarize count() by bin(_time, 1m)", threshold: 4, rangeMinutes: 10, intervalMinutes: 10 }],
  ["no data", { aplQuery: "['beats'] | summarize avg(v)", operator: "Below", threshold: 0, alertOnNoData: true }],
];

describe("the backtest and the emulator's monitor engine agree", () => {
  it.each(CASES)("%s", async (_name, change) => {
    const monitor = { ...base, ...change };
    const from = at("00:00");
    const to = at("00:00", "2026-01-02");
    const [engine, backtest] = await Promise.all([engineAlerts(monitor, from, to), backtestAlerts(monitor, from, to)]);
    expect(backtest.alerts.length).toBeGreaterThan(0);
    const groupValues = (g: Record<string, unknown> | null) => (g ? Object.values(g).map(String) : []);
    expect(backtest.alerts.map((a) => ({ opened: a.opened, closed: a.closed, group: groupValues(a.group) }))).toEqual(engine.alerts);
    expect(engine.opens).toBe(backtest.alerts.length);
  });

  it("anomaly", async () => {
    const monitor: BacktestMonitor = { ...base, type: "AnomalyDetection", aplQuery: "['traffic'] | summarize count()", operator: "AboveOrBelow", tolerance: 50, compareDays: 1, intervalMinutes: 60, rangeMinutes: 60 };
    const from = at("00:00", "2026-01-02");
    const to = at("00:00", "2026-01-03");
    const [engine, backtest] = await Promise.all([engineAlerts(monitor, from, to), backtestAlerts(monitor, from, to)]);
    expect(backtest.alerts).toHaveLength(1);
    expect(backtest.alerts.map((a) => ({ opened: a.opened, closed: a.closed, group: [] }))).toEqual(engine.alerts);
  });

  it("match: one notification per matching event, with the same caps", async () => {
    const monitor: BacktestMonitor = { name: "agreement", type: "MatchEvent", aplQuery: "['web'] | where status >= 500", intervalMinutes: 1, rangeMinutes: 1 };
    const from = at("00:00");
    const to = at("00:00", "2026-01-02");
    const [engine, backtest] = await Promise.all([engineAlerts(monitor, from, to), backtestAlerts(monitor, from, to)]);
    expect(backtest.notifications).toBe(14);
    expect(engine.opens).toBe(backtest.notifications);
  });
});
