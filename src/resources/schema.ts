// Emits the provider schema in the `terraform providers schema -json` format. It feeds
// @cdktf/provider-generator (the construct bindings) and the Terraform plugin server.
import { type Attribute, type Attributes, isNested, type PrimitiveType } from "./attributes";
import type { DataSourceKind, EphemeralKind, ResourceKind } from "./kind";

export const PROVIDER_SOURCE = "registry.terraform.io/ods/ods";
/** What every type name of this provider starts with, as Terraform reads it: `ods_`. */
export const TYPE_PREFIX = `${PROVIDER_SOURCE.split("/").pop()}_`;

type CtyType = string | [string, CtyType];

export interface SchemaAttributeJson {
  type?: CtyType;
  nested_type?: { nesting_mode: "single" | "list" | "map"; attributes: Record<string, SchemaAttributeJson> };
  description: string;
  description_kind: "plain";
  required?: boolean;
  optional?: boolean;
  computed?: boolean;
  sensitive?: boolean;
  write_only?: boolean;
}

export interface SchemaBlockJson {
  attributes: Record<string, SchemaAttributeJson>;
  description: string;
  description_kind: "plain";
}

export interface SchemaJson {
  version: number;
  block: SchemaBlockJson;
}

export interface ProviderSchemaJson {
  provider: SchemaJson;
  resource_schemas: Record<string, SchemaJson>;
  data_source_schemas: Record<string, SchemaJson>;
}

export interface ProvidersSchemaJson {
  format_version: "1.0";
  provider_schemas: Record<string, ProviderSchemaJson>;
}

function primitive(t: PrimitiveType): string {
  return t;
}

const NESTING = { object: "single", object_list: "list", object_map: "map" } as const;

function attributeJson(attr: Attribute): SchemaAttributeJson {
  const out: SchemaAttributeJson = { description: attr.description, description_kind: "plain" };
  if (isNested(attr)) {
    out.nested_type = { nesting_mode: NESTING[attr.type], attributes: attributesJson(attr.attributes) };
  } else if (attr.type === "list" || attr.type === "set" || attr.type === "map") {
    out.type = [attr.type, primitive(attr.element)];
  } else {
    out.type = primitive(attr.type);
  }
  if (attr.required) out.required = true;
  if (attr.optional) out.optional = true;
  // A default is filled in by the provider at plan time, so Terraform must accept a
  // value the config did not give: such attributes are optional+computed.
  if (attr.computed || (attr.optional && attr.default !== undefined)) out.computed = true;
  if (attr.sensitive || attr.secret) out.sensitive = true;
  if (attr.writeOnly) out.write_only = true;
  return out;
}

function attributesJson(attrs: Attributes): Record<string, SchemaAttributeJson> {
  const out: Record<string, SchemaAttributeJson> = {};
  for (const name of Object.keys(attrs).sort()) out[name] = attributeJson(attrs[name]);
  return out;
}

function blockJson(attrs: Attributes, description: string): SchemaBlockJson {
  return { attributes: attributesJson(attrs), description, description_kind: "plain" };
}

export function providerSchema(
  providerAttributes: Attributes,
  resources: readonly ResourceKind[],
  dataSources: readonly DataSourceKind[],
): ProviderSchemaJson {
  const resource_schemas: Record<string, SchemaJson> = {};
  for (const r of resources) resource_schemas[r.typeName] = { version: r.schemaVersion, block: blockJson(r.attributes, r.description) };
  const data_source_schemas: Record<string, SchemaJson> = {};
  for (const d of dataSources) data_source_schemas[d.typeName] = { version: 0, block: blockJson(d.attributes, d.description) };
  return {
    provider: { version: 0, block: blockJson(providerAttributes, "The Observability Data Service.") },
    resource_schemas,
    data_source_schemas,
  };
}

/** Ephemeral resources' schemas (version 0: nothing of them is stored, so nothing is upgraded). */
export function ephemeralSchemas(kinds: readonly EphemeralKind[]): Record<string, SchemaJson> {
  const out: Record<string, SchemaJson> = {};
  for (const k of kinds) out[k.typeName] = { version: 0, block: blockJson(k.attributes, k.description) };
  return out;
}
