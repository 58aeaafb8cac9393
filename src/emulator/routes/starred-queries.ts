// Starred (saved) queries (`/v2/apl-starred-queries`). Access follows the query's
// dataset: datasetCapabilities[<dataset>].starredQueries|<action>, or that grant under
// "*" (the org-wide grant). A query without a dataset needs the "*" grant. Changing or
// deleting one needs `read` on its dataset too (crud.ts). `who` names its owner: the
// groups "team" and "all", or a user the writer may name (user-references.ts).
import { requireDatasetGrant, type Caller } from "../auth";
import { hasAnyDatasetGrant, hasDatasetGrant, WILDCARD } from "../capabilities";
import { badRequest, forbidden } from "../errors";
import { requireQueryWindow, windowSeconds } from "../license";
import type { StarredQueryRecord } from "../model";
import { requireQueryReadable } from "../query-routes";
import { ok, type RequestContext, type Route } from "../routing";
import {
  bodyObject,
  isObject,
  optionalBoolean,
  optionalInteger,
  optionalObject,
  optionalString,
  optionalStringArray,
  requiredObject,
  requiredString,
  type JsonObject,
} from "../validate";
import { createRoute, deleteRoute, getRoute, replaceRoute, type KindSpec } from "./crud";
import { mayNameUser, userReferenceRefusal } from "./user-references";

const CAP = "starredQueries";
const QUERY_OPTION_FLAGS = ["disableCache", "disableStats", "disableTrace", "noAggregation", "noFill", "noInterpolation"];
const QUERY_OPTION_INTEGERS = ["maxDataPoints", "maxSeries"];
const QUERY_OPTION_STRINGS = ["priority", "resolution"];

function scopeOf(dataset: string): string {
  return dataset === "" ? WILDCARD : dataset;
}

function parseQueryOptions(query: JsonObject): JsonObject {
  const parent = "query.queryOptions";
  const options = optionalObject(query, "queryOptions", "query");
  const out: JsonObject = {};
  for (const key of QUERY_OPTION_FLAGS) {
    const v = optionalBoolean(options, key, parent);
    if (v !== undefined) out[key] = v;
  }
  for (const key of QUERY_OPTION_INTEGERS) {
    const v = optionalInteger(options, key, parent);
    if (v !== undefined) out[key] = v;
  }
  for (const key of QUERY_OPTION_STRINGS) {
    if (options[key] !== undefined && options[key] !== null) out[key] = optionalString(options, key, parent);
  }
  return out;
}

function parseQuery(body: JsonObject): JsonObject {
  const query = requiredObject(body, "query");
  const parent = "query";
  const out: JsonObject = {
    apl: requiredString(query, "apl", parent),
    startTime: optionalString(query, "startTime", parent),
    endTime: optionalString(query, "endTime", parent),
    cursor: optionalString(query, "cursor", parent),
  };
  for (const flag of ["includeCursor", "includeCursorField"]) {
    const v = optionalBoolean(query, flag, parent);
    if (v !== undefined) out[flag] = v;
  }
  const defaultLimit = optionalInteger(query, "defaultLimit", parent);
  if (defaultLimit !== undefined) out.defaultLimit = defaultLimit;
  const order = query.defaultOrder;
  if (order !== undefined && order !== null && !Array.isArray(order)) throw badRequest(`"query.defaultOrder" must be an array of {field, desc}`);
  out.defaultOrder = ((order as unknown[] | undefined | null) ?? []).map((item, i) => {
    const path = `query.defaultOrder[${i}]`;
    if (!isObject(item)) throw badRequest(`"${path}" must be an object {field, desc}`);
    return { field: requiredString(item, "field", path), desc: optionalBoolean(item, "desc", path) ?? false };
  });
  out.libraries = optionalStringArray(query, "libraries", parent);
  out.variables = optionalObject(query, "variables", parent);
  out.queryOptions = parseQueryOptions(query);
  return out;
}

function toWire(q: StarredQueryRecord): JsonObject {
  return { id: q.id, dataset: q.dataset, kind: q.kind, name: q.name, who: q.who, metadata: q.metadata, query: q.query };
}

const STARRED: KindSpec<"starredQueries"> = {
  collection: "starredQueries",
  kind: "starred query",
  path: "/v2/apl-starred-queries",
  idPrefix: "sq",
  capability: CAP,
  datasetOf: (q) => scopeOf(q.dataset),
  toWire,
};

/** `who` values that name a group rather than a user. */
const GROUPS = ["team", "all"];

/** The owner a body names (default: the caller), checked as a user reference. */
function ownerOf(ctx: RequestContext, body: JsonObject, previous?: StarredQueryRecord): string {
  const who = optionalString(body, "who") || ctx.caller.user.id;
  if (GROUPS.includes(who) || mayNameUser(ctx.core, ctx.caller, who, previous?.who)) return who;
  throw userReferenceRefusal(`"who"`, who, GROUPS.map((g) => JSON.stringify(g)).join(", "));
}

/** Validates a create or replace body; the grant is checked once the dataset is known. */
function parseStarredQuery(ctx: RequestContext, id: string, action: string, previous?: StarredQueryRecord): StarredQueryRecord {
  const body = bodyObject(ctx.json());
  const dataset = optionalString(body, "dataset");
  requireDatasetGrant(ctx.caller, scopeOf(dataset), CAP, action);
  return {
    id,
    dataset,
    kind: requiredString(body, "kind"),
    name: requiredString(body, "name"),
    who: ownerOf(ctx, body, previous),
    query: parseQuery(body),
    metadata: requiredObject(body, "metadata"),
  };
}

/** A valid body whose query the caller may run: it names no dataset the caller may not query. */
async function readableStarredQuery(ctx: RequestContext, id: string, action: string, previous?: StarredQueryRecord): Promise<StarredQueryRecord> {
  const record = parseStarredQuery(ctx, id, action, previous);
  requireQueryWindow(ctx.core, windowSeconds(String(record.query.startTime ?? ""), String(record.query.endTime ?? ""), ctx.now), "the starred query's time range");
  await requireQueryReadable(ctx, String(record.query.apl));
  return record;
}

function visibleTo(caller: Caller, q: StarredQueryRecord): boolean {
  return hasDatasetGrant(caller.token, scopeOf(q.dataset), CAP, "read");
}

function queryInteger(ctx: RequestContext, name: string, min: number, max: number, fallback: number): number {
  const raw = ctx.query.get(name);
  if (raw === null || raw === "") return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) throw badRequest(`query parameter "${name}" must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  return value;
}

export const starredQueryRoutes: readonly Route[] = [
  {
    method: "GET",
    pattern: "/v2/apl-starred-queries",
    handle: (ctx) => {
      const limit = queryInteger(ctx, "limit", 1, 1000, 100);
      const offset = queryInteger(ctx, "offset", 0, Number.MAX_SAFE_INTEGER, 0);
      const dataset = ctx.query.get("dataset") ?? "";
      if (dataset !== "") requireDatasetGrant(ctx.caller, dataset, CAP, "read");
      else if (!hasAnyDatasetGrant(ctx.caller.token, CAP, "read")) throw forbidden(`token lacks capability datasetCapabilities[<any dataset>].${CAP}|read`);
      // `who` unset: the caller's own; "all": everyone's; otherwise a user id or "team".
      const who = ctx.query.get("who") || ctx.caller.user.id;
      const matches = [...ctx.core.state.starredQueries.values()].filter(
        (q) => (dataset === "" || q.dataset === dataset) && (who === "all" || q.who === who) && visibleTo(ctx.caller, q),
      );
      return ok(matches.slice(offset, offset + limit).map(toWire));
    },
  },
  getRoute(STARRED),
  createRoute(STARRED, (ctx, id) => readableStarredQuery(ctx, id, "create")),
  replaceRoute(STARRED, "update", (ctx, previous) => readableStarredQuery(ctx, previous.id, "update", previous)),
  deleteRoute(STARRED),
];
