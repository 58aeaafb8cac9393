// The backtest against hand-computed alerts: fixed events ingested into a real emulator
// over HTTP, the backtest reading them through the public query endpoint only.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { runBacktest } from "../../src/resources/backtest/run";
import type { BacktestMonitor } from "../../src/resources/backtest/binned-query";
import type { BacktestResult } from "../../src/resources/backtest/evaluate";
import { startTestEmulator, type TestEmulator } from "../emulator/helpers";
import { at, ingestFixtures, iso } from "./fixtures";

const NOW = Date.parse("2026-01-02T00:00:00Z");

let emu: TestEmulator;
let client: OdsClient;

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
  await ingestFixtures((method, path, body) => emu.ok(method, path, body));
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

  it("a count over an empty window is 0, which is data", async () => {
    const result = await backtest({ aplQuery: "['beats'] | summarize count()", operator: "Below", threshold: 1, alertOnNoData: true });
    expect(result.series.filter((v) => v === null)).toEqual([]);
    expect(result.alerts[0]).toEqual({ opened: iso("00:05"), closed: iso("08:05"), group: null });
  });

  it("alertOnNoData opens while the query finds nothing and closes when data returns", async () => {
    const result = await backtest({ aplQuery: "['beats'] | summarize avg(v)", operator: "Below", threshold: 0, alertOnNoData: true });
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
