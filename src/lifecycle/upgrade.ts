// State upgrades: a kind that changes the shape it stores bumps its schemaVersion and
// adds an upgrader from the previous version. Both engines record the version with the
// state (Terraform stores it itself; `ods` in its state entry) and upgrade on read.
import type { ResourceKind, Values } from "../resources";

export class StateUpgradeError extends Error {}

/** Values stored under `version`, brought to the kind's current schema version. */
export function upgradeValues(kind: ResourceKind, values: Values, version: number): Values {
  if (version > kind.schemaVersion) {
    throw new StateUpgradeError(
      `${kind.typeName} state has schema version ${version}, newer than this version's ${kind.schemaVersion}: upgrade ods`,
    );
  }
  let out = values;
  for (let v = version; v < kind.schemaVersion; v++) {
    const step = kind.stateUpgraders?.[v];
    if (!step) throw new StateUpgradeError(`${kind.typeName} has no state upgrader from schema version ${v}`);
    out = step(out);
  }
  return out;
}
