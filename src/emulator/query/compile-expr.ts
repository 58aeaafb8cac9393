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
import type { ColumnSpec, CompiledExpr, QueryContext, Row } from "./table";
import {
  compareOperands,
  DateTimeValue,
  TimespanValue,
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
      return compileBinary(e.op, compileExpr(e.left, scope), compileExpr(e.right, scope), e.pos);
    case "in": {
      const operand = compileExpr(e.operand, scope);
      const list = e.list.map((x) => compileExpr(x, scope));
      return boolean((row) => {
        const v = operand.evaluate(row);
        if (v === null) return null;
        const found = list.some((x) => valuesEqual(v, x.evaluate(row)) === true);
        return e.negated ? !found : found;
      });
    }
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
  return { type, evaluate: () => value };
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

function compileField(name: string, pos: Pos, scope: Scope): CompiledExpr {
  const col = scope.column(name);
  if (col) {
    return { type: col.type, column: name, metaType: col.metaType, evaluate: (row) => row.values.get(name) ?? null };
  }
  const virtual = scope.virtual(name, pos);
  if (virtual) return virtual;
  throw semanticError(pos, `unknown field "${name}"`, COMPILE_ERROR.unknownField);
}

function compileCall(name: string, argExprs: Expr[], pos: Pos, scope: Scope): CompiledExpr {
  if (name === "bin_auto") return compileBinAuto(argExprs, pos, scope);
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
    if (args[0].type === "datetime" && size.kind === "literal" && size.literal.kind === "timespan") {
      if (!(size.literal.ms > 0)) throw semanticError(size.pos, "bin size must be positive", COMPILE_ERROR.invalidArgument);
      compiled.bucket = size.literal.ms;
    }
  }
  return compiled;
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

const STRING_TESTS: Readonly<Record<string, StringTest>> = {
  contains: (h, n) => h.includes(n),
  startswith: (h, n) => h.startsWith(n),
  endswith: (h, n) => h.endsWith(n),
  has: hasTerm,
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

function compileRegexMatch(l: CompiledExpr, r: CompiledExpr, pos: Pos): CompiledExpr {
  const cache = new Map<string, RegExp | null>();
  const regexFor = (pattern: string): RegExp | null => {
    if (!cache.has(pattern)) {
      let re: RegExp | null = null;
      try {
        re = new RegExp(pattern);
      } catch {
        re = null;
      }
      cache.set(pattern, re);
    }
    return cache.get(pattern) ?? null;
  };
  if (r.column === undefined && r.type === "string") {
    const probe = r.evaluate({ values: new Map(), origin: null });
    if (typeof probe === "string" && regexFor(probe) === null) {
      throw semanticError(pos, `invalid regular expression "${probe}"`, COMPILE_ERROR.invalidArgument);
    }
  }
  return boolean((row) => {
    const a = l.evaluate(row);
    const b = r.evaluate(row);
    if (a === null || b === null) return null;
    const re = regexFor(toText(b));
    return re === null ? null : re.test(toText(a));
  });
}

function compileBinary(op: string, l: CompiledExpr, r: CompiledExpr, pos: Pos): CompiledExpr {
  if (op === "and" || op === "or") return logical(op, l, r);
  if (op === "matches regex") return compileRegexMatch(l, r, pos);
  const cmp = comparison(op) ?? stringOperator(op);
  if (cmp) return boolean((row) => cmp(l.evaluate(row), r.evaluate(row)));
  const type = arithmeticType(op, l.type, r.type);
  if (type === undefined) {
    const hint = op === "+" && (l.type === "string" || r.type === "string") ? " (use strcat() to join strings)" : "";
    throw semanticError(pos, `operator '${op}' is not defined for ${l.type} and ${r.type}${hint}`, COMPILE_ERROR.typeMismatch);
  }
  const apply = arithmetic(op, l, r);
  return { type, evaluate: (row) => apply(l.evaluate(row), r.evaluate(row)) };
}

