// Capabilities, as docs/service-contract.md (section 3) fixes them: which keys and
// actions exist, how a token's grants are checked, and whether one set of grants covers
// another.
//
// Dataset and view grants are maps keyed by dataset (view) name. The key "*" is a
// wildcard that grants on every dataset (view); the admin token uses it, and it is the
// org-wide grant for virtual fields and starred queries.
import { badRequest } from "./errors";
import { DATASET_NAME_RULE, isDatasetName, isObject, own, setOwn, type JsonObject } from "./validate";

export const WILDCARD = "*";

const CRUD = ["create", "read", "update", "delete"] as const;

export const ORG_ACTIONS: Readonly<Record<string, readonly string[]>> = {
  annotations: CRUD,
  apiTokens: CRUD,
  auditLog: ["read"],
  billing: ["read", "update"],
  dashboards: CRUD,
  datasets: CRUD,
  endpoints: CRUD,
  flows: CRUD,
  integrations: CRUD,
  monitors: CRUD,
  notifiers: CRUD,
  rbac: CRUD,
  sharedAccessKeys: ["read", "update"],
  users: CRUD,
  views: CRUD,
};

export const DATASET_ACTIONS: Readonly<Record<string, readonly string[]>> = {
  ingest: ["create"],
  query: ["read"],
  starredQueries: CRUD,
  virtualFields: CRUD,
  trim: ["update"],
  vacuum: ["update"],
  data: ["delete"],
  share: ["create", "read", "delete"],
};

export const VIEW_ACTIONS: Readonly<Record<string, readonly string[]>> = {
  query: ["read"],
  share: ["create", "read", "delete"],
};

export type Grants = Record<string, string[]>;

export interface Capabilities {
  orgCapabilities: Grants;
  datasetCapabilities: Record<string, Grants>;
  viewCapabilities: Record<string, Grants>;
}

function parseGrants(value: unknown, allowed: Readonly<Record<string, readonly string[]>>, path: string): Grants {
  if (!isObject(value)) throw badRequest(`"${path}" must be an object`);
  const out: Grants = {};
  for (const [key, actions] of Object.entries(value)) {
    const known = own(allowed, key);
    if (!known) throw badRequest(`"${path}.${key}" is not a capability (known: ${Object.keys(allowed).join(", ")})`);
    if (!Array.isArray(actions)) throw badRequest(`"${path}.${key}" must be an array of actions`);
    const seen: string[] = [];
    for (const action of actions) {
      if (typeof action !== "string" || !known.includes(action)) {
        throw badRequest(`"${path}.${key}" has unknown action ${JSON.stringify(action)} (allowed: ${known.join(", ")})`);
      }
      if (!seen.includes(action)) seen.push(action);
    }
    out[key] = seen;
  }
  return out;
}

function parseGrantMap(value: unknown, allowed: Readonly<Record<string, readonly string[]>>, path: string, noun: "dataset" | "view"): Record<string, Grants> {
  if (value === undefined || value === null) return {};
  if (!isObject(value)) throw badRequest(`"${path}" must be an object keyed by name`);
  const out: Record<string, Grants> = {};
  for (const [name, grants] of Object.entries(value)) {
    if (name === "") throw badRequest(`"${path}" has an empty name as key`);
    // A key is a dataset (view) name or the wildcard; anything else (an unresolved
    // "${...}" reference above all) would grant on a name no dataset can have.
    if (name !== WILDCARD && !isDatasetName(name)) {
      throw badRequest(`"${path}" key ${JSON.stringify(name)} is not a ${noun} name (${DATASET_NAME_RULE}, or "${WILDCARD}")`);
    }
    setOwn(out, name, parseGrants(grants, allowed, `${path}.${name}`));
  }
  return out;
}

/** The three capability fields of a role or token body; absent ones answer `{}`. */
export function parseCapabilities(body: JsonObject): Capabilities {
  const org = body.orgCapabilities;
  return {
    orgCapabilities: org === undefined || org === null ? {} : parseGrants(org, ORG_ACTIONS, "orgCapabilities"),
    datasetCapabilities: parseGrantMap(body.datasetCapabilities, DATASET_ACTIONS, "datasetCapabilities", "dataset"),
    viewCapabilities: parseGrantMap(body.viewCapabilities, VIEW_ACTIONS, "viewCapabilities", "view"),
  };
}

/** Every capability there is: the admin token's grants. */
export function allCapabilities(): Capabilities {
  const copy = (table: Readonly<Record<string, readonly string[]>>): Grants =>
    Object.fromEntries(Object.entries(table).map(([k, v]) => [k, [...v]]));
  return {
    orgCapabilities: copy(ORG_ACTIONS),
    datasetCapabilities: { [WILDCARD]: copy(DATASET_ACTIONS) },
    viewCapabilities: { [WILDCARD]: copy(VIEW_ACTIONS) },
  };
}

export function hasOrgGrant(caps: Capabilities, key: string, action: string): boolean {
  return own(caps.orgCapabilities, key)?.includes(action) ?? false;
}

/** Whether grants[name] holds key|action (own entries only: names may be "constructor"). */
function holds(map: Record<string, Grants>, name: string, key: string, action: string): boolean {
  const grants = own(map, name);
  return (grants && own(grants, key)?.includes(action)) ?? false;
}

function hasNamedGrant(map: Record<string, Grants>, name: string, key: string, action: string): boolean {
  return holds(map, name, key, action) || holds(map, WILDCARD, key, action);
}

/** A grant on dataset `name`, directly or through the "*" entry. */
export function hasDatasetGrant(caps: Capabilities, dataset: string, key: string, action: string): boolean {
  return hasNamedGrant(caps.datasetCapabilities, dataset, key, action);
}

/** Whether the caller holds any grant at all on dataset `name` (named or "*"). */
export function hasAnyGrantOn(caps: Capabilities, name: string): boolean {
  return [own(caps.datasetCapabilities, name), own(caps.datasetCapabilities, WILDCARD)].some(
    (grants) => grants !== undefined && Object.values(grants).some((actions) => actions.length > 0),
  );
}

/** Whether any dataset grant (named or "*") carries key|action. */
export function hasAnyDatasetGrant(caps: Capabilities, key: string, action: string): boolean {
  return Object.values(caps.datasetCapabilities).some((grants) => own(grants, key)?.includes(action) ?? false);
}

/**
 * The first grant in `requested` that `holder` lacks, described for a 403, or undefined
 * when `holder` covers all of them. A token cannot mint a token stronger than itself.
 */
export function firstUncoveredGrant(holder: Capabilities, requested: Capabilities): string | undefined {
  for (const [key, actions] of Object.entries(requested.orgCapabilities)) {
    for (const action of actions) if (!hasOrgGrant(holder, key, action)) return `orgCapabilities.${key}|${action}`;
  }
  const named = [
    ["datasetCapabilities", requested.datasetCapabilities, holder.datasetCapabilities],
    ["viewCapabilities", requested.viewCapabilities, holder.viewCapabilities],
  ] as const;
  for (const [field, wanted, held] of named) {
    for (const [name, grants] of Object.entries(wanted)) {
      for (const [key, actions] of Object.entries(grants)) {
        for (const action of actions) {
          // A wildcard grant can only come from a wildcard grant.
          const ok = name === WILDCARD ? holds(held, WILDCARD, key, action) : hasNamedGrant(held, name, key, action);
          if (!ok) return `${field}.${name}.${key}|${action}`;
        }
      }
    }
  }
  return undefined;
}
