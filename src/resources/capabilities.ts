// Capability sets shared by roles and API tokens (docs/service-contract.md, Capabilities).
import { type Attribute, type Attributes, listOf, object, objectMap } from "./attributes";
import { oneOf } from "./checks";

const CRUD = ["create", "read", "update", "delete"] as const;

/** Allowed actions per org capability key, keyed by the model's snake_case name. */
export const ORG_CAPABILITY_ACTIONS: Readonly<Record<string, readonly string[]>> = {
  annotations: CRUD,
  api_tokens: CRUD,
  audit_log: ["read"],
  billing: ["read", "update"],
  dashboards: CRUD,
  datasets: CRUD,
  endpoints: CRUD,
  flows: CRUD,
  integrations: CRUD,
  monitors: CRUD,
  notifiers: CRUD,
  rbac: CRUD,
  shared_access_keys: ["read", "update"],
  users: CRUD,
  views: CRUD,
};

export const DATASET_CAPABILITY_ACTIONS: Readonly<Record<string, readonly string[]>> = {
  ingest: ["create"],
  query: ["read"],
  starred_queries: CRUD,
  virtual_fields: CRUD,
  trim: ["update"],
  vacuum: ["update"],
  data: ["delete"],
  share: ["create", "read", "delete"],
};

export const VIEW_CAPABILITY_ACTIONS: Readonly<Record<string, readonly string[]>> = {
  query: ["read"],
  share: ["create", "read", "delete"],
};

function actionLists(actions: Readonly<Record<string, readonly string[]>>, what: string): Attributes {
  const out: Record<string, Attribute> = {};
  for (const [key, allowed] of Object.entries(actions)) {
    out[key] = listOf("string", `Actions granted on ${what} ${key}: ${allowed.join(", ")}.`, {
      optional: true,
      unordered: true,
      checks: [oneOf(allowed)],
    });
  }
  return out;
}

/** The three capability attributes, as roles and tokens declare them. */
export function capabilityAttributes(): Attributes {
  return {
    org_capabilities: object(actionLists(ORG_CAPABILITY_ACTIONS, "the organization's"), "Organization-wide capabilities: actions per area.", {
      optional: true,
    }),
    dataset_capabilities: objectMap(actionLists(DATASET_CAPABILITY_ACTIONS, "the dataset's"), "Capabilities per dataset, keyed by dataset name.", {
      optional: true,
      keysReferTo: { typeName: "ods_dataset", attribute: "name" },
    }),
    view_capabilities: objectMap(actionLists(VIEW_CAPABILITY_ACTIONS, "the view's"), "Capabilities per view, keyed by view name.", {
      optional: true,
      keysReferTo: { typeName: "ods_view", attribute: "name" },
    }),
  };
}
