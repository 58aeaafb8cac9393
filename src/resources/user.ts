// ods_user: a member of the organization. The service has no way to rename another
// user, so a changed name or e-mail replaces the user; the role is changed in place.
import { str } from "./attributes";
import { email, nonEmpty } from "./checks";
import type { ResourceApi } from "./api-binding";
import type { PlanCheck, ResourceKind } from "./kind";
import type { UserInput } from "../api";
import { organizationApi, wireShape } from "./api-binding";

const userApi: ResourceApi = {
  ...organizationApi({
    list: (c) => c.listUsers(),
    read: (c, id) => c.getUser(id),
    create: (c, body) => c.createUser(body),
    // Only the role can change in place: the service has no way to rename another user.
    update: (c, id, body) => c.updateUserRole(id, { role: body.role }),
    remove: (c, id) => c.deleteUser(id),
  }, { create: wireShape<UserInput>("user", { email: true, name: true, role: true }) }),
  // The role is written as a name or an id and read back as {id, name}: show it in the
  // form the user declared, so that a role given by name does not diff against its id.
  normalizeLive: (live, declared) => {
    const role = live.role as { id?: string; name?: string } | undefined;
    if (!role || typeof role !== "object") return live;
    const declaredRole = declared?.role;
    const shown = declaredRole !== undefined && declaredRole === role.name ? role.name : role.id;
    return { ...live, role: shown };
  },
};

/** The roles every organization has (docs/service-contract.md, Users). */
export const BUILT_IN_ROLES = ["admin", "user", "read-only", "none"] as const;

/**
 * The service takes a built-in role name or the id of a custom role, and refuses others
 * after whatever was written before: a role that is neither is refused at plan. Whether
 * a role id exists is only known live.
 */
const roleExists: PlanCheck = {
  title: "Unknown role",
  checks: "the role exists (a built-in role or a custom role of the organization)",
  needs: ["role"],
  answerDependsOnlyOnValues: false,
  check: async (client, values) => {
    const role = values.role;
    if (typeof role !== "string" || (BUILT_IN_ROLES as readonly string[]).includes(role)) return undefined;
    const roles = await client.listRoles();
    if (roles.some((r) => r.id === role)) return undefined;
    const byName = roles.find((r) => r.name === role);
    const hint = byName ? `; the custom role named "${role}" has the id "${byName.id}" (reference ods_role.<name>.id)` : "";
    return { attribute: "role", message: `expected a built-in role (${BUILT_IN_ROLES.join(", ")}) or the id of an existing custom role, got "${role}"${hint}` };
  },
};

export const user: ResourceKind = {
  typeName: "ods_user",
  description: "A user of the organization and their role.",
  schemaVersion: 0,
  attributes: {
    id: str("Assigned by the service.", { computed: true }),
    email: str("E-mail address; unique.", { required: true, checks: [email], forcesReplacement: true }),
    name: str("Full name.", { required: true, checks: [nonEmpty], forcesReplacement: true }),
    role: str("A built-in role name (admin, user, read-only, none) or a role id.", {
      required: true,
      checks: [nonEmpty],
      refersTo: { typeName: "ods_role", attribute: "id", except: BUILT_IN_ROLES },
    }),
  },
  naturalKey: ["email"],
  planCheck: roleExists,
  license: { counts: "maxUsers" },
  creation: "create",
  deletion: "delete",
  importIdFormat: "the user id",
  api: userApi,
};
