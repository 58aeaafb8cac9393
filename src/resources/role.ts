// ods_role: a named set of capabilities with members.
import { listOf, str } from "./attributes";
import { capabilityAttributes } from "./capabilities";
import { nonEmpty } from "./checks";
import type { ResourceKind } from "./kind";
import type { RoleInput } from "../api";
import { organizationApi, wireShape } from "./api-binding";

export const role: ResourceKind = {
  typeName: "ods_role",
  description: "A role: capabilities granted to its members.",
  schemaVersion: 0,
  attributes: {
    id: str("Assigned by the service.", { computed: true }),
    name: str("Unique name of the role.", { required: true, checks: [nonEmpty] }),
    description: str("What the role is for.", { optional: true, serverDefault: "" }),
    members: listOf("string", "User ids of the members.", {
      optional: true,
      unordered: true,
      serverDefault: [],
      refersTo: { typeName: "ods_user", attribute: "id" },
    }),
    ...capabilityAttributes(),
  },
  naturalKey: ["name"],
  creation: "create",
  deletion: "delete",
  importIdFormat: "the role id",
  api: organizationApi({
    list: (c) => c.listRoles(),
    read: (c, id) => c.getRole(id),
    create: (c, body) => c.createRole(body),
    update: (c, id, body) => c.updateRole(id, body),
    remove: (c, id) => c.deleteRole(id),
  }, { create: wireShape<RoleInput>("role", { name: true, description: true, members: true, orgCapabilities: true, datasetCapabilities: true, viewCapabilities: true }) }),
};
