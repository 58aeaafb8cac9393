// Recursive-descent parser for the query language: `source | op | op ...`.
// Operator precedence, loosest first: or; and; comparisons and string operators
// (one per expression, not chained); + -; * / %; unary - +; primaries.

import type { Expr, Literal, NameRef, NamedExpr, QueryAst, SortKey, Stage } from "./ast";
import { COMPILE_ERROR, syntaxError, type Pos } from "./errors";
import { tokenize, type Token } from "./lexer";

const COMPARISON_SYMBOLS = new Set(["==", "!=", "<>", "<", "<=", ">", ">=", "=~", "!~"]);

/** Word operators between two operands (their negated `!` forms are accepted too). */
const STRING_OPERATORS = new Set([
  "contains",
  "contains_cs",
  "has",
  "has_cs",
  "startswith",
  "startswith_cs",
  "endswith",
  "endswith_cs",
]);

export function parseQuery(text: string): QueryAst {
  return new Parser(tokenize(text)).query();
}

/** A lone expression, as a virtual field's `expression` is written. */
export function parseExpression(text: string): Expr {
  return new Parser(tokenize(text)).lone();
}

function describe(t: Token): string {
  if (t.kind === "eof") return "end of query";
  if (t.kind === "name") return `['${t.text}']`;
  return `'${t.raw}'`;
}

class Parser {
  private i = 0;

  constructor(private readonly tokens: Token[]) {}

  private get tok(): Token {
    return this.tokens[this.i];
  }

  private peek(n = 1): Token {
    return this.tokens[Math.min(this.i + n, this.tokens.length - 1)];
  }

  private next(): Token {
    const t = this.tok;
    if (t.kind !== "eof") this.i++;
    return t;
  }

  private isOp(text: string, t: Token = this.tok): boolean {
    return t.kind === "op" && t.text === text;
  }

  private isWord(word: string, t: Token = this.tok): boolean {
    return t.kind === "ident" && t.text.toLowerCase() === word;
  }

  private fail(expected: string, t: Token = this.tok): never {
    throw syntaxError(t, `unexpected ${describe(t)}, expected ${expected}`);
  }

  private expectOp(text: string): Token {
    if (!this.isOp(text)) this.fail(`'${text}'`);
    return this.next();
  }

  private expectWord(word: string): Token {
    if (!this.isWord(word)) this.fail(`'${word}'`);
    return this.next();
  }

  query(): QueryAst {
    const source = this.source();
    const stages: Stage[] = [];
    while (this.isOp("|")) {
      this.next();
      stages.push(this.stage());
    }
    if (this.isOp(";")) this.next();
    if (this.tok.kind !== "eof") this.fail("'|' or end of query");
    return { source, stages };
  }

  lone(): Expr {
    const e = this.expr();
    if (this.tok.kind !== "eof") this.fail("end of expression");
    return e;
  }

  /** `['my-dataset']`, or a bare name that may contain `-` and `.` when written without spaces. */
  private source(): NameRef {
    const first = this.tok;
    if (first.kind === "name") {
      this.next();
      return { pos: first, name: first.text };
    }
    if (first.kind !== "ident") this.fail("a dataset name");
    this.next();
    let name = first.text;
    let end = first.end;
    while (this.tok.start === end && (this.isOp("-") || this.isOp(".") || this.tok.kind === "ident" || this.tok.kind === "number")) {
      name += this.tok.raw;
      end = this.tok.end;
      this.next();
    }
    return { pos: first, name };
  }

  /** Operator names such as `project-away` are one word written with a hyphen. */
  private operatorName(): Token & { name: string } {
    const first = this.tok;
    if (first.kind !== "ident") this.fail("a query operator");
    this.next();
    let name = first.text.toLowerCase();
    let end = first.end;
    while (this.isOp("-") && this.tok.start === end && this.peek().kind === "ident" && this.peek().start === this.tok.end) {
      this.next();
      const part = this.next();
      name += `-${part.text.toLowerCase()}`;
      end = part.end;
    }
    return { ...first, name };
  }

  private stage(): Stage {
    const op = this.operatorName();
    const pos: Pos = { line: op.line, column: op.column };
    switch (op.name) {
      case "where":
      case "filter":
        return { kind: "where", pos, predicate: this.expr() };
      case "project":
        return { kind: "project", pos, items: this.namedList() };
      case "project-away":
        return { kind: "project-away", pos, names: this.nameList() };
      case "extend":
        return { kind: "extend", pos, items: this.namedList() };
      case "summarize":
        return this.summarize(pos);
      case "sort":
      case "order":
        this.expectWord("by");
        return { kind: "sort", pos, keys: this.list(() => this.sortKey()) };
      case "take":
      case "limit":
        return { kind: "take", pos, count: this.count() };
      case "top": {
        const count = this.count();
        this.expectWord("by");
        return { kind: "top", pos, count, key: this.sortKey() };
      }
      case "count":
        return { kind: "count", pos };
      case "distinct":
        return { kind: "distinct", pos, items: this.namedList() };
      default:
        throw syntaxError(op, `unknown query operator '${op.name}'`, COMPILE_ERROR.unknownOperator);
    }
  }

  private summarize(pos: Pos): Stage {
    const aggregations = this.isWord("by") ? [] : this.namedList();
    let by: NamedExpr[] = [];
    if (this.isWord("by")) {
      this.next();
      by = this.namedList();
    }
    if (aggregations.length === 0 && by.length === 0) this.fail("an aggregation or 'by'");
    return { kind: "summarize", pos, aggregations, by };
  }

  private count(): number {
    const t = this.tok;
    if (t.kind !== "number" || !Number.isInteger(t.num) || t.num < 0) this.fail("a non-negative whole number");
    this.next();
    return t.num;
  }

  private list<T>(item: () => T): T[] {
    const out = [item()];
    while (this.isOp(",")) {
      this.next();
      out.push(item());
    }
    return out;
  }

  private namedList(): NamedExpr[] {
    return this.list(() => this.named());
  }

  private named(): NamedExpr {
    const t = this.tok;
    if ((t.kind === "ident" || t.kind === "name") && this.isOp("=", this.peek())) {
      this.next();
      this.next();
      return { pos: t, name: t.text, expr: this.expr() };
    }
    return { pos: t, expr: this.expr() };
  }

  private nameList(): NameRef[] {
    return this.list(() => {
      const t = this.tok;
      if (t.kind === "name") {
        this.next();
        return { pos: t, name: t.text };
      }
      if (t.kind !== "ident") this.fail("a field name");
      this.next();
      return { pos: t, name: this.dotted(t) };
    });
  }

  private sortKey(): SortKey {
    const expr = this.expr();
    let desc = true;
    if (this.isWord("asc") || this.isWord("desc")) desc = this.next().text.toLowerCase() === "desc";
    let nullsFirst = !desc;
    if (this.isWord("nulls")) {
      this.next();
      if (!this.isWord("first") && !this.isWord("last")) this.fail("'first' or 'last'");
      nullsFirst = this.next().text.toLowerCase() === "first";
    }
    return { expr, desc, nullsFirst };
  }

  private expr(): Expr {
    return this.or();
  }

  /** One left-associative level: `next (op next)*` for the operators `isOperator` accepts. */
  private leftAssociative(isOperator: (t: Token) => boolean, next: () => Expr): Expr {
    let left = next();
    while (isOperator(this.tok)) {
      const t = this.next();
      left = { kind: "binary", pos: t, op: t.text.toLowerCase(), left, right: next() };
    }
    return left;
  }

  private or(): Expr {
    return this.leftAssociative(
      (t) => this.isWord("or", t),
      () => this.and(),
    );
  }

  private and(): Expr {
    return this.leftAssociative(
      (t) => this.isWord("and", t),
      () => this.comparison(),
    );
  }

  private comparison(): Expr {
    const left = this.additive();
    const t = this.tok;
    if (t.kind === "op" && COMPARISON_SYMBOLS.has(t.text)) {
      this.next();
      return { kind: "binary", pos: t, op: t.text === "<>" ? "!=" : t.text, left, right: this.additive() };
    }
    if (t.kind !== "ident") return left;
    const word = t.text.toLowerCase();
    const negated = word.startsWith("!");
    const base = negated ? word.slice(1) : word;
    if (STRING_OPERATORS.has(base)) {
      this.next();
      return { kind: "binary", pos: t, op: word, left, right: this.additive() };
    }
    if (base === "in") {
      this.next();
      this.expectOp("(");
      const list = this.list(() => this.expr());
      this.expectOp(")");
      return { kind: "in", pos: t, negated, caseInsensitive: false, operand: left, list };
    }
    if (base === "between") {
      this.next();
      this.expectOp("(");
      const low = this.additive();
      this.expectOp("..");
      const high = this.additive();
      this.expectOp(")");
      return { kind: "between", pos: t, negated, operand: left, low, high };
    }
    if (word === "matches") {
      this.next();
      this.expectWord("regex");
      return { kind: "binary", pos: t, op: "matches regex", left, right: this.additive() };
    }
    return left;
  }

  private additive(): Expr {
    return this.leftAssociative(
      (t) => this.isOp("+", t) || this.isOp("-", t),
      () => this.multiplicative(),
    );
  }

  private multiplicative(): Expr {
    return this.leftAssociative(
      (t) => this.isOp("*", t) || this.isOp("/", t) || this.isOp("%", t),
      () => this.unary(),
    );
  }

  private unary(): Expr {
    if (this.isOp("-") || this.isOp("+")) {
      const t = this.next();
      return { kind: "unary", pos: t, op: t.text === "-" ? "-" : "+", operand: this.unary() };
    }
    return this.primary();
  }

  private primary(): Expr {
    const t = this.tok;
    switch (t.kind) {
      case "number": {
        this.next();
        const isFloat = /[.eE]/.test(t.raw);
        return this.literal(t, isFloat ? { kind: "float", value: t.num } : { kind: "integer", value: t.num });
      }
      case "string":
        this.next();
        return this.literal(t, { kind: "string", value: t.text });
      case "timespan":
        this.next();
        return this.literal(t, { kind: "timespan", ms: t.num });
      case "datetime":
        this.next();
        return this.literal(t, { kind: "datetime", ms: t.num, text: t.text });
      case "name":
        this.next();
        return { kind: "field", pos: t, name: t.text };
      case "ident":
        return this.identifier();
      case "op":
        if (t.text === "(") {
          this.next();
          const inner = this.expr();
          this.expectOp(")");
          return inner;
        }
        return this.fail("an expression");
      default:
        return this.fail("an expression");
    }
  }

  private literal(pos: Pos, literal: Literal): Expr {
    return { kind: "literal", pos: { line: pos.line, column: pos.column }, literal };
  }

  private identifier(): Expr {
    const t = this.next();
    if (t.text.startsWith("!")) this.fail("an expression", t);
    if (this.isOp("(")) {
      this.next();
      const args = this.isOp(")") ? [] : this.list(() => this.expr());
      this.expectOp(")");
      return { kind: "call", pos: t, name: t.text.toLowerCase(), args };
    }
    const lower = t.text.toLowerCase();
    if (lower === "true" || lower === "false") return this.literal(t, { kind: "boolean", value: lower === "true" });
    if (lower === "null") return this.literal(t, { kind: "null" });
    return { kind: "field", pos: t, name: this.dotted(t) };
  }

  /** `req.method` written without spaces names the flattened field `req.method`. */
  private dotted(first: Token): string {
    let name = first.text;
    let end = first.end;
    while (this.isOp(".") && this.tok.start === end) {
      const part = this.peek();
      if ((part.kind !== "ident" && part.kind !== "number") || part.start !== this.tok.end) break;
      this.next();
      this.next();
      name += `.${part.raw}`;
      end = part.end;
    }
    return name;
  }
}
