// What one run of a monitor's query says, per group: the numbers it produced, and
// whether they cross the monitor's condition. Pure functions of the query's result, so
// that the scheduler (engine.ts) only decides about state and notifications.
import type { MonitorOperator, MonitorRecord } from "../model";
import type { Outcome } from "../query/execute";
import type { Plan } from "../query/plan";
import { toJson, toText, type Value } from "../query/values";

/** The numbers one group of the result holds (every point of a series, every numeric cell of a table). */
export interface GroupNumbers {
  keys: string[];
  values: string[];
  numbers: number[];
}

export type Extracted = { ok: true; keyNames: string[]; groups: Map<string, GroupNumbers> } | { ok: false; error: string };

/** A group's identity in the monitor's state: its key values, as JSON (unambiguous). */
export function groupId(values: readonly string[]): string {
  return values.length === 0 ? "" : JSON.stringify(values);
}

function numbersIn(v: Value, out: number[]): void {
  if (typeof v === "number") {
    if (Number.isFinite(v)) out.push(v);
  } else if (Array.isArray(v)) {
    // make-series puts a group's series in one array cell.
    for (const x of v) numbersIn(x, out);
  }
}

/**
 * Splits the result into groups by the non-time keys of its last summarize. The value
 * columns are `columnName` when set, else every column that is not a key or a time.
 */
export function extractGroups(plan: Plan, outcome: Outcome, columnName: string): Extracted {
  const columns = plan.columns;
  const has = (name: string): boolean => columns.some((c) => c.name === name);
  const summary = plan.summary;
  const keyNames = summary ? summary.keys.filter((k) => k !== summary.timeKey && has(k)) : [];
  let valueColumns: string[];
  if (columnName !== "") {
    if (!has(columnName)) return { ok: false, error: `column "${columnName}" is not in the query's result (columns: ${columns.map((c) => c.name).join(", ")})` };
    valueColumns = [columnName];
  } else {
    valueColumns = columns
      .filter((c) => !keyNames.includes(c.name) && c.name !== summary?.timeKey && c.type !== "datetime" && c.type !== "timespan" && c.type !== "string" && c.type !== "boolean")
      .map((c) => c.name);
  }
  const groups = new Map<string, GroupNumbers>();
  for (const row of outcome.rows) {
    const values = keyNames.map((k) => toText(row.values.get(k) ?? null));
    const id = groupId(values);
    let group = groups.get(id);
    if (!group) {
      group = { keys: keyNames, values, numbers: [] };
      groups.set(id, group);
    }
    for (const c of valueColumns) numbersIn(row.values.get(c) ?? null, group.numbers);
  }
  for (const [id, g] of groups) if (g.numbers.length === 0) groups.delete(id);
  return { ok: true, keyNames, groups };
}

export function crosses(op: MonitorOperator | "", value: number, threshold: number): boolean {
  switch (op) {
    case "Above":
      return value > threshold;
    case "AboveOrEqual":
      return value >= threshold;
    case "Below":
      return value < threshold;
    case "BelowOrEqual":
      return value <= threshold;
    case "AboveOrBelow":
      // Adopted: outside the band [-|threshold|, |threshold|].
      return Math.abs(value) > Math.abs(threshold);
    default:
      return false;
  }
}

/** The value most past the threshold in the operator's direction (what an alert reports). */
export function mostExtreme(op: MonitorOperator | "", numbers: readonly number[]): number {
  if (numbers.length === 0) return 0;
  if (op === "Below" || op === "BelowOrEqual") return Math.min(...numbers);
  if (op === "AboveOrBelow" || op === "") return numbers.reduce((a, b) => (Math.abs(b) > Math.abs(a) ? b : a));
  return Math.max(...numbers);
}

/** One group's verdict in one run. */
export interface Verdict {
  crossing: boolean;
  value: number;
  keys: string[];
  values: string[];
  /** The sentence notifications carry as `.Body`. */
  body: string;
}

const OP_TEXT: Readonly<Record<string, string>> = {
  Above: "above",
  AboveOrEqual: "at or above",
  Below: "below",
  BelowOrEqual: "at or below",
  AboveOrBelow: "outside ±",
};

function describeThreshold(m: MonitorRecord, value: number, crossing: boolean): string {
  const op = OP_TEXT[m.operator] ?? m.operator;
  return crossing ? `value ${value} is ${op} the threshold ${m.threshold}` : `value ${value} is no longer ${op} the threshold ${m.threshold}`;
}

/** Threshold verdicts per group (one group, "", unless the monitor notifies by group). */
export function thresholdVerdicts(m: MonitorRecord, groups: ReadonlyMap<string, GroupNumbers>): Map<string, Verdict> {
  const out = new Map<string, Verdict>();
  if (m.notifyByGroup) {
    for (const [id, g] of groups) {
      const value = mostExtreme(m.operator, g.numbers);
      const crossing = crosses(m.operator, value, m.threshold);
      out.set(id, { crossing, value, keys: g.keys, values: g.values, body: describeThreshold(m, value, crossing) });
    }
    return out;
  }
  // One alert for the monitor; it reports the group whose value is the most extreme.
  let best: { value: number; g: GroupNumbers } | undefined;
  for (const g of groups.values()) {
    const value = mostExtreme(m.operator, g.numbers);
    if (!best || mostExtreme(m.operator, [best.value, value]) === value) best = { value, g };
  }
  if (best) {
    const crossing = crosses(m.operator, best.value, m.threshold);
    out.set("", { crossing, value: best.value, keys: best.g.keys, values: best.g.values, body: describeThreshold(m, best.value, crossing) });
  }
  return out;
}

function mean(numbers: readonly number[]): number {
  return numbers.reduce((a, b) => a + b, 0) / numbers.length;
}

/**
 * Anomaly verdicts: a group's value now (the mean of its numbers) against the mean of
 * its values in the same window on each of the earlier days that had one. A group
 * with no earlier value has nothing to deviate from and does not alert.
 */
export function anomalyVerdicts(m: MonitorRecord, now: ReadonlyMap<string, GroupNumbers>, earlier: readonly ReadonlyMap<string, GroupNumbers>[]): Map<string, Verdict> {
  const perGroup = new Map<string, Verdict>();
  for (const [id, g] of now) {
    const current = mean(g.numbers);
    const past = earlier.map((day) => day.get(id)).filter((d): d is GroupNumbers => d !== undefined).map((d) => mean(d.numbers));
    if (past.length === 0) continue;
    const expected = mean(past);
    const deviation = expected === 0 ? (current === 0 ? 0 : Infinity) : (Math.abs(current - expected) / Math.abs(expected)) * 100;
    const direction = m.operator === "Above" || m.operator === "AboveOrEqual" ? current > expected : m.operator === "Below" || m.operator === "BelowOrEqual" ? current < expected : current !== expected;
    const crossing = direction && deviation > m.tolerance;
    const shown = Number.isFinite(deviation) ? `${Math.round(deviation * 100) / 100}%` : "infinitely";
    const body = `value ${current} deviates ${shown} from the expected ${expected} (mean of the same window on ${past.length} earlier day(s); tolerance ${m.tolerance}%)`;
    perGroup.set(id, { crossing, value: current, keys: g.keys, values: g.values, body });
  }
  if (m.notifyByGroup) return perGroup;
  let chosen: Verdict | undefined;
  for (const v of perGroup.values()) if (!chosen || (v.crossing && !chosen.crossing)) chosen = v;
  return chosen ? new Map([["", chosen]]) : new Map();
}

/** A matched event as the notification's `.MatchedEvent`: every column of the row. */
export function matchedEvent(plan: Plan, row: { values: Map<string, Value> }): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const c of plan.columns) {
    const v = row.values.get(c.name);
    if (v !== undefined && v !== null) out[c.name] = toJson(v);
  }
  return out;
}
