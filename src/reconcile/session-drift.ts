// Drift: every object a stack's state manages, read from the service and compared with
// what the last apply left, attribute by attribute. Refresh only: nothing is written.
import { changedAttributes, resourceKind, type Values } from "../resources";
import { liveValues } from "./plan";
import { changedText, displayValue, nestedAttributes } from "./render";
import { documentAttributeLines } from "./path-diff";
import { REDACTED } from "./redact";
import { LiveIndex } from "./world";
import { checkStateBelongs, stateOwner, type StackUnit } from "./stack-unit";

/** One attribute changed outside the stack: its values as the last apply left them and as they are now. */
export interface DriftedAttribute {
  name: string;
  /** "(sensitive)" for a sensitive attribute. */
  before: unknown;
  after: unknown;
  sensitive: boolean;
  /** The lines `ods drift` prints for it (a JSON document: one per changed path). */
  text: string;
}

/** One managed object that changed outside the stack. */
export interface DriftedObject {
  address: string;
  id: string;
  type: string;
  provider: string;
  /** Deleted outside the stack (then `attributes` is empty). */
  deleted: boolean;
  attributes: DriftedAttribute[];
  /** What to know before `ods apply` restores it (an update the service would refuse). */
  advice?: string;
}

export interface StackDrift {
  stack: string;
  drifted: DriftedObject[];
  /** What loading the stack found. */
  warnings: string[];
}

/** Reads each managed object of a stack and says what changed since the last apply. */
export async function driftOfStack(unit: StackUnit): Promise<StackDrift> {
  const state = await unit.store.read();
  checkStateBelongs(unit, state);
  const drifted: DriftedObject[] = [];
  for (const [provider, target] of unit.targets) {
    const live = new LiveIndex();
    for (const [address, entry] of Object.entries(state.resources)) {
      if (stateOwner(unit.loaded, address, entry.provider) !== provider) continue;
      const kind = resourceKind(entry.typeName);
      if (!kind) continue;
      const dataset = typeof entry.values.dataset === "string" ? entry.values.dataset : undefined;
      const obj = (await live.load(target.client, kind, dataset)).find((x) => kind.api.idOf(x) === entry.id);
      const base = { address, id: entry.id, type: entry.typeName, provider };
      if (!obj) {
        drifted.push({ ...base, deleted: true, attributes: [] });
        continue;
      }
      const now = liveValues(kind, obj, entry.values);
      // As the plan says it: an update apply would be refused (or would overwrite someone's change).
      const declared = unit.loaded.resources.find((r) => r.address === address)?.values;
      const conflict = kind.versionConflict?.(entry.values, now, { ...entry.engineValues, ...(typeof declared?.overwrite === "boolean" ? { overwrite: declared.overwrite } : {}) });
      const hiddenByVar = new Set(entry.sensitiveAttributes ?? []);
      const attributes: DriftedAttribute[] = [];
      for (const name of changedAttributes(kind.attributes, entry.values as Values, now)) {
        const hidden = kind.attributes[name]?.sensitive === true || hiddenByVar.has(name);
        const nested = nestedAttributes(kind.attributes[name]);
        const doc = documentAttributeLines("~", `${address}.${name}`, kind.attributes[name], entry.values[name], now[name], hidden, "  ");
        const text = doc
          ? doc.join("\n")
          : `  ~ ${address}.${name}: ${changedText(hidden ? REDACTED : displayValue(entry.values[name], nested), hidden ? REDACTED : displayValue(now[name], nested))}`;
        attributes.push({ name, before: hidden ? REDACTED : entry.values[name], after: hidden ? REDACTED : now[name], sensitive: hidden, text });
      }
      if (attributes.length > 0 || conflict) drifted.push({ ...base, deleted: false, attributes, ...(conflict ? { advice: conflict.message } : {}) });
    }
  }
  return { stack: unit.name, drifted, warnings: unit.loaded.warnings };
}

/** The lines `ods drift` prints for a stack (empty: no drift), and the advice before `ods apply`. */
export function driftLines(d: StackDrift): { lines: string[]; advice: string[] } {
  const lines: string[] = [];
  const advice: string[] = [];
  for (const o of d.drifted) {
    if (o.deleted) lines.push(`  - ${o.address} (id ${o.id}) was deleted outside this stack`);
    if (o.advice) advice.push(`  # ${o.address}: ${o.advice}`);
    for (const a of o.attributes) lines.push(a.text);
  }
  return { lines, advice };
}
