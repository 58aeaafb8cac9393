// API tokens. The secret is answered once, by creation or regeneration, and only its
// SHA-256 is kept. A token cannot be changed: regenerate issues a new token (new id,
// new secret) and sets the old one to expire at `existingTokenExpiresAt`.
import { randomBytes } from "node:crypto";
import { requireOrgGrant, sha256Hex, type Caller } from "../auth";
import { firstUncoveredGrant, parseCapabilities, type Capabilities } from "../capabilities";
import { newId } from "../core";
import { forbidden } from "../errors";
import type { TokenRecord } from "../model";
import { ok, type Route } from "../routing";
import { nowIso } from "../time";
import { bodyObject, optionalObject, optionalString, optionalTimestamp, requiredString, requiredTimestamp, type JsonObject } from "../validate";
import { authorizedRecord, deleteRoute, getRoute, listRoute, type KindSpec } from "./crud";

export function newTokenSecret(): string {
  return `odst_${randomBytes(24).toString("base64url")}`;
}

export interface IssuedToken {
  record: TokenRecord;
  secret: string;
}

/** A new token record acting as `userId`, with its one-time secret. */
export function issueToken(
  fields: { name: string; description: string; expiresAt: string } & Capabilities,
  userId: string,
  now: number,
): IssuedToken {
  const secret = newTokenSecret();
  const record: TokenRecord = {
    id: newId("tok"),
    name: fields.name,
    description: fields.description,
    expiresAt: fields.expiresAt,
    orgCapabilities: fields.orgCapabilities,
    datasetCapabilities: fields.datasetCapabilities,
    viewCapabilities: fields.viewCapabilities,
    userId,
    secretSha256: sha256Hex(secret),
    created: nowIso(now),
  };
  return { record, secret };
}

function toWire(token: TokenRecord): JsonObject {
  return {
    id: token.id,
    name: token.name,
    description: token.description,
    expiresAt: token.expiresAt,
    orgCapabilities: token.orgCapabilities,
    datasetCapabilities: token.datasetCapabilities,
    viewCapabilities: token.viewCapabilities,
    samlAuthenticated: false,
  };
}

/** A token may only hand out capabilities it holds itself. */
function checkNoEscalation(caller: Caller, requested: Capabilities): void {
  const missing = firstUncoveredGrant(caller.token, requested);
  if (missing) throw forbidden(`cannot grant ${missing}: the calling token does not hold it`);
}

const TOKENS: KindSpec<"tokens"> = {
  collection: "tokens",
  kind: "token",
  path: "/v2/tokens",
  idPrefix: "tok",
  capability: "apiTokens",
  toWire,
};

// Creation and regeneration are not the generic create: they answer the secret once.
export const tokenRoutes: readonly Route[] = [
  listRoute(TOKENS),
  getRoute(TOKENS),
  {
    method: "POST",
    pattern: "/v2/tokens",
    handle: async (ctx) => {
      requireOrgGrant(ctx.caller, "apiTokens", "create");
      const body = bodyObject(ctx.json());
      const fields = {
        name: requiredString(body, "name"),
        description: optionalString(body, "description"),
        expiresAt: optionalTimestamp(body, "expiresAt"),
        ...parseCapabilities(body),
      };
      checkNoEscalation(ctx.caller, fields);
      const { record, secret } = issueToken(fields, ctx.caller.user.id, ctx.now);
      await ctx.core.store.tx().put("tokens", record.id, record).commit();
      return ok({ ...toWire(record), token: secret });
    },
  },
  {
    method: "POST",
    pattern: "/v2/tokens/:id/regenerate",
    handle: async (ctx) => {
      const old = authorizedRecord(ctx, TOKENS, "update");
      const body = bodyObject(ctx.json());
      const existingTokenExpiresAt = requiredTimestamp(body, "existingTokenExpiresAt");
      const newTokenExpiresAt = optionalTimestamp(body, "newTokenExpiresAt");
      const overrides = optionalObject(body, "newToken");
      const caps = parseCapabilities(overrides);
      const fields = {
        name: overrides.name === undefined || overrides.name === null ? old.name : requiredString(overrides, "name", "newToken"),
        description: overrides.description === undefined || overrides.description === null ? old.description : optionalString(overrides, "description", "newToken"),
        expiresAt: newTokenExpiresAt || optionalTimestamp(overrides, "expiresAt", "newToken") || old.expiresAt,
        // newToken replaces each capability field it names; the others carry over.
        orgCapabilities: overrides.orgCapabilities == null ? old.orgCapabilities : caps.orgCapabilities,
        datasetCapabilities: overrides.datasetCapabilities == null ? old.datasetCapabilities : caps.datasetCapabilities,
        viewCapabilities: overrides.viewCapabilities == null ? old.viewCapabilities : caps.viewCapabilities,
      };
      checkNoEscalation(ctx.caller, fields);
      const { record, secret } = issueToken(fields, ctx.caller.user.id, ctx.now);
      await ctx.core.store
        .tx()
        .put("tokens", old.id, { ...old, expiresAt: existingTokenExpiresAt })
        .put("tokens", record.id, record)
        .commit();
      return ok({ ...toWire(record), token: secret });
    },
  },
  deleteRoute(TOKENS),
];
