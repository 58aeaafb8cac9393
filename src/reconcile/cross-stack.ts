// A cdktf cross-stack reference hands one stack's output to another. When the output is
// the id of an object, that id names the object in the organization the other stack
// applies to: used by a stack that targets another organization (staging's notifier id in
// production's monitor), it names nothing there, or something else. Such a reference is
// refused at plan, naming the stack the id comes from.
import { resourceKind } from "../resources";
import { providerKey } from "./provider-address";
import { stateOrganization, type StateFile, type StateOrganization } from "./state";

/** An object of another stack's state, by id. */
export interface RemoteObject {
  stack: string;
  address: string;
  organization?: StateOrganization;
}

/** The objects another stack's state holds, by id, with the organization each lives in. */
export function remoteObjects(stack: string, state: StateFile | undefined, into: Map<string, RemoteObject>): void {
  for (const [address, entry] of Object.entries(state?.resources ?? {})) {
    if (typeof entry.id !== "string" || entry.id === "") continue;
    // An id that is the object's natural key (a dataset's is its name) names it in every organization.
    if (resourceKind(entry.typeName)?.naturalKey.some((k) => entry.values[k] === entry.id)) continue;
    into.set(entry.id, { stack, address, organization: stateOrganization(state!, providerKey(entry.provider)) });
  }
}

/** The strings inside a value (an output may be a list of ids). */
function stringsIn(v: unknown): string[] {
  if (typeof v === "string") return [v];
  if (Array.isArray(v)) return v.flatMap(stringsIn);
  if (v && typeof v === "object") return Object.values(v).flatMap(stringsIn);
  return [];
}

/**
 * The refusal of a value taken from another stack whose ids belong to another
 * organization than `target`; undefined when they belong to it, or either is unknown.
 */
export function foreignIdProblem(where: string, value: unknown, objects: ReadonlyMap<string, RemoteObject>, target: StateOrganization | undefined): string | undefined {
  if (!target) return undefined;
  for (const id of stringsIn(value)) {
    const o = objects.get(id);
    if (!o?.organization || o.organization.id === target.id) continue;
    const org = (x: StateOrganization): string => (x.name ? `${x.name} (${x.id})` : x.id);
    return (
      `${where} takes the id "${id}" of ${o.address} from stack ${o.stack}, which lives in organization ${org(o.organization)}; ` +
      `this stack targets ${org(target)}, where that id names nothing of it. Declare the object in this stack, or look it up here with a data source`
    );
  }
  return undefined;
}
