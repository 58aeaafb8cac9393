// DynamicValue codec: Terraform values on the wire <-> plain JS values.
//
// Representation handed to the provider implementation (TfValue):
//   null                      Terraform null (of any type)
//   string, boolean           string, bool
//   number                    number; integers beyond 2^53 arrive as exact `bigint`.
//                             Decimals with more digits than a double holds are rounded.
//   TfValue[]                 list, set (order not meaningful) and tuple
//   { [name]: TfValue }       object (every attribute of the type present, null when
//                             unset) and map (keys as given)
//   Unknown                   a value known only after apply. `UNKNOWN` is the plain
//                             marker; a decoded "refined" unknown (msgpack ext 12) is
//                             another Unknown that keeps its refinements so that
//                             copying it into a plan sends them back unchanged.
//   "dynamic" attributes carry the plain value; its type is inferred when encoding.
//
// Encoding is driven by the schema type, never by the JS shape alone: objects are
// written with every attribute of the type (null when absent; write-only attributes are
// always null because Terraform never takes them back), numbers as msgpack int
// or float, and an attribute the type does not declare is an error (a provider bug
// better caught here than as Terraform's "produced an invalid object").
import { DecodeError, Decoder, Encoder, ExtData, type ExtensionCodecType } from "@msgpack/msgpack";
import { type AttributePath, formatPath, type PathStep } from "./diagnostics";
import { parseType, type TfType, typeToJson } from "./tf-types";

/** What Terraform knows about an unknown value (wire refinement keys 1 and 2). */
export interface UnknownRefinements {
  /** true: the final value will not be null. */
  readonly notNull?: boolean;
  /** The final string value starts with this text. */
  readonly prefix?: string;
}

export class Unknown {
  /** @internal Use UNKNOWN, or decode a value; refinements only come from Terraform. */
  constructor(
    readonly refinements?: UnknownRefinements,
    /** The ext-12 payload as received, re-sent verbatim when this value is encoded. */
    readonly payload?: Uint8Array,
  ) {
    Object.freeze(this);
  }
  toString(): string {
    return "(known after apply)";
  }
  toJSON(): string {
    return this.toString();
  }
}

/** The plain unknown value: encoded as msgpack extension 0. */
export const UNKNOWN: Unknown = new Unknown();

export function isUnknown(v: unknown): v is Unknown {
  return v instanceof Unknown;
}

export type TfValue = null | boolean | number | bigint | string | Unknown | TfValue[] | TfObject;
export interface TfObject {
  [name: string]: TfValue;
}

export class ValueError extends Error {
  readonly path: AttributePath;
  constructor(
    path: AttributePath,
    message: string,
  ) {
    super(path.length > 0 ? `${formatPath(path)}: ${message}` : message);
    // A copy: the codec walks values with one path it steps in and out of (see fromWire).
    this.path = [...path];
  }
}

/** The first unknown inside a value, or undefined when the value is wholly known. */
export function findUnknown(v: TfValue | undefined, path: PathStep[] = []): AttributePath | undefined {
  if (v instanceof Unknown) return [...path];
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      path.push(i);
      const found = findUnknown(v[i], path);
      path.pop();
      if (found) return found;
    }
  } else if (isPlainObject(v)) {
    for (const k in v) {
      path.push(k);
      const found = findUnknown(v[k], path);
      path.pop();
      if (found) return found;
    }
  }
  return undefined;
}

// ------------------------------------------------------------------ helpers

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Unknown) && !ArrayBuffer.isView(v);
}

/** `step` added to `path` while `f` runs (a failure leaves it: the error copied it, and the walk ends). */
function within<T>(path: PathStep[], step: PathStep, f: () => T): T {
  path.push(step);
  const value = f();
  path.pop();
  return value;
}

/** Sets a key without letting "__proto__" (a legal Terraform map key) reach the prototype. */
function setKey(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

const NUMBER_TEXT = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const INTEGER_TEXT = /^-?\d+$/;
const INT64_MIN = -(2n ** 63n);
const UINT64_MAX = 2n ** 64n - 1n;

function numberFromBigInt(b: bigint): number | bigint {
  return b >= BigInt(Number.MIN_SAFE_INTEGER) && b <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(b) : b;
}

function numberFromText(text: string, path: AttributePath): number | bigint {
  if (!NUMBER_TEXT.test(text)) throw new ValueError(path, `expected a number, got the string ${JSON.stringify(text)}`);
  return INTEGER_TEXT.test(text) ? numberFromBigInt(BigInt(text)) : Number(text);
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  if (ArrayBuffer.isView(v)) return "binary data";
  return typeof v === "object" ? "an object" : `a ${typeof v}`;
}

// ------------------------------------------------------------------ decoding

/** How the incoming bytes were serialized; "state" is stored state JSON, read leniently. */
type Source = "msgpack" | "json" | "state";

/** Every msgpack extension is an unknown value: keep type and payload, never interpret. */
const EXTENSIONS_AS_DATA: ExtensionCodecType<undefined> = {
  tryToEncode: (object) => (object instanceof ExtData ? object : null),
  decode: (data, type) => new ExtData(type, data),
};

// One decoder and one encoder per process: the module-level decode()/encode() build a
// new one (with its key caches) for every call, thousands of times per plan.
const decoder = new Decoder({ extensionCodec: EXTENSIONS_AS_DATA, useBigInt64: true });
const encoder = new Encoder({ extensionCodec: EXTENSIONS_AS_DATA, useBigInt64: true });

/**
 * The msgpack decoder refuses a map key "__proto__" outright, with no path, so that
 * Terraform would show a bare decoding error. Such a key is read under a stand-in of the
 * same encoded length (a fixstr of 9 bytes) and named back to "__proto__" as an own
 * property, so that the validation refuses it naming its attribute path (see
 * resources/reserved-keys.ts).
 */
const PROTO_KEY = Buffer.from("\xa9__proto__", "latin1");
const PROTO_STAND_IN = "\u0000_proto__";
const PROTO_STAND_IN_BYTES = Buffer.from(`\xa9${PROTO_STAND_IN}`, "latin1");

function decodeMsgpack(bytes: Uint8Array): unknown {
  try {
    return decoder.decode(bytes);
  } catch (err) {
    if (!(err instanceof DecodeError) || !err.message.includes("__proto__")) throw err;
    const copy = Buffer.from(bytes);
    for (let at = copy.indexOf(PROTO_KEY); at >= 0; at = copy.indexOf(PROTO_KEY, at + PROTO_KEY.length)) PROTO_STAND_IN_BYTES.copy(copy, at);
    return decoder.decode(copy);
  }
}

const REFINE_NULLNESS = 1;
const REFINE_PREFIX = 2;

function unknownFromExt(ext: ExtData): Unknown {
  if (ext.type !== 12 || !(ext.data instanceof Uint8Array) || ext.data.length === 0) return UNKNOWN;
  let refinements: UnknownRefinements = {};
  try {
    const decoded = decoder.decode(ext.data);
    if (isPlainObject(decoded)) {
      const nullness = decoded[String(REFINE_NULLNESS)];
      const prefix = decoded[String(REFINE_PREFIX)];
      if (nullness === false) refinements = { ...refinements, notNull: true };
      if (typeof prefix === "string" && prefix !== "") refinements = { ...refinements, prefix };
    }
  } catch {
    // Refinements are advisory: an unreadable payload is still an unknown value.
  }
  return new Unknown(refinements, ext.data);
}

/**
 * `path` is where `raw` sits: one array per decode, stepped into and out of (a new array
 * per attribute was most of what a decode allocated); errors copy it.
 */
function fromWire(raw: unknown, type: TfType, path: PathStep[], source: Source): TfValue {
  if (raw === null || raw === undefined) return null;
  if (raw instanceof ExtData) return unknownFromExt(raw);
  switch (type.kind) {
    case "string":
      if (typeof raw === "string") return raw;
      if (source === "state" && (typeof raw === "number" || typeof raw === "boolean")) return String(raw);
      break;
    case "number":
      if (typeof raw === "number") return raw;
      if (typeof raw === "bigint") return numberFromBigInt(raw);
      if (typeof raw === "string") return numberFromText(raw, path);
      break;
    case "bool":
      if (typeof raw === "boolean") return raw;
      if (source === "state" && (raw === "true" || raw === "false")) return raw === "true";
      break;
    case "list":
    case "set":
      if (Array.isArray(raw)) return raw.map((item, i) => within(path, i, () => fromWire(item, type.element, path, source)));
      break;
    case "tuple":
      if (Array.isArray(raw)) return type.elements.map((t, i) => within(path, i, () => fromWire(raw[i], t, path, source)));
      break;
    case "map":
      if (isPlainObject(raw)) {
        const out: TfObject = {};
        for (const [k, item] of Object.entries(raw)) {
          const key = source === "msgpack" && k === PROTO_STAND_IN ? "__proto__" : k;
          setKey(out, key, within(path, { key }, () => fromWire(item, type.element, path, source)));
        }
        return out;
      }
      break;
    case "object":
      if (isPlainObject(raw)) {
        const out: TfObject = {};
        for (const [name, t] of type.attributes) {
          path.push(name);
          setKey(out, name, fromWire(raw[name], t, path, source));
          path.pop();
        }
        return out;
      }
      break;
    case "dynamic":
      return dynamicFromWire(raw, path, source);
  }
  throw new ValueError(path, `expected ${type.kind}, got ${describe(raw)}`);
}

function dynamicFromWire(raw: unknown, path: PathStep[], source: Source): TfValue {
  // msgpack: [JSON type as bytes, value]; JSON and state: {"type": T, "value": V}.
  if (source === "msgpack" && Array.isArray(raw) && raw.length === 2 && raw[0] instanceof Uint8Array) {
    return fromWire(raw[1], parseType(JSON.parse(Buffer.from(raw[0]).toString("utf8"))), path, source);
  }
  if (source !== "msgpack" && isPlainObject(raw) && "type" in raw && "value" in raw) {
    return fromWire(raw.value, parseType(raw.type), path, source);
  }
  throw new ValueError(path, `malformed dynamic value`);
}

export interface WireDynamicValue {
  msgpack?: Uint8Array | null;
  json?: Uint8Array | null;
}

/**
 * Decodes a DynamicValue (msgpack preferred, json as fallback) under `type`. An absent
 * or empty DynamicValue is null (Terraform sends one for "no object", e.g. the prior
 * state of a resource being created).
 */
export function decodeDynamicValue(dv: WireDynamicValue | null | undefined, type: TfType): TfValue {
  if (dv?.msgpack && dv.msgpack.length > 0) {
    const raw = decodeMsgpack(dv.msgpack);
    return fromWire(raw, type, [], "msgpack");
  }
  if (dv?.json && dv.json.length > 0) {
    return fromWire(JSON.parse(Buffer.from(dv.json).toString("utf8")), type, [], "json");
  }
  return null;
}

/** Parses stored state JSON (UpgradeResourceState's raw_state.json) without a schema. */
export function parseRawState(json: Uint8Array): Record<string, unknown> {
  const raw: unknown = JSON.parse(Buffer.from(json).toString("utf8"));
  if (!isPlainObject(raw)) throw new ValueError([], "stored state is not a JSON object");
  return raw;
}

/**
 * Reads stored state JSON under the CURRENT schema type, leniently: attributes the
 * schema no longer has are dropped, new ones are null, and primitive values stored
 * under an older type are converted the way Terraform converts them (number and bool
 * to string, "true"/"false" to bool, numeric strings to number).
 */
export function conformRawState(raw: Record<string, unknown>, type: TfType): TfValue {
  return fromWire(raw, type, [], "state");
}

// ------------------------------------------------------------------ encoding

const UNKNOWN_EXT = new ExtData(0, new Uint8Array([0]));

function unknownToWire(u: Unknown): ExtData {
  return u.payload && u.payload.length > 0 ? new ExtData(12, u.payload) : UNKNOWN_EXT;
}

function numberToWire(v: unknown, path: AttributePath): unknown {
  if (typeof v === "number") {
    if (Number.isNaN(v)) throw new ValueError(path, "NaN is not a Terraform number");
    return v; // the encoder writes safe integers as msgpack int, anything else as float64
  }
  if (typeof v === "bigint") {
    if (v >= INT64_MIN && v <= UINT64_MAX) return numberFromBigInt(v);
    return v.toString(); // beyond 64 bits: decimal text, which the wire format allows
  }
  if (typeof v === "string") {
    numberFromText(v, path);
    return v;
  }
  throw new ValueError(path, `expected number, got ${describe(v)}`);
}

/** `path` as in fromWire. */
function toWire(v: unknown, type: TfType, path: PathStep[]): unknown {
  if (v === null || v === undefined) return null;
  if (v instanceof Unknown) return unknownToWire(v);
  switch (type.kind) {
    case "string":
      if (typeof v === "string") return v;
      if (typeof v === "number" || typeof v === "bigint" || typeof v === "boolean") return String(v);
      break;
    case "number":
      return numberToWire(v, path);
    case "bool":
      if (typeof v === "boolean") return v;
      if (v === "true" || v === "false") return v === "true";
      break;
    case "list":
    case "set": {
      const items = v instanceof Set ? [...(v as Set<unknown>)] : v;
      if (Array.isArray(items)) return items.map((item, i) => within(path, i, () => toWire(item, type.element, path)));
      break;
    }
    case "tuple":
      if (Array.isArray(v)) {
        if (v.length !== type.elements.length) throw new ValueError(path, `expected a tuple of ${type.elements.length} elements, got ${v.length}`);
        return type.elements.map((t, i) => within(path, i, () => toWire(v[i], t, path)));
      }
      break;
    case "map":
      if (isPlainObject(v)) {
        const out: Record<string, unknown> = {};
        for (const [k, item] of Object.entries(v)) setKey(out, k, within(path, { key: k }, () => toWire(item, type.element, path)));
        return out;
      }
      break;
    case "object":
      if (isPlainObject(v)) {
        for (const k in v) {
          if (!type.attributes.has(k)) throw new ValueError([...path, k], "attribute is not in the schema");
        }
        const out: Record<string, unknown> = {};
        for (const [name, t] of type.attributes) {
          // Terraform rejects any non-null write-only value coming back from a provider.
          path.push(name);
          setKey(out, name, type.writeOnly?.has(name) ? null : toWire(v[name], t, path));
          path.pop();
        }
        return out;
      }
      break;
    case "dynamic": {
      const actual = inferType(v, path);
      return [Buffer.from(JSON.stringify(typeToJson(actual))), toWire(v, actual, path)];
    }
  }
  throw new ValueError(path, `expected ${type.kind}, got ${describe(v)}`);
}

/** The Terraform type of a plain JS value, for "dynamic" attributes. */
function inferType(v: unknown, path: PathStep[]): TfType {
  if (typeof v === "string") return { kind: "string" };
  if (typeof v === "number" || typeof v === "bigint") return { kind: "number" };
  if (typeof v === "boolean") return { kind: "bool" };
  if (v === null || v === undefined || v instanceof Unknown) return { kind: "dynamic" };
  if (Array.isArray(v)) return { kind: "tuple", elements: v.map((item, i) => inferType(item, [...path, i])) };
  if (isPlainObject(v)) {
    return { kind: "object", attributes: new Map(Object.entries(v).map(([k, item]) => [k, inferType(item, [...path, k])])) };
  }
  throw new ValueError(path, `cannot send ${describe(v)} as a Terraform value`);
}

/** Encodes a value as the msgpack DynamicValue Terraform expects under `type`. */
export function encodeDynamicValue(value: TfValue | undefined, type: TfType): { msgpack: Uint8Array } {
  const wire = toWire(value, type, []);
  return { msgpack: encoder.encode(wire) };
}
