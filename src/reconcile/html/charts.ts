// The pictures of the HTML plan and SLO report, drawn by ECharts in Node (its server-side
// SVG renderer): a page carries finished SVG and no script, so it opens from a file or a CI
// artifact without a request. One function per chart kind; each takes plain data (times in
// epoch ms) and returns an SVG string. Long series are reduced to each bucket's min and max
// first, so that a 7-day series of 1-minute checks draws its spikes in a few kilobytes.
import * as echarts from "./echarts-driver";

export interface ChartSize {
  width: number;
  height: number;
}

/** A span shaded on a time chart: an alert, a page or a ticket. */
export interface Episode {
  from: number;
  to: number;
  tone: "alert" | "page" | "ticket";
}

export interface TimeSeries {
  times: readonly number[];
  values: readonly (number | null)[];
}

const COLORS = { value: "#3366cc", threshold: "#d62728", alert: "rgba(214,39,40,0.18)", page: "rgba(214,39,40,0.22)", ticket: "rgba(255,160,0,0.25)", budget: "#2ca02c" };
/** Buckets of the min-max reduction: at most three points each, about as many as a chart is pixels wide. */
export const BUCKETS = 300;

/**
 * The series reduced to at most 3 × `buckets` points: per bucket of equal count, the lowest
 * and the highest value in the order they came, so that a spike or a dip stays visible,
 * and the first missing value when there is one, so that the line breaks where data was missing.
 */
export function minMaxDownsample(series: TimeSeries, buckets = BUCKETS): TimeSeries {
  const n = series.times.length;
  if (n <= 3 * buckets) return series;
  const times: number[] = [];
  const values: (number | null)[] = [];
  for (let b = 0; b < buckets; b++) {
    const from = Math.floor((b * n) / buckets);
    const to = Math.floor(((b + 1) * n) / buckets);
    let lo = -1;
    let hi = -1;
    let gap = -1;
    for (let i = from; i < to; i++) {
      const v = series.values[i];
      if (v === null) {
        if (gap < 0) gap = i;
        continue;
      }
      if (lo < 0 || v < (series.values[lo] as number)) lo = i;
      if (hi < 0 || v > (series.values[hi] as number)) hi = i;
    }
    const kept = [...new Set([lo, hi, gap].filter((i) => i >= 0))].sort((x, y) => x - y);
    for (const i of kept) {
      times.push(series.times[i]);
      values.push(series.values[i]);
    }
  }
  return { times, values };
}

/** ECharts' SVG for one option, rendered once and disposed; no animation (nothing moves in a document). */
function render(option: echarts.EChartsCoreOption, size: ChartSize): string {
  const chart = echarts.init(null, null, { renderer: "svg", ssr: true, width: size.width, height: size.height });
  try {
    chart.setOption({ animation: false, textStyle: { fontFamily: "system-ui, sans-serif" }, ...option });
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}

/**
 * Episodes as shaded spans. A short one is widened to stay visible (a 5-minute alert in a
 * week is under a pixel), and spans that then touch are drawn as one: a monitor that
 * flapped a thousand times draws a few hundred areas at most, not a thousand.
 */
export function shadedSpans(episodes: readonly Episode[], times: readonly number[]): Episode[] {
  const span = times.length > 1 ? times[times.length - 1] - times[0] : 0;
  const least = span / 250;
  const widened = episodes
    .map((e) => {
      const widen = Math.max(0, least - (e.to - e.from)) / 2;
      return { from: e.from - widen, to: e.to + widen, tone: e.tone };
    })
    .sort((a, b) => a.from - b.from);
  const out: Episode[] = [];
  for (const e of widened) {
    const last = out[out.length - 1];
    if (last && last.tone === e.tone && e.from <= last.to) last.to = Math.max(last.to, e.to);
    else out.push({ ...e });
  }
  // Pages drawn last, over the (longer) tickets they overlap.
  return [...out.filter((e) => e.tone !== "page"), ...out.filter((e) => e.tone === "page")];
}

function shaded(episodes: readonly Episode[], times: readonly number[]): { silent: boolean; data: [Record<string, unknown>, Record<string, unknown>][] } {
  return {
    silent: true,
    data: shadedSpans(episodes, times).map((e) => [{ xAxis: e.from, itemStyle: { color: COLORS[e.tone] } }, { xAxis: e.to }]),
  };
}

function pairs(s: TimeSeries): [number, number | null][] {
  return s.times.map((t, i) => [t, s.values[i]]);
}

const timeAxis = { type: "time", axisLabel: { hideOverlap: true, fontSize: 10 }, splitLine: { show: false } };
const grid = { left: 56, right: 16, top: 30, bottom: 28 };

export interface BacktestChartData {
  title: string;
  series: TimeSeries;
  threshold?: number;
  episodes: readonly Episode[];
}

/** A monitor's value over the backtest window, its threshold as a line, its alerts shaded. */
export function backtestSvg(d: BacktestChartData, size: ChartSize = { width: 560, height: 220 }): string {
  const line = minMaxDownsample(d.series);
  return render(
    {
      title: { text: d.title, left: 8, top: 4, textStyle: { fontSize: 12, fontWeight: "normal" } },
      grid,
      xAxis: timeAxis,
      yAxis: { type: "value", scale: true, axisLabel: { fontSize: 10 } },
      series: [
        {
          name: "value",
          type: "line",
          showSymbol: false,
          connectNulls: false,
          lineStyle: { width: 1, color: COLORS.value },
          data: pairs(line),
          markArea: shaded(d.episodes, d.series.times),
          ...(d.threshold !== undefined
            ? { markLine: { silent: true, symbol: "none", label: { formatter: `threshold ${d.threshold}`, position: "insideEndTop", fontSize: 10 }, lineStyle: { color: COLORS.threshold, type: "dashed" }, data: [{ yAxis: d.threshold }] } }
            : {}),
        },
      ],
    },
    size,
  );
}

export interface BudgetChartData {
  title: string;
  /** Budget remaining, percent of the whole (negative when overspent). */
  remaining: TimeSeries;
  episodes: readonly Episode[];
}

/** From 0 to 100%, or when overspent down to a round step that also lands on 100%. */
function budgetAxis(low: number): { min: number; interval: number } {
  if (low >= 0) return { min: 0, interval: 20 };
  const step = [25, 50, 100, 250, 500, 1000, 2500, 5000].find((s) => (100 - Math.floor(low / s) * s) / s <= 6) ?? 10_000;
  return { min: Math.floor(low / step) * step, interval: step };
}

/** An SLO's error budget remaining over its window, page and ticket episodes shaded. */
export function budgetSvg(d: BudgetChartData, size: ChartSize = { width: 560, height: 220 }): string {
  const low = Math.min(...d.remaining.values.filter((v): v is number => v !== null));
  return render(
    {
      title: { text: d.title, left: 8, top: 4, textStyle: { fontSize: 12, fontWeight: "normal" } },
      grid,
      xAxis: timeAxis,
      yAxis: { type: "value", ...budgetAxis(low), max: 100, axisLabel: { fontSize: 10, formatter: "{value}%" } },
      series: [
        {
          name: "budget remaining",
          type: "line",
          showSymbol: false,
          areaStyle: { opacity: 0.15, color: COLORS.budget },
          lineStyle: { color: COLORS.budget },
          data: pairs(minMaxDownsample(d.remaining)),
          markArea: shaded(d.episodes, d.remaining.times),
          markLine: { silent: true, symbol: "none", label: { show: false }, lineStyle: { color: "#888", type: "dotted" }, data: [{ yAxis: 0 }] },
        },
      ],
    },
    size,
  );
}

export interface BurnChartData {
  title: string;
  rate: TimeSeries;
  /** The burn rate above which the pair's monitor alerts. */
  factor: number;
  episodes: readonly Episode[];
}

/** One window pair's burn rate over the window, its factor as a line, its alerts shaded. */
export function burnSvg(d: BurnChartData, size: ChartSize = { width: 560, height: 200 }): string {
  return render(
    {
      title: { text: d.title, left: 8, top: 4, textStyle: { fontSize: 12, fontWeight: "normal" } },
      grid,
      xAxis: timeAxis,
      yAxis: { type: "value", min: 0, axisLabel: { fontSize: 10, formatter: "{value}×" } },
      series: [
        {
          name: "burn rate",
          type: "line",
          showSymbol: false,
          lineStyle: { width: 1, color: COLORS.value },
          data: pairs(minMaxDownsample(d.rate)),
          markArea: shaded(d.episodes, d.rate.times),
          markLine: { silent: true, symbol: "none", label: { formatter: `${d.factor}×`, position: "insideEndTop", fontSize: 10 }, lineStyle: { color: COLORS.threshold, type: "dashed" }, data: [{ yAxis: d.factor }] },
        },
      ],
    },
    size,
  );
}

/** A chart of a dashboard on its grid, and what the change does to it. */
export interface LayoutTile {
  id: string;
  name: string;
  type: string;
  x: number;
  y: number;
  w: number;
  h: number;
  mark: "unchanged" | "added" | "removed" | "moved" | "changed";
}

const TILE_COLORS: Record<LayoutTile["mark"], { fill: string; stroke: string }> = {
  unchanged: { fill: "#eef1f5", stroke: "#9aa5b1" },
  changed: { fill: "#e8f0fe", stroke: "#3366cc" },
  added: { fill: "#e3f6e5", stroke: "#2ca02c" },
  removed: { fill: "#fde8e8", stroke: "#d62728" },
  moved: { fill: "#fff4e0", stroke: "#e08a00" },
};
export const GRID_COLUMNS = 12;
const ROW_PX = 28;

/**
 * A dashboard's layout on its 12-column grid: each chart a box with its name and type,
 * coloured by what the change does to it. Drawn by an ECharts custom series (one box per item).
 */
export function layoutSvg(title: string, tiles: readonly LayoutTile[], width = 520): string {
  const rows = Math.max(1, ...tiles.map((t) => t.y + t.h));
  const height = 30 + rows * ROW_PX + 8;
  return render(
    {
      title: { text: title, left: 8, top: 4, textStyle: { fontSize: 12, fontWeight: "normal" } },
      grid: { left: 8, right: 8, top: 30, bottom: 8 },
      xAxis: { type: "value", min: 0, max: GRID_COLUMNS, show: false },
      yAxis: { type: "value", min: 0, max: rows, inverse: true, show: false },
      series: [
        {
          type: "custom",
          data: tiles.map((t) => [t.x, t.y, t.w, t.h]),
          renderItem(params: { dataIndex: number }, api: { coord(v: number[]): number[] }) {
            const t = tiles[params.dataIndex];
            const [x0, y0] = api.coord([t.x, t.y]);
            const [x1, y1] = api.coord([t.x + t.w, t.y + t.h]);
            const c = TILE_COLORS[t.mark];
            const mark = t.mark === "unchanged" ? "" : ` (${t.mark})`;
            return {
              type: "rect",
              shape: { x: x0 + 2, y: y0 + 2, width: Math.max(1, x1 - x0 - 4), height: Math.max(1, y1 - y0 - 4), r: 3 },
              style: { fill: c.fill, stroke: c.stroke, lineWidth: t.mark === "unchanged" ? 1 : 2, lineDash: t.mark === "removed" ? [4, 3] : undefined },
              textContent: { style: { text: `${t.name}\n${t.type}${mark}`, fontSize: 10, fill: "#222", overflow: "truncate", width: Math.max(10, x1 - x0 - 10) } },
              textConfig: { position: "inside" },
            };
          },
        },
      ],
    },
    { width, height },
  );
}
