// SLOs as code: a hand-written construct over the generated ones, the way aws-cdk's L2
// classes sit over its L1 classes. The service has no SLO object, so an `Slo` writes
// ordinary objects: one Threshold monitor per window pair of the multi-window,
// multi-burn-rate table (the long and the short window in one query, so both must burn),
// and a dashboard. Each monitor's description carries the SLO (a marker line) so that a
// plan and `ods slo report` recognise it among live objects, whichever engine applied it.
import { Token } from "cdktf";
import { Construct } from "constructs";
import { DashboardChart, OdsDashboard } from "../dashboard-builder";
import { Monitor } from "../gen/monitor";
import {
  burnFactor,
  budgetFraction,
  DEFAULT_TABLE,
  monitorDescription,
  pairMonitor,
  pairText,
  parseWindow,
  sloDashboardUid,
  windowText,
  type SloDefinition,
  type SloPair,
} from "../resources/backtest/slo-model";
import { filterProblem } from "./filter-check";

/** Who an alert is for: a page wakes someone, a ticket waits for working hours. */
export enum SloSeverity {
  PAGE = "page",
  TICKET = "ticket",
}

/** One row of the window table: alert when both windows burn faster than the factor. */
export interface SloWindow {
  readonly severity: SloSeverity;
  /** The long window, e.g. "1h", "6h", "1d", "3d" (at most 7d). */
  readonly longWindow: string;
  /** The short window, shorter than the long one, e.g. "5m" (commonly a twelfth of the long one). */
  readonly shortWindow: string;
  /**
   * Share of the error budget, in percent, that spent within the long window alerts; the
   * factor is budgetPercent × SLO window hours / long window hours. Ignored when `factor` is set.
   * @default 2
   */
  readonly budgetPercent?: number;
  /** The burn rate that alerts, instead of one derived from `budgetPercent`. */
  readonly factor?: number;
}

export interface SloAlerting {
  /** Notifiers of the page monitors (e.g. an ods notifier construct's `id`). @default none */
  readonly pageNotifierIds?: string[];
  /** Notifiers of the ticket monitors. @default none */
  readonly ticketNotifierIds?: string[];
  /**
   * The window table. @default page at 2% of the budget over 1h/5m and 5% over 6h/30m,
   * ticket at 10% over 1d/2h and 10% over 3d/6h (14.4×, 6×, 3× and 1× for 30 days)
   */
  readonly windows?: SloWindow[];
  /** No alert while the short window holds fewer events than this (low traffic pages on a handful of errors). @default 0 */
  readonly minEvents?: number;
}

export interface SloProps {
  /** The SLO's name; the generated objects are named after it. */
  readonly name: string;
  /** The dataset the events are in: a dataset construct's `name`, or a dataset's name. */
  readonly dataset: string;
  /** APL predicate of an event that spends budget, e.g. "status >= 500". */
  readonly badFilter: string;
  /** APL predicate of the events that count. @default every event of the dataset */
  readonly totalFilter?: string;
  /** The share of events that must be good, in percent, above 0 and below 100, e.g. 99.9. */
  readonly objectivePercent: number;
  /** The rolling window, in days (1 to 90). @default 30 */
  readonly windowDays?: number;
  readonly alerting?: SloAlerting;
  /** Generate a dashboard: the SLI, budget remaining, burn rate per window pair, bad events by `breakdownField`. @default true */
  readonly dashboard?: boolean;
  /** The field the dashboard breaks bad events down by. @default the first field `badFilter` names */
  readonly breakdownField?: string;
  /** Put first in the description of every generated object. */
  readonly description?: string;
  /** Labels carried by the generated monitors (in their SLO marker) and named in the dashboard's description. */
  readonly labels?: { [key: string]: string };
}

const MAX_LONG_MINUTES = 7 * 1440;

/** A problem with the props: the attribute and what was expected. */
interface Problem {
  attribute: string;
  message: string;
}

function known(v: unknown): boolean {
  return !(typeof v === "string" && Token.isUnresolved(v));
}

/** The window table as pairs, and the problems of the rows that cannot be used. */
function tableOf(props: SloProps, windowDays: number, problems: Problem[]): SloPair[] {
  const rows = props.alerting?.windows;
  if (!rows) return DEFAULT_TABLE.map((r) => ({ severity: r.severity, longMinutes: r.longMinutes, shortMinutes: r.shortMinutes, factor: burnFactor(r.budgetPercent, windowDays, r.longMinutes) }));
  if (rows.length === 0) problems.push({ attribute: "alerting.windows", message: "expected at least one window pair (leave it out for the default table)" });
  const pairs: SloPair[] = [];
  rows.forEach((w, i) => {
    const at = `alerting.windows[${i}]`;
    const long = parseWindow(w.longWindow);
    const short = parseWindow(w.shortWindow);
    if (w.severity !== SloSeverity.PAGE && w.severity !== SloSeverity.TICKET) problems.push({ attribute: `${at}.severity`, message: `expected "page" or "ticket", got ${JSON.stringify(w.severity)}` });
    if (long === undefined || long > MAX_LONG_MINUTES) problems.push({ attribute: `${at}.longWindow`, message: `expected a window like "1h" or "3d", at most 7d, got ${JSON.stringify(w.longWindow)}` });
    if (short === undefined) problems.push({ attribute: `${at}.shortWindow`, message: `expected a window like "5m" or "2h", got ${JSON.stringify(w.shortWindow)}` });
    if (long !== undefined && short !== undefined && short >= long) {
      problems.push({ attribute: `${at}.shortWindow`, message: `expected a window shorter than the long window ${w.longWindow}, got ${w.shortWindow}` });
    }
    if (w.factor !== undefined && !(w.factor > 0)) problems.push({ attribute: `${at}.factor`, message: `expected a burn rate above 0, got ${w.factor}` });
    const share = w.budgetPercent ?? 2;
    if (!(share > 0 && share <= 100)) problems.push({ attribute: `${at}.budgetPercent`, message: `expected a share of the budget above 0 and at most 100, got ${share}` });
    if (long === undefined || short === undefined || short >= long || long > MAX_LONG_MINUTES) return;
    pairs.push({ severity: w.severity === SloSeverity.TICKET ? "ticket" : "page", longMinutes: long, shortMinutes: short, factor: w.factor ?? burnFactor(share, windowDays, long) });
  });
  return pairs;
}

function checkProps(props: SloProps, windowDays: number, problems: Problem[]): void {
  if (known(props.name) && props.name.trim() === "") problems.push({ attribute: "name", message: "expected a name, got an empty string" });
  if (known(props.dataset) && props.dataset.trim() === "") problems.push({ attribute: "dataset", message: "expected a dataset name, got an empty string" });
  const o = props.objectivePercent;
  if (typeof o !== "number" || !(o > 0 && o < 100)) problems.push({ attribute: "objectivePercent", message: `expected a percentage above 0 and below 100 (e.g. 99.9), got ${o}` });
  if (!Number.isInteger(windowDays) || windowDays < 1 || windowDays > 90) problems.push({ attribute: "windowDays", message: `expected a whole number of days from 1 to 90, got ${windowDays}` });
  const min = props.alerting?.minEvents;
  if (min !== undefined && !(Number.isInteger(min) && min >= 0)) problems.push({ attribute: "alerting.minEvents", message: `expected a whole number of events, at least 0, got ${min}` });
  for (const attribute of ["badFilter", "totalFilter"] as const) {
    const text = props[attribute];
    if (text === undefined || !known(text)) continue;
    const problem = filterProblem(text);
    if (problem) problems.push({ attribute, message: `does not parse: ${problem}` });
  }
}

/** The first field a predicate names: what the dashboard breaks bad events down by. */
function firstField(predicate: string): string | undefined {
  const words = predicate.replace(/'[^']*'|"[^"]*"/g, " ").match(/[A-Za-z_][A-Za-z0-9_.]*/g) ?? [];
  const operators = new Set(["and", "or", "not", "in", "has", "contains", "startswith", "endswith", "matches", "regex", "between", "true", "false", "null", "isnull", "isnotnull", "isempty", "isnotempty"]);
  return words.find((w) => !operators.has(w.toLowerCase()));
}


/**
 * A service-level objective: a Threshold monitor per window pair of its burn-rate table,
 * page monitors notifying `pageNotifierIds` and ticket monitors `ticketNotifierIds`, and a
 * dashboard. `ods plan` tells what the SLO would have spent and how often it would have paged.
 */
export class Slo extends Construct {
  /** Every generated monitor, in the order of the window table. */
  public readonly monitors: Monitor[] = [];
  /** The monitors of page severity. */
  public readonly pageMonitors: Monitor[] = [];
  /** The monitors of ticket severity. */
  public readonly ticketMonitors: Monitor[] = [];
  /** The generated dashboard, unless `dashboard` is false. */
  public readonly dashboard?: OdsDashboard;
  /** The error budget as a fraction of events (0.001 for 99.9%). */
  public readonly errorBudget: number;

  constructor(scope: Construct, id: string, props: SloProps) {
    super(scope, id);
    const windowDays = props.windowDays ?? 30;
    const problems: Problem[] = [];
    checkProps(props, windowDays, problems);
    const pairs = tableOf(props, windowDays, problems);
    this.node.addValidation({ validate: () => problems.map((p) => `${p.attribute}: ${p.message}`) });
    this.errorBudget = budgetFraction(props.objectivePercent);

    const definition: SloDefinition = {
      name: props.name,
      path: this.node.path,
      dataset: props.dataset,
      badFilter: props.badFilter,
      ...(props.totalFilter ? { totalFilter: props.totalFilter } : {}),
      objectivePercent: props.objectivePercent,
      windowDays,
      minEvents: props.alerting?.minEvents ?? 0,
      pairs,
      ...(props.labels ? { labels: { ...props.labels } } : {}),
    };
    pairs.forEach((p, i) => {
      const wire = pairMonitor(definition, i);
      const notifiers = p.severity === "page" ? props.alerting?.pageNotifierIds : props.alerting?.ticketNotifierIds;
      const monitor = new Monitor(this, `${p.severity}-${windowText(p.longMinutes)}-${windowText(p.shortMinutes)}`, {
        name: wire.name,
        type: "Threshold",
        description: monitorDescription(definition, i, props.description),
        aplQuery: wire.aplQuery,
        operator: "Above",
        threshold: wire.threshold,
        intervalMinutes: wire.intervalMinutes,
        rangeMinutes: wire.rangeMinutes,
        columnName: wire.columnName,
        resolvable: true,
        ...(notifiers && notifiers.length > 0 ? { notifierIds: [...notifiers] } : {}),
      });
      this.monitors.push(monitor);
      (p.severity === "page" ? this.pageMonitors : this.ticketMonitors).push(monitor);
    });
    if (props.dashboard !== false) this.dashboard = this.addDashboard(definition, props);
  }

  private addDashboard(slo: SloDefinition, props: SloProps): OdsDashboard {
    const b = budgetFraction(slo.objectivePercent);
    const events = [`['${slo.dataset}']`, ...(slo.totalFilter ? [`| where ${slo.totalFilter}`] : []), `| extend slo_bad = (${slo.badFilter})`].join("\n");
    const ratio = "| summarize bad = countif(slo_bad), events = count()";
    const labels = props.labels ? Object.entries(props.labels).map(([k, v]) => `${k}=${v}`).join(", ") : "";
    const description = [props.description, `SLO ${slo.objectivePercent}% over ${slo.windowDays}d`, labels ? `labels: ${labels}` : ""].filter((s) => s).join(" · ").slice(0, 1000);
    const breakdown = props.breakdownField ?? firstField(slo.badFilter) ?? "_time";
    const charts = [
      DashboardChart.statistic({ name: "SLI (% good events)", width: 4, apl: `${events}\n${ratio}\n| extend sli_percent = iff(events == 0, 100.0, 100.0 * (events - bad) / events)\n| project sli_percent` }),
      DashboardChart.statistic({
        name: `Error budget remaining over ${slo.windowDays}d (%)`,
        width: 4,
        apl: `${events}\n${ratio}\n| extend budget_remaining_percent = iff(events == 0, 100.0, 100.0 - 100.0 * todouble(bad) / events / ${b})\n| project budget_remaining_percent`,
      }),
      DashboardChart.topK({ name: `Bad events by ${breakdown}`, width: 4, apl: `${events}\n| where slo_bad\n| summarize bad_events = count() by ${breakdown}\n| top 10 by bad_events` }),
      ...slo.pairs.map((p) =>
        DashboardChart.timeSeries({
          name: `Burn rate per ${windowText(p.shortMinutes)} (${p.severity} ${pairText(p)} alerts above ${p.factor}×)`,
          apl: `${events}\n| summarize bad = countif(slo_bad), events = count() by bin(_time, ${p.shortMinutes}m)\n| extend burn_rate = iff(events == 0, 0.0, todouble(bad) / events / ${b})\n| project _time, burn_rate`,
        }),
      ),
    ];
    return new OdsDashboard(this, "dashboard", {
      uid: sloDashboardUid(slo.name),
      name: `SLO ${slo.name}`.slice(0, 100),
      description,
      timeWindowStart: `qr-now-${slo.windowDays}d`,
      timeWindowEnd: "qr-now",
      refreshSeconds: 300,
      charts,
    });
  }
}
