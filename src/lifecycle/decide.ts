// The decision for one resource, pure: from what is declared, what lives and what the
// engine remembers. This is the Observe step of a managed reconciler: it tells whether
// the object exists, is up to date, and what bringing it in line takes.
import { changedAttributes, isSettable, sameValue, writeOnlyChanges, type ResourceKind, type Values } from "../resources";
import { RequiresReplace } from "./plan-modifiers";
import { holdsSecret, type PriorState } from "./prior";
import { isRetiring, retiringReason } from "./rotation";
import { secretFingerprints } from "./secrets";
import { containsUnknown } from "./unknown";
import { engineValues } from "./values";

export type Action = "create" | "adopt" | "update" | "replace" | "rotate" | "delete" | "forget" | "noop";

export interface Decision {
  action: Action;
  changed: string[];
  reasons: string[];
  /** For `adopt`: whether the adopted object also needs an update (or a rotation). */
  alsoUpdate?: boolean;
  /** For `adopt`: whether its secret is issued anew (it cannot be read back), so the plan counts a rotation too. */
  alsoRotate?: boolean;
}

/** Why an adopted object of a rotating kind is rotated at once, in words for the plan. */
export function adoptionRotationReason(kind: ResourceKind): string | undefined {
  const rotation = kind.rotation;
  if (!rotation) return undefined;
  return `will be rotated: its ${rotation.secretAttribute} cannot be read back and this state has none; the old ${rotation.secretAttribute} stays valid for ${rotation.adoptionGracePeriod} (or ${rotation.gracePeriodAttribute} if longer) so that its users can switch`;
}

/**
 * The action for one declared resource. `live` is the live object's model values (or
 * undefined when nothing lives); `adopted` means it was found by natural key.
 */
export function decideAction(
  kind: ResourceKind,
  declared: Values,
  live: Values | undefined,
  prior: PriorState | undefined,
  adopted: boolean,
  salt: string,
): Decision {
  const reasons: string[] = [];
  if (!live) {
    if (prior) reasons.push("the object was deleted outside this stack");
    if (kind.creation === "claim") reasons.push("claims the existing field");
    return { action: "create", changed: [], reasons };
  }
  const changed = changedAttributes(kind.attributes, declared, live);
  const unknownChanged = Object.entries(declared)
    .filter(([name, v]) => containsUnknown(v) && kind.attributes[name] && !kind.attributes[name].engineOnly)
    .map(([name]) => name);
  for (const name of unknownChanged) if (!changed.includes(name)) changed.push(name);

  // A write-only value is never read back: its version, against the state's, says whether to send it again.
  if (prior?.attributes) {
    for (const name of writeOnlyChanges(kind.attributes, declared, prior.attributes)) {
      if (!changed.includes(name)) changed.push(name);
      reasons.push(`a write-only value of ${name} is sent again (its version changed, or the state still holds the plain form, which this apply removes)`);
    }
  }

  const fingerprints = secretFingerprints(kind, declared, salt);
  const priorPrints = prior?.secretFingerprints ?? {};
  const secretPaths = new Set([...Object.keys(fingerprints), ...Object.keys(priorPrints)]);
  for (const p of secretPaths) {
    if (fingerprints[p] !== priorPrints[p]) {
      const top = p.split(".")[0];
      if (!changed.includes(top)) changed.push(top);
      reasons.push(adopted || !prior ? `secret ${p} cannot be read back: it is written once on adoption` : `secret ${p} changed`);
    }
  }
  const rotation = kind.rotation;
  if (rotation && prior && isRetiring(kind, live, declared)) {
    if (!changed.includes(rotation.expiryAttribute)) changed.push(rotation.expiryAttribute);
    reasons.push(retiringReason(kind, live, declared));
  }
  if (rotation && prior?.rotating !== undefined) {
    reasons.push(`a rotation of ${prior.rotating} started and its answer was lost: it is finished on the object it made`);
    if (!changed.includes(rotation.trigger)) changed.push(rotation.trigger);
  }
  if (rotation && prior && engineValues(kind, declared)[rotation.trigger] !== prior.engineValues[rotation.trigger]) {
    reasons.push(`${rotation.trigger} changed`);
    if (!changed.includes(rotation.trigger)) changed.push(rotation.trigger);
  }

  if (adopted) {
    // The apply rotates it whatever else changes (see adopt in operations.ts); say so.
    const alsoRotate = rotation !== undefined && (!holdsSecret(prior) || changed.length > 0);
    if (rotation !== undefined && !holdsSecret(prior)) reasons.push(adoptionRotationReason(kind)!);
    return { action: "adopt", changed, reasons, alsoUpdate: changed.length > 0, ...(alsoRotate ? { alsoRotate } : {}) };
  }
  const forcing = RequiresReplace.among(kind, changed);
  if (forcing.length > 0) {
    return { action: "replace", changed, reasons: [...reasons, `${forcing.join(", ")} cannot be changed in place`] };
  }
  if (changed.length === 0) return { action: "noop", changed, reasons };
  return { action: rotation ? "rotate" : "update", changed, reasons };
}

/**
 * Settable attributes whose planned value differs from the engine's record of the last
 * apply, where that record holds secrets and engine-only settings in the clear (as
 * Terraform's state does): those compare exactly, the rest under the model's rules.
 */
export function changedSinceLastApply(kind: ResourceKind, planned: Values, last: Values): string[] {
  const writeOnly = writeOnlyChanges(kind.attributes, planned, last);
  return Object.entries(kind.attributes)
    .filter(([, a]) => isSettable(a))
    .filter(([name, a]) =>
      containsUnknown(planned[name]) ||
      writeOnly.includes(name) ||
      (a.engineOnly || a.secret ? JSON.stringify(planned[name] ?? null) !== JSON.stringify(last[name] ?? null) : !sameValue(a, planned[name], last[name])),
    )
    .map(([name]) => name);
}
