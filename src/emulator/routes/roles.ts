// Roles (`/v2/rbac/roles`): a name, capabilities and member user ids. As the contract
// says, changing or deleting a role needs `rbac|create`, not update/delete.
import { parseCapabilities } from "../capabilities";
import type { RoleRecord } from "../model";
import type { Route } from "../routing";
import { bodyObject, optionalString, optionalStringArray, requiredString, type JsonObject } from "../validate";
import { createRoute, deleteRoute, getRoute, listRoute, replaceRoute, type KindSpec } from "./crud";

function parseRole(id: string, body: JsonObject): RoleRecord {
  return {
    id,
    name: requiredString(body, "name"),
    description: optionalString(body, "description"),
    // A set of user ids: answered sorted and without repeats.
    members: [...new Set(optionalStringArray(body, "members"))].sort(),
    ...parseCapabilities(body),
  };
}

function toWire(role: RoleRecord): JsonObject {
  return {
    id: role.id,
    name: role.name,
    description: role.description,
    members: role.members,
    orgCapabilities: role.orgCapabilities,
    datasetCapabilities: role.datasetCapabilities,
    viewCapabilities: role.viewCapabilities,
  };
}

const ROLES: KindSpec<"roles"> = {
  collection: "roles",
  kind: "role",
  path: "/v2/rbac/roles",
  idPrefix: "rol",
  capability: "rbac",
  toWire,
};

export const roleRoutes: readonly Route[] = [
  listRoute(ROLES),
  getRoute(ROLES),
  createRoute(ROLES, (ctx, id) => parseRole(id, bodyObject(ctx.json()))),
  replaceRoute(ROLES, "create", (ctx, previous) => parseRole(previous.id, bodyObject(ctx.json()))),
  deleteRoute(ROLES, "create"),
];
