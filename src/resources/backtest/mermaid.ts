// Charts for pull-request comments in the mermaid dialect GitHub and GitLab render
// (`xychart-beta`): one builder for the backtest and the SLO charts. xychart-beta draws no
// legend, so each chart fixes its colours (an init directive) and a line of text under it
// names each colour by a swatch of the same colour.
//
// A name comes from the user (a monitor's, an SLO's): mermaidText makes it one harmless
// quoted string. Inside mermaid's quotes `#quot;`-style codes stand for characters, so a
// quote, a backtick, a percent sign or an angle bracket is written as its code: a name can
// neither end the string, nor start a directive (`%%{...}%%` is honoured anywhere in a
// block), nor lose a tag-like part to the sanitizer, nor, with line breaks folded to
// spaces, put a fence line in the comment that would end the block.
import type { MermaidChart } from "../kind";

export interface Swatch {
  /** What the legend under the chart shows. */
  emoji: string;
  /** The colour mermaid draws the series in, close to the emoji's. */
  color: string;
}

export const SWATCH = {
  red: { emoji: "🟥", color: "#e8a09a" },
  yellow: { emoji: "🟨", color: "#f2d16b" },
  blue: { emoji: "🟦", color: "#1f77b4" },
  black: { emoji: "⬛", color: "#333333" },
  purple: { emoji: "🟪", color: "#8e44ad" },
  brown: { emoji: "🟫", color: "#a0522d" },
  green: { emoji: "🟩", color: "#2ca02c" },
  orange: { emoji: "🟧", color: "#ff7f0e" },
} as const satisfies Record<string, Swatch>;

export interface ChartSeries {
  kind: "bar" | "line";
  values: readonly number[];
  swatch: Swatch;
  /** What the series is, in the legend (our own words: never a user's name). */
  legend: string;
  /** The live definition's series: left out where the comment must be shorter. */
  live?: boolean;
}

export interface XyChart {
  title: string;
  xAxis: { label: string; min: number; max: number };
  yAxis: { label: string; min: number; max: number };
  series: readonly ChartSeries[];
}

/** Longest name a chart's title carries: a longer one is cut with "…", so the title stays on the chart. */
const NAME_MAX = 80;

/** A name for a title: at most NAME_MAX characters. */
export function chartName(name: string): string {
  const chars = [...name];
  return chars.length > NAME_MAX ? `${chars.slice(0, NAME_MAX - 1).join("")}…` : name;
}

/** Any text as the inside of a mermaid string: one line, no quote, backtick or percent sign of its own. */
export function mermaidText(text: string): string {
  // eslint-disable-next-line no-control-regex
  const line = text.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, " ");
  // `<`, `>` and `&` too: mermaid's sanitizer would drop a tag-like part and show `-->` as `--&gt;`.
  return line.replace(/#/g, "#35;").replace(/"/g, "#quot;").replace(/`/g, "#96;").replace(/%/g, "#37;").replace(/</g, "#60;").replace(/>/g, "#62;").replace(/&/g, "#38;");
}

/** A number as xychart-beta reads it: decimals, never an exponent. */
export function mermaidNumber(v: number): string {
  if (!Number.isFinite(v)) return "0";
  const rounded = Number(v.toFixed(3));
  const text = String(rounded);
  if (!/e/i.test(text)) return text;
  // Beyond 1e21 (or below 1e-7 after rounding, which reads 0) String() writes an exponent.
  return Math.abs(rounded) < 1 ? "0" : BigInt(Math.round(rounded)).toString();
}

function block(chart: XyChart, series: readonly ChartSeries[]): string {
  // Bars first: mermaid draws in order, and a line must stay visible over a shaded column.
  const ordered = [...series.filter((s) => s.kind === "bar"), ...series.filter((s) => s.kind === "line")];
  const palette = ordered.map((s) => s.swatch.color).join(", ");
  const list = (values: readonly number[]) => `[${values.map(mermaidNumber).join(", ")}]`;
  const lines = [
    "```mermaid",
    `%%{init: {"themeVariables": {"xyChart": {"plotColorPalette": "${palette}"}}}}%%`,
    "xychart-beta",
    `  title "${mermaidText(chart.title)}"`,
    `  x-axis "${mermaidText(chart.xAxis.label)}" ${mermaidNumber(chart.xAxis.min)} --> ${mermaidNumber(chart.xAxis.max)}`,
    `  y-axis "${mermaidText(chart.yAxis.label)}" ${mermaidNumber(chart.yAxis.min)} --> ${mermaidNumber(chart.yAxis.max)}`,
    ...ordered.map((s) => `  ${s.kind} ${list(s.values)}`),
    "```",
  ];
  const legend = ordered.map((s) => `${s.swatch.emoji} ${s.legend}`).join(" · ");
  return `${lines.join("\n")}\n\n${legend}`;
}

/** The chart as a fenced block with its legend under it, whole and without the live definition's series. */
export function mermaidChart(chart: XyChart): MermaidChart {
  return { markdown: block(chart, chart.series), withoutLive: block(chart, chart.series.filter((s) => !s.live)) };
}

/** The top of a value axis: a little above the highest value, so that a full-height bar stands out. */
export function axisRange(values: readonly number[]): { min: number; max: number } {
  const finite = values.filter((v) => Number.isFinite(v));
  const lo = Math.min(0, ...finite);
  const hi = Math.max(lo + 1, ...finite);
  const top = Number((hi + (hi - lo) * 0.1).toPrecision(3));
  return { min: lo, max: top };
}
