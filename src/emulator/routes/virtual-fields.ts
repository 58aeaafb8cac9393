// Virtual fields (`/v2/vfields`): computed fields of one dataset, named uniquely within
// it. Access is per dataset: datasetCapabilities[<dataset>].virtualFields|<action>, or
// the same grant under the "*" key, which is the org-wide grant.
import { requireDatasetGrant, type Caller } from "../auth";
import { hasAnyDatasetGrant, hasDatasetGrant } from "../capabilities";
import { newId } from "../core";
import { conflict, forbidden, notFound } from "../errors";
import type { VirtualFieldRecord } from "../model";
import { NO_CONTENT, ok, type RequestContext, type Route } from "../routing";
import { bodyObject, optionalString, requiredString, type JsonObject } from "../validate";

const CAP = "virtualFields";

function toWire(v: VirtualFieldRecord): JsonObject {
  return { id: v.id, dataset: v.dataset, name: v.name, description: v.description, expression: v.expression, type: v.type, unit: v.unit };
}

function existing(ctx: RequestContext): VirtualFieldRecord {
  const vfield = ctx.core.state.vfields.get(ctx.params.id!);
  if (!vfield) throw notFound("virtual field", ctx.params.id!);
  return vfield;
}

/**
 * Validates a create or replace body. Order: the dataset name (to know which grant
 * applies), the grant (403 before any other detail leaks), the other fields, the
 * dataset's existence (404), the name's uniqueness (409).
 */
function parseVirtualField(ctx: RequestContext, id: string, action: string): VirtualFieldRecord {
  const body = bodyObject(ctx.json());
  const dataset = requiredString(body, "dataset");
  requireDatasetGrant(ctx.caller, dataset, CAP, action);
  const vfield: VirtualFieldRecord = {
    id,
    dataset,
    name: requiredString(body, "name"),
    description: optionalString(body, "description"),
    expression: requiredString(body, "expression"),
    type: optionalString(body, "type"),
    unit: optionalString(body, "unit"),
  };
  ctx.core.dataset(dataset);
  for (const other of ctx.core.virtualFieldsOf(dataset)) {
    if (other.name === vfield.name && other.id !== id) {
      throw conflict(`virtual field "${vfield.name}" already exists in dataset "${dataset}" (id ${other.id})`);
    }
  }
  return vfield;
}

function visibleTo(caller: Caller, v: VirtualFieldRecord): boolean {
  return hasDatasetGrant(caller.token, v.dataset, CAP, "read");
}

export const virtualFieldRoutes: readonly Route[] = [
  {
    method: "GET",
    pattern: "/v2/vfields",
    handle: (ctx) => {
      const dataset = ctx.query.get("dataset");
      if (dataset !== null && dataset !== "") {
        requireDatasetGrant(ctx.caller, dataset, CAP, "read");
        ctx.core.dataset(dataset);
        return ok(ctx.core.virtualFieldsOf(dataset).map(toWire));
      }
      // Without ?dataset: every virtual field the caller may read.
      if (!hasAnyDatasetGrant(ctx.caller.token, CAP, "read")) {
        throw forbidden(`token lacks capability datasetCapabilities[<any dataset>].${CAP}|read`);
      }
      return ok([...ctx.core.state.vfields.values()].filter((v) => visibleTo(ctx.caller, v)).map(toWire));
    },
  },
  {
    method: "GET",
    pattern: "/v2/vfields/:id",
    handle: (ctx) => {
      const vfield = existing(ctx);
      requireDatasetGrant(ctx.caller, vfield.dataset, CAP, "read");
      return ok(toWire(vfield));
    },
  },
  {
    method: "POST",
    pattern: "/v2/vfields",
    handle: async (ctx) => {
      const vfield = parseVirtualField(ctx, newId("vfd"), "create");
      await ctx.core.store.tx().put("vfields", vfield.id, vfield).commit();
      return ok(toWire(vfield));
    },
  },
  {
    method: "PUT",
    pattern: "/v2/vfields/:id",
    handle: async (ctx) => {
      const previous = existing(ctx);
      requireDatasetGrant(ctx.caller, previous.dataset, CAP, "update");
      const vfield = parseVirtualField(ctx, previous.id, "update");
      await ctx.core.store.tx().put("vfields", vfield.id, vfield).commit();
      return ok(toWire(vfield));
    },
  },
  {
    method: "DELETE",
    pattern: "/v2/vfields/:id",
    handle: async (ctx) => {
      const vfield = existing(ctx);
      requireDatasetGrant(ctx.caller, vfield.dataset, CAP, "delete");
      await ctx.core.store.tx().delete("vfields", vfield.id).commit();
      return NO_CONTENT;
    },
  },
];
