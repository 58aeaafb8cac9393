// Who is calling and what they may do. A token authenticates by the SHA-256 of its
// secret; it acts as the user whose token created it and carries exactly the
// capabilities it was created with (the user's role does not widen or narrow them).
import { createHash } from "node:crypto";
import { hasDatasetGrant, hasOrgGrant } from "./capabilities";
import type { EmulatorCore } from "./core";
import { forbidden, unauthorized } from "./errors";
import type { TokenRecord, UserRecord } from "./model";

export interface Caller {
  token: TokenRecord;
  user: UserRecord;
}

export function sha256Hex(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

export function isExpired(token: TokenRecord, now: number): boolean {
  return token.expiresAt !== "" && Date.parse(token.expiresAt) <= now;
}

/** The caller behind an `Authorization: Bearer` header, or 401. Never echoes the header. */
export function authenticate(core: EmulatorCore, authorization: string | undefined, now: number): Caller {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  if (!match) throw unauthorized("missing bearer token: send Authorization: Bearer <token>");
  const hash = sha256Hex(match[1]!);
  const token = core.tokenWithSecretHash(hash);
  if (!token) throw unauthorized("invalid token");
  if (isExpired(token, now)) throw unauthorized("token expired");
  const user = core.state.users.get(token.userId);
  if (!user) throw unauthorized("the token's user no longer exists");
  return { token, user };
}

export function requireOrgGrant(caller: Caller, key: string, action: string): void {
  if (!hasOrgGrant(caller.token, key, action)) {
    throw forbidden(`token lacks capability orgCapabilities.${key}|${action}`);
  }
}

/** The 403 message for a missing dataset grant: it names the capability and the dataset. */
export function datasetGrantRefusal(dataset: string, key: string, action: string): string {
  return `token lacks capability datasetCapabilities[${JSON.stringify(dataset)}].${key}|${action}`;
}

export function requireDatasetGrant(caller: Caller, dataset: string, key: string, action: string): void {
  if (!hasDatasetGrant(caller.token, dataset, key, action)) throw forbidden(datasetGrantRefusal(dataset, key, action));
}
