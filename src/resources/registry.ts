// The registry of every kind and data source, and the whole provider schema.
import { apiToken, ephemeralApiToken } from "./api-token";
import {
  dataCurrentUser,
  dataDataset,
  dataDatasetFields,
  dataDatasets,
  dataMonitor,
  dataMonitors,
  dataNotifier,
  dataNotifiers,
  dataOrganization,
  dataRole,
  dataRoles,
  dataStarredQueries,
  dataUser,
  dataUsers,
  dataVirtualFields,
} from "./data-sources";
import { dataDashboard, dataDashboards, dataView, dataViews } from "./dashboard-data-sources";
import { dataset } from "./dataset";
import { datasetField } from "./dataset-field";
import type { DataSourceKind, EphemeralKind, ResourceKind } from "./kind";
import { monitor } from "./monitor";
import { notifier } from "./notifier";
import { PROVIDER_ATTRIBUTES } from "./provider-config";
import { role } from "./role";
import { type ProvidersSchemaJson, type SchemaJson, PROVIDER_SOURCE, ephemeralSchemas, providerSchema } from "./schema";
import { starredQuery } from "./starred-query";
import { user } from "./user";
import { virtualField } from "./virtual-field";
import { view } from "./view";
import { dashboard } from "./dashboard";

/** Every resource kind, in an order that creates dependencies first when nothing else says. */
export const RESOURCE_KINDS: readonly ResourceKind[] = [
  dataset,
  datasetField,
  virtualField,
  starredQuery,
  view,
  notifier,
  monitor,
  user,
  role,
  apiToken,
  dashboard,
];

export const DATA_SOURCE_KINDS: readonly DataSourceKind[] = [
  dataDataset,
  dataDatasets,
  dataDatasetFields,
  dataOrganization,
  dataUser,
  dataUsers,
  dataCurrentUser,
  dataNotifier,
  dataRole,
  dataNotifiers,
  dataRoles,
  dataVirtualFields,
  dataStarredQueries,
  dataView,
  dataViews,
  dataDashboard,
  dataDashboards,
  dataMonitor,
  dataMonitors,
];

/**
 * Every ephemeral resource (Terraform 1.10+ `ephemeral` blocks). Served by the Terraform
 * provider only: cdktf cannot declare such blocks, so they are not in the construct
 * bindings, and `ods plan` refuses them (reconcile/stack-shape.ts).
 */
export const EPHEMERAL_KINDS: readonly EphemeralKind[] = [ephemeralApiToken];

const ephemeralByType = new Map(EPHEMERAL_KINDS.map((k) => [k.typeName, k]));

export function ephemeralKind(typeName: string): EphemeralKind | undefined {
  return ephemeralByType.get(typeName);
}

/** The provider schema's `ephemeral_resource_schemas`, as `terraform providers schema -json` prints them. */
export function ephemeralResourceSchemas(): Record<string, SchemaJson> {
  return ephemeralSchemas(EPHEMERAL_KINDS);
}

const resourceByType = new Map(RESOURCE_KINDS.map((k) => [k.typeName, k]));
const dataSourceByType = new Map(DATA_SOURCE_KINDS.map((k) => [k.typeName, k]));

export function resourceKind(typeName: string): ResourceKind | undefined {
  return resourceByType.get(typeName);
}

export function dataSourceKind(typeName: string): DataSourceKind | undefined {
  return dataSourceByType.get(typeName);
}

/** The whole provider schema, as `terraform providers schema -json` prints it. */
export function providersSchemaJson(): ProvidersSchemaJson {
  return {
    format_version: "1.0",
    provider_schemas: { [PROVIDER_SOURCE]: providerSchema(PROVIDER_ATTRIBUTES, RESOURCE_KINDS, DATA_SOURCE_KINDS) },
  };
}

