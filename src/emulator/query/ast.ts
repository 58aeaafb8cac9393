// The syntax tree the parser produces. Every node keeps the position of its first
// token, so that the compiler can report unknown names where they are written.

import type { Pos } from "./errors";

export type Literal =
  | { kind: "null" }
  | { kind: "boolean"; value: boolean }
  | { kind: "integer"; value: number }
  | { kind: "float"; value: number }
  | { kind: "string"; value: string }
  | { kind: "datetime"; ms: number; text: string }
  | { kind: "timespan"; ms: number };

export type Expr =
  | { kind: "literal"; pos: Pos; literal: Literal }
  /** A field or column by name (`status`, `req.method`, `['a.b']`). */
  | { kind: "field"; pos: Pos; name: string }
  | { kind: "call"; pos: Pos; name: string; args: Expr[] }
  | { kind: "unary"; pos: Pos; op: "-" | "+"; operand: Expr }
  /** Arithmetic, comparison, logical and string operators; `op` as written, lowercased. */
  | { kind: "binary"; pos: Pos; op: string; left: Expr; right: Expr }
  | { kind: "in"; pos: Pos; negated: boolean; caseInsensitive: boolean; operand: Expr; list: Expr[] }
  | { kind: "between"; pos: Pos; negated: boolean; operand: Expr; low: Expr; high: Expr };

/** `name = expr` or a bare `expr` (then the name is derived from the expression). */
export interface NamedExpr {
  pos: Pos;
  name?: string;
  expr: Expr;
}

export interface SortKey {
  expr: Expr;
  desc: boolean;
  nullsFirst: boolean;
}

export interface NameRef {
  pos: Pos;
  name: string;
}

export type Stage =
  | { kind: "where"; pos: Pos; predicate: Expr }
  | { kind: "project"; pos: Pos; items: NamedExpr[] }
  | { kind: "project-away"; pos: Pos; names: NameRef[] }
  | { kind: "extend"; pos: Pos; items: NamedExpr[] }
  | { kind: "summarize"; pos: Pos; aggregations: NamedExpr[]; by: NamedExpr[] }
  | { kind: "sort"; pos: Pos; keys: SortKey[] }
  | { kind: "take"; pos: Pos; count: number }
  | { kind: "top"; pos: Pos; count: number; key: SortKey }
  | { kind: "count"; pos: Pos }
  | { kind: "distinct"; pos: Pos; items: NamedExpr[] };

export interface QueryAst {
  source: NameRef;
  stages: Stage[];
}
