// The lifecycle most kinds share: list, get, create, replace (PUT), delete, answered
// with the kind's wire shape. A kind is either organization-scoped (one org capability,
// checked before the lookup, so that a caller without it learns nothing about ids) or
// dataset-scoped (the grant depends on the record's dataset: see authorizedRecord).
import { requireOrgGrant } from "../auth";
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
  toWire(record: RecordIn<K>, ctx: RequestContext): JsonObject;
}

/**
 * The record named by `:id`, after checking that the caller may `action` it. No answer
 * tells a caller that may not act on a record whether its id exists: an org-scoped
 * kind checks the capability before the lookup; a dataset-scoped one answers 403 when
 * the caller holds the capability on no dataset at all, and 404 (as for an unknown id)
 * when it holds it, but not on the record's dataset.
 */
export function authorizedRecord<K extends IdCollection>(ctx: RequestContext, spec: KindSpec<K>, action: string): RecordIn<K> {
  if (!spec.datasetOf) requireOrgGrant(ctx.caller, spec.capability, action);
  else if (!hasAnyDatasetGrant(ctx.caller.token, spec.capability, action)) {
    throw forbidden(`token lacks capability datasetCapabilities[<any dataset>].${spec.capability}|${action}`);
  }
  const id = ctx.params.id!;
  const record = ctx.core.state[spec.collection].get(id) as RecordIn<K> | undefined;
  if (!record || (spec.datasetOf && !hasDatasetGrant(ctx.caller.token, spec.datasetOf(record), spec.capability, action))) throw notFound(spec.kind, id);
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
      return ok(records.map((r) => spec.toWire(r, ctx)));
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
