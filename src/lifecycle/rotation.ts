// Rotations that survive a lost answer. A rotation sets the old object's expiry and
// issues a new one whose secret is answered once. When that answer is lost (a dropped
// connection, a killed run), the service has done it all: rotating the old object again
// would issue a token that inherits the old one's grace expiry (it dies), and the first
// new object would live on unmanaged. So before rotating, the lifecycle looks for the
// evidence of an earlier rotation (the engine's recorded intent, or the old object's
// live expiry differing from the declared one) and, where the object that rotation made
// is found by natural key, rotates THAT one instead: the intermediate, whose secret
// nobody holds, is retired at once, and the new object's secret is captured.
import { OdsApiError } from "../api";
import { sameValue, type ResourceKind, type Values, type WireObject } from "../resources";
import { durationMillis } from "../resources/checks";
import type { LifecycleContext } from "./operations";
import { liveValues, matchesNaturalKey, scopeOf } from "./values";

/** The declared expiry of a rotating kind's object (unset: never). */
function declaredExpiry(kind: ResourceKind, declared: Values): unknown {
  return kind.rotation ? declared[kind.rotation.expiryAttribute] ?? null : null;
}

/**
 * Whether live model values show an object retired by a rotation (or by hand): its
 * expiry differs from the declared one. Kinds without rotation never retire.
 */
export function isRetiring(kind: ResourceKind, live: Values, declared: Values): boolean {
  const rotation = kind.rotation;
  if (!rotation) return false;
  const attr = kind.attributes[rotation.expiryAttribute];
  return !sameValue(attr, declaredExpiry(kind, declared), live[rotation.expiryAttribute]);
}

/** Why a retiring object is drift, in words for the plan. */
export function retiringReason(kind: ResourceKind, live: Values, declared: Values): string {
  const name = kind.rotation?.expiryAttribute ?? "expiry";
  const want = declaredExpiry(kind, declared);
  return `its live ${name} is ${String(live[name] ?? "never")}, declared ${want === null ? "never" : String(want)}: it was retired by a rotation whose answer was lost (or by hand), and will be rotated to a new object that lives as declared`;
}

/**
 * The object an earlier rotation of `fromId` made, found by natural key: not managed,
 * not `fromId`, and living as declared (the regenerate gave it the declared expiry).
 * Several candidates are ambiguous: the engine stops rather than guess.
 */
export async function successorOfRotation(ctx: LifecycleContext, kind: ResourceKind, fromId: string, declared: Values): Promise<WireObject | undefined> {
  ctx.live.invalidate(kind);
  const list = await ctx.live.load(ctx.client, kind, scopeOf(kind, declared));
  const found = list.filter((o) => {
    const id = kind.api.idOf(o);
    return id !== fromId && !ctx.isManaged(kind, id) && matchesNaturalKey(kind, o, declared) && !isRetiring(kind, liveValues(kind, o, declared), declared);
  });
  if (found.length > 1) {
    throw new Error(
      `${kind.typeName}: a rotation of ${fromId} may have been interrupted, and ${found.length} unmanaged objects could be the one it made (ids ${found.map((o) => kind.api.idOf(o)).join(", ")}); delete the ones that are not yours and apply again`,
    );
  }
  return found[0];
}

export interface RotationFacts {
  /** The engine recorded that a rotation of this object started and never heard back. */
  interrupted?: boolean;
  /** The object's live model values as the plan (or Terraform's refresh) saw them. */
  observed?: Values;
}

/** One regenerate of object `from`, its expiry set to `expiresAt`. */
type Issue = (from: string, expiresAt: string) => Promise<WireObject>;

/**
 * A rotation that never leaves a dying or an unmanaged object. `issue` performs one
 * regenerate with the old object's expiry; `retireNow` is the expiry for an intermediate
 * nobody holds a secret of; `create` issues a fresh object (for an old one that is
 * retiring although no successor exists: a regenerate would hand its expiry on).
 */
export async function rotateRecoverably(
  ctx: LifecycleContext,
  kind: ResourceKind,
  id: string,
  values: Values,
  facts: RotationFacts,
  calls: { issue: Issue; oldExpiry: string; retireNow: () => string; create: () => Promise<WireObject> },
): Promise<WireObject> {
  const retiring = facts.observed !== undefined && isRetiring(kind, facts.observed, values);
  if (facts.interrupted || retiring) {
    const successor = await successorOfRotation(ctx, kind, id, values);
    if (successor) return calls.issue(kind.api.idOf(successor), calls.retireNow());
    if (retiring) return calls.create();
  }
  try {
    return await calls.issue(id, calls.oldExpiry);
  } catch (err) {
    if (!(err instanceof OdsApiError) || !err.requestMayHaveBeenApplied) throw err;
    const successor = await successorOfRotation(ctx, kind, id, values);
    if (successor) return calls.issue(kind.api.idOf(successor), calls.retireNow());
    // The call never reached the service: the old object is untouched.
    return calls.issue(id, calls.oldExpiry);
  }
}

/**
 * Among several unmanaged live objects with one natural key (a lost state), the one to
 * adopt when a rotation explains the others: exactly one lives as declared, and every
 * other is retiring (its expiry set by the rotation, its grace period running). The
 * retiring ones are left to expire. Undefined when that does not explain the matches.
 */
export function currentOfRotation(kind: ResourceKind, matches: readonly WireObject[], declared: Values): { current: WireObject; reason: string } | undefined {
  if (!kind.rotation || matches.length < 2) return undefined;
  const expiry = kind.rotation.expiryAttribute;
  const retiring = matches.filter((o) => isRetiring(kind, liveValues(kind, o, declared), declared));
  const current = matches.filter((o) => !retiring.includes(o));
  if (current.length !== 1) return undefined;
  const id = kind.api.idOf(current[0]);
  const old = retiring.map((o) => `${kind.api.idOf(o)} (${expiry} ${String(liveValues(kind, o, declared)[expiry])})`).join(", ");
  return {
    current: current[0],
    reason: `adopts id ${id}: of ${matches.length} live objects with this name, it is the one not retiring; ${old} ${retiring.length === 1 ? "is the old object" : "are old objects"} of a rotation in ${retiring.length === 1 ? "its" : "their"} grace period, left to expire`,
  };
}

/** When a planned change ends the old secret of a rotating kind's object, for the plan. */
export interface OldSecretEnd {
  /** "apply", or the instant the grace period ends for an apply now (ISO 8601, UTC). */
  stopsAt: string;
  /** The grace period in effect ("0s" when it stops at apply). */
  gracePeriod: string;
  /** The plan's sentence: `old secret stops working at apply`, or at the instant (grace). */
  text: string;
}

/**
 * When the old secret stops working if a change is applied now: a rotation keeps it for
 * the declared grace period (an adoption's rotation for at least the kind's adoption
 * grace, as oldSecretExpiry does); a replacement deletes the old object at apply.
 * Undefined for kinds without rotation.
 */
export function oldSecretEnd(kind: ResourceKind, declared: Values, why: "change" | "adoption" | "replacement", nowMs = Date.now()): OldSecretEnd | undefined {
  const rotation = kind.rotation;
  if (!rotation) return undefined;
  const declaredGrace = declared[rotation.gracePeriodAttribute];
  const graceText = typeof declaredGrace === "string" ? declaredGrace : "0s";
  let millis = why === "replacement" ? 0 : durationMillis(graceText);
  let gracePeriod = why === "replacement" ? "0s" : graceText;
  if (why === "adoption" && durationMillis(rotation.adoptionGracePeriod) > millis) {
    millis = durationMillis(rotation.adoptionGracePeriod);
    gracePeriod = rotation.adoptionGracePeriod;
  }
  const what = `old ${rotation.secretAttribute === "token" ? "secret" : rotation.secretAttribute}`;
  if (millis < 1000) {
    const how = why === "replacement" ? " (the object is replaced: deleted, then created anew)" : ` (${rotation.gracePeriodAttribute} ${JSON.stringify(gracePeriod)})`;
    return { stopsAt: "apply", gracePeriod: "0s", text: `${what} stops working at apply${how}` };
  }
  const at = new Date(nowMs + millis).toISOString().replace(/\.\d{3}Z$/, "Z");
  return { stopsAt: at, gracePeriod, text: `${what} stops working at ${at} (grace ${gracePeriod}, counted from the apply; the time shown is for an apply now)` };
}
