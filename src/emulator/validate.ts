// Readers for request bodies. Each names the offending field (dotted path) in its 400,
// because a client fixing a rejected body needs to know which attribute to change.
// `null` counts as absent: JSON clients often send it for unset optionals.
import { badRequest } from "./errors";
import { normalizeTimestamp } from "./time";

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// Keys in request bodies are data, and may be "__proto__" or "constructor" (a dataset
// can be named so). Reading them must never reach Object.prototype, and writing them
// must make an own property, exactly as JSON.parse does when the journal is replayed:
// otherwise what is answered and what is stored differ (docs/service-contract.md, section 10).

/** obj[key] when it is obj's own property, else undefined. */
export function own<T>(obj: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/** Sets obj[key] as an own data property, even for "__proto__". */
export function setOwn<T>(obj: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}

function fieldPath(parent: string, key: string): string {
  return parent ? `${parent}.${key}` : key;
}

/** The request body as an object, or 400. */
export function bodyObject(body: unknown): JsonObject {
  if (!isObject(body)) throw badRequest(`request body must be a JSON object, got ${body === undefined ? "nothing" : describe(body)}`);
  return body;
}

export function requiredString(obj: JsonObject, key: string, parent = ""): string {
  const value = obj[key];
  const path = fieldPath(parent, key);
  if (value === undefined || value === null) throw badRequest(`"${path}" is required`);
  if (typeof value !== "string") throw badRequest(`"${path}" must be a string, got ${describe(value)}`);
  if (value.trim() === "") throw badRequest(`"${path}" must not be empty`);
  return value;
}

/** An optional string; absent answers `""` (the service's server-filled default). */
export function optionalString(obj: JsonObject, key: string, parent = ""): string {
  const value = obj[key];
  if (value === undefined || value === null) return "";
  if (typeof value !== "string") throw badRequest(`"${fieldPath(parent, key)}" must be a string, got ${describe(value)}`);
  return value;
}

export function optionalBoolean(obj: JsonObject, key: string, parent = ""): boolean | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "boolean") throw badRequest(`"${fieldPath(parent, key)}" must be a boolean, got ${describe(value)}`);
  return value;
}

export function optionalInteger(obj: JsonObject, key: string, parent = ""): number | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isSafeInteger(value)) {
    throw badRequest(`"${fieldPath(parent, key)}" must be an integer, got ${describe(value)}`);
  }
  return value;
}

/** An optional finite number within [min, max]. */
export function optionalNumber(obj: JsonObject, key: string, min: number, max: number, parent = ""): number | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  const path = fieldPath(parent, key);
  if (typeof value !== "number" || !Number.isFinite(value)) throw badRequest(`"${path}" must be a number, got ${describe(value)}`);
  if (value < min || value > max) throw badRequest(`"${path}" must be from ${min} to ${max}, got ${value}`);
  return value;
}

/** An optional integer within [min, max]. */
export function optionalIntegerIn(obj: JsonObject, key: string, min: number, max: number, parent = ""): number | undefined {
  const value = optionalInteger(obj, key, parent);
  if (value !== undefined && (value < min || value > max)) throw badRequest(`"${fieldPath(parent, key)}" must be an integer from ${min} to ${max}, got ${value}`);
  return value;
}

/** An optional object, kept as sent; absent answers `{}`. */
export function optionalObject(obj: JsonObject, key: string, parent = ""): JsonObject {
  const value = obj[key];
  if (value === undefined || value === null) return {};
  if (!isObject(value)) throw badRequest(`"${fieldPath(parent, key)}" must be an object, got ${describe(value)}`);
  return value;
}

export function requiredObject(obj: JsonObject, key: string, parent = ""): JsonObject {
  const value = obj[key];
  const path = fieldPath(parent, key);
  if (value === undefined || value === null) throw badRequest(`"${path}" is required`);
  if (!isObject(value)) throw badRequest(`"${path}" must be an object, got ${describe(value)}`);
  return value;
}

/** An optional array of strings; absent answers `[]`. */
export function optionalStringArray(obj: JsonObject, key: string, parent = ""): string[] {
  const value = obj[key];
  const path = fieldPath(parent, key);
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw badRequest(`"${path}" must be an array of strings, got ${describe(value)}`);
  return value.map((item, i) => {
    if (typeof item !== "string") throw badRequest(`"${path}[${i}]" must be a string, got ${describe(item)}`);
    return item;
  });
}

/** An optional map of string to string; absent answers `{}`. */
export function optionalStringMap(obj: JsonObject, key: string, parent = ""): Record<string, string> {
  const value = optionalObject(obj, key, parent);
  const path = fieldPath(parent, key);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== "string") throw badRequest(`"${path}.${k}" must be a string, got ${describe(v)}`);
    setOwn(out, k, v);
  }
  return out;
}

/** An optional RFC 3339 timestamp, normalized to UTC; absent (or `""`) answers `""`. */
export function optionalTimestamp(obj: JsonObject, key: string, parent = ""): string {
  const value = optionalString(obj, key, parent);
  if (value === "") return "";
  const normalized = normalizeTimestamp(value);
  if (normalized === undefined) {
    throw badRequest(`"${fieldPath(parent, key)}" must be an ISO 8601 timestamp such as 2027-01-01T00:00:00Z, got ${JSON.stringify(value)}`);
  }
  return normalized;
}

export function requiredTimestamp(obj: JsonObject, key: string, parent = ""): string {
  requiredString(obj, key, parent);
  return optionalTimestamp(obj, key, parent);
}

const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

export function checkEmail(value: string, path: string): string {
  if (!EMAIL.test(value)) throw badRequest(`"${path}" must be an e-mail address, got ${JSON.stringify(value)}`);
  return value;
}

/** An http(s) URL; `""` stands for "not set" and is kept. */
export function checkHttpUrl(value: string, path: string): string {
  if (value === "") return value;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || !url.hostname) {
    // The value is not echoed: chat and webhook URLs often embed a credential.
    throw badRequest(`"${path}" must be an http or https URL`);
  }
  return value;
}
