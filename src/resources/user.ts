// ods_user: a member of the organization. The service has no way to rename another
// user, so a changed name or e-mail replaces the user; the role is changed in place.
import { str } from "./attributes";
import { email, nonEmpty } from "./checks";
import type { ResourceKind } from "./kind";
import { userApi } from "./api-binding";

export const user: ResourceKind = {
  typeName: "ods_user",
  description: "A user of the organization and their role.",
  schemaVersion: 0,
  attributes: {
    id: str("Assigned by the service.", { computed: true }),
    email: str("E-mail address; unique.", { required: true, checks: [email], forcesReplacement: true }),
    name: str("Full name.", { required: true, checks: [nonEmpty], forcesReplacement: true }),
    role: str("A built-in role name (admin, user, read-only, none) or a role id.", { required: true, checks: [nonEmpty] }),
  },
  naturalKey: ["email"],
  changeStrategy: "update",
  creation: "create",
  deletion: "delete",
  importIdFormat: "the user id",
  api: userApi,
};
