// ods_user: a member of the organization. The service has no way to rename another
// user, so a changed name or e-mail replaces the user; the role is changed in place.
import { str } from "./attributes";
import { email, nonEmpty } from "./checks";
import type { ResourceKind } from "./kind";
import { userApi } from "./api-binding";

/** Roles every organization has; a user's role is one of these or a custom role's id. */
export const BUILT_IN_ROLES = ["admin", "user", "read-only", "none"] as const;

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
  changeStrategy: "update",
  creation: "create",
  deletion: "delete",
  importIdFormat: "the user id",
  api: userApi,
};
