// The chart module: ECharts' server-side SVG carries the series, the threshold, the shaded
// episodes and the layout's boxes, and a long series is reduced without losing its spikes.
import { describe, expect, it } from "vitest";
import { backtestSvg, budgetSvg, burnSvg, layoutSvg, minMaxDownsample, shadedSpans } from "../../src/reconcile/html/charts";

const START = Date.UTC(2026, 0, 1);
const MINUTE = 60_000;

function week(): { times: number[]; values: (number | null)[] } {
  const times = Array.from({ length: 7 * 1440 }, (_, i) => START + i * MINUTE);
  // A quiet series with one spike of one minute and a gap of an hour.
  const values = times.map((_, i) => (i === 5000 ? 500 : i >= 8000 && i < 8060 ? null : 10 + (i % 7)));
  return { times, values };
}

/** The drawn paths of the series (ECharts draws a line as one <path> with a `d`). */
function pathCount(svg: string): number {
  return (svg.match(/<path /g) ?? []).length;
}

describe("min-max downsampling", () => {
  it("keeps a one-minute spike of a 7-day series and its gap, in at most 3 points a bucket", () => {
    const reduced = minMaxDownsample(week(), 300);
    expect(reduced.times.length).toBeLessThanOrEqual(900);
    expect(Math.max(...reduced.values.filter((v): v is number => v !== null))).toBe(500);
    expect(reduced.values).toContain(null);
    // Still in time order, so the line does not fold back.
    expect(reduced.times.every((t, i) => i === 0 || t > reduced.times[i - 1])).toBe(true);
  });

  it("leaves a short series as it is", () => {
    const s = { times: [1, 2, 3], values: [3, null, 1] };
    expect(minMaxDownsample(s, 300)).toBe(s);
  });
});

describe("shaded episodes", () => {
  it("widens a short alert to stay visible and draws a flapping monitor's touching alerts as one", () => {
    const { times } = week();
    // 1,000 alerts of 2 minutes, one every 5 minutes over the first 3.5 days, and one alone at the end.
    const flaps = Array.from({ length: 1000 }, (_, i) => ({ from: START + i * 5 * MINUTE, to: START + (i * 5 + 2) * MINUTE, tone: "alert" as const }));
    const alone = { from: START + 7 * 1440 * MINUTE - 30 * MINUTE, to: START + 7 * 1440 * MINUTE - 25 * MINUTE, tone: "alert" as const };
    const spans = shadedSpans([...flaps, alone], times);
    expect(spans).toHaveLength(2);
    expect(spans[0].from).toBeLessThanOrEqual(START);
    expect(spans[0].to).toBeGreaterThanOrEqual(START + (999 * 5 + 2) * MINUTE);
    // A week over 250: about 40 minutes wide at least.
    expect(spans[1].to - spans[1].from).toBeGreaterThanOrEqual((7 * 1440 * MINUTE) / 250 - MINUTE);
  });
});

describe("charts drawn by ECharts as SVG", () => {
  it("draws a backtest: the value line, the threshold label and the alert shaded, small for a week of minutes", () => {
    const s = week();
    const svg = backtestSvg({ title: "monitor errors", series: s, threshold: 42, episodes: [{ from: START + 100 * MINUTE, to: START + 400 * MINUTE, tone: "alert" }] });
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg).toContain("threshold 42");
    expect(svg).toContain("monitor errors");
    // The shaded alert is drawn in its colour.
    expect(svg).toMatch(/fill="rgb\(214,39,40\)" fill-opacity="0\.18"|rgba\(214,39,40,0\.18\)/);
    const without = backtestSvg({ title: "monitor errors", series: s, episodes: [] });
    expect(without).not.toContain("threshold");
    expect(pathCount(svg)).toBeGreaterThan(pathCount(without));
    expect(svg.length).toBeLessThan(40_000);
  });

  it("draws an SLO's budget and a pair's burn rate with its factor", () => {
    const times = Array.from({ length: 40 }, (_, i) => START + i * 3600_000);
    const budget = budgetSvg({ title: "checkout budget", remaining: { times, values: times.map((_, i) => 100 - i * 3) }, episodes: [{ from: times[10], to: times[12], tone: "page" }] });
    expect(budget).toContain("checkout budget");
    expect(budget).toContain("%");
    const burn = burnSvg({ title: "page 1h/5m", rate: { times, values: times.map((_, i) => (i === 11 ? 20 : 1)) }, factor: 14.4, episodes: [] });
    expect(burn).toContain("14.4×");
  });

  it("draws each chart of a layout as a box with its name, type and mark", () => {
    const svg = layoutSvg("after", [
      { id: "errors", name: "Errors", type: "TimeSeries", x: 0, y: 0, w: 8, h: 4, mark: "added" },
      { id: "p95", name: "p95 latency", type: "Statistic", x: 8, y: 0, w: 4, h: 4, mark: "moved" },
    ]);
    expect(svg).toContain("Errors");
    expect(svg).toContain("TimeSeries (added)");
    expect(svg).toContain("Statistic (moved)");
    // A box each: the added one in green, the moved one in amber.
    expect(svg).toContain("#2ca02c");
    expect(svg).toContain("#e08a00");
  });
});
