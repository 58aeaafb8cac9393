// What an SLO is once written down as ordinary objects: the window table and its scaling,
// the burn-rate query of one window pair, the per-minute counts query the plan replays
// them from, and the marker each generated monitor carries in its description so that the
// SLO can be recognised from live objects whichever engine wrote them. Pure functions: the
// construct (src/slo) writes with them, the plan insight and `ods slo report` read with them.

/** Severities of the generated alerts: a page wakes someone, a ticket waits for work hours. */
export type SloSeverity = "page" | "ticket";

/** One row of the window table, in minutes; `factor` is the burn rate that alerts. */
export interface SloPair {
  severity: SloSeverity;
  longMinutes: number;
  shortMinutes: number;
  factor: number;
}

/** The SLO as its generated monitors carry it (the marker's content). */
export interface SloDefinition {
  name: string;
  /** The construct path of the `slo.Slo` that generated it (empty when unknown). */
  path: string;
  dataset: string;
  badFilter: string;
  totalFilter?: string;
  objectivePercent: number;
  windowDays: number;
  minEvents: number;
  pairs: SloPair[];
  labels?: Record<string, string>;
}

/** One generated monitor's place in its SLO. */
export interface SloMonitorMarker {
  slo: SloDefinition;
  /** Index into `slo.pairs` of the pair this monitor evaluates. */
  pair: number;
}

const MINUTE = 60_000;
export const HOUR_MINUTES = 60;
export const DAY_MINUTES = 1440;

/**
 * The default table at its reference window of 30 days (the Google SRE workbook's, as
 * Sloth and Grafana SLO ship it): the share of the budget each pair alerts on, spent
 * within its long window.
 */
export const DEFAULT_TABLE: readonly { severity: SloSeverity; budgetPercent: number; longMinutes: number; shortMinutes: number }[] = [
  { severity: "page", budgetPercent: 2, longMinutes: 60, shortMinutes: 5 },
  { severity: "page", budgetPercent: 5, longMinutes: 6 * 60, shortMinutes: 30 },
  { severity: "ticket", budgetPercent: 10, longMinutes: DAY_MINUTES, shortMinutes: 2 * 60 },
  { severity: "ticket", budgetPercent: 10, longMinutes: 3 * DAY_MINUTES, shortMinutes: 6 * 60 },
];

/** factor = budget share × SLO window hours / long window hours (rounded to 4 decimals). */
export function burnFactor(budgetPercent: number, windowDays: number, longMinutes: number): number {
  return round((budgetPercent / 100) * ((windowDays * DAY_MINUTES) / longMinutes), 4);
}

/** The default table scaled to a window of `windowDays`. */
export function defaultPairs(windowDays: number): SloPair[] {
  return DEFAULT_TABLE.map((r) => ({ severity: r.severity, longMinutes: r.longMinutes, shortMinutes: r.shortMinutes, factor: burnFactor(r.budgetPercent, windowDays, r.longMinutes) }));
}

export function round(v: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}

/** The error budget as a fraction (0.001 for 99.9%), free of binary noise so that queries print it exactly. */
export function budgetFraction(objectivePercent: number): number {
  return Number((1 - objectivePercent / 100).toPrecision(12));
}

/** `5m`, `1h`, `3d`, `1h30m` as minutes; undefined for anything else. */
export function parseWindow(text: string): number | undefined {
  const re = /(\d+)(m|h|d)/gy;
  const t = text.trim();
  let total = 0;
  let end = 0;
  for (let m = re.exec(t); m; m = re.exec(t)) {
    total += Number(m[1]) * { m: 1, h: HOUR_MINUTES, d: DAY_MINUTES }[m[2] as "m"];
    end = re.lastIndex;
  }
  return end > 0 && end === t.length && total > 0 ? total : undefined;
}

/** Minutes as the shortest window text: 1440 → `1d`, 90 → `1h30m`. */
export function windowText(minutes: number): string {
  const parts: string[] = [];
  let rest = minutes;
  for (const [unit, size] of [["d", DAY_MINUTES], ["h", HOUR_MINUTES], ["m", 1]] as const) {
    if (rest >= size) {
      parts.push(`${Math.floor(rest / size)}${unit}`);
      rest %= size;
    }
  }
  return parts.join("") || "0m";
}

export function pairText(p: SloPair): string {
  return `${windowText(p.longMinutes)}/${windowText(p.shortMinutes)}`;
}

/** How often a pair's monitor runs: often enough for its short window to reset it promptly. */
export function intervalMinutes(p: SloPair): number {
  return Math.max(1, Math.min(15, Math.round(p.shortMinutes / 6)));
}

function datasetRef(dataset: string): string {
  return `['${dataset.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}']`;
}

/** The stages every SLO query starts with: the events that count, each marked bad or not. */
function sloEvents(slo: Pick<SloDefinition, "dataset" | "badFilter" | "totalFilter">): string[] {
  return [datasetRef(slo.dataset), ...(slo.totalFilter ? [`| where ${slo.totalFilter}`] : []), `| extend slo_bad = (${slo.badFilter})`];
}

/** The column of a pair's query that the monitor compares with its factor. */
export const BURN_COLUMN = "burn_rate";

/**
 * One Threshold query for a window pair: the long and the short window counted in one pass
 * (the short one as the events of the last minutes before the run), each window's burn
 * rate, and the smaller of the two as the monitor's value, so that both must burn. Below
 * `minEvents` in the short window the value is 0: too few events to page on.
 */
export function pairQuery(slo: SloDefinition, p: SloPair): string {
  const b = budgetFraction(slo.objectivePercent);
  return [
    ...sloEvents(slo),
    `| extend slo_short = _time >= ago(${p.shortMinutes}m)`,
    "| summarize long_bad = countif(slo_bad), long_total = count(), short_bad = countif(slo_bad and slo_short), short_total = countif(slo_short)",
    `| extend long_burn = iff(long_total == 0, 0.0, todouble(long_bad) / long_total / ${b}), short_burn = iff(short_total == 0, 0.0, todouble(short_bad) / short_total / ${b})`,
    `| extend ${BURN_COLUMN} = iff(short_total < ${slo.minEvents}, 0.0, iff(long_burn < short_burn, long_burn, short_burn))`,
  ].join("\n");
}

/** Columns of each point of the counts query, after its time. */
export const COUNT_COLUMNS = ["events", "bad"] as const;

/** The plan's one query per definition: events and bad events per minute, packed into one row. */
export function countsQuery(slo: Pick<SloDefinition, "dataset" | "badFilter" | "totalFilter">): string {
  // The predicate inside countif rather than in an extend stage: one pass less over every event.
  return [
    datasetRef(slo.dataset),
    ...(slo.totalFilter ? [`| where ${slo.totalFilter}`] : []),
    `| summarize events = count(), bad = countif(${slo.badFilter}) by _time = bin(_time, 1m)`,
    "| summarize points = make_list(pack_array(_time, events, bad))",
  ].join("\n");
}

/** The generated monitor's name: the SLO, the severity and the pair. */
export function monitorName(slo: Pick<SloDefinition, "name">, p: SloPair): string {
  return `SLO ${slo.name}: ${p.severity} ${pairText(p)}`;
}

/** Where the marker starts in a generated monitor's description. */
export const MARKER = "ods-slo/v1 ";

/** The uid of the dashboard `slo.Slo` generates for an SLO (export recognises it by this). */
export function sloDashboardUid(name: string): string {
  return `slo-${name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 100) || "slo"}`;
}

/**
 * The description of a generated monitor: what it means to whoever receives its alert,
 * then the marker (one line of JSON) that `ods plan` and `ods slo report` read.
 */
export function monitorDescription(slo: SloDefinition, pair: number, userDescription?: string): string {
  const p = slo.pairs[pair];
  const meaning =
    `SLO "${slo.name}" (${slo.objectivePercent}% of events good over ${slo.windowDays}d): ${p.severity} when the burn rate over ${windowText(p.longMinutes)} ` +
    `and over ${windowText(p.shortMinutes)} both exceed ${p.factor}× (the alert's value is the burn rate measured, the smaller of the two).`;
  const marker = `${MARKER}${JSON.stringify({ ...slo, pair })}`;
  return [userDescription, meaning, marker].filter((s) => s !== undefined && s !== "").join("\n\n");
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The marker of a generated monitor's description; undefined for any other monitor (or a marker that does not read). */
export function readMarker(description: unknown): SloMonitorMarker | undefined {
  if (typeof description !== "string") return undefined;
  const at = description.lastIndexOf(MARKER);
  if (at < 0) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(description.slice(at + MARKER.length).split("\n")[0]);
  } catch {
    return undefined;
  }
  if (!isObject(raw)) return undefined;
  const { pair, ...rest } = raw;
  const pairs = Array.isArray(rest.pairs) ? rest.pairs.filter(isObject) : [];
  const okPairs = pairs.every(
    (p) => (p.severity === "page" || p.severity === "ticket") && typeof p.longMinutes === "number" && typeof p.shortMinutes === "number" && typeof p.factor === "number",
  );
  if (
    typeof rest.name !== "string" || typeof rest.dataset !== "string" || typeof rest.badFilter !== "string" ||
    typeof rest.objectivePercent !== "number" || typeof rest.windowDays !== "number" || typeof pair !== "number" ||
    !okPairs || pairs.length === 0 || pair < 0 || pair >= pairs.length
  ) {
    return undefined;
  }
  const slo: SloDefinition = {
    name: rest.name,
    path: typeof rest.path === "string" ? rest.path : "",
    dataset: rest.dataset,
    badFilter: rest.badFilter,
    ...(typeof rest.totalFilter === "string" && rest.totalFilter !== "" ? { totalFilter: rest.totalFilter } : {}),
    objectivePercent: rest.objectivePercent,
    windowDays: rest.windowDays,
    minEvents: typeof rest.minEvents === "number" ? rest.minEvents : 0,
    pairs: pairs as unknown as SloPair[],
    ...(isObject(rest.labels) ? { labels: rest.labels as Record<string, string> } : {}),
  };
  return { slo, pair };
}

/** The monitor a pair generates, as wire fields (what the construct writes and the replay reads). */
export function pairMonitor(slo: SloDefinition, pair: number): { name: string; aplQuery: string; threshold: number; intervalMinutes: number; rangeMinutes: number; columnName: string } {
  const p = slo.pairs[pair];
  return { name: monitorName(slo, p), aplQuery: pairQuery(slo, p), threshold: p.factor, intervalMinutes: intervalMinutes(p), rangeMinutes: p.longMinutes, columnName: BURN_COLUMN };
}

/** The longest long window of the table, in milliseconds: how far before the range the counts must reach. */
export function lookBackMs(slo: SloDefinition): number {
  return Math.max(...slo.pairs.map((p) => p.longMinutes)) * MINUTE;
}
