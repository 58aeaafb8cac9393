// Dashboards (`/v2/dashboards`), keyed by uid. Every write carries the version it was
// based on; a write based on an older version is refused (412), and a create naming a
// uid that exists is refused (409), unless the write says `overwrite`. Both refusals
// answer {code, message, reason, uid, currentVersion}, so that a client can tell whose
// change it would overwrite; but only to a caller that may read the dashboard. Changing
// or deleting one, by PUT or by a create that overwrites, needs `dashboards|read` as well
// as `update` (`delete`): a token that may only create dashboards overwrites none and
// learns no version or author.
import { requireOrgGrant } from "../auth";
import { hasOrgGrant } from "../capabilities";
import { newId } from "../core";
import { badRequest, notFound } from "../errors";
import type { DashboardRecord } from "../model";
import { NO_CONTENT, ok, type Answer, type RequestContext, type Route } from "../routing";
import { nowIso } from "../time";
import { bodyObject, isObject, optionalBoolean, optionalInteger, optionalString, type JsonObject } from "../validate";
import { checkDocument, EVERYONE, storedDocument, UID } from "./dashboard-document";
import { mayNameUser, userReferenceRefusal } from "./user-references";

const CAP = "dashboards";
const PATH = "/v2/dashboards";

function toWire(d: DashboardRecord): JsonObject {
  return { id: d.id, uid: d.uid, version: d.version, createdAt: d.createdAt, createdBy: d.createdBy, updatedAt: d.updatedAt, updatedBy: d.updatedBy, dashboard: d.dashboard };
}

function refusal(status: 409 | 412, reason: string, message: string, current: DashboardRecord): Answer {
  return { status, body: { code: status, message, reason, uid: current.uid, currentVersion: current.version } };
}

/**
 * A create naming a uid that a caller who may not read dashboards cannot have seen: uids
 * are one namespace, so that the uid is taken is said (as a dataset name's is), and
 * nothing else about the dashboard: no version, no author, no time.
 */
function takenUnseen(uid: string): Answer {
  return { status: 409, body: { code: 409, message: `uid ${JSON.stringify(uid)} is taken; choose another uid`, reason: "uid-taken", uid } };
}

interface WriteEnvelope {
  document: JsonObject;
  uid?: string;
  version?: number;
  overwrite: boolean;
}

/** The uid a write names, in the envelope or in its document; undefined when neither does. */
function explicitUid(ctx: RequestContext): string | undefined {
  const body = bodyObject(ctx.json());
  const doc = body.dashboard;
  // A malformed document uid is left to checkDocument, which names it as the document's.
  const fromDocument = isObject(doc) && typeof doc.uid === "string" && UID.test(doc.uid) ? doc.uid : "";
  const uid = optionalString(body, "uid") || fromDocument || undefined;
  if (uid !== undefined && !UID.test(uid)) throw badRequest(`"uid" must match ${UID.source}, got ${JSON.stringify(uid)}`);
  return uid;
}

/** `previous`: the dashboard the write replaces, whose owner may be sent back as it is. */
function parseEnvelope(ctx: RequestContext, previous?: DashboardRecord): WriteEnvelope {
  const uid = explicitUid(ctx);
  const body = bodyObject(ctx.json());
  const document = checkDocument(body.dashboard);
  const owner = String(document.owner);
  const kept = previous === undefined ? undefined : String(previous.dashboard.owner);
  if (owner.toLowerCase() !== EVERYONE.toLowerCase() && !mayNameUser(ctx.core, ctx.caller, owner, kept)) {
    throw userReferenceRefusal(`dashboard."owner"`, owner, `"${EVERYONE}"`);
  }
  optionalString(body, "message");
  return { document, uid, version: optionalInteger(body, "version"), overwrite: optionalBoolean(body, "overwrite") ?? false };
}

/** Writes a new version of `uid` (or its first one) and answers the write envelope. */
async function write(ctx: RequestContext, uid: string, document: JsonObject, previous: DashboardRecord | undefined, overwritten: boolean): Promise<Answer> {
  const now = nowIso(ctx.now);
  const id = previous?.id ?? newId("dsh");
  const version = (previous?.version ?? 0) + 1;
  const record: DashboardRecord = {
    id,
    uid,
    version,
    createdAt: previous?.createdAt ?? now,
    createdBy: previous?.createdBy ?? ctx.caller.user.id,
    updatedAt: now,
    updatedBy: ctx.caller.user.id,
    dashboard: storedDocument(document, { id, uid, version }),
  };
  await ctx.core.store.tx().put("dashboards", uid, record).commit();
  return ok({ status: previous ? "updated" : "created", overwritten, dashboard: toWire(record) });
}

function queryInteger(ctx: RequestContext, name: string, min: number, max: number, fallback: number): number {
  const raw = ctx.query.get(name);
  if (raw === null || raw === "") return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) throw badRequest(`query parameter "${name}" must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  return Number(raw);
}

/** The dashboard at `:uid`; any action on it needs `read` too (checked before the lookup). */
function authorized(ctx: RequestContext, action: string): DashboardRecord {
  requireOrgGrant(ctx.caller, CAP, action);
  if (action !== "read") requireOrgGrant(ctx.caller, CAP, "read");
  const uid = ctx.params.uid!;
  const record = ctx.core.state.dashboards.get(uid);
  if (!record) throw notFound("dashboard", uid);
  return record;
}

export const dashboardRoutes: readonly Route[] = [
  {
    method: "GET",
    pattern: PATH,
    handle: (ctx) => {
      requireOrgGrant(ctx.caller, CAP, "read");
      const limit = queryInteger(ctx, "limit", 1, 1000, 100);
      const offset = queryInteger(ctx, "offset", 0, Number.MAX_SAFE_INTEGER, 0);
      const all = [...ctx.core.state.dashboards.values()].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.uid.localeCompare(b.uid));
      return ok(all.slice(offset, offset + limit).map(toWire));
    },
  },
  {
    method: "POST",
    pattern: PATH,
    handle: (ctx) => {
      requireOrgGrant(ctx.caller, CAP, "create");
      const uid = explicitUid(ctx) ?? newId("dash").replace("_", "-");
      const taken = ctx.core.state.dashboards.get(uid);
      // Before the owner check, which accepts the taken dashboard's owner and so would tell it.
      if (taken && !hasOrgGrant(ctx.caller.token, CAP, "read")) return takenUnseen(uid);
      const envelope = parseEnvelope(ctx, taken);
      if (taken && !envelope.overwrite) {
        return refusal(409, "uid-taken", `a dashboard with uid ${JSON.stringify(uid)} exists (version ${taken.version}, changed by ${taken.updatedBy} at ${taken.updatedAt}); send overwrite: true to replace it`, taken);
      }
      // Overwriting is changing the dashboard: the update capability, as for a PUT.
      if (taken) requireOrgGrant(ctx.caller, CAP, "update");
      return write(ctx, uid, envelope.document, taken, taken !== undefined);
    },
  },
  {
    method: "GET",
    pattern: `${PATH}/uid/:uid`,
    handle: (ctx) => ok(toWire(authorized(ctx, "read"))),
  },
  {
    method: "PUT",
    pattern: `${PATH}/uid/:uid`,
    handle: (ctx) => {
      const current = authorized(ctx, "update");
      const envelope = parseEnvelope(ctx, current);
      if (envelope.uid !== undefined && envelope.uid !== current.uid) throw badRequest(`"uid" ${JSON.stringify(envelope.uid)} differs from the dashboard's uid ${JSON.stringify(current.uid)}`);
      // A write without a version asks for no check (adopted: the contract only speaks of a version that is not the current one).
      const stale = envelope.version !== undefined && envelope.version !== current.version;
      if (stale && !envelope.overwrite) {
        return refusal(412, "version-mismatch", `dashboard ${JSON.stringify(current.uid)} is at version ${current.version}, not ${envelope.version} (changed by ${current.updatedBy} at ${current.updatedAt}); send overwrite: true to replace it`, current);
      }
      return write(ctx, current.uid, envelope.document, current, stale);
    },
  },
  {
    method: "DELETE",
    pattern: `${PATH}/uid/:uid`,
    handle: async (ctx) => {
      const record = authorized(ctx, "delete");
      await ctx.core.store.tx().delete("dashboards", record.uid).commit();
      return NO_CONTENT;
    },
  },
];
