// Recursive-descent parser for the query language: `source | op | op ...`.
// Operator precedence, loosest first: or; and; comparisons and string operators
// (one per expression, not chained); + -; * / %; unary - +; primaries.

import type {
  DatatableColumn,
  Expr,
  JoinKey,
  JoinKind,
  LetStatement,
  Literal,
  MakeSeriesAgg,
  NamePattern,
  NameRef,
  NamedExpr,
  ParseKvKey,
  ParseKvStage,
  ParsePart,
  QueryAst,
  SortKey,
  Source,
  Stage,
  TabularExpr,
} from "./ast";
import { COMPILE_ERROR, syntaxError, type Pos } from "./errors";
import { tokenize, type Token } from "./lexer";
import { DateTimeValue, TimespanValue, type Bag, type Value } from "./values";

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
  "hasprefix",
  "hasprefix_cs",
  "hassuffix",
  "hassuffix_cs",
]);

const JOIN_KINDS: ReadonlySet<string> = new Set(["inner", "innerunique", "leftouter", "rightouter", "fullouter", "leftanti", "rightanti", "leftsemi", "rightsemi"]);
/** The documentation's other spellings of the same kinds. */
const JOIN_KIND_ALIASES: Readonly<Record<string, JoinKind>> = { anti: "leftanti", leftantisemi: "leftanti", rightantisemi: "rightanti", semi: "leftsemi" };

/** Words that start a tabular source other than a dataset name. */
const SOURCE_WORDS: ReadonlySet<string> = new Set(["datatable", "print", "union", "search"]);

export function parseQuery(text: string): QueryAst {
  return withinStack(() => new Parser(tokenize(text)).query());
}

/** A lone expression, as a virtual field's `expression` is written. */
export function parseExpression(text: string): Expr {
  return withinStack(() => new Parser(tokenize(text)).lone());
}

/**
 * The parser descends once per level of nesting; text nested deeper than the stack
 * allows is a query refused (400), not an internal error.
 */
function withinStack<T>(parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    if (err instanceof RangeError && /call stack/i.test(err.message)) {
      throw syntaxError({ line: 1, column: 1 }, `the query nests deeper than ${MAX_NESTING} levels`);
    }
    throw err;
  }
}

function describe(t: Token): string {
  if (t.kind === "eof") return "end of query";
  if (t.kind === "name") return `['${t.text}']`;
  return `'${t.raw}'`;
}

/**
 * Deepest nesting of expressions, sub-queries and dynamic literals a query may have:
 * far beyond any real query, and shallow enough that the parser, the compiler and the
 * evaluation never come near the stack's end, so deep text is refused at once.
 */
export const MAX_NESTING = 256;

class Parser {
  private i = 0;
  private depth = 0;

  /** Runs `parse` one level deeper; refuses text nested past MAX_NESTING where it goes past. */
  private nested<T>(parse: () => T): T {
    if (this.depth >= MAX_NESTING) throw syntaxError(this.tok, `the query nests deeper than ${MAX_NESTING} levels`);
    this.depth++;
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

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
    const lets: LetStatement[] = [];
    const tabularLets = new Set<string>();
    while (this.isWord("let")) {
      const st = this.letStatement(tabularLets);
      if (st.kind === "tabular") tabularLets.add(st.name);
      else tabularLets.delete(st.name);
      lets.push(st);
    }
    const body = this.tabular();
    while (this.isOp(";")) this.next();
    if (this.tok.kind !== "eof") this.fail("'|' or end of query");
    return { lets, body };
  }

  private letStatement(tabularLets: ReadonlySet<string>): LetStatement {
    const letTok = this.next();
    const nameTok = this.tok;
    if (nameTok.kind !== "ident" && nameTok.kind !== "name") this.fail("a name");
    this.next();
    this.expectOp("=");
    const pos: Pos = { line: letTok.line, column: letTok.column };
    const t = this.tok;
    const after = this.peek();
    // A tabular value starts like a query: ['dataset'], datatable(...), a name piped on, or a tabular let.
    const tabular =
      t.kind === "name" ||
      (t.kind === "ident" && SOURCE_WORDS.has(t.text.toLowerCase()) && !this.isOp("(", after)) ||
      this.isWord("datatable", t) ||
      (t.kind === "ident" && (this.isOp("|", after) || tabularLets.has(t.text)) && !this.isOp("(", after));
    const st: LetStatement = tabular
      ? { kind: "tabular", pos, name: nameTok.text, query: this.tabular() }
      : { kind: "scalar", pos, name: nameTok.text, expr: this.expr() };
    this.expectOp(";");
    return st;
  }

  /** `source | stage | stage ...` */
  private tabular(): TabularExpr {
    return this.nested(() => this.tabularBody());
  }

  private tabularBody(): TabularExpr {
    const source = this.tabularSource();
    const stages: Stage[] = [];
    while (this.isOp("|")) {
      this.next();
      stages.push(this.stage());
    }
    return { source, stages };
  }

  private tabularSource(): Source {
    const t = this.tok;
    const pos: Pos = { line: t.line, column: t.column };
    if (this.isOp("(")) {
      this.next();
      const query = this.tabular();
      this.expectOp(")");
      return { kind: "paren", pos, query };
    }
    if (this.isWord("datatable") && this.isOp("(", this.peek())) return this.datatable(pos);
    if (this.isWord("print")) {
      this.next();
      return { kind: "print", pos, items: this.namedList() };
    }
    if (this.isWord("union") && !this.isOp("|", this.peek())) {
      this.next();
      this.skipOptions();
      return { kind: "union", pos, tables: this.list(() => this.tableRef()) };
    }
    if (this.isWord("search") && !this.isOp("|", this.peek())) {
      this.next();
      this.skipOptions();
      let tables: NameRef[] = [];
      if (this.isWord("in")) {
        this.next();
        this.expectOp("(");
        tables = this.list(() => this.source());
        this.expectOp(")");
      }
      return { kind: "search", pos, tables, predicate: this.searchPredicate() };
    }
    return { kind: "name", ref: this.source() };
  }

  /** `kind=...`, `withsource=...` and `hint.x=...` options that do not change results here. */
  private skipOptions(): void {
    while (this.tok.kind === "ident" && this.isOp("=", this.peek()) && /^(kind|withsource|isfuzzy|hint\.)/i.test(this.tok.text)) {
      this.next();
      this.next();
      this.next();
    }
  }

  /** A table in union/join: a dataset or let name, or a parenthesized tabular expression. */
  private tableRef(): TabularExpr {
    if (this.isOp("(")) {
      const t = this.next();
      const query = this.tabular();
      this.expectOp(")");
      return { source: { kind: "paren", pos: { line: t.line, column: t.column }, query }, stages: [] };
    }
    return { source: { kind: "name", ref: this.source() }, stages: [] };
  }

  /** `search "text"` is `* has "text"`; otherwise a predicate such as `status == 500`. */
  private searchPredicate(): Expr {
    const t = this.tok;
    if (t.kind === "string" && (this.isOp("|", this.peek()) || this.peek().kind === "eof" || this.isOp(";", this.peek()) || this.isOp(")", this.peek()))) {
      this.next();
      const pos: Pos = { line: t.line, column: t.column };
      return { kind: "binary", pos, op: "has", left: { kind: "star", pos }, right: this.literal(t, { kind: "string", value: t.text }) };
    }
    return this.expr();
  }

  private datatable(pos: Pos): Source {
    this.next();
    this.expectOp("(");
    const columns: DatatableColumn[] = this.list(() => {
      const n = this.tok;
      if (n.kind !== "ident" && n.kind !== "name") this.fail("a column name");
      this.next();
      this.expectOp(":");
      const type = this.tok;
      if (type.kind !== "ident") this.fail("a type such as string, long, real, bool, datetime, timespan or dynamic");
      this.next();
      return { pos: n, name: n.text, type: type.text.toLowerCase() };
    });
    this.expectOp(")");
    const values = this.bracketedValues();
    return { kind: "datatable", pos, columns, values };
  }

  /** `[v, v, ...]`; `['x']` arrives from the lexer as one quoted-name token. */
  private bracketedValues(): Expr[] {
    const t = this.tok;
    if (t.kind === "name") {
      this.next();
      return [this.literal(t, { kind: "string", value: t.text })];
    }
    this.expectOp("[");
    const values = this.isOp("]") ? [] : this.list(() => this.expr());
    if (this.isOp(",")) this.next();
    this.expectOp("]");
    return values;
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
      case "extend-valid":
        return { kind: "extend-valid", pos, items: this.namedList() };
      case "parse-kv":
        return this.parseKv(pos);
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
      case "project-rename":
        return {
          kind: "project-rename",
          pos,
          items: this.list(() => {
            const t = this.tok;
            if ((t.kind !== "ident" && t.kind !== "name") || !this.isOp("=", this.peek())) this.fail("'new_name = column'");
            this.next();
            this.next();
            return { pos: t, name: t.text, from: this.nameRef() };
          }),
        };
      case "project-reorder":
        return { kind: "project-reorder", pos, patterns: this.list(() => this.namePattern(true)) };
      case "project-keep":
        return { kind: "project-keep", pos, patterns: this.list(() => this.namePattern(false)) };
      case "mv-expand":
      case "mvexpand":
        return this.mvExpand(pos);
      case "join":
        return this.join(pos);
      case "union":
        this.skipOptions();
        return { kind: "union", pos, tables: this.list(() => this.tableRef()) };
      case "sample": {
        const t = this.tok;
        if (t.kind === "number" && t.num > 0 && t.num < 1) {
          this.next();
          return { kind: "sample", pos, count: 0, fraction: t.num };
        }
        return { kind: "sample", pos, count: this.count() };
      }
      case "getschema":
        return { kind: "getschema", pos };
      case "search":
        this.skipOptions();
        return { kind: "search", pos, predicate: this.searchPredicate() };
      case "parse":
        return this.parseStage(pos);
      case "make-series":
        return this.makeSeries(pos);
      default:
        throw syntaxError(op, `unknown query operator '${op.name}'`, COMPILE_ERROR.unknownOperator);
    }
  }

  private namePattern(withOrder: boolean): NamePattern {
    const first = this.tok;
    let pattern = "";
    let end = -1;
    while (
      (pattern === "" || this.tok.start === end) &&
      (this.tok.kind === "ident" || this.tok.kind === "number" || this.isOp("*") || this.isOp(".") || (pattern === "" && this.tok.kind === "name"))
    ) {
      const t = this.next();
      pattern += t.kind === "name" ? t.text : t.raw;
      end = t.end;
      if (t.kind === "name") break;
    }
    if (pattern === "") this.fail("a column name or pattern");
    let order: NamePattern["order"] = null;
    if (withOrder && (this.isWord("asc") || this.isWord("desc"))) order = this.next().text.toLowerCase() === "desc" ? "desc" : "asc";
    return { pos: first, pattern, order };
  }

  private mvExpand(pos: Pos): Stage {
    this.skipOptions();
    const items = this.list(() => {
      const item = this.named();
      if (this.isWord("to")) {
        // `to typeof(T)`: the values keep their own types here.
        this.next();
        this.expectWord("typeof");
        this.expectOp("(");
        this.next();
        this.expectOp(")");
      }
      return item;
    });
    let limit: number | null = null;
    if (this.isWord("limit")) {
      this.next();
      limit = this.count();
    }
    return { kind: "mv-expand", pos, items, limit };
  }

  private join(pos: Pos): Stage {
    let joinKind: JoinKind = "inner";
    while (this.tok.kind === "ident" && this.isOp("=", this.peek())) {
      const opt = this.next();
      this.next();
      const value = this.next();
      if (opt.text.toLowerCase() !== "kind") continue;
      const k = value.text.toLowerCase();
      const kind = JOIN_KINDS.has(k) ? (k as JoinKind) : JOIN_KIND_ALIASES[k];
      if (!kind) throw syntaxError(value, `unknown join kind '${value.text}', expected one of ${[...JOIN_KINDS].join(", ")}`, COMPILE_ERROR.invalidArgument);
      joinKind = kind;
    }
    const right = this.tableRef();
    this.expectWord("on");
    const on: JoinKey[] = this.list(() => {
      const t = this.tok;
      const first = this.joinSide();
      if (!this.isOp("==")) {
        if (first.side !== null) this.fail("'=='");
        return { pos: t, left: first.name, right: first.name };
      }
      this.next();
      const second = this.joinSide();
      if (first.side === null || second.side === null || first.side === second.side) {
        throw syntaxError(t, "a join condition compares $left.column == $right.column", COMPILE_ERROR.invalidArgument);
      }
      return first.side === "left" ? { pos: t, left: first.name, right: second.name } : { pos: t, left: second.name, right: first.name };
    });
    return { kind: "join", pos, joinKind, right, on };
  }

  /** `column`, `$left.column`, `$right.['odd name']`. */
  private joinSide(): { side: "left" | "right" | null; name: string } {
    const t = this.tok;
    const word = t.kind === "ident" ? t.text.toLowerCase() : "";
    if ((word === "$left" || word === "$right") && this.isOp(".", this.peek())) {
      this.next();
      this.next();
      return { side: word === "$left" ? "left" : "right", name: this.nameRef().name };
    }
    const ref = this.nameRef();
    const m = /^\$(left|right)\.(.+)$/i.exec(ref.name);
    return m ? { side: m[1].toLowerCase() === "left" ? "left" : "right", name: m[2] } : { side: null, name: ref.name };
  }

  private parseStage(pos: Pos): Stage {
    let regex = false;
    while (this.tok.kind === "ident" && this.isOp("=", this.peek())) {
      const opt = this.next();
      this.next();
      const value = this.next();
      if (opt.text.toLowerCase() === "kind") regex = value.text.toLowerCase() === "regex";
    }
    const source = this.additive();
    this.expectWord("with");
    const parts: ParsePart[] = [];
    while (!this.isOp("|") && !this.isOp(";") && !this.isOp(")") && this.tok.kind !== "eof") {
      const t = this.tok;
      if (t.kind === "string") {
        this.next();
        parts.push({ kind: "text", text: t.text });
      } else if (this.isOp("*")) {
        this.next();
        parts.push({ kind: "any" });
      } else if (t.kind === "ident" || t.kind === "name") {
        this.next();
        let type: string | null = null;
        if (this.isOp(":")) {
          this.next();
          type = this.next().text.toLowerCase();
        }
        parts.push({ kind: "column", pos: t, name: t.text, type });
      } else {
        this.fail("a string, '*' or a column name");
      }
      if (this.isOp(",")) this.next();
    }
    if (!parts.some((p) => p.kind === "column")) this.fail("a column to extract");
    return { kind: "parse", pos, regex, source, parts };
  }

  /** `parse-kv Expr as (key[:type], ...) [with (option = value, ...)]`. */
  private parseKv(pos: Pos): Stage {
    const source = this.additive();
    this.expectWord("as");
    this.expectOp("(");
    const keys = this.list((): ParseKvKey => {
      const t = this.tok;
      if (t.kind !== "ident" && t.kind !== "name" && t.kind !== "string") this.fail("a key name");
      this.next();
      let type: string | null = null;
      if (this.isOp(":")) {
        this.next();
        type = this.next().text.toLowerCase();
      }
      return { pos: t, name: t.text, type };
    });
    this.expectOp(")");
    const stage: ParseKvStage = { kind: "parse-kv", pos, source, keys, quotes: [] };
    if (!this.isWord("with")) return stage;
    this.next();
    this.expectOp("(");
    this.list(() => {
      const opt = this.tok;
      if (opt.kind !== "ident") this.fail("an option: pair_delimiter, kv_delimiter, quote, escape, greedy or regex");
      this.next();
      this.expectOp("=");
      const value = this.next();
      const text = value.kind === "string" ? value.text : value.raw || value.text;
      switch (opt.text.toLowerCase()) {
        case "pair_delimiter":
          stage.pairDelimiter = text;
          return;
        case "kv_delimiter":
          stage.kvDelimiter = text;
          return;
        case "quote":
          stage.quotes.push(text);
          return;
        case "regex":
          stage.regex = text;
          return;
        // Accepted as documented; the emulator's extraction does not need them.
        case "escape":
        case "greedy":
          return;
        default:
          throw syntaxError(opt, `unknown parse-kv option '${opt.text}'; expected pair_delimiter, kv_delimiter, quote, escape, greedy or regex`, COMPILE_ERROR.invalidArgument);
      }
    });
    this.expectOp(")");
    return stage;
  }

  private makeSeries(pos: Pos): Stage {
    const aggregations: MakeSeriesAgg[] = this.list(() => {
      const item = this.named();
      let defaultValue: Expr | null = null;
      if (this.isWord("default")) {
        this.next();
        this.expectOp("=");
        defaultValue = this.unary();
      }
      return { item, defaultValue };
    });
    this.expectWord("on");
    // The axis stops before `in range(...)`: it is not the `in` operator.
    const at = this.tok;
    let axisName: string | undefined;
    if ((at.kind === "ident" || at.kind === "name") && this.isOp("=", this.peek())) {
      this.next();
      this.next();
      axisName = at.text;
    }
    const axis: NamedExpr = { pos: at, name: axisName, expr: this.additive() };
    let from: Expr | null = null;
    let to: Expr | null = null;
    let step: Expr;
    if (this.isWord("in")) {
      this.next();
      this.expectWord("range");
      this.expectOp("(");
      from = this.expr();
      this.expectOp(",");
      to = this.expr();
      this.expectOp(",");
      step = this.expr();
      this.expectOp(")");
    } else {
      if (this.isWord("from")) {
        this.next();
        from = this.expr();
      }
      if (this.isWord("to")) {
        this.next();
        to = this.expr();
      }
      this.expectWord("step");
      step = this.expr();
    }
    let by: NamedExpr[] = [];
    if (this.isWord("by")) {
      this.next();
      by = this.namedList();
    }
    return { kind: "make-series", pos, aggregations, axis, from, to, step, by };
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
    return this.list(() => this.nameRef());
  }

  private nameRef(): NameRef {
    const t = this.tok;
    if (t.kind === "name") {
      this.next();
      return { pos: t, name: t.text };
    }
    if (t.kind !== "ident") this.fail("a field name");
    this.next();
    return { pos: t, name: this.dotted(t) };
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
    return this.nested(() => this.or());
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
    if (base === "in" || base === "in~" || base === "has_any" || base === "has_all") {
      this.next();
      this.expectOp("(");
      const list = this.list(() => this.expr());
      this.expectOp(")");
      const test = base === "has_any" || base === "has_all" ? base : "in";
      if (negated && test !== "in") this.fail("an operator", t);
      return { kind: "in", pos: t, test, negated, caseInsensitive: base === "in~", operand: left, list };
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
    if (base === "matches") {
      this.next();
      this.expectWord("regex");
      return { kind: "binary", pos: t, op: negated ? "!matches regex" : "matches regex", left, right: this.additive() };
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
      return { kind: "unary", pos: t, op: t.text === "-" ? "-" : "+", operand: this.nested(() => this.unary()) };
    }
    return this.postfix(this.primary());
  }

  /** `x[0]`, `x['key']` (one quoted-name token), and `.key` after a call or an index. */
  private postfix(target: Expr): Expr {
    let e = target;
    for (;;) {
      const t = this.tok;
      if (this.isOp("[")) {
        this.next();
        const index = this.expr();
        this.expectOp("]");
        e = { kind: "index", pos: t, target: e, index };
      } else if (t.kind === "name" && e.kind !== "literal") {
        this.next();
        e = { kind: "index", pos: t, target: e, index: this.literal(t, { kind: "string", value: t.text }) };
      } else if (this.isOp(".") && e.kind !== "field" && e.kind !== "literal" && this.peek().kind === "ident") {
        this.next();
        const key = this.next();
        e = { kind: "index", pos: key, target: e, index: this.literal(key, { kind: "string", value: key.text }) };
      } else {
        return e;
      }
    }
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
        if (t.text === "*") {
          this.next();
          return { kind: "star", pos: { line: t.line, column: t.column } };
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
    if (t.text.toLowerCase() === "dynamic" && this.isOp("(")) {
      this.next();
      const value = this.dynamicValue();
      this.expectOp(")");
      return { kind: "dynamic", pos: { line: t.line, column: t.column }, value };
    }
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

  /** The inside of `dynamic(...)`: JSON-like, with the language's own literals. */
  private dynamicValue(): Value {
    return this.nested(() => this.dynamicValueHere());
  }

  private dynamicValueHere(): Value {
    const t = this.tok;
    if (t.kind === "name") {
      this.next();
      return [t.text];
    }
    if (this.isOp("[")) {
      this.next();
      const items: Value[] = [];
      while (!this.isOp("]")) {
        items.push(this.dynamicValue());
        if (!this.isOp(",")) break;
        this.next();
      }
      this.expectOp("]");
      return items;
    }
    if (this.isOp("{")) {
      this.next();
      const bag: Bag = {};
      while (!this.isOp("}")) {
        const k = this.tok;
        if (k.kind !== "string" && k.kind !== "ident") this.fail("a property name");
        this.next();
        this.expectOp(":");
        bag[k.text] = this.dynamicValue();
        if (!this.isOp(",")) break;
        this.next();
      }
      this.expectOp("}");
      return bag;
    }
    if (this.isOp("-") && this.peek().kind === "number") {
      this.next();
      return -this.next().num;
    }
    switch (t.kind) {
      case "number":
        this.next();
        return t.num;
      case "string":
        this.next();
        return t.text;
      case "datetime":
        this.next();
        return new DateTimeValue(t.num);
      case "timespan":
        this.next();
        return new TimespanValue(t.num);
      case "ident": {
        const w = t.text.toLowerCase();
        if (w === "true" || w === "false" || w === "null") {
          this.next();
          return w === "null" ? null : w === "true";
        }
        return this.fail("a constant value");
      }
      default:
        return this.fail("a constant value");
    }
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
