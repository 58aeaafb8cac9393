// The syntax tree the parser produces. Every node keeps the position of its first
// token, so that the compiler can report unknown names where they are written.

import type { Pos } from "./errors";
import type { Value } from "./values";

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
  /** `in`, `in~`, `has_any`, `has_all` over a list (an array element counts as its items). */
  | { kind: "in"; pos: Pos; test: "in" | "has_any" | "has_all"; negated: boolean; caseInsensitive: boolean; operand: Expr; list: Expr[] }
  | { kind: "between"; pos: Pos; negated: boolean; operand: Expr; low: Expr; high: Expr }
  /** `dynamic([...])`, `dynamic({...})`: a constant array or property bag. */
  | { kind: "dynamic"; pos: Pos; value: Value }
  /** `x[0]`, `x['key']`, `x.key` on a dynamic value. */
  | { kind: "index"; pos: Pos; target: Expr; index: Expr }
  /** `*` as the left operand of a string operator: any column (`where * has 'x'`). */
  | { kind: "star"; pos: Pos };


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

export type JoinKind = "inner" | "innerunique" | "leftouter" | "rightouter" | "fullouter" | "leftanti" | "rightanti" | "leftsemi" | "rightsemi";

/** One `on` condition: `key` (same name on both sides) or `$left.a == $right.b`. */
export interface JoinKey {
  pos: Pos;
  left: string;
  right: string;
}

export interface MakeSeriesAgg {
  item: NamedExpr;
  defaultValue: Expr | null;
}

/** One piece of a `parse ... with` pattern: literal text, or a column to capture. */
export type ParsePart = { kind: "text"; text: string } | { kind: "any" } | { kind: "column"; pos: Pos; name: string; type: string | null };

/** One key `parse-kv` extracts, with the type of its column (string when not given). */
export interface ParseKvKey {
  pos: Pos;
  name: string;
  type: string | null;
}

/**
 * `parse-kv Expr as (keys) with (...)`: delimiters given (pair and kv delimiter), a regex
 * with two groups (key, value), or neither (any non-alphanumeric text separates).
 */
export interface ParseKvStage {
  kind: "parse-kv";
  pos: Pos;
  source: Expr;
  keys: ParseKvKey[];
  pairDelimiter?: string;
  kvDelimiter?: string;
  /** Quote characters: each a one-character opening-and-closing quote, or a two-character pair. */
  quotes: string[];
  regex?: string;
}

export type Stage =
  | { kind: "where"; pos: Pos; predicate: Expr }
  | { kind: "project"; pos: Pos; items: NamedExpr[] }
  | { kind: "project-away"; pos: Pos; names: NameRef[] }
  | { kind: "extend"; pos: Pos; items: NamedExpr[] }
  /** Sets each column only where its new value is valid (non-empty, non-zero, true). */
  | { kind: "extend-valid"; pos: Pos; items: NamedExpr[] }
  | { kind: "summarize"; pos: Pos; aggregations: NamedExpr[]; by: NamedExpr[] }
  | { kind: "sort"; pos: Pos; keys: SortKey[] }
  | { kind: "take"; pos: Pos; count: number }
  | { kind: "top"; pos: Pos; count: number; key: SortKey }
  | { kind: "count"; pos: Pos }
  | { kind: "distinct"; pos: Pos; items: NamedExpr[] }
  | { kind: "project-rename"; pos: Pos; items: { pos: Pos; name: string; from: NameRef }[] }
  /** Name patterns: a name, or a prefix/suffix/infix with `*`. */
  | { kind: "project-reorder"; pos: Pos; patterns: NamePattern[] }
  | { kind: "project-keep"; pos: Pos; patterns: NamePattern[] }
  | { kind: "mv-expand"; pos: Pos; items: NamedExpr[]; limit: number | null }
  | { kind: "join"; pos: Pos; joinKind: JoinKind; right: TabularExpr; on: JoinKey[] }
  | { kind: "union"; pos: Pos; tables: TabularExpr[] }
  /** `sample N` keeps N rows; `sample 0.1` keeps each row with that probability. */
  | { kind: "sample"; pos: Pos; count: number; fraction?: number }
  | { kind: "getschema"; pos: Pos }
  | { kind: "search"; pos: Pos; predicate: Expr }
  | { kind: "parse"; pos: Pos; regex: boolean; source: Expr; parts: ParsePart[] }
  | ParseKvStage
  | {
      kind: "make-series";
      pos: Pos;
      aggregations: MakeSeriesAgg[];
      axis: NamedExpr;
      from: Expr | null;
      to: Expr | null;
      step: Expr;
      by: NamedExpr[];
    };

export interface NamePattern {
  pos: Pos;
  /** The pattern as written; `*` matches any run of characters. */
  pattern: string;
  /** project-reorder: how to order the columns one pattern matches (as they come when unset). */
  order: "asc" | "desc" | null;
}

export interface DatatableColumn {
  pos: Pos;
  name: string;
  type: string;
}

/** Where a tabular expression's rows come from. */
export type Source =
  /** A dataset, or a name bound by `let` to a tabular expression. */
  | { kind: "name"; ref: NameRef }
  | { kind: "datatable"; pos: Pos; columns: DatatableColumn[]; values: Expr[] }
  | { kind: "print"; pos: Pos; items: NamedExpr[] }
  | { kind: "union"; pos: Pos; tables: TabularExpr[] }
  /** `search [in (T, ...)] predicate`: every dataset named, or the default one. */
  | { kind: "search"; pos: Pos; tables: NameRef[]; predicate: Expr }
  | { kind: "paren"; pos: Pos; query: TabularExpr };

export interface TabularExpr {
  source: Source;
  stages: Stage[];
}

/** `let name = expr;`: a scalar (incl. dynamic) value or a tabular expression. */
export type LetStatement =
  | { kind: "scalar"; pos: Pos; name: string; expr: Expr }
  | { kind: "tabular"; pos: Pos; name: string; query: TabularExpr };

export interface QueryAst {
  lets: LetStatement[];
  body: TabularExpr;
}
