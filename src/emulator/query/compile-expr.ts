// Compiles an expression tree into a closure over a row, resolving every name at
// compile time so that an unknown field fails the query even over zero events.
//
// Logic is three-valued: a comparison with null is null, and `where` keeps only rows
// whose predicate is true. String operators (contains, startswith, has, ...) read a
// null operand as the empty string, as the language's strings have no null.

import { isAggregationName } from "./aggregations";
import type { Expr, Literal } from "./ast";
import { COMPILE_ERROR, semanticError, type Pos } from "./errors";
import { binValue, SCALAR_FUNCTIONS } from "./functions";
import { cachedLinearRegex, RegexRefusal } from "./regex";
import type { ColumnSpec, CompiledExpr, QueryContext, Row } from "./table";
import {
  compareOperands,
  DateTimeValue,
  TimespanValue,
  isBag,
  toText,
  valuesEqual,
  type Value,
  type ValueType,
} from "./values";

/** What names mean where an expression is written. */
export interface Scope {
  column(name: string): ColumnSpec | undefined;
  /** A virtual field of the dataset usable here, compiled; undefined when there is none. */
  virtual(name: string, pos: Pos): CompiledExpr | undefined;
  /** A scalar bound by `let`. */
  binding?(name: string): CompiledExpr | undefined;
  readonly ctx: QueryContext;
  /** bin_auto() is only meaningful as a summarize `by` key. */
  readonly allowBinAuto: boolean;
}

export function compileExpr(e: Expr, scope: Scope): CompiledExpr {
  switch (e.kind) {
    case "literal":
      return compileLiteral(e.literal);
    case "field":
      return compileField(e.name, e.pos, scope);
    case "call":
      return compileCall(e.name, e.args, e.pos, scope);
    case "unary":
      return compileUnary(e.op, compileExpr(e.operand, scope), e.pos);
    case "binary":
      if (e.left.kind === "star") return compileAnyColumn(e.op, compileExpr(e.right, scope), e.pos);
      return compileBinary(e.op, compileExpr(e.left, scope), compileExpr(e.right, scope), e.pos);
    case "in":
      return compileIn(e, scope);
    case "dynamic":
      return constant("dynamic", e.value);
    case "index": {
      const target = compileExpr(e.target, scope);
      const index = compileExpr(e.index, scope);
      return { type: "dynamic", evaluate: (row) => indexValue(target.evaluate(row), index.evaluate(row)) };
    }
    case "star":
      throw semanticError(e.pos, "'*' stands for any column only before a string operator such as has or contains", COMPILE_ERROR.invalidArgument);
    case "between": {
      const operand = compileExpr(e.operand, scope);
      const low = compileExpr(e.low, scope);
      const high = compileExpr(e.high, scope);
      return boolean((row) => {
        const v = operand.evaluate(row);
        const a = compareOperands(v, low.evaluate(row));
        const b = compareOperands(v, high.evaluate(row));
        if (a === null || b === null) return null;
        const inside = a >= 0 && b <= 0;
        return e.negated ? !inside : inside;
      });
    }
  }
}

function boolean(evaluate: (row: Row) => boolean | null): CompiledExpr {
  return { type: "boolean", evaluate };
}

function constant(type: ValueType, value: Value): CompiledExpr {
  return { type, evaluate: () => value, vector: { kind: "const", value } };
}

function compileLiteral(l: Literal): CompiledExpr {
  switch (l.kind) {
    case "null":
      return constant("dynamic", null);
    case "boolean":
      return constant("boolean", l.value);
    case "integer":
      return constant("integer", l.value);
    case "float":
      return constant("float", l.value);
    case "string":
      return constant("string", l.value);
    case "datetime":
      return constant("datetime", new DateTimeValue(l.ms));
    case "timespan":
      return constant("timespan", new TimespanValue(l.ms));
  }
}

/** `x[0]`, `x['key']`: an array's item (negative counts from the end) or a bag's property; else null. */
export function indexValue(target: Value, index: Value): Value {
  if (Array.isArray(target) && typeof index === "number" && Number.isInteger(index)) {
    const i = index < 0 ? target.length + index : index;
    return (target[i] as Value | undefined) ?? null;
  }
  if (isBag(target) && typeof index === "string") return Object.prototype.hasOwnProperty.call(target, index) ? target[index] : null;
  return null;
}

function compileField(name: string, pos: Pos, scope: Scope): CompiledExpr {
  const col = scope.column(name);
  if (col) {
    return { type: col.type, column: name, metaType: col.metaType, evaluate: (row) => row.values.get(name) ?? null };
  }
  const virtual = scope.virtual(name, pos);
  if (virtual) return virtual;
  const bound = scope.binding?.(name);
  if (bound) return { ...bound, column: undefined, nameHint: undefined };
  // `a.b.c` where `a` is a column holding a property bag (a parsed JSON, an mv-expanded item).
  const parts = name.split(".");
  for (let i = parts.length - 1; i > 0; i--) {
    const head = parts.slice(0, i).join(".");
    if (!scope.column(head) && !scope.binding?.(head)) continue;
    const base = compileField(head, pos, scope);
    const path = parts.slice(i);
    return {
      type: "dynamic",
      nameHint: path[path.length - 1],
      evaluate: (row) => path.reduce<Value>((v, key) => indexValue(v, key), base.evaluate(row)),
    };
  }
  throw semanticError(pos, `unknown field "${name}"`, COMPILE_ERROR.unknownField);
}

/** The items an `in`/`has_any` list stands for: an array element counts as its items. */
function listValues(list: CompiledExpr[], row: Row): Value[] {
  const out: Value[] = [];
  for (const x of list) {
    const v = x.evaluate(row);
    if (Array.isArray(v)) out.push(...(v as Value[]));
    else out.push(v);
  }
  return out;
}

function compileIn(e: Extract<Expr, { kind: "in" }>, scope: Scope): CompiledExpr {
  const operand = compileExpr(e.operand, scope);
  const list = e.list.map((x) => compileExpr(x, scope));
  if (e.test === "in") {
    const eq = e.caseInsensitive
      ? (a: Value, b: Value): boolean => b !== null && toText(a).toLowerCase() === toText(b).toLowerCase()
      : (a: Value, b: Value): boolean => valuesEqual(a, b) === true;
    return boolean((row) => {
      const v = operand.evaluate(row);
      if (v === null) return null;
      const found = listValues(list, row).some((x) => eq(v, x));
      return e.negated ? !found : found;
    });
  }
  const all = e.test === "has_all";
  return boolean((row) => {
    const hay = toText(operand.evaluate(row)).toLowerCase();
    const needles = listValues(list, row).map((x) => toText(x).toLowerCase());
    return all ? needles.every((n) => hasTerm(hay, n)) : needles.some((n) => hasTerm(hay, n));
  });
}

/** `* has 'x'`: true when any column's value passes the string operator. */
function compileAnyColumn(op: string, right: CompiledExpr, pos: Pos): CompiledExpr {
  const base = op.startsWith("!") ? op.slice(1) : op;
  const test = base === "matches regex" ? null : stringOperator(base);
  if (!test) throw semanticError(pos, `'*' works with string operators such as has, contains, startswith; not '${op}'`, COMPILE_ERROR.invalidArgument);
  const negated = op.startsWith("!");
  return boolean((row) => {
    const needle = right.evaluate(row);
    let found = false;
    for (const v of row.values.values()) {
      if (v !== null && test(v, needle) === true) {
        found = true;
        break;
      }
    }
    return negated ? !found : found;
  });
}

function compileCall(name: string, argExprs: Expr[], pos: Pos, scope: Scope): CompiledExpr {
  if (name === "bin_auto") return compileBinAuto(argExprs, pos, scope);
  if (name === "gettype") return compileGettype(argExprs, pos, scope);
  const fn = SCALAR_FUNCTIONS.get(name);
  if (!fn) {
    if (isAggregationName(name)) {
      throw semanticError(pos, `aggregation function "${name}" is only valid in summarize`, COMPILE_ERROR.unknownFunction);
    }
    throw semanticError(pos, `unknown function "${name}"`, COMPILE_ERROR.unknownFunction);
  }
  if (argExprs.length < fn.minArgs || argExprs.length > fn.maxArgs) {
    const want = fn.minArgs === fn.maxArgs ? `${fn.minArgs}` : `${fn.minArgs} to ${fn.maxArgs}`;
    throw semanticError(pos, `function "${name}" expects ${want} argument(s), got ${argExprs.length}`, COMPILE_ERROR.invalidArgument);
  }
  const args = argExprs.map((a) => compileExpr(a, scope));
  const regexAt = fn.regexArg?.(args.length);
  if (regexAt !== undefined) refuseConstantRegex(args[regexAt], exprPosOf(argExprs[regexAt]) ?? pos);
  const ctx = scope.ctx;
  const compiled: CompiledExpr = {
    type: fn.returns(args.map((a) => a.type)),
    evaluate: (row) =>
      fn.call(
        args.map((a) => a.evaluate(row)),
        ctx,
      ),
  };
  if (name === "bin" || name === "floor") {
    compiled.nameHint = args[0].column ?? args[0].nameHint;
    const size = argExprs[1];
    if (size && args[0].type === "datetime" && size.kind === "literal" && size.literal.kind === "timespan") {
      if (!(size.literal.ms > 0)) throw semanticError(size.pos, "bin size must be positive", COMPILE_ERROR.invalidArgument);
      compiled.bucket = size.literal.ms;
      if (name === "bin") compiled.vector = { kind: "bin", arg: args[0], width: size.literal.ms };
    }
  }
  return compiled;
}

/**
 * gettype(x): the language's name of the value's type (long, real, string, bool,
 * datetime, timespan, array, dictionary, null). A whole number in a float column is real.
 */
function compileGettype(argExprs: Expr[], pos: Pos, scope: Scope): CompiledExpr {
  if (argExprs.length !== 1) {
    throw semanticError(pos, `function "gettype" expects 1 argument(s), got ${argExprs.length}`, COMPILE_ERROR.invalidArgument);
  }
  const arg = compileExpr(argExprs[0], scope);
  return {
    type: "string",
    evaluate: (row) => {
      const v = arg.evaluate(row);
      if (v === null) return "null";
      if (typeof v === "number") return arg.type === "float" || !Number.isInteger(v) ? "real" : "long";
      if (typeof v === "boolean") return "bool";
      if (typeof v === "string") return "string";
      if (v instanceof DateTimeValue) return "datetime";
      if (v instanceof TimespanValue) return "timespan";
      return Array.isArray(v) ? "array" : "dictionary";
    },
  };
}

function compileBinAuto(argExprs: Expr[], pos: Pos, scope: Scope): CompiledExpr {
  if (!scope.allowBinAuto) {
    throw semanticError(pos, "bin_auto() is only valid as a summarize 'by' key", COMPILE_ERROR.invalidArgument);
  }
  if (argExprs.length !== 1) {
    throw semanticError(pos, `function "bin_auto" expects 1 argument(s), got ${argExprs.length}`, COMPILE_ERROR.invalidArgument);
  }
  const arg = compileExpr(argExprs[0], scope);
  if (arg.type !== "datetime") {
    throw semanticError(argExprs[0].pos, "bin_auto() needs a datetime field such as _time", COMPILE_ERROR.typeMismatch);
  }
  const ctx = scope.ctx;
  return {
    type: "datetime",
    nameHint: arg.column ?? arg.nameHint,
    bucket: "auto",
    vector: { kind: "bin", arg, width: "auto" },
    evaluate: (row) => binValue(arg.evaluate(row), new TimespanValue(ctx.autoBinMs)),
  };
}

function compileUnary(op: "-" | "+", operand: CompiledExpr, pos: Pos): CompiledExpr {
  const t = operand.type;
  if (t !== "integer" && t !== "float" && t !== "timespan" && t !== "dynamic") {
    throw semanticError(pos, `unary '${op}' is not defined for ${t}`, COMPILE_ERROR.typeMismatch);
  }
  if (op === "+") return { type: t, evaluate: operand.evaluate };
  return {
    type: t,
    evaluate: (row) => {
      const v = operand.evaluate(row);
      if (typeof v === "number") return -v;
      if (v instanceof TimespanValue) return new TimespanValue(-v.ms);
      return null;
    },
  };
}

const NUMERIC: ReadonlySet<ValueType> = new Set(["integer", "float"]);

/** Result type of arithmetic over two static types; undefined when the pair is invalid. */
function arithmeticType(op: string, l: ValueType, r: ValueType): ValueType | undefined {
  if (l === "dynamic" || r === "dynamic") return "dynamic";
  if (NUMERIC.has(l) && NUMERIC.has(r)) return l === "integer" && r === "integer" ? "integer" : "float";
  const pair = `${l}${op}${r}`;
  const table: Record<string, ValueType> = {
    "datetime-datetime": "timespan",
    "datetime+timespan": "datetime",
    "timespan+datetime": "datetime",
    "datetime-timespan": "datetime",
    "timespan+timespan": "timespan",
    "timespan-timespan": "timespan",
    "timespan*integer": "timespan",
    "timespan*float": "timespan",
    "integer*timespan": "timespan",
    "float*timespan": "timespan",
    "timespan/integer": "timespan",
    "timespan/float": "timespan",
    "timespan/timespan": "float",
  };
  return table[pair];
}

function numberOp(op: string, a: number, b: number, integerDivision: boolean): Value {
  switch (op) {
    case "+":
      return a + b;
    case "-":
      return a - b;
    case "*":
      return a * b;
    case "/":
      if (b === 0) return null;
      return integerDivision ? Math.trunc(a / b) : a / b;
    default:
      return b === 0 ? null : a % b;
  }
}

/**
 * Integer division follows the language: integer / integer is an integer. A float
 * operand (by static type, e.g. todouble(x) or a float field) divides as floats; so do
 * values that are not whole, even in a field whose metadata says integer (the emulator
 * types a field by the first value it saw).
 */
function arithmetic(op: string, l: CompiledExpr, r: CompiledExpr): (a: Value, b: Value) => Value {
  const staticFloat = l.type === "float" || r.type === "float";
  return (a, b) => {
    if (a === null || b === null) return null;
    if (typeof a === "number" && typeof b === "number") {
      const intDiv = !staticFloat && Number.isInteger(a) && Number.isInteger(b);
      return numberOp(op, a, b, intDiv);
    }
    if (a instanceof DateTimeValue) {
      if (b instanceof DateTimeValue && op === "-") return new TimespanValue(a.ms - b.ms);
      if (b instanceof TimespanValue && (op === "+" || op === "-")) return new DateTimeValue(op === "+" ? a.ms + b.ms : a.ms - b.ms);
      return null;
    }
    if (a instanceof TimespanValue) {
      if (b instanceof DateTimeValue && op === "+") return new DateTimeValue(a.ms + b.ms);
      if (b instanceof TimespanValue) {
        if (op === "/") return b.ms === 0 ? null : a.ms / b.ms;
        if (op === "+" || op === "-") return new TimespanValue(op === "+" ? a.ms + b.ms : a.ms - b.ms);
        return null;
      }
      if (typeof b === "number" && (op === "*" || op === "/")) {
        if (op === "/" && b === 0) return null;
        return new TimespanValue(op === "*" ? a.ms * b : a.ms / b);
      }
      return null;
    }
    if (typeof a === "number" && b instanceof TimespanValue && op === "*") return new TimespanValue(a * b.ms);
    return null;
  };
}

type StringTest = (hay: string, needle: string) => boolean;

const isWordChar = (c: string | undefined): boolean => c !== undefined && /[\p{L}\p{N}_]/u.test(c);

/** `has`: the needle is a whole term of the haystack (bounded by non-word characters). */
function hasTerm(hay: string, needle: string): boolean {
  if (needle === "") return true;
  for (let i = hay.indexOf(needle); i >= 0; i = hay.indexOf(needle, i + 1)) {
    if (!isWordChar(hay[i - 1]) && !isWordChar(hay[i + needle.length])) return true;
  }
  return false;
}

/** `hasprefix`/`hassuffix`: some whole term of the haystack starts (ends) with the needle. */
function termTest(prefix: boolean): StringTest {
  return (hay, needle) => {
    if (needle === "") return true;
    for (let i = hay.indexOf(needle); i >= 0; i = hay.indexOf(needle, i + 1)) {
      if (prefix ? !isWordChar(hay[i - 1]) : !isWordChar(hay[i + needle.length])) return true;
    }
    return false;
  };
}

const STRING_TESTS: Readonly<Record<string, StringTest>> = {
  contains: (h, n) => h.includes(n),
  startswith: (h, n) => h.startsWith(n),
  endswith: (h, n) => h.endsWith(n),
  has: hasTerm,
  hasprefix: termTest(true),
  hassuffix: termTest(false),
};

function stringOperator(op: string): ((a: Value, b: Value) => boolean | null) | undefined {
  const negated = op.startsWith("!");
  const base = negated ? op.slice(1) : op;
  const caseSensitive = base.endsWith("_cs");
  const test = STRING_TESTS[caseSensitive ? base.slice(0, -3) : base];
  if (!test) return undefined;
  return (a, b) => {
    let hay = toText(a);
    let needle = toText(b);
    if (!caseSensitive) {
      hay = hay.toLowerCase();
      needle = needle.toLowerCase();
    }
    const found = test(hay, needle);
    return negated ? !found : found;
  };
}

function logical(op: "and" | "or", l: CompiledExpr, r: CompiledExpr): CompiledExpr {
  // Short-circuit, with null as "unknown": false and x = false, true or x = true.
  const decisive = op === "or";
  return boolean((row) => {
    const a = l.evaluate(row);
    if (a === decisive) return decisive;
    const b = r.evaluate(row);
    if (b === decisive) return decisive;
    if (a === !decisive && b === !decisive) return !decisive;
    return null;
  });
}

function comparison(op: string): ((a: Value, b: Value) => boolean | null) | undefined {
  switch (op) {
    case "==":
      return valuesEqual;
    case "!=":
      return (a, b) => {
        const eq = valuesEqual(a, b);
        return eq === null ? null : !eq;
      };
    case "=~":
    case "!~":
      return (a, b) => {
        if (a === null || b === null) return null;
        const eq = toText(a).toLowerCase() === toText(b).toLowerCase();
        return op === "=~" ? eq : !eq;
      };
    case "<":
    case "<=":
    case ">":
    case ">=":
      return (a, b) => {
        const c = compareOperands(a, b);
        if (c === null) return null;
        return op === "<" ? c < 0 : op === "<=" ? c <= 0 : op === ">" ? c > 0 : c >= 0;
      };
    default:
      return undefined;
  }
}

/**
 * A pattern that is the same for every row is checked once, here, so that RE2's refusal
 * (backreferences, lookaround) is a compile error naming where it is; a pattern computed
 * per row that RE2 refuses makes that row's value null.
 */
function refuseConstantRegex(r: CompiledExpr, pos: Pos): void {
  if (r.column !== undefined || r.type !== "string") return;
  const probe = r.evaluate({ values: new Map(), origin: null });
  if (typeof probe !== "string") return;
  const re = cachedLinearRegex(probe);
  if (re instanceof RegexRefusal) throw semanticError(pos, re.message, COMPILE_ERROR.invalidArgument);
}

function exprPosOf(e: Expr | undefined): Pos | undefined {
  return e && "pos" in e ? e.pos : undefined;
}

function compileRegexMatch(l: CompiledExpr, r: CompiledExpr, pos: Pos, negated: boolean): CompiledExpr {
  refuseConstantRegex(r, pos);
  return boolean((row) => {
    const a = l.evaluate(row);
    const b = r.evaluate(row);
    if (a === null || b === null) return null;
    const re = cachedLinearRegex(toText(b));
    if (re instanceof RegexRefusal) return null;
    return re.test(toText(a)) !== negated;
  });
}

function compileBinary(op: string, l: CompiledExpr, r: CompiledExpr, pos: Pos): CompiledExpr {
  if (op === "and" || op === "or") return { ...logical(op, l, r), vector: { kind: "logical", op, left: l, right: r } };
  if (op === "matches regex" || op === "!matches regex") return compileRegexMatch(l, r, pos, op.startsWith("!"));
  const cmp = comparison(op) ?? stringOperator(op);
  if (cmp) {
    const compiled = boolean((row) => cmp(l.evaluate(row), r.evaluate(row)));
    if (op === "==" || op === "!=" || op === "<" || op === "<=" || op === ">" || op === ">=") compiled.vector = { kind: "compare", op, left: l, right: r };
    return compiled;
  }
  const type = arithmeticType(op, l.type, r.type);
  if (type === undefined) {
    const hint = op === "+" && (l.type === "string" || r.type === "string") ? " (use strcat() to join strings)" : "";
    throw semanticError(pos, `operator '${op}' is not defined for ${l.type} and ${r.type}${hint}`, COMPILE_ERROR.typeMismatch);
  }
  const apply = arithmetic(op, l, r);
  return { type, evaluate: (row) => apply(l.evaluate(row), r.evaluate(row)) };
}

