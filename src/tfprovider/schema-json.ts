// The provider schema in the shape `terraform providers schema -json` prints for ONE
// provider. The resource model emits this shape (it also feeds the CDKTF binding
// generator), and the plugin server converts it to the protocol's Schema messages.
//
// The types are deliberately wide (plain `string` where the JSON has a closed set of
// words) so that any emitter producing the documented JSON is accepted; the server
// checks the closed sets at start-up (see schema-proto.ts).

/**
 * A Terraform type constraint in its JSON form: `"string"`, `"number"`, `"bool"`,
 * `"dynamic"`, `["list", T]`, `["set", T]`, `["map", T]`, `["object", {name: T}]`
 * (optionally with a third element listing optional attribute names) or
 * `["tuple", [T, ...]]`.
 */
export type TypeJson =
  | string
  | readonly [string, TypeJson | { readonly [name: string]: TypeJson } | readonly TypeJson[]]
  | readonly [string, { readonly [name: string]: TypeJson }, readonly string[]];

export interface NestedTypeJson {
  /** "single" | "list" | "set" | "map" */
  readonly nesting_mode: string;
  readonly attributes: { readonly [name: string]: AttributeJson };
}

export interface AttributeJson {
  /** Exactly one of `type` and `nested_type` is set. */
  readonly type?: TypeJson;
  readonly nested_type?: NestedTypeJson;
  readonly description?: string;
  /** "plain" | "markdown" */
  readonly description_kind?: string;
  readonly deprecated?: boolean;
  readonly required?: boolean;
  readonly optional?: boolean;
  readonly computed?: boolean;
  readonly sensitive?: boolean;
  /** Protocol 6.8: the value is sent to the provider but never stored in state or plan. */
  readonly write_only?: boolean;
}

export interface BlockTypeJson {
  /** "single" | "list" | "set" | "map" | "group" */
  readonly nesting_mode: string;
  readonly block: BlockJson;
  readonly min_items?: number;
  readonly max_items?: number;
}

export interface BlockJson {
  readonly attributes?: { readonly [name: string]: AttributeJson };
  readonly block_types?: { readonly [name: string]: BlockTypeJson };
  readonly description?: string;
  readonly description_kind?: string;
  readonly deprecated?: boolean;
}

export interface SchemaJson {
  readonly version?: number;
  readonly block: BlockJson;
}

export interface ProviderSchemaJson {
  readonly provider: SchemaJson;
  readonly resource_schemas: { readonly [typeName: string]: SchemaJson };
  readonly data_source_schemas: { readonly [typeName: string]: SchemaJson };
  /** Terraform 1.10+: `ephemeral` blocks, opened and closed within one run, never stored. */
  readonly ephemeral_resource_schemas?: { readonly [typeName: string]: SchemaJson };
}
