// The legacy layout: `matches` for row results, `buckets` for summaries.
//
// Every match carries every column of the result in `data` (null where the event has
// no value), as the service answers. A summary becomes groups `{id, group,
// aggregations: [{op, value}]}`: `op` is the aggregation's column name (count_, or
// the legacy alias). Group ids number the totals from 0 in their order, and a group
// keeps its id in every interval of the series. A time-series summary fills
// `buckets.series` with one interval per bucket over the whole query range (empty
// intervals included, up to MAX_SERIES_INTERVALS; beyond that only non-empty ones).

import type { Outcome } from "./execute";
import { commonStatus, fieldsMeta, fieldsMetaMap, type CommonStatus } from "./layout-common";
import { SYS_TIME_FIELD, TIME_FIELD, type Plan, type SummaryShape } from "./plan";
import type { Row } from "./table";
import { formatIsoTime, normalizeTimeText } from "./time";
import type { QueryFieldMeta } from "./types";
import { DateTimeValue, toJson, valueKey } from "./values";

export const MAX_SERIES_INTERVALS = 1000;

export interface LegacyMatch {
  _rowId: string;
  _sysTime: string | null;
  _time: string | null;
  data: Record<string, unknown>;
}

export interface LegacyGroup {
  id: number;
  group: Record<string, unknown>;
  aggregations: { op: string; value: unknown }[];
}

export interface LegacyInterval {
  startTime: string;
  endTime: string;
  groups: LegacyGroup[];
}

export interface LegacyStatus extends CommonStatus {
  continuationToken: string;
  isEstimate: boolean;
}

export interface LegacyResult {
  status: LegacyStatus;
  matches: LegacyMatch[];
  buckets: { series: LegacyInterval[]; totals: LegacyGroup[] };
  fieldsMeta: QueryFieldMeta[];
}

function timeText(row: Row, field: string): string | null {
  const v = row.values.get(field);
  return v instanceof DateTimeValue ? v.toString() : null;
}

function match(plan: Plan, row: Row): LegacyMatch {
  const data: Record<string, unknown> = {};
  for (const c of plan.columns) {
    const v = row.values.get(c.name) ?? null;
    // `_time` and `_sysTime` go to the top level, unless they hold something other than a
    // time (make-series's `_time` is an array): that stays in `data`.
    const top = (c.name === TIME_FIELD || c.name === SYS_TIME_FIELD) && (v === null || v instanceof DateTimeValue);
    if (!top) data[c.name] = toJson(v);
  }
  return {
    _rowId: row.origin?._rowId ?? "",
    _sysTime: row.origin ? normalizeTimeText(row.origin._sysTime) : timeText(row, SYS_TIME_FIELD),
    _time: row.origin ? normalizeTimeText(row.origin._time) : timeText(row, TIME_FIELD),
    data,
  };
}

function groupOf(id: number, row: Row, keys: string[], s: SummaryShape): LegacyGroup {
  const group: Record<string, unknown> = {};
  for (const k of keys) group[k] = toJson(row.values.get(k) ?? null);
  const aggregations = s.aggregations.map((column, i) => ({ op: s.labels[i], value: toJson(row.values.get(column) ?? null) }));
  return { id, group, aggregations };
}

function groupId(row: Row, keys: string[]): string {
  return keys.map((k) => valueKey(row.values.get(k) ?? null)).join("\u0000");
}

function buckets(s: SummaryShape, out: Outcome): LegacyResult["buckets"] {
  const keys = s.keys.filter((k) => k !== s.timeKey);
  const totalRows = s.timeKey === null ? out.rows : (out.totals ?? []);
  const ids = new Map<string, number>();
  const totals = totalRows.map((row, i) => {
    ids.set(groupId(row, keys), i);
    return groupOf(i, row, keys, s);
  });
  if (s.timeKey === null) return { series: [], totals };

  const width = s.bucket === "auto" ? out.autoBinMs : (s.bucket ?? 0);
  const byStart = new Map<number, LegacyGroup[]>();
  for (const row of out.rows) {
    const t = row.values.get(s.timeKey);
    if (!(t instanceof DateTimeValue)) continue;
    const key = groupId(row, keys);
    let id = ids.get(key);
    if (id === undefined) {
      id = ids.size;
      ids.set(key, id);
    }
    const list = byStart.get(t.ms) ?? [];
    list.push(groupOf(id, row, keys, s));
    byStart.set(t.ms, list);
  }
  const interval = (start: number): LegacyInterval => ({
    startTime: formatIsoTime(start),
    endTime: formatIsoTime(start + width),
    groups: byStart.get(start) ?? [],
  });
  const first = Math.floor(out.range.startMs / width) * width;
  const count = Math.max(1, Math.ceil((out.range.endMs - first) / width));
  const covered = [...byStart.keys()].every((t) => t >= first && t < first + count * width && (t - first) % width === 0);
  if (width > 0 && count <= MAX_SERIES_INTERVALS && covered) {
    return { series: Array.from({ length: count }, (_, i) => interval(first + i * width)), totals };
  }
  return { series: [...byStart.keys()].sort((a, b) => a - b).map(interval), totals };
}

export function legacyLayout(plan: Plan, out: Outcome): LegacyResult {
  const s = plan.summary;
  return {
    status: { ...commonStatus(out), continuationToken: "", isEstimate: false },
    matches: s ? [] : out.rows.map((row) => match(plan, row)),
    buckets: s ? buckets(s, out) : { series: [], totals: [] },
    fieldsMeta: plan.datasets.flatMap(fieldsMeta),
  };
}

/** The query-language endpoint's legacy layout also names its datasets, as the service does. */
export function aplLegacyLayout(plan: Plan, out: Outcome): LegacyResult & { format: "legacy"; datasetNames: string[]; fieldsMetaMap: Record<string, QueryFieldMeta[]> } {
  const base = legacyLayout(plan, out);
  return { format: "legacy", ...base, datasetNames: plan.datasets.map((d) => d.name), fieldsMetaMap: fieldsMetaMap(plan.datasets) };
}
