// The resource model: every kind and data source the project manages.
export * from "./registry";
export * from "./attributes";
export * from "./kind";
export * from "./api-binding";
export * from "./compare";
export * from "./wire";
export * from "./validate";
export * from "./reserved-keys";
export * from "./write-only";
export { namedDatasets, datasetsInQuery, datasetDeclared, DATASET_TYPE_NAME } from "./named-datasets";
export { PROVIDER_ATTRIBUTES, PROVIDER_ENV } from "./provider-config";
export { PROVIDER_SOURCE, TYPE_PREFIX } from "./schema";
export type { ProviderSchemaJson, ProvidersSchemaJson, SchemaJson } from "./schema";
export { planSlos } from "./backtest";
export { EPHEMERAL_TOKEN_PREFIX } from "./api-token";
