// Virtual fields (`/v2/vfields`): computed fields of one dataset, named uniquely within
// it. Access is per dataset: datasetCapabilities[<dataset>].virtualFields|<action>, or
// the same grant under the "*" key, which is the org-wide grant.
import { requireDatasetGrant, type Caller } from "../auth";
import { hasAnyDatasetGrant, hasDatasetGrant } from "../capabilities";
import { conflict, forbidden } from "../errors";
import { requireFieldRoom } from "../license";
import type { VirtualFieldRecord } from "../model";
import { ok, type RequestContext, type Route } from "../routing";
import { bodyObject, optionalString, requiredString, type JsonObject } from "../validate";
import { createRoute, deleteRoute, getRoute, replaceRoute, type KindSpec } from "./crud";

const CAP = "virtualFields";

function toWire(v: VirtualFieldRecord): JsonObject {
  return { id: v.id, dataset: v.dataset, name: v.name, description: v.description, expression: v.expression, type: v.type, unit: v.unit };
}

const VFIELDS: KindSpec<"vfields"> = {
  collection: "vfields",
  kind: "virtual field",
  path: "/v2/vfields",
  idPrefix: "vfd",
  capability: CAP,
  datasetOf: (v) => v.dataset,
  toWire,
};

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
      const id = visibleTo(ctx.caller, other) ? ` (id ${other.id})` : "";
      throw conflict(`virtual field "${vfield.name}" already exists in dataset "${dataset}"${id}`);
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
        // A dataset that does not exist (yet) has no virtual fields: [] rather than 404,
        // so that a plan can list what a stack is about to create.
        return ok(ctx.core.virtualFieldsOf(dataset).map(toWire));
      }
      // Without ?dataset: every virtual field the caller may read.
      if (!hasAnyDatasetGrant(ctx.caller.token, CAP, "read")) {
        throw forbidden(`token lacks capability datasetCapabilities[<any dataset>].${CAP}|read`);
      }
      return ok([...ctx.core.state.vfields.values()].filter((v) => visibleTo(ctx.caller, v)).map(toWire));
    },
  },
  getRoute(VFIELDS),
  createRoute(VFIELDS, (ctx, id) => {
    const vfield = parseVirtualField(ctx, id, "create");
    requireFieldRoom(ctx.core, vfield.dataset);
    return vfield;
  }),
  replaceRoute(VFIELDS, "update", (ctx, previous) => parseVirtualField(ctx, previous.id, "update")),
  deleteRoute(VFIELDS),
];
