// The external side of the lifecycle, after Crossplane's managed reconciler: one
// Create/Update/Delete contract (the kind's ResourceApi) driven by these generic steps,
// the same for `ods apply` and the Terraform provider. Here live the rules that keep a
// retried call from leaving a duplicate, an orphan or a dying credential.
import { OdsApiError, type OdsClient } from "../api";
import {
  changedAttributes,
  filledWhenUnset,
  isSettable,
  keepingWithheld,
  secretValues,
  toWire,
  withheldWriteOnly,
  withholdsReadable,
  withoutWriteOnly,
  type Attribute,
  type ResourceKind,
  type Values,
  type WireObject,
} from "../resources";
import { durationMillis } from "../resources/checks";
import type { LiveIndex } from "./live-index";
import { UNKNOWN } from "./unknown";
import { liveValues, matchesNaturalKey, naturalKeyText, scopeOf } from "./values";
import { isRetiring, rotateRecoverably, type RotationFacts } from "./rotation";

/** What an engine run gives the lifecycle: its client, its live index and what it manages. */
export interface LifecycleContext {
  client: OdsClient;
  live: LiveIndex;
  /** Whether an id is already managed (by this state / this provider run) as an object of the kind. */
  isManaged(kind: ResourceKind, id: string): boolean;
}

/** Values with every unknown left out: nothing not yet known is ever sent. */
function knownOnly(values: Values): Values {
  const out: Values = {};
  for (const [k, v] of Object.entries(values)) if (v !== UNKNOWN) out[k] = v;
  return out;
}

/**
 * The request body of declared values, as the kind sends it. `last` is the engine's record
 * of the object as last applied, for kinds that send back the version they last wrote.
 */
export function requestBody(kind: ResourceKind, values: Values, operation: "create" | "update", last?: Values): WireObject {
  const body = toWire(kind.attributes, knownOnly(values));
  return kind.api.shapeBody ? kind.api.shapeBody(body, operation, { values, last }) : body;
}

/** What "none" is for an attribute, where the service can be told it: its default, an empty map or list. */
function emptyOf(attr: Attribute): unknown {
  if (attr.serverDefault !== undefined) return attr.serverDefault;
  if (attr.type === "object" || attr.type === "object_map" || attr.type === "map") return {};
  if (attr.type === "list" || attr.type === "set" || attr.type === "object_list") return [];
  return undefined;
}

/**
 * The values an update or a rotation sends: the object is written over the old one (a
 * rotation issues it from the old one, a field's write merges into it), keeping what the
 * body leaves out, so an attribute the stack left unset (meaning "none", unless the
 * service fills it in) is named empty; else a capability, a unit or a description the
 * stack dropped would live on.
 */
function withEmptiesForUnset(kind: ResourceKind, values: Values): Values {
  const out: Values = { ...values };
  for (const [name, attr] of Object.entries(kind.attributes)) {
    if (attr.engineOnly || !isSettable(attr) || filledWhenUnset(attr)) continue;
    if (out[name] !== undefined && out[name] !== null) continue;
    const empty = emptyOf(attr);
    if (empty !== undefined) out[name] = empty;
  }
  return out;
}

/** An instant `millis` from now in the service's form (whole seconds, UTC). */
function instantIn(millis: number, now = Date.now()): string {
  return new Date(now + millis).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/**
 * When the old secret of a rotation stops working. A rotation the user asked for keeps
 * it for the declared grace period (at least a second, so that the service accepts a
 * time in the future). A rotation the engine does on its own, adopting an object whose
 * secret only its users hold, keeps it at least the kind's adoption grace period.
 */
export function oldSecretExpiry(kind: ResourceKind, values: Values, why: "change" | "adoption", now = Date.now()): string {
  const rotation = kind.rotation;
  const declared = rotation ? values[rotation.gracePeriodAttribute] : undefined;
  const grace = typeof declared === "string" ? durationMillis(declared) : 0;
  const floor = why === "adoption" && rotation ? durationMillis(rotation.adoptionGracePeriod) : 1000;
  return instantIn(Math.max(grace, floor, 1000), now);
}

/**
 * Issues the object anew (new id and secret); the old one works until its expiry. A
 * rotation whose answer was lost, now or in an earlier run (see rotation.ts), is
 * finished on the object it made instead of rotating the old one twice.
 */
export async function rotate(
  ctx: LifecycleContext,
  kind: ResourceKind,
  id: string,
  values: Values,
  why: "change" | "adoption",
  facts: RotationFacts = {},
): Promise<WireObject> {
  const regenerate = kind.api.rotate;
  if (!regenerate) throw new Error(`${kind.typeName} cannot be rotated`);
  const body = requestBody(kind, withEmptiesForUnset(kind, values), "create");
  return rotateRecoverably(ctx, kind, id, values, facts, {
    issue: (from, expiresAt) => regenerate(ctx.client, from, body, expiresAt),
    oldExpiry: oldSecretExpiry(kind, values, why),
    // Nobody ever saw the intermediate's secret: it may stop at once.
    retireNow: () => instantIn(1000),
    create: () => kind.api.create(ctx.client, body),
  });
}

/** `last`: the engine's record of the object as last applied (state values), when it has one. */
/**
 * Updates the object in place. `previous` is the object's attributes as last stored (the
 * state's shape): a write-only value is sent only when its version changed since (see
 * write-only.ts); without it (an adoption), every write-only value is sent.
 */
export async function update(ctx: LifecycleContext, kind: ResourceKind, id: string, values: Values, last?: Values, previous?: Values): Promise<WireObject> {
  if (!kind.api.update) throw new Error(`${kind.typeName} cannot be updated in place`);
  // The object as listed, for a kind whose write replaces the whole object (no read first).
  let current = ctx.live.findById(kind, id);
  let sent = previous ? withheldWriteOnly(kind.attributes, values, previous) : values;
  if (withholdsReadable(kind.attributes, sent)) {
    // A withheld credential the service returns is written back as it holds it: the write replaces the object.
    current ??= await kind.api.read(ctx.client, id);
    if (current) sent = keepingWithheld(kind.attributes, sent, liveValues(kind, current));
  }
  return kind.api.update(ctx.client, id, requestBody(kind, withEmptiesForUnset(kind, keepingFilledIn(kind, sent, current)), "update", last), current);
}

/**
 * Values for an in-place update: an optional attribute the service fills in (a starred
 * query's `who`) that the stack leaves unset keeps its current value, as Terraform's plan
 * keeps it (UnknownWhenUnsetAndChanging); the service replaces the whole object on update
 * and would otherwise fill it in anew (with the caller).
 */
function keepingFilledIn(kind: ResourceKind, values: Values, current: WireObject | undefined): Values {
  if (!current) return values;
  const live = liveValues(kind, current, values);
  const out: Values = { ...values };
  for (const [name, attr] of Object.entries(kind.attributes)) {
    const unset = out[name] === undefined || out[name] === null;
    if (attr.computed && isSettable(attr) && unset && live[name] !== undefined && live[name] !== null) out[name] = live[name];
  }
  return out;
}

/** Deletes the live object; a 404 means it is gone already. Kinds that are forgotten are left alone. */
export async function remove(ctx: LifecycleContext, kind: ResourceKind, id: string): Promise<void> {
  if (kind.deletion === "forget" || !kind.api.remove) return;
  try {
    await kind.api.remove(ctx.client, id);
  } catch (err) {
    if (err instanceof OdsApiError && err.status === 404) return;
    throw err;
  }
}

/**
 * After a create whose answer was lost: lists the kind again and finds the object by
 * natural key, leaving out objects this engine already manages (they are someone
 * else's declaration, not the lost answer) and, of a rotating kind, old objects of a
 * rotation in their grace period (their users still hold their secrets).
 */
export async function findAfterLostAnswer(ctx: LifecycleContext, kind: ResourceKind, values: Values): Promise<WireObject | undefined> {
  ctx.live.invalidate(kind);
  const list = await ctx.live.load(ctx.client, kind, scopeOf(kind, values));
  return list.find(
    (o) => matchesNaturalKey(kind, o, values) && !ctx.isManaged(kind, kind.api.idOf(o)) && !(kind.rotation && isRetiring(kind, liveValues(kind, o, values), values)),
  );
}

export interface Created {
  live: WireObject;
  /** Found by natural key after a lost answer, then brought in line like an adoption. */
  recovered: boolean;
}

/** How many times a rotating kind's create is sent while each answer is lost (each lost one's object removed). */
export const LOST_SECRET_CREATE_ATTEMPTS = 3;

/**
 * Creates (or claims) the object. When the answer is lost after the request left, the
 * object may exist: it is found by natural key and brought in line, never created twice.
 * A rotating kind's object made by a lost call holds a secret nobody ever saw: it is
 * removed (a token revoked) and the create sent again, so that no second record of the
 * name is left behind, live or expiring.
 */
export async function create(ctx: LifecycleContext, kind: ResourceKind, values: Values): Promise<Created> {
  const body = requestBody(kind, values, "create");
  // A claimed object (a dataset field) exists already: the refresh listed it.
  const current = kind.creation === "claim" ? ctx.live.withNaturalKey(kind, values)[0] : undefined;
  for (let attempt = 1; ; attempt++) {
    try {
      return { live: await kind.api.create(ctx.client, body, current), recovered: false };
    } catch (err) {
      if (!(err instanceof OdsApiError) || !err.requestMayHaveBeenApplied) throw err;
      const found = await findAfterLostAnswer(ctx, kind, values);
      if (!found) return { live: await kind.api.create(ctx.client, body), recovered: false };
      if (!kind.rotation) return { live: await bringInLine(ctx, kind, found, values, { holdsSecret: false }), recovered: true };
      if (kind.api.remove && attempt < LOST_SECRET_CREATE_ATTEMPTS) {
        await remove(ctx, kind, kind.api.idOf(found));
        ctx.live.invalidate(kind);
        continue;
      }
      // Nobody holds the lost secret: the declared grace period is enough.
      return { live: await rotate(ctx, kind, kind.api.idOf(found), values, "change"), recovered: true };
    }
  }
}

/**
 * Live objects with the declared natural key, other than retiring ones of a rotation
 * (old tokens left to expire): a create would make a second object of that key. `fresh`
 * lists the kind again first (right before a write).
 */
export async function namesakes(ctx: LifecycleContext, kind: ResourceKind, values: Values, fresh = false): Promise<WireObject[]> {
  if (fresh) ctx.live.invalidate(kind);
  // By the index of natural keys: a scan of the list per create made an apply of N creates N x N.
  const found = await ctx.live.loadWithNaturalKey(ctx.client, kind, scopeOf(kind, values), values);
  return found.filter((o) => !(kind.rotation && isRetiring(kind, liveValues(kind, o, values), values)));
}

/**
 * Why a create is refused when a live object already has its natural key and nothing
 * shows that this engine made it for this declaration: another address may manage it (a
 * renamed resource), and adopting it would let that address's destroy delete it. Names
 * the live id and both ways on: a move, or an import.
 */
export function namesakeRefusal(kind: ResourceKind, values: Values, id: string, managedElsewhere: boolean): string {
  const key = `${kind.naturalKey.join(" and ")} ${naturalKeyText(kind, values) ?? ""}`;
  return [
    `The live ${kind.typeName} ${id} already has ${key}, and ${managedElsewhere ? "another resource of this configuration manages it" : "nothing shows that this provider created it for this resource: another address may manage it (a renamed resource), or it was made outside Terraform"}. Nothing was changed.`,
    `If this resource was renamed, keep the object with a moved block: in cdktf, call .moveFromId("<old address>") on this resource's construct (or .moveTo on the old one); in HCL, a moved block with from = <old address> and to = <this address>.`,
    `If the object should be managed here, import it: terraform import <this address> ${id} (or an import block), or in cdktf .importFrom("${id}").`,
    // terraform destroy plans the configuration in its refresh: an object taken out of the
    // state (terraform state rm, a guarded dataset kept) while still declared lands here.
    `If this is terraform destroy after the object was removed from the state (terraform state rm) while still declared, neither applies: run terraform destroy -refresh=false, or remove the declaration first.`,
  ].join(" ");
}

export interface AdoptionFacts {
  /** The engine holds the secret the service returned once (a token's). */
  holdsSecret: boolean;
  /** Known to differ (the plan said so); computed from the live object when undefined. */
  differs?: boolean;
}

/**
 * An adopted object, brought to the declared values: updated when it differs or holds
 * write-only secrets; an object of a rotating kind whose secret this engine never saw
 * is rotated, keeping the old secret valid for the adoption grace period.
 */
export async function bringInLine(ctx: LifecycleContext, kind: ResourceKind, live: WireObject, values: Values, facts: AdoptionFacts): Promise<WireObject> {
  const id = kind.api.idOf(live);
  if (kind.rotation) {
    if (!facts.holdsSecret) return rotate(ctx, kind, id, values, "adoption");
    return facts.differs ? rotate(ctx, kind, id, values, "change") : live;
  }
  const differs = facts.differs ?? changedAttributes(kind.attributes, values, liveValues(kind, live, values)).length > 0;
  // Write-only secrets must be written once: a read never shows whether they match.
  const secretsDeclared = secretValues(kind.attributes, values).size > 0 || withoutWriteOnly(kind.attributes, values) !== values;
  if ((differs || secretsDeclared) && kind.api.update) return update(ctx, kind, id, values);
  return live;
}

/** The secret an answer carries (only creations and rotations carry one). */
export function secretOfAnswer(kind: ResourceKind, answer: WireObject): string | undefined {
  if (!kind.rotation) return undefined;
  const v = answer[kind.rotation.secretAttribute];
  return typeof v === "string" && v !== "" ? v : undefined;
}

/** What the service answers a write with: the object as it is now. */
export type Answer = WireObject;
