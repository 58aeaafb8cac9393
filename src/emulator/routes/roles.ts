// Roles (`/v2/rbac/roles`): a name, capabilities and member user ids. As the contract
// says, changing or deleting a role needs `rbac|create`, not update/delete.
import { requireOrgGrant } from "../auth";
import { parseCapabilities } from "../capabilities";
import { newId } from "../core";
import { notFound } from "../errors";
import type { RoleRecord } from "../model";
import { NO_CONTENT, ok, type RequestContext, type Route } from "../routing";
import { bodyObject, optionalString, optionalStringArray, requiredString, type JsonObject } from "../validate";

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

function existing(ctx: RequestContext): RoleRecord {
  const role = ctx.core.state.roles.get(ctx.params.id!);
  if (!role) throw notFound("role", ctx.params.id!);
  return role;
}

export const roleRoutes: readonly Route[] = [
  {
    method: "GET",
    pattern: "/v2/rbac/roles",
    handle: (ctx) => {
      requireOrgGrant(ctx.caller, "rbac", "read");
      return ok([...ctx.core.state.roles.values()].map(toWire));
    },
  },
  {
    method: "GET",
    pattern: "/v2/rbac/roles/:id",
    handle: (ctx) => {
      requireOrgGrant(ctx.caller, "rbac", "read");
      return ok(toWire(existing(ctx)));
    },
  },
  {
    method: "POST",
    pattern: "/v2/rbac/roles",
    handle: async (ctx) => {
      requireOrgGrant(ctx.caller, "rbac", "create");
      const role = parseRole(newId("rol"), bodyObject(ctx.json()));
      await ctx.core.store.tx().put("roles", role.id, role).commit();
      return ok(toWire(role));
    },
  },
  {
    method: "PUT",
    pattern: "/v2/rbac/roles/:id",
    handle: async (ctx) => {
      requireOrgGrant(ctx.caller, "rbac", "create");
      const previous = existing(ctx);
      const role = parseRole(previous.id, bodyObject(ctx.json()));
      await ctx.core.store.tx().put("roles", role.id, role).commit();
      return ok(toWire(role));
    },
  },
  {
    method: "DELETE",
    pattern: "/v2/rbac/roles/:id",
    handle: async (ctx) => {
      requireOrgGrant(ctx.caller, "rbac", "create");
      const role = existing(ctx);
      await ctx.core.store.tx().delete("roles", role.id).commit();
      return NO_CONTENT;
    },
  },
];
