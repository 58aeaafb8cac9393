// API tokens. The secret is answered once, by creation or regeneration, and only its
// SHA-256 is kept. A token cannot be changed: regenerate issues a new token (new id,
// new secret) and sets the old one to expire at `existingTokenExpiresAt`, unless it
// already expires sooner.
//
// apiTokens|update and |delete are not master keys (docs/service-contract.md, section 5):
// a caller may only regenerate or delete tokens whose capabilities it holds itself, no
// token it makes may outlive it, and a regenerate only ever brings the old token's
// expiry closer, so that an expired token stays expired.
import { randomBytes } from "node:crypto";
import { requireOrgGrant, sha256Hex, type Caller } from "../auth";
import { firstUncoveredGrant, parseCapabilities, type Capabilities } from "../capabilities";
import { newId } from "../core";
import { forbidden } from "../errors";
import type { TokenRecord } from "../model";
import { ok, type Route } from "../routing";
import { nowIso, timestampMillis } from "../time";
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

/** A token may only cut off (regenerate, delete) tokens no stronger than itself. */
function checkCovers(caller: Caller, target: TokenRecord, verb: string): void {
  const missing = firstUncoveredGrant(caller.token, target);
  if (missing) throw forbidden(`cannot ${verb} token ${JSON.stringify(target.id)}: it holds ${missing}, which the calling token does not`);
}

/** A token may not make a token that lives longer than itself ("" = never expires). */
function checkLifetime(caller: Caller, expiresAt: string): void {
  const limit = caller.token.expiresAt;
  if (limit === "") return;
  if (expiresAt === "" || timestampMillis(expiresAt) > timestampMillis(limit)) {
    throw forbidden(`"expiresAt" must be ${limit} or earlier: the calling token expires then and cannot make a token that outlives it, got ${expiresAt === "" ? "no expiry" : expiresAt}`);
  }
}

/** The earlier of two expiries, "" standing for never. */
function earlierExpiry(a: string, b: string): string {
  if (a === "") return b;
  if (b === "") return a;
  return timestampMillis(b) < timestampMillis(a) ? b : a;
}

const TOKENS: KindSpec<"tokens"> = {
  collection: "tokens",
  kind: "token",
  path: "/v2/tokens",
  idPrefix: "tok",
  capability: "apiTokens",
  writeWithoutRead: true,
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
      checkLifetime(ctx.caller, fields.expiresAt);
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
      checkCovers(ctx.caller, old, "regenerate");
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
      checkLifetime(ctx.caller, fields.expiresAt);
      const { record, secret } = issueToken(fields, ctx.caller.user.id, ctx.now);
      await ctx.core.store
        .tx()
        .put("tokens", old.id, { ...old, expiresAt: earlierExpiry(old.expiresAt, existingTokenExpiresAt) })
        .put("tokens", record.id, record)
        .commit();
      return ok({ ...toWire(record), token: secret });
    },
  },
  deleteRoute(TOKENS, "delete", (ctx, token) => checkCovers(ctx.caller, token, "delete")),
];
