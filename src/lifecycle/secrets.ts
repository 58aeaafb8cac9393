// Secrets the service never returns: the engines keep a salted fingerprint of each
// declared secret and compare that, since a read can never tell a change.
import * as crypto from "node:crypto";
import { secretValues, type ResourceKind, type Values } from "../resources";
import { containsUnknown } from "./unknown";

/** Salted HMAC-SHA256 of a secret: equal values give equal fingerprints within one state. */
export function fingerprint(salt: string, value: unknown): string {
  return crypto.createHmac("sha256", salt).update(JSON.stringify(value)).digest("hex");
}

/** Secret fingerprints of declared values; "unknown" where a secret is not known yet. */
export function secretFingerprints(kind: ResourceKind, values: Values, salt: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [path, value] of secretValues(kind.attributes, values)) {
    out[path] = containsUnknown(value) ? "unknown" : fingerprint(salt, value);
  }
  return out;
}
