// Datasets and their field metadata. A dataset's id is its name, as in the production
// service, so `{dataset_id}` paths take the name; a field's id is its (dotted) name.
// Fields are not created here but by ingest (see ingest.ts); here their metadata changes.
// Changing or deleting a dataset, or changing a field, needs datasets|read as well, as
// every write on an existing object needs the right to read it.
import { randomBytes } from "node:crypto";
import { requireOrgGrant } from "../auth";
import { hasAnyGrantOn, hasOrgGrant } from "../capabilities";
import { badRequest, conflict, notFound } from "../errors";
import { requireRoomFor } from "../license";
import { fieldKey, type DatasetRecord, type FieldRecord } from "../model";
import { NO_CONTENT, ok, type RequestContext, type Route } from "../routing";
import { nowIso } from "../time";
import { DATASET_NAME_RULE, bodyObject, isDatasetName, optionalBoolean, optionalString, requiredString, type JsonObject } from "../validate";

function toWire(d: DatasetRecord): JsonObject {
  return { id: d.name, name: d.name, description: d.description, created: d.created, who: d.who };
}

function fieldToWire(f: FieldRecord): JsonObject {
  return { name: f.name, description: f.description, type: f.type, unit: f.unit, hidden: f.hidden };
}

function existingField(ctx: RequestContext): FieldRecord {
  const dataset = ctx.core.dataset(ctx.params.id!);
  const field = ctx.core.state.fields.get(fieldKey(dataset.name, ctx.params.field!));
  if (!field) throw notFound("field", `${dataset.name}/${ctx.params.field!}`);
  return field;
}

export const datasetRoutes: readonly Route[] = [
  {
    method: "GET",
    pattern: "/v2/datasets",
    // Any valid token may list datasets (docs/service-contract.md, section 3), but sees
    // all of them only with datasets|read; otherwise those it holds a grant on, so that
    // the names of the others stay unknown to it (as they do to every other answer).
    handle: (ctx) => {
      const all = hasOrgGrant(ctx.caller.token, "datasets", "read");
      return ok([...ctx.core.state.datasets.values()].filter((d) => all || hasAnyGrantOn(ctx.caller.token, d.name)).map(toWire));
    },
  },
  {
    method: "GET",
    pattern: "/v2/datasets/:id",
    handle: (ctx) => {
      requireOrgGrant(ctx.caller, "datasets", "read");
      return ok(toWire(ctx.core.dataset(ctx.params.id!)));
    },
  },
  {
    method: "POST",
    pattern: "/v2/datasets",
    handle: async (ctx) => {
      requireOrgGrant(ctx.caller, "datasets", "create");
      const body = bodyObject(ctx.json());
      const name = requiredString(body, "name");
      if (!isDatasetName(name)) {
        throw badRequest(`"name" must be ${DATASET_NAME_RULE}, got ${JSON.stringify(name)}`);
      }
      if (ctx.core.state.datasets.has(name)) throw conflict(`dataset "${name}" already exists`);
      requireRoomFor(ctx.core, "maxDatasets", "datasets");
      const dataset: DatasetRecord = {
        name,
        description: optionalString(body, "description"),
        created: nowIso(ctx.now),
        who: ctx.caller.user.id,
        storageKey: `${Date.now().toString(36)}-${randomBytes(6).toString("hex")}`,
      };
      await ctx.core.store.tx().put("datasets", name, dataset).commit();
      return ok(toWire(dataset));
    },
  },
  {
    method: "PUT",
    pattern: "/v2/datasets/:id",
    handle: async (ctx) => {
      requireOrgGrant(ctx.caller, "datasets", "update");
      requireOrgGrant(ctx.caller, "datasets", "read");
      const previous = ctx.core.dataset(ctx.params.id!);
      const body = bodyObject(ctx.json());
      const dataset: DatasetRecord = { ...previous, description: optionalString(body, "description") };
      await ctx.core.store.tx().put("datasets", dataset.name, dataset).commit();
      return ok(toWire(dataset));
    },
  },
  {
    method: "DELETE",
    pattern: "/v2/datasets/:id",
    handle: async (ctx) => {
      requireOrgGrant(ctx.caller, "datasets", "delete");
      requireOrgGrant(ctx.caller, "datasets", "read");
      const { core } = ctx;
      const dataset = core.dataset(ctx.params.id!);
      // Everything that only exists inside the dataset goes with it; starred queries
      // are the user's and stay.
      const tx = core.store.tx().delete("datasets", dataset.name);
      for (const field of core.fieldsOf(dataset.name)) tx.delete("fields", fieldKey(dataset.name, field.name));
      for (const vfield of core.virtualFieldsOf(dataset.name)) tx.delete("vfields", vfield.id);
      for (const run of [...core.state.queryHistory.values()]) if (run.dataset === dataset.name) tx.delete("queryHistory", run.id);
      await tx.commit();
      await core.events.drop(dataset.storageKey);
      return NO_CONTENT;
    },
  },
  {
    method: "GET",
    pattern: "/v2/datasets/:id/fields",
    handle: (ctx) => {
      requireOrgGrant(ctx.caller, "datasets", "read");
      const dataset = ctx.core.dataset(ctx.params.id!);
      return ok(ctx.core.fieldsOf(dataset.name).map(fieldToWire));
    },
  },
  {
    method: "GET",
    pattern: "/v2/datasets/:id/fields/:field",
    handle: (ctx) => {
      requireOrgGrant(ctx.caller, "datasets", "read");
      return ok(fieldToWire(existingField(ctx)));
    },
  },
  {
    method: "PUT",
    pattern: "/v2/datasets/:id/fields/:field",
    handle: async (ctx) => {
      requireOrgGrant(ctx.caller, "datasets", "update");
      requireOrgGrant(ctx.caller, "datasets", "read");
      const previous = existingField(ctx);
      const body = bodyObject(ctx.json());
      const name = optionalString(body, "name");
      if (name !== "" && name !== previous.name) throw badRequest(`"name" cannot change (field "${previous.name}"): fields are named by ingested events`);
      const type = optionalString(body, "type");
      if (type !== "" && type !== previous.type) {
        throw badRequest(`"type" cannot change from "${previous.type}" to "${type}": a field's type comes from its events`);
      }
      const field: FieldRecord = {
        ...previous,
        description: optionalString(body, "description"),
        unit: optionalString(body, "unit"),
        hidden: optionalBoolean(body, "hidden") ?? false,
      };
      await ctx.core.store.tx().put("fields", fieldKey(field.dataset, field.name), field).commit();
      return ok(fieldToWire(field));
    },
  },
];
