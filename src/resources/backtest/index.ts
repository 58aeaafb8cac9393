// A monitor's backtest as a plan insight: the declared definition replayed over the last
// days, and for a monitor that exists its live definition and the service's own history
// beside it, so that a reviewer sees what a change of numbers would have done.
import type { OdsClient } from "../../api";
import type { PlanInsight, PlanInsightReport, Values } from "../kind";
import type { BacktestMonitor } from "./binned-query";
import { runBacktest, type BacktestOutcome } from "./run";
import { backtestJson, backtestSummary, markdownChart, sparkline, type MonitorBacktest } from "./render";

export { runBacktest } from "./run";
export type { BacktestMonitor } from "./binned-query";
export type { BacktestAlert, BacktestResult } from "./evaluate";

const DAY = 86_400_000;

function num(v: unknown): number | undefined {
  return typeof v === "number" ? v : undefined;
}

function bool(v: unknown): boolean | undefined {
  return typeof v === "boolean" ? v : undefined;
}

/** The monitor's attribute values (snake_case) as the wire fields the backtest reads. */
export function backtestMonitorOf(values: Values): BacktestMonitor {
  return {
    name: String(values.name ?? ""),
    type: values.type as BacktestMonitor["type"],
    aplQuery: String(values.apl_query ?? ""),
    operator: typeof values.operator === "string" ? values.operator : undefined,
    threshold: num(values.threshold),
    intervalMinutes: num(values.interval_minutes) ?? 1,
    rangeMinutes: num(values.range_minutes) ?? 1,
    secondDelay: num(values.second_delay),
    alertOnNoData: bool(values.alert_on_no_data),
    notifyByGroup: bool(values.notify_by_group),
    resolvable: bool(values.resolvable),
    triggerAfterNPositiveResults: num(values.trigger_after_n_positive_results),
    triggerFromNRuns: num(values.trigger_from_n_runs),
    compareDays: num(values.compare_days),
    tolerance: num(values.tolerance),
    columnName: typeof values.column_name === "string" && values.column_name !== "" ? values.column_name : undefined,
  };
}

/** How many alerts the service's own history opened in the range. */
async function historyOpens(client: OdsClient, id: string, startMs: number, endMs: number): Promise<number> {
  const entries = await client.getMonitorHistory(id, { startTime: new Date(startMs).toISOString(), endTime: new Date(endMs).toISOString() });
  return entries.filter((e) => e.state === "open").length;
}

function report(b: MonitorBacktest, threshold: number | undefined, history: number | undefined): PlanInsightReport {
  if (b.live && history !== undefined) b.live = { ...b.live, history };
  const shown = b.backtest;
  return {
    summary: backtestSummary(b),
    lines: shown ? sparkline(shown, shown.notifications === undefined ? threshold : undefined) : [],
    markdown: shown ? markdownChart(shown, shown.notifications === undefined ? threshold : undefined) : "",
    json: backtestJson(b),
    queries: (b.backtest?.queries ?? 0) + (b.live?.queries ?? 0),
  };
}

function place(outcome: BacktestOutcome, into: MonitorBacktest, live: boolean): void {
  if (live) {
    if (outcome.ok) into.live = outcome.result;
    else into.liveSkipped = outcome.reason;
  } else if (outcome.ok) into.backtest = outcome.result;
  else into.skipped = outcome.reason;
}

export const monitorBacktest: PlanInsight = {
  title: "backtest",
  shows: "a backtest of each created or changed monitor over the last days of data (7 by default; `--backtest-days`, `--no-backtest`; in Terraform a warning when the provider sets `backtest_days`): when it would have opened and closed, next to the live definition's alerts",
  needs: ["type", "apl_query", "interval_minutes", "range_minutes"],
  async run(client, values, live, options) {
    const declared = backtestMonitorOf(values);
    const out: MonitorBacktest = {};
    // The live definition usually differs in a number only: its replay reads the same answer.
    options = { ...options, answers: options.answers ?? new Map() };
    const runs: Promise<void>[] = [runBacktest(client, declared, options).then((o) => place(o, out, false))];
    let history: Promise<number> | undefined;
    if (live) {
      runs.push(runBacktest(client, backtestMonitorOf(live.values), options).then((o) => place(o, out, true)));
      history = historyOpens(client, live.id, options.nowMs - options.days * DAY, options.nowMs);
    }
    await Promise.all(runs);
    return report(out, declared.threshold, history ? await history : undefined);
  },
};
