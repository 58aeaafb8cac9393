// Ephemeral resources (Terraform's `ephemeral` blocks): an object opened for one run with
// a bounded lifetime and deleted when the run closes it. The calls go through the same
// create and remove as the opened kind's resources (a lost create answer is recovered by
// the object's unique name, never left as a duplicate).
import { randomBytes } from "node:crypto";
import { OdsApiError } from "../api";
import { type EphemeralKind, type Values, type WireObject, fromWire, wireName } from "../resources";
import { durationMillis } from "../resources/checks";
import { create, type LifecycleContext, remove, secretOfAnswer } from "./operations";
import { applyDefaults } from "./plan-modifiers";

export interface OpenedEphemeral {
  /** The ephemeral block's values with its computed ones (id, secret, expiry) filled in. */
  readonly values: Values;
  /** The opened object's id: what close deletes. */
  readonly id: string;
  readonly expiresAtMs: number;
}

/** When Renew should be called: before the object expires, leaving a tenth of its lifetime (at most 5 minutes). */
export function renewAtMs(openedAtMs: number, expiresAtMs: number): number {
  return expiresAtMs - Math.min(5 * 60_000, Math.floor((expiresAtMs - openedAtMs) / 10));
}

/** The opened object's name: prefix, label, random suffix (one object per open). */
function objectName(kind: EphemeralKind, values: Values): string {
  const label = typeof values[kind.naming.attribute] === "string" ? String(values[kind.naming.attribute]) : kind.naming.label;
  return `${kind.naming.prefix}${label}-${randomBytes(4).toString("hex")}`;
}

/**
 * Opens the object: the declared values the opened kind shares, its name and its expiry
 * (now + the lifetime attribute). Before that, leftovers of runs that never closed theirs
 * and have expired by now are deleted (best effort: a token that may not list them skips it).
 */
export async function openEphemeral(ctx: LifecycleContext, kind: EphemeralKind, declared: Values, nowMs = Date.now()): Promise<OpenedEphemeral> {
  const values = applyDefaults(kind, declared);
  const lifetime = String(values[kind.lifetime.attribute]);
  const expiresAtMs = nowMs + Math.min(durationMillis(lifetime), durationMillis(kind.lifetime.max));
  const opens = kind.opens;
  const body: Values = {};
  for (const name of Object.keys(opens.attributes)) if (name in kind.attributes && values[name] !== undefined && values[name] !== null) body[name] = values[name];
  body.name = objectName(kind, values);
  body[kind.lifetime.expiryAttribute] = new Date(expiresAtMs).toISOString();
  await removeExpiredLeftovers(ctx, kind, nowMs);
  const answer = (await create(ctx, opens, body)).live;
  const id = opens.api.idOf(answer);
  const live = fromWire(opens.attributes, answer);
  const out: Values = { ...values };
  // Only computed attributes take the service's answer: the rest stay as declared.
  for (const [name, attr] of Object.entries(kind.attributes)) if (attr.computed && name in live) out[name] = live[name];
  out.id = id;
  out[kind.lifetime.expiryAttribute] = body[kind.lifetime.expiryAttribute];
  const secret = secretOfAnswer(opens, answer);
  if (opens.rotation && secret !== undefined) out[opens.rotation.secretAttribute] = secret;
  return { values: out, id, expiresAtMs };
}

/** Deletes the opened object; one already gone (deleted by hand, expired and swept) is fine. */
export async function closeEphemeral(ctx: LifecycleContext, kind: EphemeralKind, id: string): Promise<void> {
  await remove(ctx, kind.opens, id);
}

/** Objects with the kind's name prefix whose expiry has passed: dead already, only clutter. */
async function removeExpiredLeftovers(ctx: LifecycleContext, kind: EphemeralKind, nowMs: number): Promise<void> {
  let listed: WireObject[];
  try {
    listed = await kind.opens.api.list(ctx.client);
  } catch (err) {
    if (err instanceof OdsApiError && (err.status === 401 || err.status === 403)) return;
    throw err;
  }
  const expiryField = wireName(kind.lifetime.expiryAttribute, kind.opens.attributes[kind.lifetime.expiryAttribute]);
  for (const o of listed) {
    const name = o.name;
    const until = Date.parse(String(o[expiryField] ?? ""));
    if (typeof name !== "string" || !name.startsWith(kind.naming.prefix) || !(until <= nowMs)) continue;
    try {
      await remove(ctx, kind.opens, kind.opens.api.idOf(o));
    } catch (err) {
      if (!(err instanceof OdsApiError && (err.status === 401 || err.status === 403))) throw err;
    }
  }
}
