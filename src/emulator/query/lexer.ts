// Splits query text into tokens that remember where they stand (1-based line and
// column), so that every later error can point at the offending token.

import { COMPILE_ERROR, syntaxError, type Pos } from "./errors";
import { parseIsoTime, parseTimespan, timespanUnitMs } from "./time";

export type TokenKind =
  | "ident" // where, count, my_field; also `!contains`-style negated word operators
  | "name" // ['field.with.dots'] or ["odd name"]
  | "string"
  | "number"
  | "timespan" // 5m, 1.5h (value in milliseconds)
  | "datetime" // datetime(2024-01-01T00:00:00Z) (value in milliseconds)
  | "op" // punctuation and symbolic operators
  | "eof";

export interface Token extends Pos {
  kind: TokenKind;
  /** Identifier or operator text, the name of a `name` token, the decoded string. */
  text: string;
  /** Numeric value of number, timespan and datetime tokens. */
  num: number;
  /** The literal's source text (for datetime output and integer-vs-float). */
  raw: string;
  start: number;
  end: number;
}

const SYMBOLS = ["==", "!=", "<>", "<=", ">=", "=~", "!~", "..", "|", "(", ")", ",", "=", "<", ">", "+", "-", "*", "/", "%", ".", "[", "]", "{", "}", ":", ";"];

const isIdentStart = (c: string): boolean => /[A-Za-z_$]/.test(c);
const isIdentPart = (c: string): boolean => /[A-Za-z0-9_$]/.test(c);
const isDigit = (c: string): boolean => c >= "0" && c <= "9";

export function tokenize(text: string): Token[] {
  return new Lexer(text).run();
}

class Lexer {
  private pos = 0;
  private readonly lineStarts: number[] = [0];
  private readonly tokens: Token[] = [];

  constructor(private readonly text: string) {
    for (let i = 0; i < text.length; i++) if (text[i] === "\n") this.lineStarts.push(i + 1);
  }

  where(offset: number): Pos {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - this.lineStarts[lo] + 1 };
  }

  private push(kind: TokenKind, start: number, text: string, num = 0): void {
    this.tokens.push({ kind, text, num, raw: this.text.slice(start, this.pos), start, end: this.pos, ...this.where(start) });
  }

  run(): Token[] {
    const t = this.text;
    while (this.pos < t.length) {
      const c = t[this.pos];
      if (/\s/.test(c)) {
        this.pos++;
      } else if (c === "/" && t[this.pos + 1] === "/") {
        while (this.pos < t.length && t[this.pos] !== "\n") this.pos++;
      } else if (c === "'" || c === '"') {
        const start = this.pos;
        this.push("string", start, this.readString());
      } else if (c === "@" && (t[this.pos + 1] === "'" || t[this.pos + 1] === '"')) {
        const start = this.pos++;
        this.push("string", start, this.readVerbatim());
      } else if (c === "[" && this.bracketQuoteAhead() && this.readBracketName()) {
        // read as ['quoted name']; otherwise `[` opens an array (dynamic(['a', 'b'])).
      } else if (isDigit(c) || (c === "." && isDigit(t[this.pos + 1] ?? ""))) {
        this.readNumber();
      } else if (isIdentStart(c)) {
        this.readWord();
      } else if (c === "!" && isIdentStart(t[this.pos + 1] ?? "")) {
        // `!contains`, `!in`, `!startswith`: one negated operator token.
        const start = this.pos++;
        while (this.pos < t.length && isIdentPart(t[this.pos])) this.pos++;
        if (t.slice(start, this.pos).toLowerCase() === "!in" && t[this.pos] === "~") this.pos++;
        this.push("ident", start, t.slice(start, this.pos));
      } else {
        const sym = SYMBOLS.find((s) => t.startsWith(s, this.pos));
        if (!sym) throw syntaxError(this.where(this.pos), `unexpected character '${c}'`);
        const start = this.pos;
        this.pos += sym.length;
        this.push("op", start, sym);
      }
    }
    this.push("eof", this.pos, "");
    return this.tokens;
  }

  private readString(): string {
    const quote = this.text[this.pos];
    const start = this.pos++;
    let out = "";
    while (this.pos < this.text.length) {
      const c = this.text[this.pos++];
      if (c === quote) return out;
      if (c === "\n") break;
      if (c === "\\") {
        const e = this.text[this.pos++];
        out += e === "n" ? "\n" : e === "t" ? "\t" : e === "r" ? "\r" : e === "0" ? "\0" : (e ?? "");
      } else {
        out += c;
      }
    }
    throw syntaxError(this.where(start), "unterminated string literal");
  }

  /** `@'C:\path'`: no escapes; a doubled quote stands for one quote. */
  private readVerbatim(): string {
    const quote = this.text[this.pos];
    const start = this.pos - 1;
    this.pos++;
    let out = "";
    while (this.pos < this.text.length) {
      const c = this.text[this.pos++];
      if (c === quote) {
        if (this.text[this.pos] !== quote) return out;
        this.pos++;
      }
      out += c;
    }
    throw syntaxError(this.where(start), "unterminated string literal");
  }

  private bracketQuoteAhead(): boolean {
    let i = this.pos + 1;
    while (this.text[i] === " ") i++;
    return this.text[i] === "'" || this.text[i] === '"';
  }

  /** `['name']`; false (nothing consumed) when the bracket holds more than one string. */
  private readBracketName(): boolean {
    const start = this.pos++;
    while (this.text[this.pos] === " ") this.pos++;
    const name = this.readString();
    while (this.text[this.pos] === " ") this.pos++;
    if (this.text[this.pos] !== "]") {
      this.pos = start;
      return false;
    }
    this.pos++;
    this.push("name", start, name);
    return true;
  }

  private readNumber(): void {
    const t = this.text;
    const start = this.pos;
    while (isDigit(t[this.pos] ?? "")) this.pos++;
    // `1..5` is a range, not the number `1.` followed by `.5`.
    if (t[this.pos] === "." && isDigit(t[this.pos + 1] ?? "")) {
      this.pos++;
      while (isDigit(t[this.pos] ?? "")) this.pos++;
    }
    if ((t[this.pos] === "e" || t[this.pos] === "E") && /[0-9+-]/.test(t[this.pos + 1] ?? "")) {
      const save = this.pos;
      this.pos++;
      if (t[this.pos] === "+" || t[this.pos] === "-") this.pos++;
      if (isDigit(t[this.pos] ?? "")) while (isDigit(t[this.pos] ?? "")) this.pos++;
      else this.pos = save;
    }
    const numText = t.slice(start, this.pos);
    if (isIdentStart(t[this.pos] ?? "")) {
      const unitStart = this.pos;
      while (isIdentPart(t[this.pos] ?? "")) this.pos++;
      const unit = timespanUnitMs(t.slice(unitStart, this.pos).toLowerCase());
      if (unit === undefined) throw syntaxError(this.where(start), `invalid literal '${t.slice(start, this.pos)}'`);
      this.push("timespan", start, t.slice(start, this.pos), Number(numText) * unit);
      return;
    }
    this.push("number", start, numText, Number(numText));
  }

  private readWord(): void {
    const t = this.text;
    const start = this.pos;
    while (this.pos < t.length && isIdentPart(t[this.pos])) this.pos++;
    if (t.slice(start, this.pos).toLowerCase() === "in" && t[this.pos] === "~") this.pos++;
    const word = t.slice(start, this.pos);
    const lower = word.toLowerCase();
    if (lower === "datetime" || lower === "timespan") {
      // The argument of datetime(...) is raw text (2024-01-01T10:00:00Z is not an expression).
      let i = this.pos;
      while (t[i] === " ") i++;
      if (t[i] === "(") {
        const close = t.indexOf(")", i);
        if (close < 0) throw syntaxError(this.where(i), "expected ')'");
        const inner = t.slice(i + 1, close).trim().replace(/^(['"])(.*)\1$/, "$2");
        this.pos = close + 1;
        this.pushTimeLiteral(lower, start, inner);
        return;
      }
    }
    this.push("ident", start, word);
  }

  private pushTimeLiteral(kind: "datetime" | "timespan", start: number, inner: string): void {
    const value = kind === "datetime" ? parseIsoTime(inner) : parseTimespan(inner);
    if (value === undefined) {
      throw syntaxError(this.where(start), `invalid ${kind} literal '${inner}'`, COMPILE_ERROR.invalidArgument);
    }
    this.push(kind, start, inner, value);
  }
}
