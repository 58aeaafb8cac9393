// ods_api_token: tokens cannot be updated. A changed name replaces the token; any other
// change rotates it (regenerate), keeping the old secret valid for a grace period so
// that running clients can switch over.
import { bool, str } from "./attributes";
import { capabilityAttributes } from "./capabilities";
import { duration, nonEmpty, timestamp } from "./checks";
import type { ResourceKind } from "./kind";
import type { ApiTokenInput } from "../api";
import { organizationApi, wireShape } from "./api-binding";

export const apiToken: ResourceKind = {
  typeName: "ods_api_token",
  description: "An API token with capabilities. Changes rotate it (or replace it when the name changes).",
  schemaVersion: 0,
  attributes: {
    id: str("Assigned by the service; a rotation issues a new id.", { computed: true }),
    name: str("Name of the token.", { required: true, checks: [nonEmpty], forcesReplacement: true }),
    description: str("What the token is for.", { optional: true, serverDefault: "" }),
    expires_at: str("When the token stops working (ISO 8601); never when unset.", { optional: true, timestamp: true, checks: [timestamp] }),
    ...capabilityAttributes(),
    rotation_grace_period: str("How long the old secret keeps working after a rotation, e.g. \"24h\".", {
      optional: true,
      engineOnly: true,
      default: "0s",
      checks: [duration],
    }),
    rotation_trigger: str("Any value; changing it rotates the token although nothing else changed.", { optional: true, engineOnly: true }),
    saml_authenticated: bool("Whether the token was created through SAML.", { computed: true }),
    // secret: the service never returns it again, so a refresh keeps the known value.
    token: str("The secret, known only after creation or rotation.", { computed: true, sensitive: true, secret: true }),
  },
  naturalKey: ["name"],
  rotation: { trigger: "rotation_trigger", gracePeriodAttribute: "rotation_grace_period", adoptionGracePeriod: "24h", secretAttribute: "token", expiryAttribute: "expires_at" },
  creation: "create",
  deletion: "delete",
  importIdFormat: "the token id (the secret cannot be imported: it is never read back)",
  api: organizationApi({
    list: (c) => c.listTokens(),
    read: (c, id) => c.getToken(id),
    create: (c, body) => c.createToken(body),
    rotate: (c, id, body, existingTokenExpiresAt) => c.regenerateToken(id, { existingTokenExpiresAt, newToken: body }),
    remove: (c, id) => c.deleteToken(id),
  }, { create: wireShape<ApiTokenInput>("token", { name: true, description: true, expiresAt: true, orgCapabilities: true, datasetCapabilities: true, viewCapabilities: true }) }),
};


