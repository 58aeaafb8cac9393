// The pieces of the SLO story, one module at a time: episodes, the minimum of events, the
// marker a generated monitor carries, the synth-time filter check, and the report's forms.
import { describe, expect, it } from "vitest";
import { defaultPairs, monitorDescription, pairText, readMarker, type SloDefinition } from "../../src/resources/backtest/slo-model";
import { episodes, sloFigures, type MinuteCounts, type SloAlert } from "../../src/resources/backtest/slo-replay";
import { filterProblem } from "../../src/slo/filter-check";
import { renderSloReport } from "../../src/cli/slo-report";

const MIN = 60_000;
const END = Date.parse("2026-01-08T00:00:00Z");

const alert = (severity: "page" | "ticket", opened: string, closed: string | null): SloAlert => ({ severity, pair: "1h/5m", factor: 1, opened, closed, peakBurnRate: 2 });

describe("episodes", () => {
  it("count alerts of one severity that overlap once", () => {
    const alerts = [
      alert("page", "2026-01-01T00:00:00Z", "2026-01-01T00:20:00Z"),
      alert("page", "2026-01-01T00:10:00Z", "2026-01-01T00:40:00Z"),
      alert("page", "2026-01-01T01:00:00Z", "2026-01-01T01:05:00Z"),
      alert("ticket", "2026-01-01T00:05:00Z", null),
      alert("ticket", "2026-01-02T00:05:00Z", "2026-01-02T00:10:00Z"),
    ];
    expect(episodes(alerts, "page", END)).toBe(2);
    // A ticket still open at the end overlaps everything after it.
    expect(episodes(alerts, "ticket", END)).toBe(1);
  });
});

describe("the replay", () => {
  const slo = (minEvents: number): SloDefinition => ({ name: "s", path: "main/s", dataset: "d", badFilter: "bad", objectivePercent: 99, windowDays: 7, minEvents, pairs: defaultPairs(7) });
  /** A quiet service: one good event every 10 minutes, then 3 bad events in one minute, an hour before the end. */
  function counts(): MinuteCounts {
    const m: MinuteCounts = new Map();
    for (let t = END - 10 * 86_400_000; t < END; t += 10 * MIN) m.set(t, { events: 1, bad: 0 });
    m.set(END - 60 * MIN + 3 * MIN, { events: 3, bad: 3 });
    return m;
  }

  it("counts events and bad events of the window exactly, and the budget they consumed", () => {
    const f = sloFigures(slo(0), counts(), END - 10 * 86_400_000, END, 1);
    expect([f.events, f.badEvents]).toEqual([7 * 144 + 3, 3]);
    expect(f.budgetConsumedPercent).toBeCloseTo((100 * (3 / 1011)) / 0.01, 3);
    expect(f.burn).toHaveLength(40);
    expect(f.burn[39]).toBe(f.budgetConsumedPercent);
  });

  it("keeps each window pair's burn rate over the window, at most 240 slices, its peak the alert's", () => {
    const f = sloFigures(slo(0), counts(), END - 10 * 86_400_000, END, 1);
    expect(f.burnRates.map((r) => r.pair)).toEqual(defaultPairs(7).map(pairText));
    for (const r of f.burnRates) {
      expect(r.times.length).toBeLessThanOrEqual(240);
      expect(r.times.length).toBe(r.rates.length);
      expect(r.times[0]).toBeGreaterThan(END - 7 * 86_400_000);
      expect(r.times[r.times.length - 1]).toBe(END);
      const peak = f.alerts.filter((a) => a.pair === r.pair && a.severity === r.severity).reduce((m, a) => Math.max(m, a.peakBurnRate), 0);
      if (peak > 0) expect(Math.max(...r.rates)).toBe(peak);
    }
    // The page that fired shows in its pair's series above the factor.
    const paged = f.burnRates.find((r) => f.alerts.some((a) => a.pair === r.pair && a.severity === "page"))!;
    expect(Math.max(...paged.rates)).toBeGreaterThan(paged.factor);
  });

  it("a handful of errors on low traffic pages, unless the short window holds fewer than minEvents", () => {
    expect(sloFigures(slo(0), counts(), END - 10 * 86_400_000, END, 1).pages).toBe(1);
    expect(sloFigures(slo(10), counts(), END - 10 * 86_400_000, END, 1).pages).toBe(0);
  });
});

describe("the marker", () => {
  const def: SloDefinition = { name: "checkout", path: "main/checkout", dataset: "logs", badFilter: "status >= 500", totalFilter: "x == 1", objectivePercent: 99.5, windowDays: 14, minEvents: 3, pairs: defaultPairs(14), labels: { team: "a" } };

  it("reads back what the construct wrote, after the user's description", () => {
    const text = monitorDescription(def, 2, "first line\n\nsecond paragraph");
    expect(text.startsWith("first line\n\nsecond paragraph\n\nSLO \"checkout\"")).toBe(true);
    expect(readMarker(text)).toEqual({ slo: def, pair: 2 });
  });

  it("is not found in other monitors' descriptions, nor when it does not read", () => {
    expect(readMarker("checkout 5xx")).toBeUndefined();
    expect(readMarker(undefined)).toBeUndefined();
    expect(readMarker('ods-slo/v1 {"name": "x"')).toBeUndefined();
    expect(readMarker(monitorDescription(def, 0).replace('"pair":0', '"pair":9'))).toBeUndefined();
  });
});

describe("the synth-time filter check", () => {
  it.each(["status >= 500", "path startswith '/pay' and method == \"GET\"", "status in (500, 502, 503)", "not(isnull(user_id))", "['geo.country'] == 'FR'", "duration > 1s or status == 429"])("takes %s", (f) => {
    expect(filterProblem(f)).toBeUndefined();
  });
  it.each([
    ["", "empty"],
    ["status >=", "nothing on its right"],
    [">= 500", "nothing on its left"],
    ["status >= >= 500", "nothing on its left"],
    ["(status >= 500", "is not closed"],
    ["status >= 500)", "closes nothing"],
    ["path == '/pay", "quote at column 9 is not closed"],
    ["status >= 500 | take 1", "a filter is one predicate"],
  ])("refuses %j", (f, message) => {
    expect(filterProblem(f)).toContain(message);
  });
});

describe("ods slo report's forms", () => {
  const def: SloDefinition = { name: "checkout", path: "main/checkout", dataset: "logs", badFilter: "bad", objectivePercent: 99, windowDays: 7, minEvents: 0, pairs: defaultPairs(7) };
  const figures = { ...sloFigures(def, new Map([[END - 3 * 86_400_000, { events: 1000, bad: 20 }]]), END - 10 * 86_400_000, END, 1) };

  it("text: a line, a sparkline and the alerts", () => {
    const text = renderSloReport({ entries: [{ slo: def, figures }], missing: ["latency"] }, "text");
    expect(text).toContain('SLO "checkout" 99% over 7d: 1000 events, 20 bad (SLI 98%), 200% of budget consumed, 1 page, 1 ticket');
    expect(text).toMatch(/\n {2}[▁▂▃▄▅▆▇█]{40} {2}budget consumed over 7d: 200%/);
    expect(text).toContain('SLO "latency" is declared but not applied');
  });

  it("markdown: a chart and a table of alerts; json: camelCase keys", () => {
    const md = renderSloReport({ entries: [{ slo: def, figures }], missing: [] }, "markdown");
    expect(md).toContain("xychart-beta\n  title \"checkout: error budget remaining\"");
    expect(md).toContain("| severity | pair | factor | opened | closed | peak burn rate |");
    const json = JSON.parse(renderSloReport({ entries: [{ slo: def, figures }], missing: [] }, "json")) as { slos: Record<string, unknown>[] };
    expect(Object.keys(json.slos[0])).toEqual(expect.arrayContaining(["events", "badEvents", "sliPercent", "budgetConsumedPercent", "pages", "tickets", "alerts", "queries"]));
  });
});
