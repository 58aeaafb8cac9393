// Terraform's type system, as far as the wire codec needs it: a parsed form of the JSON
// type constraints, and the object type a schema block implies (attributes plus nested
// blocks), which is the type of every resource, data source and provider config value.
import type { AttributeJson, BlockJson, TypeJson } from "./schema-json";

export type TfType =
  | { readonly kind: "string" }
  | { readonly kind: "number" }
  | { readonly kind: "bool" }
  | { readonly kind: "dynamic" }
  | { readonly kind: "list" | "set" | "map"; readonly element: TfType }
  | {
      readonly kind: "object";
      readonly attributes: ReadonlyMap<string, TfType>;
      /** Attributes declared write_only: Terraform never takes their value back from us. */
      readonly writeOnly?: ReadonlySet<string>;
    }
  | { readonly kind: "tuple"; readonly elements: readonly TfType[] };

export type ObjectType = Extract<TfType, { kind: "object" }>;

const STRING: TfType = { kind: "string" };
const NUMBER: TfType = { kind: "number" };
const BOOL: TfType = { kind: "bool" };
const DYNAMIC: TfType = { kind: "dynamic" };

export class SchemaTypeError extends Error {}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Parses a JSON type constraint (`"string"`, `["list","string"]`, ...). */
export function parseType(json: TypeJson | unknown): TfType {
  if (typeof json === "string") {
    switch (json) {
      case "string":
        return STRING;
      case "number":
        return NUMBER;
      case "bool":
        return BOOL;
      case "dynamic":
        return DYNAMIC;
      default:
        throw new SchemaTypeError(`unknown primitive type ${JSON.stringify(json)}`);
    }
  }
  if (!Array.isArray(json) || json.length < 2) throw new SchemaTypeError(`invalid type constraint ${JSON.stringify(json)}`);
  const [kind, arg] = json as [unknown, unknown];
  switch (kind) {
    case "list":
    case "set":
    case "map":
      return { kind, element: parseType(arg) };
    case "object": {
      if (!isRecord(arg)) throw new SchemaTypeError(`object type needs a map of attribute types`);
      const attributes = new Map<string, TfType>();
      for (const [name, t] of Object.entries(arg)) attributes.set(name, parseType(t));
      return { kind: "object", attributes };
    }
    case "tuple":
      if (!Array.isArray(arg)) throw new SchemaTypeError(`tuple type needs a list of element types`);
      return { kind: "tuple", elements: arg.map((t) => parseType(t)) };
    default:
      throw new SchemaTypeError(`unknown type kind ${JSON.stringify(kind)}`);
  }
}

/** The JSON form of a type, as Terraform writes it (inverse of parseType). */
export function typeToJson(t: TfType): unknown {
  switch (t.kind) {
    case "list":
    case "set":
    case "map":
      return [t.kind, typeToJson(t.element)];
    case "object":
      return ["object", Object.fromEntries([...t.attributes].map(([k, v]) => [k, typeToJson(v)]))];
    case "tuple":
      return ["tuple", t.elements.map(typeToJson)];
    default:
      return t.kind;
  }
}

const NESTED_ATTRIBUTE_MODES = new Set(["single", "list", "set", "map"]);

/** The type of one attribute's value (a plain type, or the objects of a nested_type). */
export function attributeType(name: string, attr: AttributeJson): TfType {
  if (attr.nested_type !== undefined) {
    const mode = attr.nested_type.nesting_mode;
    if (!NESTED_ATTRIBUTE_MODES.has(mode)) throw new SchemaTypeError(`attribute ${name}: unknown nesting_mode ${JSON.stringify(mode)}`);
    const object = objectOf(attr.nested_type.attributes);
    return mode === "single" ? object : { kind: mode as "list" | "set" | "map", element: object };
  }
  if (attr.type === undefined) throw new SchemaTypeError(`attribute ${name} has neither type nor nested_type`);
  try {
    return parseType(attr.type);
  } catch (err) {
    throw new SchemaTypeError(`attribute ${name}: ${(err as Error).message}`);
  }
}

function objectOf(attrs: { readonly [name: string]: AttributeJson } | undefined): ObjectType {
  const attributes = new Map<string, TfType>();
  const writeOnly = new Set<string>();
  for (const [name, attr] of Object.entries(attrs ?? {})) {
    attributes.set(name, attributeType(name, attr));
    if (attr.write_only === true) writeOnly.add(name);
  }
  return writeOnly.size > 0 ? { kind: "object", attributes, writeOnly } : { kind: "object", attributes };
}

/**
 * The object type of a block's value: one entry per attribute and one per nested block
 * type. Nested blocks become an object (single, group), a list or set of objects, or a
 * map of objects keyed by the block label.
 */
export function blockType(block: BlockJson): ObjectType {
  const object = objectOf(block.attributes);
  const attributes = new Map(object.attributes);
  for (const [name, nested] of Object.entries(block.block_types ?? {})) {
    const inner = blockType(nested.block);
    switch (nested.nesting_mode) {
      case "single":
      case "group":
        attributes.set(name, inner);
        break;
      case "list":
      case "set":
      case "map":
        attributes.set(name, { kind: nested.nesting_mode, element: inner });
        break;
      default:
        throw new SchemaTypeError(`block ${name}: unknown nesting_mode ${JSON.stringify(nested.nesting_mode)}`);
    }
  }
  return object.writeOnly ? { kind: "object", attributes, writeOnly: object.writeOnly } : { kind: "object", attributes };
}
