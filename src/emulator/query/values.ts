// Runtime values of the query language and the rules that compare and print them.
// JSON has one number type, but the language distinguishes integers from floats,
// and datetimes and timespans from strings; datetimes and timespans are therefore
// small wrapper classes, and integer-ness comes from the static type (see ValueType).

import { formatIsoTime, formatTimespan, normalizeTimeText, parseIsoTime } from "./time";

/** The static type of an expression or column; "dynamic" is "not known before running". */
export type ValueType = "integer" | "float" | "string" | "boolean" | "datetime" | "timespan" | "dynamic";

/** A point in time. `text` keeps the stored spelling (sub-millisecond digits) for output. */
export class DateTimeValue {
  /**
   * Its printed form, once asked for: a bin's time is printed once per group, list and
   * sort. A private field: not an own property, so JSON and structured clones never see it.
   */
  #printed: string | undefined = undefined;
  constructor(
    readonly ms: number,
    readonly text?: string,
  ) {}
  toString(): string {
    return (this.#printed ??= this.text === undefined ? formatIsoTime(this.ms) : normalizeTimeText(this.text));
  }
}

/** A duration, in milliseconds (fractions allowed). */
export class TimespanValue {
  constructor(readonly ms: number) {}
  toString(): string {
    return formatTimespan(this.ms);
  }
}

/**
 * null, boolean, number, string, DateTimeValue, TimespanValue, or a dynamic value: an
 * array (Value[]) or a property bag (a plain object of Values).
 */
export type Value = null | boolean | number | string | object;

/** A property bag: `dynamic({"a": 1})`, a parsed JSON object, a stored object. */
export type Bag = { [key: string]: Value };

export function isBag(v: Value): v is Bag {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof DateTimeValue) && !(v instanceof TimespanValue);
}

export function isArray(v: Value): v is Value[] {
  return Array.isArray(v);
}

/** The type a field's metadata names, as the evaluator should treat the field. */
export function valueTypeOfMeta(metaType: string): ValueType {
  switch (metaType) {
    case "integer":
    case "float":
    case "string":
    case "boolean":
    case "datetime":
    case "timespan":
      return metaType;
    default: {
      // The service reports mixed numeric fields as "integer|float".
      const parts = metaType.split("|").filter((p) => p !== "");
      if (parts.length > 0 && parts.every((p) => p === "integer" || p === "float")) return "float";
      return "dynamic";
    }
  }
}

/** The type name of one runtime value, as the tabular layout spells it; null has none. */
export function typeNameOfValue(v: Value): string | null {
  if (v === null) return null;
  if (typeof v === "boolean") return "boolean";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "float";
  if (typeof v === "string") return "string";
  if (v instanceof DateTimeValue) return "datetime";
  if (v instanceof TimespanValue) return "timespan";
  if (Array.isArray(v)) return "array";
  return "object";
}

/** Converts a stored JSON value to a runtime value of the field's static type. */
export function fromStored(raw: unknown, type: ValueType): Value {
  if (raw === undefined || raw === null) return null;
  if (type === "datetime" && typeof raw === "string") {
    const ms = parseIsoTime(raw);
    return ms === undefined ? raw : new DateTimeValue(ms, raw);
  }
  return raw as Value;
}

/** The JSON a response carries for a runtime value. */
export function toJson(v: Value): unknown {
  if (v instanceof DateTimeValue || v instanceof TimespanValue) return v.toString();
  if (typeof v === "number" && !Number.isFinite(v)) return null;
  if (Array.isArray(v)) return v.map((x: Value) => toJson(x));
  if (isBag(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = toJson(x);
    return out;
  }
  return v;
}

/** A JSON value (parsed or stored) as a runtime value: JSON is already one. */
export function fromJson(raw: unknown): Value {
  return raw === undefined ? null : (raw as Value);
}

/** Text form used by string functions and string operators. */
export function toText(v: Value): string {
  if (v === null) return "";
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (v instanceof DateTimeValue || v instanceof TimespanValue) return v.toString();
  return JSON.stringify(toJson(v));
}

/** A key that is equal for equal values, for grouping and distinct counts. */
export function valueKey(v: Value): string {
  if (v === null) return "n";
  if (typeof v === "number") return `d:${v}`;
  if (typeof v === "string") return `s:${v}`;
  if (typeof v === "boolean") return `b:${v}`;
  if (v instanceof DateTimeValue) return `t:${v.ms}`;
  if (v instanceof TimespanValue) return `p:${v.ms}`;
  return `o:${JSON.stringify(toJson(v))}`;
}

function typeRank(v: Value): number {
  if (v === null) return 0;
  if (typeof v === "boolean") return 1;
  if (typeof v === "number") return 2;
  if (v instanceof TimespanValue) return 3;
  if (v instanceof DateTimeValue) return 4;
  if (typeof v === "string") return 5;
  return 6;
}

/**
 * Brings two operands to a comparable pair, or undefined when they cannot be compared.
 * Lenient on purpose: a datetime against an ISO string compares as datetimes, a number
 * against a numeric string as numbers (the legacy filter sends values as JSON strings).
 */
function comparable(a: Value, b: Value): [number, number] | [string, string] | undefined {
  if (typeof a === "number" && typeof b === "number") return [a, b];
  if (typeof a === "string" && typeof b === "string") return [a, b];
  if (typeof a === "boolean" && typeof b === "boolean") return [Number(a), Number(b)];
  if (a instanceof DateTimeValue || b instanceof DateTimeValue) {
    const x = asTimeMs(a);
    const y = asTimeMs(b);
    return x === undefined || y === undefined ? undefined : [x, y];
  }
  if (a instanceof TimespanValue && b instanceof TimespanValue) return [a.ms, b.ms];
  if (typeof a === "number" && typeof b === "string") return numericPair(a, b);
  if (typeof a === "string" && typeof b === "number") {
    const pair = numericPair(b, a);
    return pair && [pair[1], pair[0]];
  }
  return undefined;
}

function numericPair(n: number, s: string): [number, number] | undefined {
  const parsed = s.trim() === "" ? NaN : Number(s);
  return Number.isNaN(parsed) ? undefined : [n, parsed];
}

function asTimeMs(v: Value): number | undefined {
  if (v instanceof DateTimeValue) return v.ms;
  if (typeof v === "string") return parseIsoTime(v);
  return undefined;
}

/** Equality of the `==` operator: null when either side is null (three-valued logic). */
export function valuesEqual(a: Value, b: Value): boolean | null {
  if (a === null || b === null) return null;
  const pair = comparable(a, b);
  if (pair) return pair[0] === pair[1];
  return valueKey(a) === valueKey(b);
}

/** Sign of a - b for `<`-style operators, or null when the values do not compare. */
export function compareOperands(a: Value, b: Value): number | null {
  if (a === null || b === null) return null;
  const pair = comparable(a, b);
  if (!pair) return null;
  return pair[0] < pair[1] ? -1 : pair[0] > pair[1] ? 1 : 0;
}

/** A total order over all values (for sort, min, max): by type first, then by value. */
export function compareTotal(a: Value, b: Value): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra - rb;
  const c = compareOperands(a, b);
  if (c !== null) return c;
  const ka = valueKey(a);
  const kb = valueKey(b);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/** Order of `sort by`: nulls placed by `nullsFirst`, others by compareTotal. */
export function compareForSort(a: Value, b: Value, desc: boolean, nullsFirst: boolean): number {
  if (a === null || b === null) {
    if (a === b) return 0;
    return (a === null) === nullsFirst ? -1 : 1;
  }
  const c = compareTotal(a, b);
  return desc ? -c : c;
}
