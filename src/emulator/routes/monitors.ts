// Monitors (`/v2/monitors`): saved queries the scheduler runs on an interval, and whose
// alerts go to notifiers. Organization-scoped, capability `monitors` (changing or
// deleting one needs `read` too, as every kind's write does: crud.ts). The body is
// checked field by field so that a rejected monitor names the attribute to fix.
import { hasOrgGrant } from "../capabilities";
import { badRequest, forbidden, HttpError } from "../errors";
import { requireQueryWindow, requireRoomFor } from "../license";
import type { MonitorOperator, MonitorRecord, MonitorType } from "../model";
import { runMonitorQuery } from "../monitors/run-query";
import { requireQueryReadable } from "../query-routes";
import { NO_CONTENT, ok, type RequestContext, type Route } from "../routing";
import { nowIso, timestampMillis } from "../time";
import {
  bodyObject,
  optionalBoolean,
  optionalIntegerIn,
  optionalNumber,
  optionalString,
  optionalStringArray,
  optionalTimestamp,
  requiredString,
  type JsonObject,
} from "../validate";
import { authorizedRecord, createRoute, getRoute, listRoute, replaceRoute, type KindSpec } from "./crud";

export const MONITOR_TYPES: readonly MonitorType[] = ["Threshold", "MatchEvent", "AnomalyDetection"];
export const MONITOR_OPERATORS: readonly MonitorOperator[] = ["Below", "BelowOrEqual", "Above", "AboveOrEqual", "AboveOrBelow"];

/** Above this many matches in the last day, a match monitor would only flood its notifiers. */
export const MATCH_CREATE_LIMIT = 500;
const DAY_MS = 24 * 3600_000;
/** A week of minutes: no interval or range is longer (anomaly monitors look back days by `compareDays`). */
const MAX_MINUTES = 7 * 24 * 60;
/** N of M keeps M results per group; bounded so that the state stays small. */
const MAX_RUNS_REMEMBERED = 100;

function oneOf<T extends string>(body: JsonObject, key: string, allowed: readonly T[], required: boolean): T | "" {
  const value = required ? requiredString(body, key) : optionalString(body, key);
  if (value === "" && !required) return "";
  if (!(allowed as readonly string[]).includes(value)) {
    throw badRequest(`"${key}" must be one of ${allowed.join(", ")}, got ${JSON.stringify(value)}`);
  }
  return value as T;
}

function flag(body: JsonObject, key: string): boolean {
  return optionalBoolean(body, key) ?? false;
}

/**
 * The notifier ids, each of which must name a notifier the writer may read
 * (`notifiers|read`), or one the monitor names already (the monitor shows it to whoever
 * may change it). One answer for a notifier that does not exist and one the writer may
 * not read: no write tells whether an id exists, and none attaches a notifier its
 * writer cannot see.
 */
function notifierIds(ctx: RequestContext, body: JsonObject, previous?: MonitorRecord): string[] {
  const ids = optionalStringArray(body, "notifierIds");
  const mayRead = hasOrgGrant(ctx.caller.token, "notifiers", "read");
  ids.forEach((id, i) => {
    const visible = ctx.core.state.notifiers.has(id) && (mayRead || (previous?.notifierIds.includes(id) ?? false));
    if (!visible) throw badRequest(`"notifierIds[${i}]": no notifier ${JSON.stringify(id)} that this token may read (orgCapabilities.notifiers|read)`);
  });
  return [...new Set(ids)];
}

/** The fields a client sends, validated; server fields are the caller's to fill. */
type MonitorFields = Omit<MonitorRecord, "id" | "createdAt" | "createdBy" | "updatedAt">;

/** `previous`: the monitor a PUT replaces. */
function parseMonitorBody(ctx: RequestContext, raw: unknown, previous?: MonitorRecord): MonitorFields {
  const body = bodyObject(raw);
  const type = oneOf(body, "type", MONITOR_TYPES, true) as MonitorType;
  const aplQuery = requiredString(body, "aplQuery");
  const operator = oneOf(body, "operator", MONITOR_OPERATORS, type === "Threshold");
  const threshold = optionalNumber(body, "threshold", -Number.MAX_VALUE, Number.MAX_VALUE);
  if (type === "Threshold" && threshold === undefined) throw badRequest(`"threshold" is required for a Threshold monitor`);
  const intervalMinutes = optionalIntegerIn(body, "intervalMinutes", 1, MAX_MINUTES) ?? 1;
  const rangeMinutes = optionalIntegerIn(body, "rangeMinutes", 1, MAX_MINUTES) ?? intervalMinutes;
  const n = optionalIntegerIn(body, "triggerAfterNPositiveResults", 1, MAX_RUNS_REMEMBERED);
  const m = optionalIntegerIn(body, "triggerFromNRuns", 1, MAX_RUNS_REMEMBERED);
  const triggerAfterNPositiveResults = n ?? 1;
  const triggerFromNRuns = m ?? triggerAfterNPositiveResults;
  if (triggerAfterNPositiveResults > triggerFromNRuns) {
    throw badRequest(`"triggerAfterNPositiveResults" (${triggerAfterNPositiveResults}) must not exceed "triggerFromNRuns" (${triggerFromNRuns})`);
  }
  // The contract bounds it only above: 0 is what every other type reads back, and must go back in.
  const compareDays = optionalIntegerIn(body, "compareDays", 0, 7);
  const tolerance = optionalNumber(body, "tolerance", 0, 100);
  if (type === "AnomalyDetection" && compareDays === undefined) throw badRequest(`"compareDays" (1 to 7) is required for an AnomalyDetection monitor`);
  if (type === "AnomalyDetection" && compareDays === 0) throw badRequest(`"compareDays" must be from 1 to 7 for an AnomalyDetection monitor, got 0`);
  if (type === "AnomalyDetection" && tolerance === undefined) throw badRequest(`"tolerance" (a percentage, 0 to 100) is required for an AnomalyDetection monitor`);
  return {
    name: requiredString(body, "name"),
    type,
    description: optionalString(body, "description"),
    aplQuery,
    // Kept as sent even where the type ignores it, so that what a client wrote reads back.
    operator,
    threshold: threshold ?? 0,
    intervalMinutes,
    rangeMinutes,
    secondDelay: optionalIntegerIn(body, "secondDelay", 0, 86_400) ?? 0,
    alertOnNoData: flag(body, "alertOnNoData"),
    notifyByGroup: flag(body, "notifyByGroup"),
    notifyEveryRun: flag(body, "notifyEveryRun"),
    resolvable: flag(body, "resolvable"),
    skipResolved: flag(body, "skipResolved"),
    disabled: flag(body, "disabled"),
    disabledUntil: optionalTimestamp(body, "disabledUntil"),
    notifierIds: notifierIds(ctx, body, previous),
    triggerAfterNPositiveResults,
    triggerFromNRuns,
    compareDays: compareDays ?? 0,
    tolerance: tolerance ?? 0,
    columnName: optionalString(body, "columnName"),
  };
}

/**
 * A match monitor that would have matched more than MATCH_CREATE_LIMIT events in the
 * last day is refused: at 500 notifications a day it would drop most of them.
 */
async function refuseFloodingMatch(ctx: RequestContext, fields: MonitorFields): Promise<void> {
  if (fields.type !== "MatchEvent") return;
  const now = ctx.now;
  const run = await runMonitorQuery(ctx.core, fields.aplQuery, { startMs: now - DAY_MS, endMs: now + 1 }, now, "count", "", ctx.core.readerOf(ctx.caller));
  // A query that cannot compile yet (no event has its dataset or fields) matched nothing.
  const matched = run.ok && run.answer.want === "count" ? run.answer.rowsBeforeCut : 0;
  if (matched > MATCH_CREATE_LIMIT) {
    throw badRequest(`"aplQuery" matched ${matched} events in the last 24 hours; a MatchEvent monitor may match at most ${MATCH_CREATE_LIMIT} (narrow the query)`);
  }
}

function toWire(m: MonitorRecord): JsonObject {
  return { ...m, notifierIds: [...m.notifierIds] };
}

const MONITORS: KindSpec<"monitors"> = {
  collection: "monitors",
  kind: "monitor",
  path: "/v2/monitors",
  idPrefix: "mon",
  capability: "monitors",
  toWire,
};

function requiredQueryTime(ctx: RequestContext, name: string): number {
  const raw = ctx.query.get(name);
  if (raw === null || raw === "") throw badRequest(`query parameter "${name}" is required (RFC 3339, e.g. 2026-01-01T00:00:00Z)`);
  const normalized = optionalTimestamp({ [name]: raw }, name);
  return timestampMillis(normalized);
}

export const monitorRoutes: readonly Route[] = [
  listRoute(MONITORS),
  getRoute(MONITORS),
  createRoute(MONITORS, async (ctx, id) => {
    requireRoomFor(ctx.core, "maxMonitors", "monitors");
    const fields = parseMonitorBody(ctx, ctx.json());
    requireQueryWindow(ctx.core, fields.rangeMinutes * 60, "the monitor's range (rangeMinutes)");
    // Syntax, shape and the creator's grants first: nothing below may look at data it cannot read.
    await requireQueryReadable(ctx, fields.aplQuery, fields.type);
    await refuseFloodingMatch(ctx, fields);
    const at = nowIso(ctx.now);
    return { id, ...fields, createdAt: at, createdBy: ctx.caller.user.id, updatedAt: at };
  }),
  replaceRoute(MONITORS, "update", async (ctx, previous) => {
    const fields = parseMonitorBody(ctx, ctx.json(), previous);
    requireQueryWindow(ctx.core, fields.rangeMinutes * 60, "the monitor's range (rangeMinutes)");
    // Whoever changes a monitor must be able to read what it reads, changed query or not.
    await requireQueryReadable(ctx, fields.aplQuery, fields.type);
    if (fields.aplQuery !== previous.aplQuery || fields.type !== previous.type) await refuseFloodingMatch(ctx, fields);
    return { ...fields, id: previous.id, createdAt: previous.createdAt, createdBy: previous.createdBy, updatedAt: nowIso(ctx.now) };
  }),
  {
    // The scheduler's state and the history go with the monitor: nothing can read them after.
    method: "DELETE",
    pattern: "/v2/monitors/:id",
    handle: async (ctx) => {
      const monitor = authorizedRecord(ctx, MONITORS, "delete");
      const tx = ctx.core.store.tx().delete("monitors", monitor.id).delete("monitorStates", monitor.id);
      for (const [key, h] of ctx.core.state.monitorHistory) if (h.monitorId === monitor.id) tx.delete("monitorHistory", key);
      await tx.commit();
      return NO_CONTENT;
    },
  },
  {
    method: "GET",
    pattern: "/v2/monitors/:id/history",
    handle: (ctx) => {
      const monitor = authorizedRecord(ctx, MONITORS, "read");
      const start = requiredQueryTime(ctx, "startTime");
      const end = requiredQueryTime(ctx, "endTime");
      if (start > end) throw new HttpError(400, `query parameter "startTime" must not be after "endTime"`);
      const entries = [...ctx.core.state.monitorHistory.values()]
        .filter((h) => h.monitorId === monitor.id)
        .filter((h) => {
          const at = timestampMillis(h.timestamp);
          return at >= start && at <= end;
        })
        .map(({ checkId, name, state, timestamp, message }) => ({ checkId, name, state, timestamp, ...(message !== undefined ? { message } : {}) }));
      return ok(entries);
    },
  },
];
