// The lifecycle most kinds share: list, get, create, replace (PUT), delete, answered
// with the kind's wire shape. A kind is either organization-scoped (one org capability,
// checked before the lookup, so that a caller without it learns nothing about ids) or
// dataset-scoped (the grant depends on the record's dataset: see authorizedRecord).
import { requireOrgGrant, type Caller } from "../auth";
import { hasAnyDatasetGrant, hasDatasetGrant } from "../capabilities";
import { newId } from "../core";
import { forbidden, notFound } from "../errors";
import type { EmulatorState } from "../model";
import { NO_CONTENT, ok, type RequestContext, type Route } from "../routing";
import type { RecordOf } from "../store";
import type { JsonObject } from "../validate";

/** Collections whose records carry their own `id` (datasets and fields are keyed by name). */
export type IdCollection = "users" | "tokens" | "roles" | "notifiers" | "vfields" | "starredQueries" | "annotations" | "monitors";

// The intersection tells the compiler what IdCollection guarantees for every K.
export type RecordIn<K extends IdCollection> = RecordOf<EmulatorState[K]> & { id: string };

export interface KindSpec<K extends IdCollection> {
  collection: K;
  /** For messages: `notifier "ntf_1" not found`. */
  kind: string;
  /** Collection path, e.g. "/v2/notifiers"; items are `${path}/:id`. */
  path: string;
  /** Prefix of new ids. */
  idPrefix: string;
  /** The org capability key, or the dataset capability key when datasetOf is set. */
  capability: string;
  /** Dataset-scoped kinds: the key the record's grants are looked up under. */
  datasetOf?: (record: RecordIn<K>) => string;
  /** Beyond the capability: whether the caller may see this record (else it answers as missing). */
  readable?: (caller: Caller, record: RecordIn<K>) => boolean;
  /**
   * Writes need only their own action, not read too: tokens, which section 5 of the
   * contract guards by coverage instead (a caller only reaches tokens it covers).
   */
  writeWithoutRead?: boolean;
  toWire(record: RecordIn<K>, ctx: RequestContext): JsonObject;
}

/**
 * The record named by `:id`, after checking that the caller may `action` it. Acting on a
 * record needs the right to read it too (unless the kind says otherwise): a token that
 * may only create or only update learns nothing about records it cannot read, and
 * cannot overwrite them blind. No answer tells a caller that may not act on a record
 * whether its id exists: an org-scoped kind checks its capabilities before the lookup;
 * a dataset-scoped one answers 403 when the caller holds them on no dataset at all, and
 * 404 (as for an unknown id) when it holds them, but not on the record's dataset; a
 * record the kind's `readable` hides answers that 404 too.
 */
export function authorizedRecord<K extends IdCollection>(ctx: RequestContext, spec: KindSpec<K>, action: string): RecordIn<K> {
  const actions = action === "read" || spec.writeWithoutRead ? [action] : [action, "read"];
  for (const a of actions) {
    if (!spec.datasetOf) requireOrgGrant(ctx.caller, spec.capability, a);
    else if (!hasAnyDatasetGrant(ctx.caller.token, spec.capability, a)) {
      throw forbidden(`token lacks capability datasetCapabilities[<any dataset>].${spec.capability}|${a}`);
    }
  }
  const id = ctx.params.id!;
  const record = ctx.core.state[spec.collection].get(id) as RecordIn<K> | undefined;
  const datasetOf = spec.datasetOf;
  const allowed =
    record !== undefined &&
    (!datasetOf || actions.every((a) => hasDatasetGrant(ctx.caller.token, datasetOf(record), spec.capability, a))) &&
    (!spec.readable || spec.readable(ctx.caller, record));
  if (!allowed) throw notFound(spec.kind, id);
  return record;
}

/** GET of the whole collection, for organization-scoped kinds. */
export function listRoute<K extends IdCollection>(spec: KindSpec<K>): Route {
  return {
    method: "GET",
    pattern: spec.path,
    handle: (ctx) => {
      requireOrgGrant(ctx.caller, spec.capability, "read");
      const records = [...ctx.core.state[spec.collection].values()] as RecordIn<K>[];
      return ok(records.filter((r) => !spec.readable || spec.readable(ctx.caller, r)).map((r) => spec.toWire(r, ctx)));
    },
  };
}

export function getRoute<K extends IdCollection>(spec: KindSpec<K>): Route {
  return {
    method: "GET",
    pattern: `${spec.path}/:id`,
    handle: (ctx) => ok(spec.toWire(authorizedRecord(ctx, spec, "read"), ctx)),
  };
}

/**
 * POST of a new record. `build` validates the body; for dataset-scoped kinds it also
 * checks the grant, since the dataset is only known from the body.
 */
export function createRoute<K extends IdCollection>(spec: KindSpec<K>, build: (ctx: RequestContext, id: string) => RecordIn<K> | Promise<RecordIn<K>>): Route {
  return {
    method: "POST",
    pattern: spec.path,
    handle: async (ctx) => {
      if (!spec.datasetOf) requireOrgGrant(ctx.caller, spec.capability, "create");
      const record = await build(ctx, newId(spec.idPrefix));
      await ctx.core.store.tx().put(spec.collection, record.id, record).commit();
      return ok(spec.toWire(record, ctx));
    },
  };
}

/** PUT replacing a record (at `${path}/:id${suffix}`), built from the body and the previous record. */
export function replaceRoute<K extends IdCollection>(
  spec: KindSpec<K>,
  action: string,
  build: (ctx: RequestContext, previous: RecordIn<K>) => RecordIn<K> | Promise<RecordIn<K>>,
  suffix = "",
): Route {
  return {
    method: "PUT",
    pattern: `${spec.path}/:id${suffix}`,
    handle: async (ctx) => {
      const record = await build(ctx, authorizedRecord(ctx, spec, action));
      await ctx.core.store.tx().put(spec.collection, record.id, record).commit();
      return ok(spec.toWire(record, ctx));
    },
  };
}

export function deleteRoute<K extends IdCollection>(spec: KindSpec<K>, action = "delete", check?: (ctx: RequestContext, record: RecordIn<K>) => void): Route {
  return {
    method: "DELETE",
    pattern: `${spec.path}/:id`,
    handle: async (ctx) => {
      const record = authorizedRecord(ctx, spec, action);
      check?.(ctx, record);
      await ctx.core.store.tx().delete(spec.collection, record.id).commit();
      return NO_CONTENT;
    },
  };
}
