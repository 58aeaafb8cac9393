// The legacy structured query's `filter`, a tree of
//   {op, field?, value?, caseInsensitive?, children?}
// with op one of:
//   and, or, not                      (children; `not` negates the and of its children)
//   ==, !=, >, >=, <, <=              (field against value; a datetime field compares
//                                      with an ISO string, a number with a numeric string)
//   exists, not-exists                (field has a non-null value, or not)
//   contains, not-contains            (substring; for an array field: has an equal element)
//   starts-with, not-starts-with, ends-with, not-ends-with
//   regexp, not-regexp                (RE2 regular expression: linear time, no backreferences or lookaround)
// String tests are case-sensitive unless `caseInsensitive` is true. A missing filter,
// `{}` or an `and` without children matches every row. Logic here is two-valued (a
// missing field makes `!=` and the `not-` operators true), unlike the query language.

import { compileExpr, type Scope } from "./compile-expr";
import { badRequest } from "./errors";
import { compileLinearRegex, RegexRefusal, type LinearRegex } from "./regex";
import type { CompiledExpr, Row } from "./table";
import { QueryError } from "./types";
import { compareOperands, toText, valuesEqual, type Value } from "./values";

type Test = (row: Row) => boolean;

const ORDERING: Readonly<Record<string, (c: number) => boolean>> = {
  ">": (c) => c > 0,
  ">=": (c) => c >= 0,
  "<": (c) => c < 0,
  "<=": (c) => c <= 0,
};

const TEXT_TESTS: Readonly<Record<string, (hay: string, needle: string) => boolean>> = {
  contains: (h, n) => h.includes(n),
  "starts-with": (h, n) => h.startsWith(n),
  "ends-with": (h, n) => h.endsWith(n),
};

export function compileLegacyFilter(raw: unknown, scope: Scope): CompiledExpr {
  const test = compileNode(raw, scope, "filter");
  return { type: "boolean", evaluate: test };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function compileNode(raw: unknown, scope: Scope, path: string): Test {
  if (raw === undefined || raw === null) return () => true;
  if (!isRecord(raw)) throw badRequest(`${path} must be an object`);
  const op = raw.op;
  if (op === undefined || op === "") {
    if (raw.field === undefined || raw.field === "") return () => true;
    throw badRequest(`${path}.op is required`);
  }
  if (typeof op !== "string") throw badRequest(`${path}.op must be a string`);
  if (op === "and" || op === "or" || op === "not") return compileLogical(op, raw.children, scope, path);

  const negated = op.startsWith("not-");
  const base = negated ? op.slice(4) : op;
  const field = fieldOf(raw, scope, path);
  const value = raw.value as Value;
  const caseInsensitive = raw.caseInsensitive === true;
  const positive = compileComparison(op, base, field, value, caseInsensitive, path);
  return negated ? (row) => !positive(row) : positive;
}

function compileLogical(op: "and" | "or" | "not", rawChildren: unknown, scope: Scope, path: string): Test {
  if (rawChildren !== undefined && rawChildren !== null && !Array.isArray(rawChildren)) {
    throw badRequest(`${path}.children must be an array`);
  }
  const children = (rawChildren ?? []).map((c: unknown, i: number) => compileNode(c, scope, `${path}.children[${i}]`));
  if (op === "or" && children.length > 0) return (row) => children.some((c) => c(row));
  const all: Test = (row) => children.every((c) => c(row));
  if (op === "not") {
    if (children.length === 0) throw badRequest(`${path}: "not" needs a child filter`);
    return (row) => !all(row);
  }
  return all;
}

function fieldOf(raw: Record<string, unknown>, scope: Scope, path: string): CompiledExpr {
  if (typeof raw.field !== "string" || raw.field === "") throw badRequest(`${path}.field is required`);
  return legacyField(raw.field, scope, `${path}.field`);
}

/** A field named in a legacy body; unknown names answer 400 naming the body field. */
export function legacyField(name: string, scope: Scope, path: string): CompiledExpr {
  try {
    return compileExpr({ kind: "field", pos: { line: 1, column: 1 }, name }, scope);
  } catch (err) {
    if (err instanceof QueryError) throw badRequest(`${path}: ${err.detail?.message ?? err.message}`);
    throw err;
  }
}

function compileComparison(op: string, base: string, field: CompiledExpr, value: Value, caseInsensitive: boolean, path: string): Test {
  const get = field.evaluate;
  const fold = (s: string): string => (caseInsensitive ? s.toLowerCase() : s);
  if (op === "==" || op === "!=") {
    const eq: Test = (row) => {
      const v = get(row);
      if (value === null) return v === null;
      if (caseInsensitive && typeof v === "string" && typeof value === "string") return fold(v) === fold(value);
      return valuesEqual(v, value) === true;
    };
    return op === "==" ? eq : (row) => !eq(row);
  }
  const ordering = ORDERING[op];
  if (ordering) {
    return (row) => {
      const c = compareOperands(get(row), value);
      return c !== null && ordering(c);
    };
  }
  if (base === "exists") return (row) => get(row) !== null;
  const textTest = TEXT_TESTS[base];
  if (textTest) {
    const needle = fold(toText(value));
    return (row) => {
      const v = get(row);
      if (v === null) return false;
      if (base === "contains" && Array.isArray(v)) return v.some((e) => valuesEqual(e as Value, value) === true);
      return textTest(fold(toText(v)), needle);
    };
  }
  if (base === "regexp") {
    let re: LinearRegex;
    try {
      re = compileLinearRegex(toText(value), { caseInsensitive });
    } catch (err) {
      if (err instanceof RegexRefusal) throw badRequest(`${path}.value: ${err.message}`);
      throw err;
    }
    return (row) => {
      const v = get(row);
      return v !== null && re.test(toText(v));
    };
  }
  throw badRequest(`${path}.op "${op}" is not a filter operation`);
}
