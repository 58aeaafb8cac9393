// Users, the calling user (`/v2/user`) and the organization record (`/v2/orgs`).
// A user's role is written as a built-in role name or a custom role id and read back
// as {id, name}; for built-ins the id is the name.
import type { Caller } from "../auth";
import { hasOrgGrant } from "../capabilities";
import type { EmulatorCore } from "../core";
import { badRequest, conflict, notFound } from "../errors";
import { requireRoomFor } from "../license";
import type { OrgRecord, UserRecord } from "../model";
import { ok, type Route } from "../routing";
import { nowIso } from "../time";
import { bodyObject, checkEmail, isObject, requiredString, type JsonObject } from "../validate";
import { createRoute, deleteRoute, getRoute, listRoute, replaceRoute, type KindSpec } from "./crud";

export const BUILT_IN_ROLES = ["admin", "user", "read-only", "none"];

function checkRole(core: EmulatorCore, role: string): string {
  if (BUILT_IN_ROLES.includes(role) || core.state.roles.has(role)) return role;
  throw badRequest(`"role" must be a built-in role (${BUILT_IN_ROLES.join(", ")}) or the id of a custom role, got ${JSON.stringify(role)}`);
}

/**
 * The role a write names: a role name or id as the contract writes it, or the `{id, name}`
 * a read answers (a client sending back the user it read), of which the id counts.
 */
function roleOf(body: JsonObject): string {
  const role = body.role;
  if (isObject(role) && typeof role.id === "string") return role.id;
  return requiredString(body, "role");
}

export function userToWire(core: EmulatorCore, user: UserRecord): JsonObject {
  // A custom role deleted after assignment still shows its id, with an empty name.
  const name = BUILT_IN_ROLES.includes(user.role) ? user.role : (core.state.roles.get(user.role)?.name ?? "");
  return { id: user.id, email: user.email, name: user.name, role: { id: user.role, name } };
}

function orgToWire(org: OrgRecord): JsonObject {
  return { ...org, license: { ...org.license } };
}

/** E-mails are unique, so that one is taken is said; the user's id only to who may read users. */
function checkUniqueEmail(core: EmulatorCore, caller: Caller, email: string): void {
  const other = core.usersWithEmail(email)[0];
  const id = other && hasOrgGrant(caller.token, "users", "read") ? ` (id ${other.id})` : "";
  if (other) throw conflict(`a user with e-mail ${JSON.stringify(email)} already exists${id}`);
}

const USERS: KindSpec<"users"> = {
  collection: "users",
  kind: "user",
  path: "/v2/users",
  idPrefix: "usr",
  capability: "users",
  toWire: (user, ctx) => userToWire(ctx.core, user),
};

export const userRoutes: readonly Route[] = [
  listRoute(USERS),
  getRoute(USERS),
  createRoute(USERS, (ctx, id) => {
    const body = bodyObject(ctx.json());
    const email = checkEmail(requiredString(body, "email"), "email");
    const user: UserRecord = {
      id,
      email,
      name: requiredString(body, "name"),
      role: checkRole(ctx.core, requiredString(body, "role")),
      created: nowIso(ctx.now),
    };
    checkUniqueEmail(ctx.core, ctx.caller, email);
    requireRoomFor(ctx.core, "maxUsers", "users");
    return user;
  }),
  replaceRoute(USERS, "update", (ctx, previous) => ({ ...previous, role: checkRole(ctx.core, roleOf(bodyObject(ctx.json()))) }), "/role"),
  deleteRoute(USERS, "delete", (ctx, user) => {
    // Deleting oneself would leave the calling token without a user.
    if (user.id === ctx.caller.user.id) throw badRequest("cannot delete the calling user");
  }),
  {
    method: "GET",
    pattern: "/v2/user",
    handle: (ctx) => ok(userToWire(ctx.core, ctx.caller.user)),
  },
  {
    method: "PUT",
    pattern: "/v2/user",
    handle: async (ctx) => {
      const body = bodyObject(ctx.json());
      const user: UserRecord = { ...ctx.caller.user, name: requiredString(body, "name") };
      await ctx.core.store.tx().put("users", user.id, user).commit();
      return ok(userToWire(ctx.core, user));
    },
  },
  {
    method: "GET",
    pattern: "/v2/orgs",
    handle: (ctx) => ok([orgToWire(ctx.core.org)]),
  },
  {
    method: "GET",
    pattern: "/v2/orgs/:id",
    handle: (ctx) => {
      if (ctx.params.id !== ctx.core.orgId) throw notFound("organization", ctx.params.id!);
      return ok(orgToWire(ctx.core.org));
    },
  },
];
