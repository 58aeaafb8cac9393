// Data sources: read-only lookups that configs reference (an existing dataset, the
// organization's limits, a role by name).
import type { OdsClient } from "../api";
import { type Attributes, asComputed, bool, listOf, num, object, objectList, str } from "./attributes";
import { datasetName } from "./checks";
import type { DataSourceKind, ValidationIssue, Values } from "./kind";
import { fromWire } from "./wire";
import { monitor } from "./monitor";
import { notifier } from "./notifier";
import { role } from "./role";
import { starredQuery } from "./starred-query";
import { virtualField } from "./virtual-field";
import type { WireObject } from "./api-binding";

const datasetAttrs: Attributes = {
  id: str("The dataset's id (its name).", { computed: true }),
  name: str("Name of the dataset.", { computed: true }),
  description: str("What the dataset holds.", { computed: true }),
  created: str("When it was created.", { computed: true }),
  who: str("Who created it.", { computed: true }),
};

const fieldAttrs: Attributes = {
  name: str("Field name.", { computed: true }),
  description: str("Description.", { computed: true }),
  type: str("Type inferred from the data.", { computed: true }),
  unit: str("Unit.", { computed: true }),
  hidden: bool("Hidden in the query builder.", { computed: true }),
};

const userAttrs: Attributes = {
  id: str("User id.", { computed: true }),
  email: str("E-mail address.", { computed: true }),
  name: str("Full name.", { computed: true }),
  role: str("Name of the user's role.", { computed: true }),
  role_id: str("Id of the user's role.", { computed: true }),
};

function userValues(live: WireObject): Values {
  const r = (live.role ?? {}) as { id?: string; name?: string };
  return { id: live.id, email: live.email, name: live.name, role: r.name ?? null, role_id: r.id ?? null };
}

function exactlyOne(values: Values, keys: string[]): ValidationIssue[] {
  const set = keys.filter((k) => values[k] !== undefined && values[k] !== null);
  return set.length === 1 ? [] : [{ path: [keys[0]], message: `expected exactly one of ${keys.join(", ")}` }];
}

/** Finds one object by id or by name in a list, with a clear error for none or several. */
function pickByIdOrName(kind: string, list: WireObject[], config: Values): WireObject {
  const matches = list.filter((o) => (config.id != null ? o.id === config.id : o.name === config.name));
  const what = config.id != null ? `id "${String(config.id)}"` : `name "${String(config.name)}"`;
  if (matches.length === 0) throw new Error(`no ${kind} with ${what}`);
  if (matches.length > 1) throw new Error(`several ${kind}s with ${what}: ${matches.map((m) => String(m.id)).join(", ")}`);
  return matches[0];
}

export const dataDataset: DataSourceKind = {
  typeName: "ods_dataset",
  description: "An existing dataset, by name.",
  attributes: { ...datasetAttrs, name: str("Name of the dataset.", { required: true, checks: [datasetName] }) },
  api: { read: async (c, config) => ({ ...(await c.getDataset(String(config.name))) }) as Values },
};

export const dataDatasets: DataSourceKind = {
  typeName: "ods_datasets",
  description: "Every dataset of the organization.",
  attributes: { datasets: objectList(datasetAttrs, "The datasets.", { computed: true }) },
  api: { read: async (c) => ({ datasets: (await c.listDatasets()).map((d) => ({ ...d })) }) },
};

export const dataDatasetFields: DataSourceKind = {
  typeName: "ods_dataset_fields",
  description: "The fields of a dataset, with their metadata.",
  attributes: {
    dataset: str("Name of the dataset.", { required: true, checks: [datasetName] }),
    fields: objectList(fieldAttrs, "The fields.", { computed: true }),
  },
  api: {
    read: async (c, config) => ({
      dataset: config.dataset,
      fields: (await c.listDatasetFields(String(config.dataset))).map((f) => ({ ...f })),
    }),
  },
};

const license = object(
  {
    id: str("License id.", { computed: true }),
    tier: str("Tier.", { computed: true }),
    issuer: str("Issuer.", { computed: true }),
    issued_to: str("Issued to.", { computed: true }),
    issued_at: str("Issued at.", { computed: true }),
    valid_from: str("Valid from.", { computed: true }),
    expires_at: str("Expires at.", { computed: true }),
    api_rate_limit_per_second: num("API requests per second.", { computed: true }),
    max_audit_window_seconds: num("Audit window.", { computed: true }),
    max_datasets: num("Most datasets.", { computed: true }),
    max_endpoints: num("Most endpoints.", { computed: true }),
    max_fields: num("Most fields per dataset.", { computed: true }),
    max_monitors: num("Most monitors.", { computed: true }),
    max_query_window_seconds: num("Longest query window.", { computed: true }),
    max_users: num("Most users.", { computed: true }),
    monthly_ingest_gb: num("Monthly ingest allowance.", { computed: true }),
    monthly_query_gb_hours: num("Monthly query allowance.", { computed: true }),
    storage_allowance_gb: num("Storage allowance.", { computed: true, wire: "storageAllowanceGB" }),
    with_auths: listOf("string", "Authentication methods.", { computed: true }),
  },
  "The license and its limits.",
  { computed: true },
);

const organizationAttrs: Attributes = {
  id: str("Organization id; the configured one (or the first) when unset.", { optional: true, computed: true }),
  name: str("Name.", { computed: true }),
  plan: str("Plan.", { computed: true }),
  payment_status: str("Payment status.", { computed: true }),
  primary_email: str("Primary e-mail.", { computed: true }),
  license,
};

export const dataOrganization: DataSourceKind = {
  typeName: "ods_organization",
  description: "The organization record with its license limits.",
  attributes: organizationAttrs,
  api: {
    read: async (c, config, context) => {
      const id = (config.id as string | undefined) ?? context.orgId;
      const org = id ? await c.getOrganization(id) : (await c.listOrganizations())[0];
      if (!org) throw new Error("the token sees no organization");
      return fromWire(organizationAttrs, org as unknown as WireObject);
    },
  },
};

export const dataUser: DataSourceKind = {
  typeName: "ods_user",
  description: "A user, by id or by e-mail.",
  attributes: { ...userAttrs, id: str("User id.", { optional: true, computed: true }), email: str("E-mail.", { optional: true, computed: true }) },
  validate: (v) => exactlyOne(v, ["id", "email"]),
  api: {
    read: async (c, config) => {
      const users = (await c.listUsers()) as unknown as WireObject[];
      const found = users.filter((u) => (config.id != null ? u.id === config.id : u.email === config.email));
      if (found.length !== 1) throw new Error(`no single user with ${config.id != null ? `id "${String(config.id)}"` : `e-mail "${String(config.email)}"`}`);
      return userValues(found[0]);
    },
  },
};

export const dataUsers: DataSourceKind = {
  typeName: "ods_users",
  description: "Every user of the organization.",
  attributes: { users: objectList(userAttrs, "The users.", { computed: true }) },
  api: { read: async (c) => ({ users: ((await c.listUsers()) as unknown as WireObject[]).map(userValues) }) },
};

export const dataCurrentUser: DataSourceKind = {
  typeName: "ods_current_user",
  description: "The user the provider's token acts as.",
  attributes: userAttrs,
  api: { read: async (c) => userValues((await c.getCurrentUser()) as unknown as WireObject) },
};

function byIdOrName(kindName: string, typeName: string, attrs: Attributes, list: (c: OdsClient) => Promise<WireObject[]>): DataSourceKind {
  return {
    typeName,
    description: `A ${kindName}, by id or by name.`,
    attributes: {
      ...asComputed(attrs),
      id: str(`The ${kindName}'s id.`, { optional: true, computed: true }),
      name: str(`The ${kindName}'s name.`, { optional: true, computed: true }),
    },
    validate: (v) => exactlyOne(v, ["id", "name"]),
    api: { read: async (c, config) => fromWire(attrs, pickByIdOrName(kindName, await list(c), config)) },
  };
}

export const dataNotifier = byIdOrName("notifier", "ods_notifier", notifier.attributes, (c) => notifier.api.list(c));
export const dataMonitor = byIdOrName("monitor", "ods_monitor", monitor.attributes, (c) => monitor.api.list(c));
export const dataRole = byIdOrName("role", "ods_role", role.attributes, (c) => role.api.list(c));

// List data sources: every object of a kind, narrowed by optional filters, so that a
// config (or `ods export`) can see what an organization holds without knowing ids.

const nameFilters: Attributes = {
  name: str("Only the object with this exact name.", { optional: true }),
  name_prefix: str("Only objects whose name starts with this.", { optional: true }),
};

function passesNameFilters(config: Values, live: WireObject): boolean {
  const name = typeof live.name === "string" ? live.name : "";
  if (config.name != null && name !== config.name) return false;
  if (config.name_prefix != null && !name.startsWith(String(config.name_prefix))) return false;
  return true;
}

/** Stable order (by name, then id), so that two reads of one organization look alike. */
function byNameThenId(a: WireObject, b: WireObject): number {
  return String(a.name ?? "").localeCompare(String(b.name ?? "")) || String(a.id ?? "").localeCompare(String(b.id ?? ""));
}

interface ListSpec {
  typeName: string;
  /** Plural noun, also the name of the list attribute ("notifiers"). */
  plural: string;
  kind: { attributes: Attributes; api: { list(c: OdsClient, dataset?: string): Promise<WireObject[]> } };
  /** Per-dataset kinds take a required `dataset` argument. */
  perDataset: boolean;
  description: string;
}

function listDataSource(spec: ListSpec): DataSourceKind {
  const itemAttrs = asComputed(spec.kind.attributes);
  const args: Attributes = spec.perDataset
    ? { dataset: str("Name of the dataset whose objects are listed.", { required: true, checks: [datasetName] }), ...nameFilters }
    : nameFilters;
  return {
    typeName: spec.typeName,
    description: `${spec.description}, optionally filtered by name or name prefix.`,
    attributes: { ...args, [spec.plural]: objectList(itemAttrs, `The matching ${spec.plural.replace(/_/g, " ")}, by name.`, { computed: true }) },
    api: {
      read: async (c, config) => {
        const dataset = spec.perDataset ? String(config.dataset) : undefined;
        const live = (await spec.kind.api.list(c, dataset)).filter((o) => passesNameFilters(config, o)).sort(byNameThenId);
        const out: Values = { [spec.plural]: live.map((o) => fromWire(itemAttrs, o)) };
        for (const k of Object.keys(args)) out[k] = config[k] ?? null;
        return out;
      },
    },
  };
}

export const dataNotifiers = listDataSource({ typeName: "ods_notifiers", plural: "notifiers", kind: notifier, perDataset: false, description: "Every notifier of the organization" });
export const dataMonitors = listDataSource({ typeName: "ods_monitors", plural: "monitors", kind: monitor, perDataset: false, description: "Every monitor of the organization" });
export const dataRoles = listDataSource({ typeName: "ods_roles", plural: "roles", kind: role, perDataset: false, description: "Every role of the organization" });
export const dataVirtualFields = listDataSource({ typeName: "ods_virtual_fields", plural: "virtual_fields", kind: virtualField, perDataset: true, description: "Every virtual field of a dataset" });
export const dataStarredQueries = listDataSource({ typeName: "ods_starred_queries", plural: "starred_queries", kind: starredQuery, perDataset: true, description: "Every starred query of a dataset (everyone's)" });
