// The attribute vocabulary of the resource model. One declaration per attribute drives
// the Terraform schema (and so the generated constructs), validation, the wire mapping
// and the comparison of live values with declared ones.

export type PrimitiveType = "string" | "number" | "bool";

/** Checks one non-null, fully known value; answers what was expected, or undefined when fine. */
export type ValueCheck = (value: unknown) => string | undefined;

interface AttributeCommon {
  description: string;
  /** The service's field name; defaults to the camelCase form of the attribute name. */
  wire?: string;
  required?: boolean;
  optional?: boolean;
  /** Set by the service; with `optional`, the user may also set it. */
  computed?: boolean;
  /**
   * Computed only: the service sets it anew on every write (an `updated_at`), so it is
   * known after apply whenever the object changes, not kept from state.
   */
  changesOnWrite?: boolean;
  /** Hidden in plans and outputs. */
  sensitive?: boolean;
  /**
   * The service never returns the value (docs/service-contract.md, Secrets): the engines keep a
   * salted fingerprint and compare that, since a read can never tell a change.
   */
  secret?: boolean;
  /**
   * Terraform 1.11's write_only (`<name>_wo`, derived by write-only.ts): sent to the
   * service as `<name>`, never held by a plan or a state of either engine (null there).
   */
  writeOnly?: boolean;
  /** `<name>_wo_version`: the value of `<name>_wo` is sent again when this number changes. */
  writeOnlyVersion?: boolean;
  /** The plain form of a credential that has a write-only twin `<name>_wo`. */
  writeOnlyTwin?: boolean;
  /** With writeOnlyTwin: exactly one of `<name>` and `<name>_wo` must be set. */
  twinRequired?: boolean;
  /** A changed value cannot be updated in place: the object is replaced. */
  forcesReplacement?: boolean;
  /** Never sent to the service: it steers the engine (e.g. allow_destroy). */
  engineOnly?: boolean;
  /** What the service fills in when the attribute is absent; absent and default compare equal. */
  serverDefault?: unknown;
  /** The declared value when none is given (sent to the service). */
  default?: unknown;
  /** Order carries no meaning (e-mail lists, members, capability actions). */
  unordered?: boolean;
  /** Compared as instants, so `+02:00` and `Z` forms of one time are equal. */
  timestamp?: boolean;
  /** Checks for each (element) value. */
  checks?: ValueCheck[];
  /**
   * The value (each element, for lists) names another object: a dataset by name, a role
   * or a user by id. Export writes a reference to that object; compare matches it by
   * what it points at, so ids that differ between organizations compare equal.
   */
  refersTo?: AttributeReference;
  /** For maps: the keys name other objects (capabilities keyed by dataset name). */
  keysReferTo?: AttributeReference;
  /**
   * The comparable form of a non-empty value whose text has many spellings (a JSON
   * document: key order, fields the service adds); values compare equal when their forms do.
   */
  normalize?: (value: unknown) => unknown;
  /**
   * The value is JSON text of a document (a dashboard): plans, drift and compare show
   * its changes path by path (src/reconcile/path-diff.ts), never as two escaped strings.
   */
  document?: boolean;
  /**
   * The object's version as this configuration last wrote it (optimistic concurrency):
   * a refresh keeps it, a write takes the answer's (with changesOnWrite, it is known only
   * after the write), and an update sends it back, so that
   * the service refuses to overwrite a change made by someone else since.
   */
  writeVersion?: boolean;
  /**
   * For text that embeds names of other objects (a dashboard document listing monitor
   * ids): each embedded value, as it appears JSON-quoted in the text, and what it names.
   * Export writes references there; compare sees through ids that differ.
   */
  referencesInText?: (text: string) => EmbeddedReference[];
}

export interface EmbeddedReference {
  value: string;
  ref: AttributeReference;
}

/** Which object an attribute's value names, and by which of its attributes. */
export interface AttributeReference {
  typeName: string;
  /** The attribute of the named object the value equals (`name`, `id`). */
  attribute: string;
  /** Values that name no object (built-in roles, "team", "all"). */
  except?: readonly string[];
}

export interface PrimitiveAttribute extends AttributeCommon {
  type: PrimitiveType;
}

export interface CollectionAttribute extends AttributeCommon {
  type: "list" | "set" | "map";
  element: PrimitiveType;
}

export interface NestedAttribute extends AttributeCommon {
  /** single: one object; list: a list of objects; map: objects by user-chosen key. */
  type: "object" | "object_list" | "object_map";
  attributes: Attributes;
}

export type Attribute = PrimitiveAttribute | CollectionAttribute | NestedAttribute;
export type Attributes = Readonly<Record<string, Attribute>>;

/** `chat_b_webhook_url` → `chatBWebhookUrl`. */
export function snakeToCamel(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

/** Attribute names in wire form: every conversion of an object to or from the wire asks for each. */
const camelNames = new Map<string, string>();

export function wireName(name: string, attr: Attribute): string {
  if (attr.wire !== undefined) return attr.wire;
  let camel = camelNames.get(name);
  if (camel === undefined) camelNames.set(name, (camel = snakeToCamel(name)));
  return camel;
}

export function isNested(attr: Attribute): attr is NestedAttribute {
  return attr.type === "object" || attr.type === "object_list" || attr.type === "object_map";
}

/** Whether the user can set the attribute (as opposed to read-only computed ones). */
/** One step of a path inside an object's values, as Terraform tells them apart. */
export type ValueStep = { attribute: string } | { index: number } | { key: string };

/**
 * A path inside an object's values (names, list indexes, map keys, as plain strings and
 * numbers) as steps: the kind's attribute names (and those of nested objects), list
 * indexes, and map keys.
 */
export function valueSteps(attrs: Attributes, path: readonly (string | number)[]): ValueStep[] {
  const steps: ValueStep[] = [];
  let scope: Attributes | undefined = attrs;
  let container: Attribute | undefined;
  for (const part of path) {
    if (typeof part === "string" && scope && Object.prototype.hasOwnProperty.call(scope, part)) {
      steps.push({ attribute: part });
      container = scope[part];
      scope = isNested(container) && container.type === "object" ? container.attributes : undefined;
      continue;
    }
    steps.push(typeof part === "number" ? { index: part } : { key: part });
    // An element of a nested list or map is an object with its own attributes.
    scope = container && isNested(container) ? container.attributes : undefined;
    container = undefined;
  }
  return steps;
}

export function isSettable(attr: Attribute): boolean {
  return attr.required === true || attr.optional === true;
}

// Small constructors keep the kind files readable: one line per attribute.
type Extra = Omit<AttributeCommon, "description">;

export function str(description: string, extra: Extra = {}): PrimitiveAttribute {
  return { type: "string", description, ...extra };
}
export function num(description: string, extra: Extra = {}): PrimitiveAttribute {
  return { type: "number", description, ...extra };
}
export function bool(description: string, extra: Extra = {}): PrimitiveAttribute {
  return { type: "bool", description, ...extra };
}
export function listOf(element: PrimitiveType, description: string, extra: Extra = {}): CollectionAttribute {
  return { type: "list", element, description, ...extra };
}
export function mapOf(element: PrimitiveType, description: string, extra: Extra = {}): CollectionAttribute {
  return { type: "map", element, description, ...extra };
}
export function object(attributes: Attributes, description: string, extra: Extra = {}): NestedAttribute {
  return { type: "object", attributes, description, ...extra };
}
export function objectList(attributes: Attributes, description: string, extra: Extra = {}): NestedAttribute {
  return { type: "object_list", attributes, description, ...extra };
}
export function objectMap(attributes: Attributes, description: string, extra: Extra = {}): NestedAttribute {
  return { type: "object_map", attributes, description, ...extra };
}

/** The same attributes, all read-only: for data sources that show what a resource manages. */
export function asComputed(attributes: Attributes): Attributes {
  const out: Record<string, Attribute> = {};
  for (const [name, attr] of Object.entries(attributes)) {
    if (attr.engineOnly || attr.secret || attr.writeOnly || attr.writeOnlyVersion) continue;
    const copy = { ...attr, required: false, optional: false, computed: true, default: undefined, twinRequired: undefined };
    out[name] = isNested(attr) ? { ...copy, attributes: asComputed(attr.attributes) } as NestedAttribute : copy;
  }
  return out;
}
