// Which of a plan's changes are drift and which come from the configuration. Drift is a
// live object that moved while its declaration did not: the declared values still equal
// what the state recorded at the last apply, and the live object no longer does (or is
// gone). Everything else (a new, changed or removed declaration, a changed secret, a
// due rotation) comes from the revision. Decided per object from the state, so a
// restarted watcher or another replica classifies alike without remembering anything.
import { changedAttributes, resourceKind, type Values } from "../../resources";
import { containsUnknown } from "../expressions";
import type { PlannedChange } from "../plan";
import type { StateFile } from "../state";

export interface Classified {
  /** Changes the configuration asks for (a new revision's). */
  revision: PlannedChange[];
  /** Changes that only undo what was done outside the configuration. */
  drift: PlannedChange[];
}

export function classifyChanges(changes: readonly PlannedChange[], state: StateFile): Classified {
  const out: Classified = { revision: [], drift: [] };
  for (const c of changes) {
    if (c.action === "noop") continue;
    (isDrift(c, state) ? out.drift : out.revision).push(c);
  }
  return out;
}

function isDrift(c: PlannedChange, state: StateFile): boolean {
  const prior = state.resources[c.address];
  const kind = resourceKind(c.typeName);
  if (!prior || !kind || !c.after) return false; // new, removed or unknown: the configuration's
  if (c.action === "create") return c.before === null; // managed, and deleted outside
  if (c.action !== "update" && c.action !== "replace") return false; // adopt, rotate, delete, forget
  const after = c.after as Values;
  // Secrets are compared by fingerprint, never read back: a changed one is the configuration's
  // (the decision says so in its reasons), as is a rotation's trigger.
  if (c.reasons.some((r) => r.startsWith("secret ") || r.includes("rotation"))) return false;
  const declaredMoved = new Set(changedAttributes(kind.attributes, after, prior.values));
  return c.changed.every((name) => !declaredMoved.has(name) && !containsUnknown(after[name]) && !kind.attributes[name]?.engineOnly);
}
