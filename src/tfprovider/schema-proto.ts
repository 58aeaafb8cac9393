// Turns the provider schema JSON (`terraform providers schema -json` shape) into the
// protocol's Schema messages, and into the value types the codec needs per resource
// type. Done once per provider process; a malformed schema is reported with the path
// of the offending attribute instead of Terraform's generic "invalid schema".
import type { AttributeJson, BlockJson, ProviderSchemaJson, SchemaJson } from "./schema-json";
import { attributeType, blockType, type ObjectType, SchemaTypeError } from "./tf-types";

// ---- protocol form (field names as in proto/tfplugin6.proto) ----

type StringKind = "PLAIN" | "MARKDOWN";

export interface ProtoAttribute {
  name: string;
  type: Buffer;
  nested_type?: ProtoObject;
  description: string;
  description_kind: StringKind;
  required: boolean;
  optional: boolean;
  computed: boolean;
  sensitive: boolean;
  deprecated: boolean;
  write_only: boolean;
}
export interface ProtoObject {
  attributes: ProtoAttribute[];
  nesting: "SINGLE" | "LIST" | "SET" | "MAP";
}
export interface ProtoNestedBlock {
  type_name: string;
  block: ProtoBlock;
  nesting: "SINGLE" | "LIST" | "SET" | "MAP" | "GROUP";
  min_items: number;
  max_items: number;
}
export interface ProtoBlock {
  version: number;
  attributes: ProtoAttribute[];
  block_types: ProtoNestedBlock[];
  description: string;
  description_kind: StringKind;
  deprecated: boolean;
}
export interface ProtoSchema {
  version: number;
  block: ProtoBlock;
}

export class SchemaError extends Error {}

const ATTRIBUTE_NESTING = { single: "SINGLE", list: "LIST", set: "SET", map: "MAP" } as const;
const BLOCK_NESTING = { ...ATTRIBUTE_NESTING, group: "GROUP" } as const;

function kind(descriptionKind: string | undefined): StringKind {
  return descriptionKind === "markdown" ? "MARKDOWN" : "PLAIN";
}

function checkFlags(where: string, attr: AttributeJson): void {
  const { required = false, optional = false, computed = false } = attr;
  if (!required && !optional && !computed) throw new SchemaError(`${where}: one of required, optional or computed must be set`);
  if (required && (optional || computed)) throw new SchemaError(`${where}: required excludes optional and computed`);
  if (attr.write_only && computed) throw new SchemaError(`${where}: a write-only attribute cannot be computed`);
  if ((attr.type === undefined) === (attr.nested_type === undefined)) {
    throw new SchemaError(`${where}: exactly one of type and nested_type must be set`);
  }
}

function attributeToProto(where: string, name: string, attr: AttributeJson): ProtoAttribute {
  checkFlags(where, attr);
  const out: ProtoAttribute = {
    name,
    type: Buffer.alloc(0),
    description: attr.description ?? "",
    description_kind: kind(attr.description_kind),
    required: attr.required === true,
    optional: attr.optional === true,
    computed: attr.computed === true,
    sensitive: attr.sensitive === true,
    deprecated: attr.deprecated === true,
    write_only: attr.write_only === true,
  };
  if (attr.nested_type) {
    const nesting = ATTRIBUTE_NESTING[attr.nested_type.nesting_mode as keyof typeof ATTRIBUTE_NESTING];
    if (!nesting) throw new SchemaError(`${where}: unknown nesting_mode ${JSON.stringify(attr.nested_type.nesting_mode)}`);
    out.nested_type = { nesting, attributes: attributesToProto(where, attr.nested_type.attributes) };
  } else {
    out.type = Buffer.from(JSON.stringify(attr.type), "utf8");
  }
  return out;
}

function attributesToProto(where: string, attrs: { readonly [name: string]: AttributeJson } | undefined): ProtoAttribute[] {
  return Object.entries(attrs ?? {}).map(([name, attr]) => attributeToProto(`${where}.${name}`, name, attr));
}

function blockToProto(where: string, block: BlockJson, version: number): ProtoBlock {
  const block_types = Object.entries(block.block_types ?? {}).map(([name, nested]): ProtoNestedBlock => {
    const nesting = BLOCK_NESTING[nested.nesting_mode as keyof typeof BLOCK_NESTING];
    if (!nesting) throw new SchemaError(`${where}.${name}: unknown nesting_mode ${JSON.stringify(nested.nesting_mode)}`);
    return {
      type_name: name,
      block: blockToProto(`${where}.${name}`, nested.block, 0),
      nesting,
      min_items: nested.min_items ?? 0,
      max_items: nested.max_items ?? 0,
    };
  });
  return {
    version,
    attributes: attributesToProto(where, block.attributes),
    block_types,
    description: block.description ?? "",
    description_kind: kind(block.description_kind),
    deprecated: block.deprecated === true,
  };
}

export function schemaToProto(where: string, schema: SchemaJson): ProtoSchema {
  const version = schema.version ?? 0;
  return { version, block: blockToProto(where, schema.block, version) };
}

/** One resource, data source or provider config: its schema version and value type. */
export interface CompiledType {
  readonly version: number;
  readonly type: ObjectType;
}

export interface CompiledSchema {
  readonly provider: CompiledType;
  readonly resources: ReadonlyMap<string, CompiledType>;
  readonly dataSources: ReadonlyMap<string, CompiledType>;
  readonly ephemeralResources: ReadonlyMap<string, CompiledType>;
  /** The GetProviderSchema answer, built once. */
  readonly proto: {
    provider: ProtoSchema;
    resource_schemas: Record<string, ProtoSchema>;
    data_source_schemas: Record<string, ProtoSchema>;
    ephemeral_resource_schemas: Record<string, ProtoSchema>;
  };
}

function compileOne(where: string, schema: SchemaJson): CompiledType {
  try {
    return { version: schema.version ?? 0, type: blockType(schema.block) };
  } catch (err) {
    if (err instanceof SchemaTypeError) throw new SchemaError(`${where}: ${err.message}`);
    throw err;
  }
}

/** Validates and converts a provider schema; throws SchemaError naming the bad spot. */
export function compileSchema(schema: ProviderSchemaJson): CompiledSchema {
  if (!schema.provider?.block) throw new SchemaError("provider: a block is required (even an empty one)");
  const resources = new Map<string, CompiledType>();
  const dataSources = new Map<string, CompiledType>();
  const resource_schemas: Record<string, ProtoSchema> = {};
  const data_source_schemas: Record<string, ProtoSchema> = {};
  for (const [name, s] of Object.entries(schema.resource_schemas ?? {})) {
    resource_schemas[name] = schemaToProto(name, s);
    resources.set(name, compileOne(name, s));
  }
  for (const [name, s] of Object.entries(schema.data_source_schemas ?? {})) {
    data_source_schemas[name] = schemaToProto(`data.${name}`, s);
    dataSources.set(name, compileOne(`data.${name}`, s));
  }
  const ephemeralResources = new Map<string, CompiledType>();
  const ephemeral_resource_schemas: Record<string, ProtoSchema> = {};
  for (const [name, s] of Object.entries(schema.ephemeral_resource_schemas ?? {})) {
    ephemeral_resource_schemas[name] = schemaToProto(`ephemeral.${name}`, s);
    ephemeralResources.set(name, compileOne(`ephemeral.${name}`, s));
  }
  return {
    provider: compileOne("provider", schema.provider),
    resources,
    dataSources,
    ephemeralResources,
    proto: { provider: schemaToProto("provider", schema.provider), resource_schemas, data_source_schemas, ephemeral_resource_schemas },
  };
}
