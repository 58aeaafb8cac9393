// The charts of a plan insight as figures of a page: a monitor's backtest (the live
// definition beside the new one), an SLO's budget remaining and each window pair's burn
// rate. The HTML plan and `ods slo report --format html` draw an SLO with the same code.
import type { InsightCharts } from "../../resources";
import type { BacktestResult } from "../../resources/backtest/evaluate";
import type { SloFigures } from "../../resources/backtest/slo-replay";
import { backtestSvg, budgetSvg, burnSvg, type Episode } from "./charts";
import { figure, table } from "./page";

const DAY = 86_400_000;

function iso(ms: number): string {
  return new Date(ms).toISOString().replace(".000Z", "Z");
}

function alertEpisodes(r: BacktestResult): Episode[] {
  const end = r.times[r.times.length - 1] ?? 0;
  return r.alerts.map((a) => ({ from: Date.parse(a.opened), to: a.closed ? Date.parse(a.closed) : end, tone: "alert" as const }));
}

function numbers(values: readonly (number | null)[]): number[] {
  return values.filter((v): v is number => v !== null);
}

function round(v: number): string {
  return Number.isInteger(v) ? String(v) : v.toFixed(3).replace(/0+$/, "");
}

/** `7d, 10080 checks, value 3 to 480, 2 alerts` */
function backtestLine(r: BacktestResult, threshold: number | undefined): string {
  const v = numbers(r.series);
  const range = v.length > 0 ? `value ${round(Math.min(...v))} to ${round(Math.max(...v))}` : "no data";
  const alerts = r.notifications !== undefined ? `${r.notifications} notifications` : `${r.alerts.length} alert${r.alerts.length === 1 ? "" : "s"}`;
  return `${r.days}d, ${r.checks} checks, ${range}${threshold !== undefined ? `, threshold ${threshold}` : ""}, ${alerts}`;
}

/** Rows of a data table: at most this many, the rest counted (a flapping monitor must not make the page megabytes). */
const MAX_ROWS = 50;

function alertRows(which: string, r: BacktestResult): string[][] {
  const rows = r.alerts.slice(0, MAX_ROWS).map((a) => [which, a.opened, a.closed ?? "still open", a.group === null ? "" : JSON.stringify(a.group)]);
  if (r.alerts.length > MAX_ROWS) rows.push([which, `… and ${r.alerts.length - MAX_ROWS} more alerts`, "", ""]);
  return rows;
}

/** A monitor's backtest: value, threshold and alerts, the live definition's panel first when it exists. */
export function backtestFigure(address: string, b: NonNullable<InsightCharts["backtest"]>, summary: string): string | undefined {
  const sides: { which: string; r: BacktestResult; threshold?: number }[] = [];
  if (b.live) sides.push({ which: "live definition", r: b.live, threshold: b.live.notifications === undefined ? b.liveThreshold : undefined });
  if (b.declared) sides.push({ which: b.live ? "new definition" : "definition", r: b.declared, threshold: b.declared.notifications === undefined ? b.threshold : undefined });
  if (sides.length === 0) return undefined;
  const panels = sides.map((s) => ({
    label: `Backtest of ${address}, ${s.which}: ${backtestLine(s.r, s.threshold)}`,
    svg: backtestSvg({ title: `${s.which}: last ${s.r.days}d`, series: { times: s.r.times, values: s.r.series }, threshold: s.threshold, episodes: alertEpisodes(s.r) }),
  }));
  const rows = sides.flatMap((s) => alertRows(s.which, s.r));
  const details = [
    table(["definition", "replay"], sides.map((s) => [s.which, backtestLine(s.r, s.threshold)])),
    rows.length > 0 ? table(["definition", "alert opened", "closed", "group"], rows) : "<p>No alert in the window.</p>",
  ].join("\n");
  return figure({ chart: "backtest", address, panels, caption: summary, details });
}

function sloEpisodes(f: SloFigures, severity?: string, pair?: string): Episode[] {
  const end = Date.parse(f.to);
  return f.alerts
    .filter((a) => (severity === undefined || a.severity === severity) && (pair === undefined || a.pair === pair))
    .map((a) => ({ from: Date.parse(a.opened), to: a.closed ? Date.parse(a.closed) : end, tone: a.severity }));
}

/** The budget remaining at the end of each slice of the window, from 100% at its start. */
function remaining(f: SloFigures): { times: number[]; values: number[] } {
  const end = Date.parse(f.to);
  const start = end - f.windowDays * DAY;
  const n = f.burn.length;
  return {
    times: [start, ...f.burn.map((_, i) => start + Math.round(((end - start) * (i + 1)) / n))],
    values: [100, ...f.burn.map((b) => Number((100 - b).toFixed(3)))],
  };
}

function budgetLine(f: SloFigures): string {
  return `${f.objectivePercent}% over ${f.windowDays}d: ${round(100 - f.budgetConsumedPercent)}% of the budget left, ${f.pages} page${f.pages === 1 ? "" : "s"}, ${f.tickets} ticket${f.tickets === 1 ? "" : "s"}`;
}

const SLO_LEGEND = `<div class="legend"><span><i style="border-color:#2ca02c;background:#e3f6e5"></i>budget remaining</span><span><i style="border-color:#d62728;background:#fbd3d3"></i>page</span><span><i style="border-color:#ffa000;background:#ffe8bf"></i>ticket</span></div>`;

/** The slices where the pair measured any burn (at most MAX_ROWS), as a table. */
function burnDetails(r: SloFigures["burnRates"][number]): string {
  const rows = r.times.map((t, i) => [iso(t), `${r.rates[i]}×`]).filter((_, i) => r.rates[i] > 0);
  if (rows.length === 0) return "<p>No bad event in the window.</p>";
  return table(["slice ending", "highest burn rate"], rows.slice(0, MAX_ROWS)) + (rows.length > MAX_ROWS ? `<p>… and ${rows.length - MAX_ROWS} more slices.</p>` : "");
}

/** An SLO's budget chart and one burn-rate chart per window pair. */
export function sloFiguresHtml(address: string, slo: { declared?: SloFigures; live?: SloFigures }): string[] {
  const f = slo.declared;
  if (!f) return [];
  const sides = [...(slo.live ? [{ which: "live definition", f: slo.live }] : []), { which: slo.live ? "new definition" : "SLO", f }];
  const out: string[] = [];
  out.push(
    figure({
      chart: "slo-budget",
      address,
      data: { slo: f.name },
      panels: sides.map((s) => ({
        label: `Error budget of SLO ${s.f.name}, ${s.which}: ${budgetLine(s.f)}`,
        svg: budgetSvg({ title: `${s.which}: budget remaining (${s.f.objectivePercent}%, ${s.f.windowDays}d)`, remaining: remaining(s.f), episodes: sloEpisodes(s.f) }),
      })),
      legend: SLO_LEGEND,
      caption: `SLO "${f.name}": ${budgetLine(f)}`,
      details: [
        table(["definition", "events", "bad", "SLI", "budget consumed", "pages", "tickets"], sides.map((s) => [s.which, String(s.f.events), String(s.f.badEvents), s.f.sliPercent === null ? "no events" : `${s.f.sliPercent}%`, `${s.f.budgetConsumedPercent}%`, String(s.f.pages), String(s.f.tickets)])),
        f.alerts.length > 0
          ? table(["severity", "pair", "factor", "opened", "closed", "peak burn rate"], f.alerts.slice(0, MAX_ROWS).map((a) => [a.severity, a.pair, `${a.factor}×`, a.opened, a.closed ?? "still open", `${a.peakBurnRate}×`]))
          : "<p>No page or ticket in the window.</p>",
      ].join("\n"),
    }),
  );
  const burns: string[] = [];
  for (const r of f.burnRates) {
    const peak = r.rates.length > 0 ? Math.max(...r.rates) : 0;
    const fired = f.alerts.filter((a) => a.pair === r.pair && a.severity === r.severity).length;
    const line = `${r.severity} on ${r.pair} above ${r.factor}×: peak ${round(peak)}×, ${fired} alert${fired === 1 ? "" : "s"}`;
    burns.push(
      figure({
        chart: "slo-burn",
        address,
        data: { slo: f.name, pair: r.pair, severity: r.severity },
        panels: [{ label: `Burn rate of SLO ${f.name}, ${line}`, svg: burnSvg({ title: `${r.severity} ${r.pair}: burn rate (factor ${r.factor}×)`, rate: { times: r.times, values: r.rates }, factor: r.factor, episodes: sloEpisodes(f, r.severity, r.pair) }) }],
        caption: `SLO "${f.name}", ${line}`,
        details: burnDetails(r),
      }),
    );
  }
  // The pairs side by side, as many to a row as the page is wide.
  if (burns.length > 0) out.push(`<div class="burns">\n${burns.join("\n")}\n</div>`);
  return out;
}
