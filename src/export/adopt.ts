// `ods export --adopt`: the exported objects are already live, so the state can say so
// at once. Each exported object gets a state entry with its id and what was read, so
// that the next `ods plan` of the exported code says "No changes" instead of adopting.
// Secrets cannot be read back: their fingerprints come from the TF_VAR_* values the
// caller sets (the secrets the organization holds today); a secret not given is written
// once by the next apply, and the caller is told so.
import type { Values } from "../resources";
import { engineValues, instanceAttributes, secretFingerprints } from "../lifecycle";
import type { StateFile, StateStore } from "../reconcile/state";
import { type ExportedObject, type Expr, type OrgExport, referencedBy } from "./export-model";

const MISSING = Symbol("variable not set");

function evaluate(e: Expr, callerId: string, env: NodeJS.ProcessEnv): unknown {
  switch (e.type) {
    case "literal":
      return e.value;
    case "reference":
      return e.attribute === "id" ? e.target.live.id : e.target.live.read[e.attribute];
    case "caller":
      return callerId;
    case "variable":
      // A credential the service returned is adopted as it lives unless the caller says otherwise.
      return env[`TF_VAR_${e.variable.name}`] ?? e.variable.known ?? MISSING;
    case "list":
      return e.items.map((i) => evaluate(i, callerId, env));
    case "object":
      return Object.fromEntries(e.entries.map((en) => [en.key, evaluate(en.value, callerId, env)]).filter(([, v]) => v !== MISSING));
    case "template":
      return e.parts.map((p) => (typeof p === "string" ? p : String(evaluate(p, callerId, env)))).join("");
  }
}

export interface AdoptResult {
  /** Where the state was written (the store's description). */
  stateFile: string;
  adopted: number;
  /** TF_VAR_* names that were not set: the next apply writes those secrets once. */
  unsetSecrets: string[];
}

/**
 * Writes one state entry per exported object. `addressOf` answers the address the
 * synthesized configuration gives the object (CDKTF hashes nested construct paths).
 */
export async function writeAdoptedState(
  exp: OrgExport,
  callerId: string,
  store: StateStore,
  addressOf: (o: ExportedObject) => string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<AdoptResult> {
  const state: StateFile = await store.read();
  const unsetSecrets = exp.variables.filter((v) => v.known === undefined && env[`TF_VAR_${v.name}`] === undefined).map((v) => `TF_VAR_${v.name}`);
  for (const o of exp.objects) {
    const declared = evaluate(o.body, callerId, env) as Values;
    state.resources[addressOf(o)] = {
      typeName: o.typeName,
      id: o.live.id,
      values: o.live.read,
      engineValues: engineValues(o.live.kind, declared),
      secretFingerprints: secretFingerprints(o.live.kind, declared, state.fingerprintSalt),
      dependsOn: referencedBy(o).map(addressOf).sort(),
      // Stored as an apply stores it: the declared secrets in the attributes, where the
      // state's fingerprints are taken from when it is read back.
      attributes: instanceAttributes(o.live.kind, declared, o.live.read, o.live.id),
    };
  }
  await store.write(state);
  return { stateFile: store.description, adopted: exp.objects.length, unsetSecrets };
}
