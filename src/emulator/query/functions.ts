// Scalar functions of the query language: argument counts, result types, behaviour.
// Conversions follow the language's habit of answering null rather than failing
// (toint("abc") is null), so one odd event never fails a whole query.

import type { QueryContext } from "./table";
import { parseIsoTime } from "./time";
import { datetimeAdd, datetimeDiff, datetimePart, dayOfWeek, formatDatetime, periodFunction, asDate } from "./functions-datetime";
import { DateTimeValue, TimespanValue, isBag, toText, type Value, type ValueType } from "./values";
import { cachedLinearRegex, RegexRefusal, type LinearRegex } from "./regex";

export interface ScalarFunction {
  minArgs: number;
  maxArgs: number;
  returns: (argTypes: ValueType[]) => ValueType;
  call: (args: Value[], ctx: QueryContext) => Value;
  /** Which argument (for this many arguments) is a regular expression, checked at compile time when constant. */
  regexArg?: (argCount: number) => number | undefined;
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

/** `case(p1, v1, p2, v2, ..., otherwise)`: the value of the first true predicate. */
function caseOf(args: Value[]): Value {
  for (let i = 0; i + 1 < args.length; i += 2) if (args[i] === true) return args[i + 1];
  return args[args.length - 1];
}

/** parse_json('...'): the JSON value a string holds (null when it holds none); other values stay. */
function parseJson(args: Value[]): Value {
  const v = args[0];
  if (typeof v !== "string") return v;
  try {
    return JSON.parse(v) as Value;
  } catch {
    return null;
  }
}

/**
 * `indexof(source, lookup[, start[, length[, occurrence]]])`: the index of the
 * occurrence-th match at or after start (a negative start counts from the end), looking
 * at `length` characters (-1: all); -1 when there is none, null for a bad argument.
 */
function indexOf(args: Value[]): Value {
  if (args[0] === null || args[1] === null) return null;
  const s = toText(args[0]);
  const lookup = toText(args[1]);
  let start = args.length > 2 ? toInteger(args[2]) : 0;
  const length = args.length > 3 ? toInteger(args[3]) : -1;
  const occurrence = args.length > 4 ? toInteger(args[4]) : 1;
  if (start === null || length === null || occurrence === null || length < -1 || occurrence <= 0) return null;
  if (start < 0) start = Math.max(0, s.length + start);
  if (start > s.length) return -1;
  const end = length === -1 ? s.length : Math.min(s.length, start + length);
  let found = -1;
  for (let i = 0, from = start; i < occurrence; i++, from = found + 1) {
    found = s.indexOf(lookup, from);
    if (found < 0 || found + lookup.length > end) return -1;
  }
  return found;
}

/** The pattern of a per-row argument, or null when RE2 refuses it (the row's value is then null). */
function rowRegex(pattern: Value): LinearRegex | null {
  const re = cachedLinearRegex(toText(pattern));
  return re instanceof RegexRefusal ? null : re;
}

/** `extract(regex, group, source)`: the group's text of the first match, or null. */
function extract(args: Value[]): Value {
  if (args[0] === null || args[2] === null) return null;
  const re = rowRegex(args[0]);
  const group = toInteger(args[1]);
  if (!re || group === null || group < 0) return null;
  const m = re.exec(toText(args[2]));
  return m?.[group] ?? null;
}

/**
 * `extract_all(regex, [groups,] source)`: every match's groups: with one capturing group,
 * an array of its texts; with several (or the groups asked for), an array of arrays.
 */
function extractAll(args: Value[]): Value {
  const source = args[args.length - 1];
  if (args[0] === null || source === null) return null;
  const re = rowRegex(args[0]);
  if (!re || re.groupCount === 0) return null;
  let groups: number[] = Array.from({ length: re.groupCount }, (_, i) => i + 1);
  if (args.length === 3) {
    if (!Array.isArray(args[1])) return null;
    groups = [];
    for (const g of args[1]) {
      const n = toInteger(g);
      if (n === null || n < 0 || n > re.groupCount) return null;
      groups.push(n);
    }
  }
  const out: Value[] = [];
  for (const m of re.matches(toText(source))) {
    const picked = groups.map((g) => m[g] ?? "");
    out.push(groups.length === 1 ? picked[0] : picked);
  }
  return out.length === 0 ? null : out;
}

/** `replace_regex(source, regex, rewrite)`: every match replaced; `\1` in rewrite is group 1. */
function replaceRegex(args: Value[]): Value {
  const [source, pattern, rewrite] = args;
  if (source === null || pattern === null) return null;
  const re = rowRegex(pattern);
  return re ? re.replaceAll(toText(source), rewrite === null ? "" : toText(rewrite)) : null;
}

function split(args: Value[]): Value {
  if (args[0] === null) return null;
  const parts = toText(args[0]).split(toText(args[1]));
  if (args.length < 3) return parts;
  const i = toInteger(args[2]);
  if (i === null) return null;
  const at = i < 0 ? parts.length + i : i;
  return at >= 0 && at < parts.length ? [parts[at]] : [];
}

function arraySlice(args: Value[]): Value {
  const a = args[0];
  if (!Array.isArray(a)) return null;
  const norm = (v: Value, fallback: number): number | null => {
    const n = v === undefined ? fallback : toInteger(v);
    return n === null ? null : n < 0 ? a.length + n : n;
  };
  const from = norm(args[1], 0);
  const to = norm(args[2], a.length - 1);
  return from === null || to === null ? null : a.slice(Math.max(0, from), to + 1);
}

/** `replace_string(lookup, rewrite, text)`: every non-overlapping lookup in text replaced (the documented order). */
function replaceString(args: Value[]): Value {
  const [lookup, rewrite, text] = args;
  if (text === null) return null;
  const source = toText(text);
  const what = toText(lookup);
  return what === "" ? source : source.split(what).join(toText(rewrite));
}

/** `trim(text)` removes surrounding white space; `trim(regex, text)` every leading and trailing match of the regex. */
function trim(args: Value[]): Value {
  if (args.length === 1) return args[0] === null ? null : toText(args[0]).trim();
  if (args[1] === null) return null;
  const pattern = toText(args[0]);
  if (pattern === "") return toText(args[1]);
  const start = rowRegex(`^(?:${pattern})+`);
  const end = rowRegex(`(?:${pattern})+$`);
  if (!start || !end) return null;
  return end.replaceAll(start.replaceAll(toText(args[1]), ""), "");
}

/** Sort order of array elements: numbers, then strings, then the rest by their text; nulls last unless asked first. */
function compareElements(a: Value, b: Value): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "number") return -1;
  if (typeof b === "number") return 1;
  return toText(a).localeCompare(toText(b));
}

/** `array_sort_asc(array[, nulls_last])`: a sorted copy; null for a value that is not an array. */
function arraySortAsc(args: Value[]): Value {
  const a = args[0];
  if (!Array.isArray(a)) return null;
  const nullsLast = args.length < 2 || args[1] !== false;
  const present = a.filter((v) => v !== null).sort(compareElements);
  const nulls = a.filter((v) => v === null);
  return nullsLast ? [...present, ...nulls] : [...nulls, ...present];
}

/** `series_not_equals(a, b)`: per element, whether a differs from b (b may be a scalar). */
function seriesNotEquals(args: Value[]): Value {
  const [a, b] = args;
  if (!Array.isArray(a)) return null;
  const at = (i: number): Value => (Array.isArray(b) ? (b[i] ?? null) : b);
  return a.map((v, i) => (v === null || at(i) === null ? null : JSON.stringify(v) !== JSON.stringify(at(i))));
}

const numeric = (f: (n: number) => number) => (args: Value[]): Value => {
  const n = toNumber(args[0]);
  if (n === null) return null;
  const r = f(n);
  return Number.isFinite(r) ? r : null;
};

const datePart = (f: (d: Date) => number) => (args: Value[]): Value => {
  const d = asDate(args[0]);
  return d ? f(new Date(Math.floor(d.ms))) : null;
};

export const SCALAR_FUNCTIONS: ReadonlyMap<string, ScalarFunction> = new Map<string, ScalarFunction>([
  ["strlen", { minArgs: 1, maxArgs: 1, returns: fixed("integer"), call: stringFn((s) => [...s].length) }],
  ["tolower", { minArgs: 1, maxArgs: 1, returns: fixed("string"), call: stringFn((s) => s.toLowerCase()) }],
  ["toupper", { minArgs: 1, maxArgs: 1, returns: fixed("string"), call: stringFn((s) => s.toUpperCase()) }],
  ["trim", { minArgs: 1, maxArgs: 2, returns: fixed("string"), call: trim, regexArg: (n) => (n === 2 ? 0 : undefined) }],
  ["strcat", { minArgs: 1, maxArgs: 64, returns: fixed("string"), call: (args) => args.map(toText).join("") }],
  ["substring", { minArgs: 2, maxArgs: 3, returns: fixed("string"), call: substring }],
  ["indexof", { minArgs: 2, maxArgs: 5, returns: fixed("integer"), call: indexOf }],
  ["extract", { minArgs: 3, maxArgs: 3, returns: fixed("string"), call: extract, regexArg: () => 0 }],
  ["extract_all", { minArgs: 2, maxArgs: 3, returns: fixed("dynamic"), call: extractAll, regexArg: () => 0 }],
  ["replace_regex", { minArgs: 3, maxArgs: 3, returns: fixed("string"), call: replaceRegex, regexArg: () => 1 }],
  [
    "replace_string",
    {
      minArgs: 3,
      maxArgs: 3,
      returns: fixed("string"),
      call: replaceString,
    },
  ],
  ["strcat_delim", { minArgs: 3, maxArgs: 64, returns: fixed("string"), call: (args) => args.slice(1).map(toText).join(toText(args[0])) }],
  ["split", { minArgs: 2, maxArgs: 3, returns: fixed("dynamic"), call: split }],
  ["case", { minArgs: 3, maxArgs: 65, returns: (t) => common([...t.filter((_, i) => i % 2 === 1), t[t.length - 1]]), call: caseOf }],
  ["parse_json", { minArgs: 1, maxArgs: 1, returns: fixed("dynamic"), call: parseJson }],
  ["todynamic", { minArgs: 1, maxArgs: 1, returns: fixed("dynamic"), call: parseJson }],
  ["array_length", { minArgs: 1, maxArgs: 1, returns: fixed("integer"), call: (args) => (Array.isArray(args[0]) ? args[0].length : null) }],
  ["pack_array", { minArgs: 0, maxArgs: 64, returns: fixed("dynamic"), call: (args) => args.slice() }],
  [
    "array_concat",
    { minArgs: 1, maxArgs: 64, returns: fixed("dynamic"), call: (args) => (args.every((a) => Array.isArray(a)) ? (args as Value[][]).flat() : null) },
  ],
  ["array_slice", { minArgs: 3, maxArgs: 3, returns: fixed("dynamic"), call: arraySlice }],
  ["array_sort_asc", { minArgs: 1, maxArgs: 2, returns: fixed("dynamic"), call: arraySortAsc }],
  ["toarray", { minArgs: 1, maxArgs: 1, returns: fixed("dynamic"), call: (args) => (args[0] === null ? null : Array.isArray(args[0]) ? args[0] : [args[0]]) }],
  ["series_not_equals", { minArgs: 2, maxArgs: 2, returns: fixed("dynamic"), call: seriesNotEquals }],
  ["bag_keys", { minArgs: 1, maxArgs: 1, returns: fixed("dynamic"), call: (args) => (isBag(args[0]) ? Object.keys(args[0]) : null) }],
  ["datetime_diff", { minArgs: 3, maxArgs: 3, returns: fixed("integer"), call: datetimeDiff }],
  ["datetime_add", { minArgs: 3, maxArgs: 3, returns: fixed("datetime"), call: datetimeAdd }],
  ["datetime_part", { minArgs: 2, maxArgs: 2, returns: fixed("integer"), call: datetimePart }],
  ["startofday", { minArgs: 1, maxArgs: 2, returns: fixed("datetime"), call: periodFunction("start", "day") }],
  ["startofweek", { minArgs: 1, maxArgs: 2, returns: fixed("datetime"), call: periodFunction("start", "week") }],
  ["startofmonth", { minArgs: 1, maxArgs: 2, returns: fixed("datetime"), call: periodFunction("start", "month") }],
  ["startofyear", { minArgs: 1, maxArgs: 2, returns: fixed("datetime"), call: periodFunction("start", "year") }],
  ["endofday", { minArgs: 1, maxArgs: 2, returns: fixed("datetime"), call: periodFunction("end", "day") }],
  ["endofweek", { minArgs: 1, maxArgs: 2, returns: fixed("datetime"), call: periodFunction("end", "week") }],
  ["endofmonth", { minArgs: 1, maxArgs: 2, returns: fixed("datetime"), call: periodFunction("end", "month") }],
  ["endofyear", { minArgs: 1, maxArgs: 2, returns: fixed("datetime"), call: periodFunction("end", "year") }],
  ["hourofday", { minArgs: 1, maxArgs: 1, returns: fixed("integer"), call: datePart((d) => d.getUTCHours()) }],
  ["dayofmonth", { minArgs: 1, maxArgs: 1, returns: fixed("integer"), call: datePart((d) => d.getUTCDate()) }],
  ["dayofyear", { minArgs: 1, maxArgs: 1, returns: fixed("integer"), call: (args) => datetimePart(["dayofyear", args[0]]) }],
  ["monthofyear", { minArgs: 1, maxArgs: 1, returns: fixed("integer"), call: datePart((d) => d.getUTCMonth() + 1) }],
  ["getmonth", { minArgs: 1, maxArgs: 1, returns: fixed("integer"), call: datePart((d) => d.getUTCMonth() + 1) }],
  ["getyear", { minArgs: 1, maxArgs: 1, returns: fixed("integer"), call: datePart((d) => d.getUTCFullYear()) }],
  ["week_of_year", { minArgs: 1, maxArgs: 1, returns: fixed("integer"), call: (args) => datetimePart(["week", args[0]]) }],
  ["dayofweek", { minArgs: 1, maxArgs: 1, returns: fixed("timespan"), call: dayOfWeek }],
  ["format_datetime", { minArgs: 2, maxArgs: 2, returns: fixed("string"), call: formatDatetime }],
  ["ceiling", { minArgs: 1, maxArgs: 1, returns: sameAsFirst, call: numeric(Math.ceil) }],
  ["sqrt", { minArgs: 1, maxArgs: 1, returns: fixed("float"), call: numeric(Math.sqrt) }],
  ["exp", { minArgs: 1, maxArgs: 1, returns: fixed("float"), call: numeric(Math.exp) }],
  ["log", { minArgs: 1, maxArgs: 1, returns: fixed("float"), call: numeric(Math.log) }],
  ["log10", { minArgs: 1, maxArgs: 1, returns: fixed("float"), call: numeric(Math.log10) }],
  [
    "pow",
    {
      minArgs: 2,
      maxArgs: 2,
      returns: fixed("float"),
      call: (args) => {
        const a = toNumber(args[0]);
        const b = toNumber(args[1]);
        return a === null || b === null || !Number.isFinite(a ** b) ? null : a ** b;
      },
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
  // floor(x) rounds down to a whole number; floor(x, size) is bin(x, size).
  ["floor", { minArgs: 1, maxArgs: 2, returns: sameAsFirst, call: (args) => (args.length === 1 ? numeric(Math.floor)(args) : binValue(args[0], args[1])) }],
  ["now", { minArgs: 0, maxArgs: 0, returns: fixed("datetime"), call: (_args, ctx) => new DateTimeValue(ctx.nowMs) }],
  ["ago", { minArgs: 1, maxArgs: 1, returns: fixed("datetime"), call: ago }],
]);
