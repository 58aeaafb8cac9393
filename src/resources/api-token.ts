// ods_api_token: tokens cannot be updated. A changed name replaces the token; any other
// change rotates it (regenerate), keeping the old secret valid for a grace period so
// that running clients can switch over.
import { bool, str } from "./attributes";
import { capabilityAttributes } from "./capabilities";
import { duration, durationMillis, nonEmpty, timestamp } from "./checks";
import type { EphemeralKind, ResourceKind } from "./kind";
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



/** Longest lifetime an ephemeral token may ask for: a run longer than this is not a CI job. */
const EPHEMERAL_TOKEN_MAX_LIFETIME = "24h";
/** The name every ephemeral token starts with: a later open finds expired leftovers by it. */
export const EPHEMERAL_TOKEN_PREFIX = "ephemeral-";

const withinLifetime = (v: unknown): string | undefined => {
  if (typeof v !== "string" || duration(v) !== undefined) return undefined;
  const ms = durationMillis(v);
  if (ms < 60_000) return `at least "1m", got "${v}"`;
  return ms > durationMillis(EPHEMERAL_TOKEN_MAX_LIFETIME) ? `at most "${EPHEMERAL_TOKEN_MAX_LIFETIME}", got "${v}"` : undefined;
};

const { description, org_capabilities, dataset_capabilities, view_capabilities, id, token } = apiToken.attributes;

/**
 * ephemeral "ods_api_token": a token with the same capability attributes as the resource,
 * made when Terraform opens it and deleted when Terraform closes it, expiring by itself
 * (expires_in) if Terraform never gets to close it.
 */
export const ephemeralApiToken: EphemeralKind = {
  typeName: "ods_api_token",
  description: `An API token for one Terraform run: made at open with the declared capabilities and a bounded lifetime, revoked at close, never stored in state or plan. Its name starts with "${EPHEMERAL_TOKEN_PREFIX}".`,
  attributes: {
    name: str(`A label in the token's name ("${EPHEMERAL_TOKEN_PREFIX}<name>-<random>"), so the service's token list says what made it.`, {
      optional: true,
      default: "terraform",
      checks: [nonEmpty],
    }),
    description,
    expires_in: str(`How long the token works if Terraform never closes it, e.g. "30m"; at most "${EPHEMERAL_TOKEN_MAX_LIFETIME}".`, {
      optional: true,
      default: "1h",
      checks: [duration, withinLifetime],
    }),
    org_capabilities,
    dataset_capabilities,
    view_capabilities,
    id: { ...id, description: "Assigned by the service when Terraform opens the token." },
    expires_at: str("When the token stops working (ISO 8601): the open's time plus expires_in.", { computed: true }),
    token: { ...token, description: "The secret: known once Terraform opens the token, never stored in state or plan." },
  },
  opens: apiToken,
  lifetime: { attribute: "expires_in", max: EPHEMERAL_TOKEN_MAX_LIFETIME, expiryAttribute: "expires_at" },
  naming: { attribute: "name", label: "terraform", prefix: EPHEMERAL_TOKEN_PREFIX },
  renewal:
    "the service cannot extend a token's expiry (a regenerate issues a new secret, which what the run already configured never sees), so renewing changes nothing: Terraform asks shortly before the expiry (a tenth of the lifetime before, at most 5 minutes) and gets a warning naming it, for a run that outlasts expires_in.",
};
