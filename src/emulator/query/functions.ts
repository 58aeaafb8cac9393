// Scalar functions of the query language: argument counts, result types, behaviour.
// Conversions follow the language's habit of answering null rather than failing
// (toint("abc") is null), so one odd event never fails a whole query.

import type { QueryContext } from "./table";
import { parseIsoTime } from "./time";
import { DateTimeValue, TimespanValue, toText, type Value, type ValueType } from "./values";

export interface ScalarFunction {
  minArgs: number;
  maxArgs: number;
  returns: (argTypes: ValueType[]) => ValueType;
  call: (args: Value[], ctx: QueryContext) => Value;
}

const fixed =
  (t: ValueType) =>
  (): ValueType =>
    t;
const sameAsFirst = (types: ValueType[]): ValueType => types[0] ?? "dynamic";
/** The common type of several branches, or dynamic when they differ. */
const common = (types: ValueType[]): ValueType => (types.every((t) => t === types[0]) ? (types[0] ?? "dynamic") : "dynamic");

function toNumber(v: Value): number | null {
  if (typeof v === "number") return Number.isFinite(v) ? v : null;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "string") {
    if (v.trim() === "") return null;
    const n = Number(v);
    return Number.isFinite(n) ? n : null;
  }
  if (v instanceof DateTimeValue || v instanceof TimespanValue) return v.ms;
  return null;
}

function toInteger(v: Value): number | null {
  const n = toNumber(v);
  return n === null ? null : Math.trunc(n);
}

function toBool(v: Value): boolean | null {
  if (typeof v === "boolean") return v;
  if (typeof v === "number") return v !== 0;
  if (typeof v === "string") {
    const l = v.trim().toLowerCase();
    if (l === "true" || l === "1") return true;
    if (l === "false" || l === "0") return false;
  }
  return null;
}

function toDatetime(v: Value): DateTimeValue | null {
  if (v instanceof DateTimeValue) return v;
  if (typeof v === "string") {
    const ms = parseIsoTime(v);
    return ms === undefined ? null : new DateTimeValue(ms);
  }
  return null;
}

const stringFn =
  (f: (s: string) => Value) =>
  (args: Value[]): Value =>
    args[0] === null ? null : f(toText(args[0]));

/** `bin(value, size)`: rounds down to a multiple of size (numbers, datetimes, timespans). */
export function binValue(v: Value, size: Value): Value {
  if (v === null || size === null) return null;
  const width = size instanceof TimespanValue ? size.ms : typeof size === "number" ? size : null;
  if (width === null || !(width > 0)) return null;
  const floor = (x: number): number => Math.floor(x / width) * width;
  if (typeof v === "number") return floor(v);
  if (v instanceof DateTimeValue) return new DateTimeValue(floor(v.ms));
  if (v instanceof TimespanValue) return new TimespanValue(floor(v.ms));
  return null;
}

function substring(args: Value[]): Value {
  if (args[0] === null) return null;
  const s = toText(args[0]);
  const start = Math.max(0, toInteger(args[1]) ?? 0);
  const length = args.length > 2 ? toInteger(args[2]) : null;
  if (length !== null && length < 0) return "";
  return length === null ? s.slice(start) : s.slice(start, start + length);
}

function round(args: Value[]): Value {
  const n = toNumber(args[0]);
  if (n === null) return null;
  const digits = args.length > 1 ? (toInteger(args[1]) ?? 0) : 0;
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

function ago(args: Value[], ctx: QueryContext): Value {
  const span = args[0];
  return span instanceof TimespanValue ? new DateTimeValue(ctx.nowMs - span.ms) : null;
}

const iff = (args: Value[]): Value => (args[0] === true ? args[1] : args[2]);

export const SCALAR_FUNCTIONS: ReadonlyMap<string, ScalarFunction> = new Map<string, ScalarFunction>([
  ["strlen", { minArgs: 1, maxArgs: 1, returns: fixed("integer"), call: stringFn((s) => [...s].length) }],
  ["tolower", { minArgs: 1, maxArgs: 1, returns: fixed("string"), call: stringFn((s) => s.toLowerCase()) }],
  ["toupper", { minArgs: 1, maxArgs: 1, returns: fixed("string"), call: stringFn((s) => s.toUpperCase()) }],
  ["trim", { minArgs: 1, maxArgs: 1, returns: fixed("string"), call: stringFn((s) => s.trim()) }],
  ["strcat", { minArgs: 1, maxArgs: 64, returns: fixed("string"), call: (args) => args.map(toText).join("") }],
  ["substring", { minArgs: 2, maxArgs: 3, returns: fixed("string"), call: substring }],
  [
    "indexof",
    {
      minArgs: 2,
      maxArgs: 2,
      returns: fixed("integer"),
      call: (args) => (args[0] === null ? null : toText(args[0]).indexOf(toText(args[1]))),
    },
  ],
  ["tostring", { minArgs: 1, maxArgs: 1, returns: fixed("string"), call: (args) => toText(args[0]) }],
  ["toint", { minArgs: 1, maxArgs: 1, returns: fixed("integer"), call: (args) => toInteger(args[0]) }],
  ["tolong", { minArgs: 1, maxArgs: 1, returns: fixed("integer"), call: (args) => toInteger(args[0]) }],
  ["todouble", { minArgs: 1, maxArgs: 1, returns: fixed("float"), call: (args) => toNumber(args[0]) }],
  ["toreal", { minArgs: 1, maxArgs: 1, returns: fixed("float"), call: (args) => toNumber(args[0]) }],
  ["tobool", { minArgs: 1, maxArgs: 1, returns: fixed("boolean"), call: (args) => toBool(args[0]) }],
  ["toboolean", { minArgs: 1, maxArgs: 1, returns: fixed("boolean"), call: (args) => toBool(args[0]) }],
  ["todatetime", { minArgs: 1, maxArgs: 1, returns: fixed("datetime"), call: (args) => toDatetime(args[0]) }],
  ["iff", { minArgs: 3, maxArgs: 3, returns: (t) => common(t.slice(1)), call: iff }],
  ["iif", { minArgs: 3, maxArgs: 3, returns: (t) => common(t.slice(1)), call: iff }],
  ["isnull", { minArgs: 1, maxArgs: 1, returns: fixed("boolean"), call: (args) => args[0] === null }],
  ["isnotnull", { minArgs: 1, maxArgs: 1, returns: fixed("boolean"), call: (args) => args[0] !== null }],
  ["isempty", { minArgs: 1, maxArgs: 1, returns: fixed("boolean"), call: (args) => args[0] === null || args[0] === "" }],
  ["isnotempty", { minArgs: 1, maxArgs: 1, returns: fixed("boolean"), call: (args) => args[0] !== null && args[0] !== "" }],
  ["not", { minArgs: 1, maxArgs: 1, returns: fixed("boolean"), call: (args) => (typeof args[0] === "boolean" ? !args[0] : null) }],
  ["coalesce", { minArgs: 1, maxArgs: 64, returns: common, call: (args) => args.find((a) => a !== null) ?? null }],
  ["abs", { minArgs: 1, maxArgs: 1, returns: sameAsFirst, call: (args) => (typeof args[0] === "number" ? Math.abs(args[0]) : null) }],
  ["round", { minArgs: 1, maxArgs: 2, returns: fixed("float"), call: round }],
  ["bin", { minArgs: 2, maxArgs: 2, returns: sameAsFirst, call: (args) => binValue(args[0], args[1]) }],
  ["floor", { minArgs: 2, maxArgs: 2, returns: sameAsFirst, call: (args) => binValue(args[0], args[1]) }],
  ["now", { minArgs: 0, maxArgs: 0, returns: fixed("datetime"), call: (_args, ctx) => new DateTimeValue(ctx.nowMs) }],
  ["ago", { minArgs: 1, maxArgs: 1, returns: fixed("datetime"), call: ago }],
]);
