// POST /v1/datasets/{name}/ingest: a JSON array of events (or NDJSON). Nested objects
// are flattened into dotted field names; a field is created, with a type inferred from
// its first non-null value, the first time an event carries it. `_time` defaults to
// the ingest time. Events that cannot be stored are reported in `failures`, not 400.
import { requireDatasetGrant } from "../auth";
import { badRequest } from "../errors";
import { chargeIngest, fieldLimitFailure, fieldRoom } from "../license";
import { fieldKey, type FieldRecord } from "../model";
import type { StoredEvent } from "../query/types";
import { parseJoinedLines } from "../json-text";
import { checkJsonDepth, MAX_JSON_DEPTH, MiB, ok, tooDeep, type RequestContext, type Route } from "../routing";
import { canonicalIsoMillis, eventTimeFromValue, normalizeTimestamp, nowIsoMillis } from "../time";
import { isObject, setOwn, type JsonObject } from "../validate";

interface Failure {
  timestamp: string;
  error: string;
}

/** Throws tooDeep when `value`, at nesting level `depth`, holds objects or arrays past the limit. */
function checkDepth(value: unknown, depth: number): void {
  if (typeof value !== "object" || value === null) return;
  if (depth > MAX_JSON_DEPTH) throw tooDeep();
  if (Array.isArray(value)) for (const v of value) checkDepth(v, depth + 1);
  else for (const key in value) checkDepth((value as JsonObject)[key], depth + 1);
}

/**
 * Copies `obj` (at nesting level `depth`) into `out`, nested objects as dotted names;
 * `skipTop` leaves out the event's own `_time` and `_sysTime`. A for-in over a parsed
 * object, not Object.entries (an array of pairs per object was much of an ingest's
 * garbage). The nesting limit is checked here, on the few values that nest, rather than
 * by a scan of the whole body's text before the parse.
 */
function flatten(obj: JsonObject, prefix: string, out: Record<string, unknown>, depth: number, skipTop = false): void {
  for (const key in obj) {
    if (skipTop && (key === "_time" || key === "_sysTime")) continue;
    const value = obj[key];
    const name = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "object" && value !== null) {
      if (depth + 1 > MAX_JSON_DEPTH) throw tooDeep();
      if (!Array.isArray(value)) {
        flatten(value as JsonObject, name, out, depth + 1);
        continue;
      }
      checkDepth(value, depth + 1);
    }
    // Only `__proto__` needs defining (a plain assignment would set the prototype); defining
    // every field made each event a slow dictionary-mode object.
    if (name === "__proto__") setOwn(out, name, value);
    else out[name] = value;
  }
}

/** The field type of a value; undefined for null, which says nothing about the type. */
export function inferFieldType(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === "boolean") return "boolean";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "float";
  if (typeof value === "string") return normalizeTimestamp(value) !== undefined ? "datetime" : "string";
  return ""; // arrays: the seed allows an empty type
}

function parseEvents(ctx: RequestContext): unknown[] {
  if (ctx.contentType.includes("ndjson")) {
    const text = ctx.rawBody.toString("utf8");
    // One parse of the lines as an array: a JSON.parse per line was most of an NDJSON ingest.
    const all = parseJoinedLines(text, (depth) => {
      if (depth > MAX_JSON_DEPTH) throw tooDeep();
    });
    if (all) return all;
    const lines = text.split("\n").filter((line) => line.trim() !== "");
    checkJsonDepth(text);
    return lines.map((line, i) => {
      try {
        return JSON.parse(line) as unknown;
      } catch {
        throw badRequest(`malformed JSON on NDJSON line ${i + 1}`);
      }
    });
  }
  // Parsed without parseJsonBody's scan of the text for nesting: the handler checks the
  // parsed values (JSON.parse itself does not recurse), before anything is written.
  let body: unknown;
  try {
    body = ctx.rawBody.length === 0 ? undefined : JSON.parse(ctx.rawBody.toString("utf8"));
  } catch (err) {
    throw badRequest(`malformed JSON body: ${(err as Error).message}`);
  }
  if (!Array.isArray(body)) {
    checkDepth(body, 1);
    throw badRequest("request body must be a JSON array of events");
  }
  return body;
}

export const ingestRoutes: readonly Route[] = [
  {
    method: "POST",
    pattern: "/v1/datasets/:name/ingest",
    bodyLimit: 10 * MiB,
    handle: async (ctx) => {
      const { core } = ctx;
      const name = ctx.params.name!;
      requireDatasetGrant(ctx.caller, name, "ingest", "create");
      const dataset = core.dataset(name);
      chargeIngest(core, ctx.rawBody.length, core.events.totalBytes());
      const raw = parseEvents(ctx);
      const sysTime = nowIsoMillis(ctx.now);
      const failures: Failure[] = [];
      const sysMs = Date.parse(sysTime);
      const events: Omit<StoredEvent, "_rowId">[] = [];
      /** Each event's `_time` in ms, as read here: the columns need not parse it again. */
      const times: number[] = [];
      const newFields = new Map<string, FieldRecord>();
      // Fields seen known in this request: a Set lookup per field of each event, not a key built per lookup.
      const seen = new Set<string>();
      const known = (field: string): boolean => {
        if (seen.has(field)) return true;
        if (!newFields.has(field) && !core.state.fields.has(fieldKey(name, field))) return false;
        seen.add(field);
        return true;
      };
      // maxFields: an event that would add a field past the license's limit is refused (the others go in).
      let room = fieldRoom(core, name);
      const addField = (field: string, type: string): void => {
        if (!known(field)) {
          newFields.set(field, { dataset: name, name: field, description: "", type, unit: "", hidden: false });
          room--;
        }
      };
      if (raw.some(isObject)) {
        addField("_time", "datetime");
        addField("_sysTime", "datetime");
      }
      raw.forEach((item, index) => {
        if (!isObject(item)) {
          checkDepth(item, 2);
          failures.push({ timestamp: sysTime, error: `event ${index}: must be a JSON object` });
          return;
        }
        const rawTime = Object.hasOwn(item, "_time") ? item._time : undefined;
        // toISOString text (what most clients send) is its own stored form: no object per event for it.
        const canonicalMs = typeof rawTime === "string" ? canonicalIsoMillis(rawTime) : undefined;
        let timeText: string;
        let timeMs: number;
        if (canonicalMs !== undefined) {
          timeText = rawTime as string;
          timeMs = canonicalMs;
        } else if (rawTime === undefined || rawTime === null) {
          timeText = sysTime;
          timeMs = sysMs;
        } else {
          const time = eventTimeFromValue(rawTime);
          if (time === undefined) {
            failures.push({ timestamp: sysTime, error: `event ${index}: "_time" is not a timestamp` });
            return;
          }
          ({ text: timeText, ms: timeMs } = time);
        }
        const data: Record<string, unknown> = {};
        flatten(item, "", data, 2, true);
        // A known field's type is settled: inferring it again (a timestamp check per string) was most of an ingest's cost.
        const adding: [string, string][] = [];
        for (const field in data) {
          if (known(field)) continue;
          const type = inferFieldType(data[field]);
          if (type !== undefined) adding.push([field, type]);
        }
        if (adding.length > room) {
          failures.push({ timestamp: sysTime, error: `event ${index}: ${fieldLimitFailure(core, name, adding[room]![0])}` });
          return;
        }
        for (const [field, type] of adding) addField(field, type);
        events.push({ _sysTime: sysTime, _time: timeText, data });
        times.push(timeMs);
        // The parsed event is not needed past here: let it die young rather than be copied by every collection until the write is durable.
        raw[index] = undefined;
      });
      // Fields first: after a crash between the two, a field without events is harmless.
      if (newFields.size > 0) {
        const tx = core.store.tx();
        for (const field of newFields.values()) tx.put("fields", fieldKey(name, field.name), field);
        await tx.commit();
      }
      await core.events.append(dataset.storageKey, events, times);
      return ok({ ingested: events.length, failed: failures.length, failures, processedBytes: ctx.rawBody.length });
    },
  },
];
