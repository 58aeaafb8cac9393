// The backtest against hand-computed alerts: fixed events ingested into a real emulator
// over HTTP, the backtest reading them through the public query endpoint only.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { runBacktest } from "../../src/resources/backtest/run";
import type { BacktestMonitor } from "../../src/resources/backtest/binned-query";
import type { BacktestResult } from "../../src/resources/backtest/evaluate";
import { startTestEmulator, type TestEmulator } from "../emulator/helpers";

const NOW = Date.parse("2026-01-02T00:00:00Z");
const at = (hhmm: string, day = "2026-01-01") => `${day}T${hhmm}:00Z`;
const iso = (hhmm: string, day = "2026-01-01") => new Date(at(hhmm, day)).toISOString();

let emu: TestEmulator;
let client: OdsClient;

/** `count` events at `time` (spread over its minute) with the given fields. */
function events(count: number, time: string, fields: Record<string, unknown>): Record<string, unknown>[] {
  const base = Date.parse(time);
  return Array.from({ length: count }, (_, i) => ({ _time: new Date(base + i * 1000).toISOString(), ...fields }));
}

async function ingest(dataset: string, rows: Record<string, unknown>[]): Promise<void> {
  await emu.ok("POST", "/v2/datasets", { name: dataset });
  await emu.ok("POST", `/v1/datasets/${dataset}/ingest`, rows);
}

async function backtest(monitor: Partial<BacktestMonitor> & Pick<BacktestMonitor, "aplQuery">): Promise<BacktestResult> {
  const outcome = await runBacktest(
    client,
    { name: "m", type: "Threshold", operator: "Above", threshold: 2, intervalMinutes: 5, rangeMinutes: 5, resolvable: true, ...monitor },
    { days: 1, nowMs: NOW },
  );
  if (!outcome.ok) throw new Error(outcome.reason);
  return outcome.result;
}

beforeAll(async () => {
  emu = await startTestEmulator();
  client = new OdsClient({ url: emu.em.url, token: emu.em.adminToken });
  await ingest("web", [
    // api: 3 errors in each of the windows [10:00,10:05), [10:05,10:10), [10:10,10:15).
    ...events(3, at("10:01"), { status: 500, service: "api", ms: 100 }),
    ...events(3, at("10:06"), { status: 500, service: "api", ms: 100 }),
    ...events(3, at("10:11"), { status: 500, service: "api", ms: 100 }),
    // shop: 5 errors in [12:00,12:05) only.
    ...events(5, at("12:02"), { status: 502, service: "shop", ms: 900 }),
    // ok traffic at 10:01 that never counts.
    ...events(4, at("10:01"), { status: 200, service: "api", ms: 10 }),
  ]);
  await ingest("beats", [
    // One heartbeat a minute from 08:00 to 08:59, then silence until 09:30, then again until 09:59.
    ...Array.from({ length: 60 }, (_, i) => ({ _time: new Date(Date.parse(at("08:00")) + i * 60_000).toISOString(), v: 1 })),
    ...Array.from({ length: 30 }, (_, i) => ({ _time: new Date(Date.parse(at("09:30")) + i * 60_000).toISOString(), v: 1 })),
  ]);
  await ingest("traffic", [
    // One request a minute 08:00-08:59 on Jan 1; two a minute at the same time on Jan 2.
    ...Array.from({ length: 60 }, (_, i) => ({ _time: new Date(Date.parse(at("08:00")) + i * 60_000).toISOString(), v: 1 })),
    ...Array.from({ length: 120 }, (_, i) => ({ _time: new Date(Date.parse(at("08:00", "2026-01-02")) + i * 30_000).toISOString(), v: 1 })),
  ]);
});

afterAll(async () => {
  await emu.close();
});

describe("backtest of a threshold monitor", () => {
  it("opens one alert per group and closes it at the first check that no longer crosses", async () => {
    const result = await backtest({ aplQuery: "['web'] | where status >= 500 | summarize count() by service", notifyByGroup: true });
    expect(result.alerts).toEqual([
      { opened: iso("10:05"), closed: iso("10:20"), group: { service: "api" } },
      { opened: iso("12:05"), closed: iso("12:10"), group: { service: "shop" } },
    ]);
    expect(result.minutesInAlert).toBe(15 + 5);
    expect(result.checks).toBe(288);
    expect(result.queries).toBe(1);
  });

  it("without notifyByGroup the monitor as a whole alerts once for both groups' windows", async () => {
    const result = await backtest({ aplQuery: "['web'] | where status >= 500 | summarize count() by service" });
    expect(result.alerts.map((a) => [a.opened, a.closed, a.group])).toEqual([
      [iso("10:05"), iso("10:20"), null],
      [iso("12:05"), iso("12:10"), null],
    ]);
  });

  it("N of M: 3 positive of the last 4 checks are needed before it opens", async () => {
    const result = await backtest({ aplQuery: "['web'] | where status >= 500 | summarize count()", triggerAfterNPositiveResults: 3, triggerFromNRuns: 4 });
    // Positive at 10:05, 10:10, 10:15: the third makes 3 of 4; 10:20 still 3 of 4; 10:25 2 of 4.
    expect(result.alerts).toEqual([{ opened: iso("10:15"), closed: iso("10:25"), group: null }]);
  });

  it("secondDelay shifts every window back", async () => {
    // 5 minutes of delay: the check at 10:10 reads [10:00,10:05).
    const result = await backtest({ aplQuery: "['web'] | where status >= 500 | summarize count()", secondDelay: 300 });
    expect(result.alerts[0]).toEqual({ opened: iso("10:10"), closed: iso("10:25"), group: null });
  });

  it("a monitor that is not resolvable reports no close", async () => {
    const result = await backtest({ aplQuery: "['web'] | where status >= 500 | summarize count()", resolvable: false });
    expect(result.alerts.map((a) => a.closed)).toEqual([null, null]);
  });

  it("overlapping windows rebuild avg from per-bin sums and counts", async () => {
    // 15-minute range every 5 minutes: the 10:15 check sees 9 errors of 100 ms and 4 oks of 10 ms.
    const result = await backtest({ aplQuery: "['web'] | summarize avg(ms)", rangeMinutes: 15, operator: "Below", threshold: 50 });
    const at1015 = result.times.indexOf(Date.parse(at("10:15")));
    expect(result.series[at1015]).toBeCloseTo((9 * 100 + 4 * 10) / 13, 6);
    // The 10:05 check reads [09:55,10:05): 3 errors of 100 ms and 4 oks of 10 ms, avg 48.6 < 50;
    // the 10:10 check adds 3 more errors (avg 64) and closes it.
    expect(result.series[at1015 - 2]).toBeCloseTo((3 * 100 + 4 * 10) / 7, 6);
    expect(result.alerts).toEqual([{ opened: iso("10:05"), closed: iso("10:10"), group: null }]);
    expect(result.queries).toBe(1);
  });

  it("a time-series query alerts when any point in the window crosses", async () => {
    const result = await backtest({ aplQuery: "['web'] | where status >= 500 | summarize count() by bin(_time, 1m)", threshold: 4, rangeMinutes: 10, intervalMinutes: 10 });
    // Only the 12:02 minute holds 5 errors: the check at 12:10 reads [12:00,12:10).
    expect(result.alerts).toEqual([{ opened: iso("12:10"), closed: iso("12:20"), group: null }]);
  });

  it("alertOnNoData opens while the query finds nothing and closes when data returns", async () => {
    const result = await backtest({ aplQuery: "['beats'] | summarize count()", operator: "Below", threshold: 0, alertOnNoData: true });
    // Checks before 08:05 see nothing (no data: open at the first check of the range), then
    // data until 09:00; the 09:05..09:30 checks see nothing; 09:35 sees data again; after
    // 10:00 nothing for the rest of the day.
    expect(result.alerts).toEqual([
      { opened: iso("00:05"), closed: iso("08:05"), group: null },
      { opened: iso("09:05"), closed: iso("09:35"), group: null },
      { opened: iso("10:05"), closed: null, group: null },
    ]);
  });
});

describe("backtest of match and anomaly monitors", () => {
  it("counts one notification per matching event, capped at 10 a minute", async () => {
    const outcome = await runBacktest(
      client,
      { name: "m", type: "MatchEvent", aplQuery: "['web'] | where status >= 500", intervalMinutes: 1, rangeMinutes: 1 },
      { days: 1, nowMs: NOW },
    );
    if (!outcome.ok) throw new Error(outcome.reason);
    expect(outcome.result.notifications).toBe(3 + 3 + 3 + 5);
  });

  it("anomaly: a window deviating from the same window a day earlier by more than the tolerance", async () => {
    const anomaly = async (tolerance: number) => {
      const outcome = await runBacktest(
        client,
        { name: "m", type: "AnomalyDetection", aplQuery: "['traffic'] | summarize count()", operator: "AboveOrBelow", tolerance, compareDays: 1, intervalMinutes: 60, rangeMinutes: 60, resolvable: true },
        { days: 1, nowMs: Date.parse("2026-01-03T00:00:00Z") },
      );
      if (!outcome.ok) throw new Error(outcome.reason);
      return outcome.result;
    };
    // The 09:00 check on Jan 2 sees 120 against 60 the day before: +100%.
    expect((await anomaly(50)).alerts).toEqual([{ opened: iso("09:00", "2026-01-02"), closed: iso("10:00", "2026-01-02"), group: null }]);
    expect((await anomaly(150)).alerts).toEqual([]);
  });

  it("says why it cannot replay a percentile over overlapping windows", async () => {
    const outcome = await runBacktest(
      client,
      { name: "m", type: "Threshold", aplQuery: "['web'] | summarize percentile(ms, 95)", operator: "Above", threshold: 1, intervalMinutes: 5, rangeMinutes: 15 },
      { days: 1, nowMs: NOW },
    );
    expect(outcome).toEqual({ ok: false, reason: expect.stringContaining("percentile(ms, 95) cannot be rebuilt") });
  });
});
