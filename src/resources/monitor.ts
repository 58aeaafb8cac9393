// ods_monitor: a query the service runs on a schedule, alerting through notifiers
// (API-CONTRACT-MONITORS.md). Threshold monitors compare an aggregation with a number,
// match monitors send each matching event, anomaly monitors compare with earlier days.
import { bool, listOf, num, str } from "./attributes";
import { atLeast, atMost, integer, nonEmpty, oneOf, timestamp } from "./checks";
import { sharedRead, type PlanCheck, type PlanCheckProblem, type ResourceKind, type ValidationIssue, type Values } from "./kind";
import type { MonitorInput } from "../api";
import { organizationApi, wireShape, type ResourceApi, type WireObject } from "./api-binding";
import { aplStages, callsFunction } from "./apl-stages";
import { compileQuery } from "./query-check";
import { monitorBacktest } from "./backtest";
import { sloMarkerOf } from "./backtest/slo-insight";
import { isReference } from "./validate";
import { isPlaceholder, withPlaceholders } from "./placeholders";

export const MONITOR_TYPES = ["Threshold", "MatchEvent", "AnomalyDetection"] as const;
export const MONITOR_OPERATORS = ["Below", "BelowOrEqual", "Above", "AboveOrEqual", "AboveOrBelow"] as const;

/**
 * A match monitor sends every matching event as it is, so its query may only filter and
 * reshape events: an aggregation would leave no events to send.
 */
export const MATCH_EVENT_OPERATORS = [
  "where", "extend", "extend-valid", "parse", "parse-kv",
  "project", "project-away", "project-keep", "project-rename", "project-reorder",
] as const;

/** Longest `second_delay` the service takes: one day. */
const MAX_SECOND_DELAY = 86_400;
const MAX_COMPARE_DAYS = 7;
const MAX_TOLERANCE_PERCENT = 100;

const wholeAtLeastOne = [integer, atLeast(1)];

/** The first stage of a match monitor's query that is not a filter or reshape, if any. */
function disallowedMatchStage(apl: string): PlanCheckProblem | undefined {
  // A stage that is a placeholder (known only after apply) is checked once known.
  const stage = aplStages(apl).find((s) => !(MATCH_EVENT_OPERATORS as readonly string[]).includes(s.operator) && !isPlaceholder(s.operator));
  if (!stage) return undefined;
  return {
    attribute: "apl_query",
    line: stage.line,
    column: stage.column,
    message:
      `a MatchEvent monitor sends each matching event, so its query may use only ${MATCH_EVENT_OPERATORS.join(", ")}; ` +
      `"${stage.operator || "(nothing)"}" is not allowed (use a Threshold monitor to alert on an aggregation)`,
  };
}

/** The operators that turn events into values a threshold can be compared with. */
const AGGREGATING_OPERATORS = ["summarize", "count", "make-series"];

/** The problem with a query its monitor's type cannot run: a match that aggregates, a threshold that does not. */
function queryShapeProblem(type: unknown, apl: string): PlanCheckProblem | undefined {
  if (type === "MatchEvent") return disallowedMatchStage(apl);
  if ((type === "Threshold" || type === "AnomalyDetection") && !aplStages(apl).some((s) => AGGREGATING_OPERATORS.includes(s.operator))) {
    return { attribute: "apl_query", message: `a ${type} monitor compares aggregated values, so its query must aggregate, e.g. "['logs'] | summarize count() by bin(_time, 1m)"` };
  }
  return undefined;
}

function problemAsIssue(p: PlanCheckProblem): ValidationIssue {
  const where = p.line !== undefined ? ` (line ${p.line}, column ${p.column ?? "?"})` : "";
  return { path: [p.attribute], message: `${p.message}${where}` };
}

function isSet(v: unknown): boolean {
  return v !== undefined && v !== null;
}

/** Rules between attributes, checked at synth time: each type needs its own settings. */
function monitorRules(values: Values): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const type = values.type;
  const requireFor = (attrs: string[], what: string): void => {
    for (const a of attrs) if (!isSet(values[a])) issues.push({ path: [a], message: `is required for a ${what} monitor` });
  };
  if (type === "Threshold") requireFor(["operator", "threshold"], "Threshold");
  if (type === "AnomalyDetection") requireFor(["compare_days", "tolerance"], "AnomalyDetection");
  // A query with parts known only after apply is checked with placeholders for them: its
  // literal stages are known (a match monitor's `summarize`), whether it aggregates may not be.
  const text = values.apl_query;
  const partlyKnown = typeof text === "string" && isReference(text);
  const apl = typeof text === "string" ? withPlaceholders(text) : undefined;
  const shape = apl !== undefined && !(partlyKnown && type !== "MatchEvent") ? queryShapeProblem(type, apl) : undefined;
  if (shape) issues.push(problemAsIssue(shape));
  // The service keeps each notifier once: a repeated id would read back as a change.
  const ids = Array.isArray(values.notifier_ids) ? values.notifier_ids.filter((id) => typeof id === "string" && !isReference(id)) : [];
  const repeated = ids.find((id, i) => ids.indexOf(id) !== i);
  if (repeated !== undefined) issues.push({ path: ["notifier_ids"], message: `expected each notifier once, got "${String(repeated)}" twice` });
  // N of M: both or neither, and N cannot exceed M.
  const n = values.trigger_after_n_positive_results;
  const m = values.trigger_from_n_runs;
  if (isSet(n) !== isSet(m)) {
    const missing = isSet(n) ? "trigger_from_n_runs" : "trigger_after_n_positive_results";
    issues.push({ path: [missing], message: "is required with trigger_after_n_positive_results / trigger_from_n_runs (alert when N of the last M runs crossed)" });
  } else if (typeof n === "number" && typeof m === "number" && n > m) {
    issues.push({ path: ["trigger_after_n_positive_results"], message: `expected at most trigger_from_n_runs (${m}), got ${n}` });
  }
  return issues;
}

/**
 * At plan time: the query's shape for its type (a query built from references is known
 * only now) and the query compiled by the service, which depend on the values alone, so a
 * pass is reused across a command's walks; then every notifier id that is known naming a
 * live notifier, which reads the organization and is asked every time.
 */
const monitorChecks: PlanCheck = {
  title: "Invalid monitor",
  checks: "the query has the shape its type needs, the service compiles it, and every known notifier id names a live notifier",
  needs: ["apl_query", "type"],
  answerDependsOnlyOnValues: true,
  async check(client, values) {
    const apl = values.apl_query;
    if (typeof apl !== "string") return undefined;
    const shape = queryShapeProblem(values.type, apl);
    if (shape) return shape;
    const err = await compileQuery(client, apl);
    if (err) return { attribute: "apl_query", line: err.detail?.line, column: err.detail?.column, message: err.detail?.message ?? err.serviceMessage };
    return undefined;
  },
  async liveCheck(client, values, scope) {
    return missingNotifier(await sharedRead(scope.memo, "ods_notifier", () => client.listNotifiers()), values.notifier_ids);
  },
  warnings(values) {
    const apl = values.apl_query;
    if (values.type !== "Threshold" || typeof apl !== "string") return [];
    const at = callsFunction(apl, "bin_auto");
    if (!at) return [];
    return [{
      attribute: "apl_query",
      ...at,
      message: "bin_auto in a Threshold monitor's query sizes its time bins from the query range, so the values compared with the threshold change with range_minutes; use bin(_time, <width>) with a fixed width",
    }];
  },
};

/** The first known notifier id no live notifier has (ids from references are known only after apply). */
function missingNotifier(live: readonly { id: string }[], declared: unknown): PlanCheckProblem | undefined {
  if (!Array.isArray(declared)) return undefined;
  const ids = new Set(live.map((n) => n.id));
  const index = declared.findIndex((id) => typeof id === "string" && !isReference(id) && !ids.has(id));
  if (index < 0) return undefined;
  return { attribute: `notifier_ids.${index}`, message: `no notifier has the id "${String(declared[index])}" (refer to an ods_notifier's id, or use the ods_notifier data source)` };
}

/** Wire fields that only some types read; the service answers zeros for the others. */
const ONLY_FOR: Readonly<Record<string, readonly string[]>> = {
  operator: ["Threshold", "AnomalyDetection"],
  threshold: ["Threshold"],
  compareDays: ["AnomalyDetection"],
  tolerance: ["AnomalyDetection"],
};

/**
 * A live monitor without the fields its type does not read, unless they were declared:
 * the service fills them (threshold 0 on a match monitor), and they would otherwise read
 * as values nobody declared, or be exported into a config its own validation refuses
 * (compare_days 0). A declared one is shown as the service keeps it.
 */
function settingsOfItsType(live: WireObject, declared: Values | undefined): WireObject {
  const out: WireObject = { ...live };
  for (const [field, types] of Object.entries(ONLY_FOR)) {
    const attribute = field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    const isDeclared = declared?.[attribute] !== undefined && declared?.[attribute] !== null;
    if (!types.includes(String(live.type)) && !isDeclared) delete out[field];
  }
  return out;
}

/** Seconds of data one run reads: its range (the service bounds it by maxQueryWindowSeconds). */
function monitorWindowSeconds(values: Values): number | undefined {
  return typeof values.range_minutes === "number" ? values.range_minutes * 60 : undefined;
}

/**
 * Seconds of data a backtest over DAYS days reads in one query: the days, plus what the
 * first run looks back (its range, second_delay, and an anomaly monitor's compare days).
 * A monitor of an slo.Slo is replayed from its SLO's window instead: none here.
 */
function backtestWindowSeconds(values: Values, days: number): number | undefined {
  const range = monitorWindowSeconds(values);
  if (range === undefined || sloMarkerOf(values)) return undefined;
  const delay = typeof values.second_delay === "number" ? values.second_delay : 0;
  const compare = values.type === "AnomalyDetection" ? Math.max(1, typeof values.compare_days === "number" ? values.compare_days : 1) * 86_400 : 0;
  return days * 86_400 + delay + range + compare;
}

export const monitor: ResourceKind = {
  typeName: "ods_monitor",
  description: "A monitor: a query the service runs on a schedule, alerting through notifiers when its result crosses a threshold, an event matches, or values deviate from earlier days.",
  schemaVersion: 0,
  attributes: {
    id: str("Assigned by the service.", { computed: true }),
    name: str("Name of the monitor; the title of its alerts.", { required: true, checks: [nonEmpty] }),
    type: str("How the monitor alerts: \"Threshold\" (an aggregation crosses `threshold`), \"MatchEvent\" (each matching event) or \"AnomalyDetection\" (values deviate from the same window of earlier days).", {
      required: true,
      forcesReplacement: true,
      checks: [oneOf(MONITOR_TYPES)],
    }),
    description: str("What the monitor watches; sent with its alerts.", { optional: true, serverDefault: "" }),
    apl_query: str("The query run on every check. A Threshold query ends in an aggregation (summarize); a MatchEvent query only filters and reshapes events.", {
      required: true,
      checks: [nonEmpty],
    }),
    operator: str(`How values are compared with \`threshold\`: ${MONITOR_OPERATORS.map((o) => `"${o}"`).join(", ")}. Required for Threshold monitors.`, {
      optional: true,
      checks: [oneOf(MONITOR_OPERATORS)],
    }),
    threshold: num("The value the query's results are compared with. Required for Threshold monitors.", { optional: true }),
    interval_minutes: num("How often the monitor runs, in minutes (at least 1).", { required: true, checks: wholeAtLeastOne }),
    range_minutes: num("How far back each run queries, in minutes (at least 1); the range ends at the run time.", { required: true, checks: wholeAtLeastOne }),
    second_delay: num(`Seconds the query range is shifted back, so that late events are counted (at most ${MAX_SECOND_DELAY}).`, {
      optional: true,
      serverDefault: 0,
      checks: [integer, atLeast(0), atMost(MAX_SECOND_DELAY)],
    }),
    alert_on_no_data: bool("Alert when the query returns no data.", { optional: true, serverDefault: false }),
    notify_by_group: bool("Each group of the query's non-time `by` keys alerts on its own.", { optional: true, serverDefault: false }),
    notify_every_run: bool("Notify on every run that is in alert, not only on entering it.", { optional: true, serverDefault: false }),
    resolvable: bool("Notify also when the monitor leaves the alert state (action Closed).", { optional: true, serverDefault: false }),
    skip_resolved: bool("Send no notification when the monitor leaves the alert state.", { optional: true, serverDefault: false }),
    disabled: bool("The monitor does not run.", { optional: true, serverDefault: false }),
    disabled_until: str("The monitor does not run before this time (ISO 8601).", { optional: true, timestamp: true, checks: [timestamp] }),
    notifier_ids: listOf("string", "Ids of the notifiers its alerts go to (references to ods_notifier ids).", {
      optional: true,
      unordered: true,
      checks: [nonEmpty],
      refersTo: { typeName: "ods_notifier", attribute: "id" },
    }),
    // Unset, the service alerts on every crossing run: 1 of 1.
    trigger_after_n_positive_results: num("Alert only when this many of the last `trigger_from_n_runs` runs crossed the threshold (N of M).", {
      optional: true,
      serverDefault: 1,
      checks: wholeAtLeastOne,
    }),
    trigger_from_n_runs: num("The number of recent runs N of M looks at.", { optional: true, serverDefault: 1, checks: wholeAtLeastOne }),
    compare_days: num(`AnomalyDetection: how many earlier days the values are compared with (1 to ${MAX_COMPARE_DAYS}).`, {
      optional: true,
      checks: [integer, atLeast(1), atMost(MAX_COMPARE_DAYS)],
    }),
    tolerance: num(`AnomalyDetection: how far, in percent, values may deviate from earlier days (0 to ${MAX_TOLERANCE_PERCENT}).`, {
      optional: true,
      checks: [atLeast(0), atMost(MAX_TOLERANCE_PERCENT)],
    }),
    column_name: str("For a table result: the column whose values are compared with the threshold.", { optional: true, serverDefault: "" }),
    created_at: str("When the monitor was created.", { computed: true, timestamp: true }),
    created_by: str("The user who created it.", { computed: true }),
    updated_at: str("When the monitor was last changed.", { computed: true, timestamp: true, changesOnWrite: true }),
  },
  naturalKey: ["name"],
  creation: "create",
  deletion: "delete",
  validate: monitorRules,
  planCheck: monitorChecks,
  warnsOfStrayDatasets: true,
  planInsight: monitorBacktest,
  license: { counts: "maxMonitors", queryWindowSeconds: monitorWindowSeconds, insightWindowSeconds: backtestWindowSeconds },
  importIdFormat: "the monitor id",
  api: {
    ...monitorCalls(),
    normalizeLive: settingsOfItsType,
  },
};

function monitorCalls(): ResourceApi {
  return organizationApi({
    list: (c) => c.listMonitors(),
    read: (c, id) => c.getMonitor(id),
    create: (c, body) => c.createMonitor(body),
    update: (c, id, body) => c.updateMonitor(id, body),
    remove: (c, id) => c.deleteMonitor(id),
  }, {
    create: wireShape<MonitorInput>("monitor", {
      name: true, type: true, description: true, aplQuery: true, operator: true, threshold: true, intervalMinutes: true,
      rangeMinutes: true, secondDelay: true, alertOnNoData: true, notifyByGroup: true, notifyEveryRun: true, resolvable: true,
      skipResolved: true, disabled: true, disabledUntil: true, notifierIds: true, triggerAfterNPositiveResults: true,
      triggerFromNRuns: true, compareDays: true, tolerance: true, columnName: true,
    }),
  });
}
