// The custom webhook's body: a subset of Go's text/template, enough for the documented
// variables and the documented helpers. Supported: `{{ .Field.Sub }}`, `$` and `$var`,
// string/number/boolean literals, pipelines with `|`, parentheses, `{{- -}}` trimming,
// comments, `if`/`else if`/`else`, `range` (with `$i, $v :=`) and `with`, and the
// functions eq, ne, lt, le, gt, ge, not, and, or, len, index, print, jsonObject and
// jsonArray. Like text/template, nothing is HTML-escaped, a missing key prints
// "<no value>", and numbers print as Go prints a float64 with %v.

export class TemplateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TemplateError";
  }
}

type Data = unknown;

type Arg =
  | { kind: "field"; base: "dot" | "root" | "var"; name: string; path: string[] }
  | { kind: "literal"; value: Data }
  | { kind: "ident"; name: string }
  | { kind: "pipe"; pipe: Pipeline };

interface Pipeline {
  decl: string[];
  commands: Arg[][];
}

type Node =
  | { kind: "text"; text: string }
  | { kind: "print"; pipe: Pipeline }
  | { kind: "if" | "with"; pipe: Pipeline; then: Node[]; otherwise: Node[] }
  | { kind: "range"; pipe: Pipeline; body: Node[]; otherwise: Node[] };

/** Largest rendered body: a template that loops over a big event must not eat memory. */
export const MAX_RENDERED_CHARS = 1024 * 1024;

// ---- Splitting the text into literal text and actions ----

interface RawAction {
  text: string;
  /** 1-based line of the action's start, for messages. */
  line: number;
}

function lineAt(src: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) if (src.charCodeAt(i) === 10) line++;
  return line;
}

/** Where the action that starts at `from` (just past "{{") ends: the index of its "}}". */
function actionEnd(src: string, from: number): number {
  let quote = "";
  for (let i = from; i < src.length; i++) {
    const c = src[i];
    if (quote) {
      if (quote === '"' && c === "\\") i++;
      else if (c === quote) quote = "";
      continue;
    }
    if (c === '"' || c === "`" || c === "'") quote = c;
    else if (c === "/" && src[i + 1] === "*") {
      const close = src.indexOf("*/", i + 2);
      if (close < 0) throw new TemplateError(`unclosed comment at line ${lineAt(src, i)}`);
      i = close + 1;
    } else if (c === "}" && src[i + 1] === "}") return i;
  }
  throw new TemplateError(`unclosed action at line ${lineAt(src, from)}`);
}

function split(src: string): (string | RawAction)[] {
  const out: (string | RawAction)[] = [];
  let pos = 0;
  let trimNext = false;
  while (pos <= src.length) {
    const open = src.indexOf("{{", pos);
    let text = open < 0 ? src.slice(pos) : src.slice(pos, open);
    if (trimNext) text = text.replace(/^\s+/, "");
    if (open < 0) {
      if (text) out.push(text);
      break;
    }
    let start = open + 2;
    // "{{- " trims the space before the action (the dash must be followed by a space).
    if (src[start] === "-" && /\s/.test(src[start + 1] ?? "")) {
      text = text.replace(/\s+$/, "");
      start += 1;
    }
    if (text) out.push(text);
    const end = actionEnd(src, start);
    let inner = src.slice(start, end);
    trimNext = false;
    if (/\s-$/.test(inner)) {
      inner = inner.slice(0, -1);
      trimNext = true;
    }
    out.push({ text: inner, line: lineAt(src, open) });
    pos = end + 2;
  }
  return out;
}

// ---- Parsing one action ----

type Token =
  | { t: "field"; text: string }
  | { t: "var"; text: string }
  | { t: "ident"; text: string }
  | { t: "literal"; value: Data }
  | { t: "punct"; text: string };

function unquote(raw: string, line: number): string {
  try {
    return JSON.parse(raw) as string;
  } catch {
    throw new TemplateError(`bad string literal ${raw} at line ${line}`);
  }
}

function tokenize(text: string, line: number): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === "/" && text[i + 1] === "*") {
      const close = text.indexOf("*/", i + 2);
      i = close + 2;
      continue;
    }
    const rest = text.slice(i);
    let m: RegExpExecArray | null;
    if ((m = /^"(?:[^"\\]|\\.)*"/.exec(rest))) {
      tokens.push({ t: "literal", value: unquote(m[0], line) });
    } else if ((m = /^`[^`]*`/.exec(rest))) {
      tokens.push({ t: "literal", value: m[0].slice(1, -1) });
    } else if ((m = /^'(?:[^'\\]|\\.)'/.exec(rest))) {
      tokens.push({ t: "literal", value: unquote(`"${m[0].slice(1, -1)}"`, line).codePointAt(0) ?? 0 });
    } else if ((m = /^-?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)/.exec(rest)) && !(c === "." && /^\.[A-Za-z_]/.test(rest))) {
      tokens.push({ t: "literal", value: Number(m[0]) });
    } else if ((m = /^(?:\.[A-Za-z_][A-Za-z0-9_]*)+/.exec(rest))) {
      tokens.push({ t: "field", text: m[0] });
    } else if ((m = /^\./.exec(rest))) {
      tokens.push({ t: "field", text: "." });
    } else if ((m = /^\$[A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*/.exec(rest))) {
      tokens.push({ t: "var", text: m[0] });
    } else if ((m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(rest))) {
      if (m[0] === "true" || m[0] === "false") tokens.push({ t: "literal", value: m[0] === "true" });
      else if (m[0] === "nil") tokens.push({ t: "literal", value: null });
      else tokens.push({ t: "ident", text: m[0] });
    } else if ((m = /^(?::=|[|(),=])/.exec(rest))) {
      tokens.push({ t: "punct", text: m[0] });
    } else {
      throw new TemplateError(`unexpected ${JSON.stringify(c)} in action at line ${line}`);
    }
    i += m[0].length;
  }
  return tokens;
}

const KNOWN_FUNCTIONS = new Set(["eq", "ne", "lt", "le", "gt", "ge", "not", "and", "or", "len", "index", "print", "jsonObject", "jsonArray"]);

class ActionParser {
  private i = 0;
  constructor(
    private readonly tokens: Token[],
    private readonly line: number,
  ) {}

  done(): boolean {
    return this.i >= this.tokens.length;
  }

  private peek(): Token | undefined {
    return this.tokens[this.i];
  }

  private fail(what: string): never {
    throw new TemplateError(`${what} at line ${this.line}`);
  }

  pipeline(allowDecl: boolean): Pipeline {
    const decl: string[] = [];
    if (allowDecl) {
      // `$v :=` or `$i, $v :=`
      const save = this.i;
      const names: string[] = [];
      for (let tok = this.peek(); tok?.t === "var"; tok = this.peek()) {
        names.push(tok.text);
        this.i++;
        const p = this.peek();
        if (p?.t === "punct" && p.text === ",") {
          this.i++;
          continue;
        }
        break;
      }
      const p = this.peek();
      if (names.length > 0 && p?.t === "punct" && (p.text === ":=" || p.text === "=")) {
        this.i++;
        decl.push(...names);
      } else {
        this.i = save;
      }
    }
    const commands: Arg[][] = [this.command()];
    while (this.peek()?.t === "punct" && (this.peek() as { text: string }).text === "|") {
      this.i++;
      commands.push(this.command());
    }
    return { decl, commands };
  }

  private command(): Arg[] {
    const args: Arg[] = [];
    for (;;) {
      const tok = this.peek();
      if (!tok || (tok.t === "punct" && (tok.text === "|" || tok.text === ")"))) break;
      args.push(this.operand());
    }
    if (args.length === 0) this.fail("missing value in pipeline");
    return args;
  }

  private operand(): Arg {
    const tok = this.tokens[this.i++]!;
    switch (tok.t) {
      case "literal":
        return { kind: "literal", value: tok.value };
      case "field":
        return { kind: "field", base: "dot", name: "", path: tok.text === "." ? [] : tok.text.slice(1).split(".") };
      case "var": {
        const [name, ...path] = tok.text.split(".");
        return name === "$" ? { kind: "field", base: "root", name: "$", path } : { kind: "field", base: "var", name: name!, path };
      }
      case "ident":
        if (!KNOWN_FUNCTIONS.has(tok.text)) this.fail(`function "${tok.text}" not defined`);
        return { kind: "ident", name: tok.text };
      case "punct":
        if (tok.text === "(") {
          const pipe = this.pipeline(false);
          const close = this.tokens[this.i++];
          if (!close || close.t !== "punct" || close.text !== ")") this.fail("unclosed parenthesis");
          return { kind: "pipe", pipe };
        }
        return this.fail(`unexpected "${tok.text}"`);
    }
  }
}

function parsePipeline(text: string, line: number, allowDecl: boolean): Pipeline {
  const p = new ActionParser(tokenize(text, line), line);
  const pipe = p.pipeline(allowDecl);
  if (!p.done()) throw new TemplateError(`unexpected text after the pipeline at line ${line}`);
  return pipe;
}

// ---- Building the tree of control structures ----

type Closer = { word: "end" | "else"; elseIf?: RawAction; line: number } | undefined;

class TreeBuilder {
  private i = 0;
  constructor(private readonly parts: (string | RawAction)[]) {}

  /** Nodes up to an {{end}} or {{else}} (returned as the closer), or the end of the text. */
  list(): { nodes: Node[]; closer: Closer } {
    const nodes: Node[] = [];
    while (this.i < this.parts.length) {
      const part = this.parts[this.i++]!;
      if (typeof part === "string") {
        nodes.push({ kind: "text", text: part });
        continue;
      }
      const text = part.text.trim();
      if (text === "") throw new TemplateError(`empty action at line ${part.line}`);
      if (text.startsWith("/*")) {
        if (!text.endsWith("*/")) throw new TemplateError(`comment must fill its action at line ${part.line}`);
        continue;
      }
      const word = /^[a-z]+\b/.exec(text)?.[0];
      if (word === "end") return { nodes, closer: { word: "end", line: part.line } };
      if (word === "else") {
        const rest = text.slice(4).trim();
        if (rest === "") return { nodes, closer: { word: "else", line: part.line } };
        if (/^if\b/.test(rest)) return { nodes, closer: { word: "else", elseIf: { text: rest, line: part.line }, line: part.line } };
        throw new TemplateError(`unexpected "${rest}" after else at line ${part.line}`);
      }
      if (word === "if" || word === "with" || word === "range") {
        nodes.push(this.block(word, text.slice(word.length), part.line));
        continue;
      }
      if (word === "define" || word === "template" || word === "block" || word === "break" || word === "continue") {
        throw new TemplateError(`"${word}" is not supported at line ${part.line}`);
      }
      nodes.push({ kind: "print", pipe: parsePipeline(text, part.line, true) });
    }
    return { nodes, closer: undefined };
  }

  private block(word: "if" | "with" | "range", rest: string, line: number): Node {
    const pipe = parsePipeline(rest, line, word === "range" || word === "with");
    const body = this.list();
    let otherwise: Node[] = [];
    if (!body.closer) throw new TemplateError(`unclosed "${word}" at line ${line} (missing {{ end }})`);
    if (body.closer.word === "else") {
      if (body.closer.elseIf) {
        // `{{ else if x }}` is an if nested in the else branch that shares the outer {{ end }}.
        otherwise = [this.block("if", body.closer.elseIf.text.slice(2), body.closer.elseIf.line)];
      } else {
        const tail = this.list();
        if (tail.closer?.word !== "end") throw new TemplateError(`unclosed "${word}" at line ${line} (missing {{ end }})`);
        otherwise = tail.nodes;
      }
    }
    if (word === "range") return { kind: "range", pipe, body: body.nodes, otherwise };
    return { kind: word, pipe, then: body.nodes, otherwise };
  }
}

export interface Template {
  render(data: Record<string, Data>): string;
}

/** Parses a template; throws TemplateError (with a line) when it is not valid. */
export function parseTemplate(src: string): Template {
  const builder = new TreeBuilder(split(src));
  const { nodes, closer } = builder.list();
  if (closer) throw new TemplateError(`unexpected {{ ${closer.word} }} at line ${closer.line}`);
  return { render: (data) => new Renderer(data).run(nodes) };
}

// ---- Evaluation ----

const NO_VALUE = Symbol("no value");

function isRecord(v: Data): v is Record<string, Data> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function truthy(v: Data): boolean {
  if (v === NO_VALUE || v === null || v === undefined || v === false || v === 0 || v === "") return false;
  if (Array.isArray(v)) return v.length > 0;
  if (isRecord(v)) return Object.keys(v).length > 0;
  return true;
}

/** Go's %v of a float64: integers without a fraction, large and tiny ones in e-notation. */
function formatNumber(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return String(n);
  const abs = Math.abs(n);
  if (abs !== 0 && (abs < 1e-4 || abs >= 1e21)) return n.toExponential().replace(/e([+-])(\d)$/, "e$10$2");
  return String(n);
}

function printValue(v: Data): string {
  if (v === NO_VALUE || v === undefined) return "<no value>";
  if (v === null) return "<nil>";
  if (typeof v === "number") return formatNumber(v);
  if (typeof v === "string") return v;
  if (typeof v === "boolean") return String(v);
  if (Array.isArray(v)) return `[${v.map(printValue).join(" ")}]`;
  if (isRecord(v)) return `map[${Object.keys(v).sort().map((k) => `${k}:${printValue(v[k])}`).join(" ")}]`;
  return String(v);
}

function json(v: Data): string {
  return JSON.stringify(v === NO_VALUE || v === undefined ? null : v) ?? "null";
}

function compare(name: string, a: Data, b: Data): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "string" && typeof b === "string") return a < b ? -1 : a > b ? 1 : 0;
  throw new TemplateError(`${name}: incompatible types for comparison`);
}

function equal(a: Data, b: Data): boolean {
  if (a === NO_VALUE || b === NO_VALUE) return a === b;
  if (typeof a !== typeof b && !(a === null || b === null)) return false;
  return a === b;
}

class Renderer {
  private out = "";
  private readonly vars: Map<string, Data>[] = [];

  constructor(private readonly root: Record<string, Data>) {}

  run(nodes: Node[]): string {
    this.vars.push(new Map([["$", this.root]]));
    this.walk(nodes, this.root);
    return this.out;
  }

  private emit(text: string): void {
    this.out += text;
    if (this.out.length > MAX_RENDERED_CHARS) throw new TemplateError(`the rendered body is longer than ${MAX_RENDERED_CHARS} characters`);
  }

  private variable(name: string): Data {
    for (let i = this.vars.length - 1; i >= 0; i--) {
      const scope = this.vars[i]!;
      if (scope.has(name)) return scope.get(name);
    }
    throw new TemplateError(`undefined variable "${name}"`);
  }

  private walk(nodes: Node[], dot: Data): void {
    for (const node of nodes) {
      switch (node.kind) {
        case "text":
          this.emit(node.text);
          break;
        case "print": {
          const value = this.pipe(node.pipe, dot);
          if (node.pipe.decl.length === 0) this.emit(printValue(value));
          break;
        }
        case "if":
        case "with": {
          this.vars.push(new Map());
          const value = this.pipe(node.pipe, dot);
          if (truthy(value)) this.walk(node.then, node.kind === "with" ? value : dot);
          else this.walk(node.otherwise, dot);
          this.vars.pop();
          break;
        }
        case "range":
          this.range(node, dot);
          break;
      }
    }
  }

  private range(node: Extract<Node, { kind: "range" }>, dot: Data): void {
    const decl = node.pipe.decl;
    const value = this.pipe({ decl: [], commands: node.pipe.commands }, dot);
    let entries: [Data, Data][] = [];
    if (Array.isArray(value)) entries = value.map((v, i) => [i, v]);
    else if (isRecord(value)) entries = Object.keys(value).sort().map((k) => [k, value[k]]);
    else if (typeof value === "number" && Number.isInteger(value) && value >= 0) entries = Array.from({ length: Math.min(value, MAX_RENDERED_CHARS) }, (_, i) => [i, i]);
    else if (truthy(value)) throw new TemplateError(`range can't iterate over ${printValue(value)}`);
    if (entries.length === 0) {
      this.walk(node.otherwise, dot);
      return;
    }
    for (const [key, item] of entries) {
      const scope = new Map<string, Data>();
      if (decl.length === 1) scope.set(decl[0]!, item);
      if (decl.length === 2) {
        scope.set(decl[0]!, key);
        scope.set(decl[1]!, item);
      }
      this.vars.push(scope);
      this.walk(node.body, item);
      this.vars.pop();
    }
  }

  private pipe(pipe: Pipeline, dot: Data): Data {
    let value: Data = NO_VALUE;
    let first = true;
    for (const command of pipe.commands) {
      value = this.command(command, dot, first ? undefined : { value });
      first = false;
    }
    if (pipe.decl.length > 0) this.vars[this.vars.length - 1]!.set(pipe.decl[pipe.decl.length - 1]!, value);
    return value;
  }

  private command(args: Arg[], dot: Data, piped: { value: Data } | undefined): Data {
    const head = args[0]!;
    if (head.kind === "ident") {
      const values = args.slice(1).map((a) => this.arg(a, dot));
      if (piped) values.push(piped.value);
      return this.call(head.name, values);
    }
    if (args.length > 1 || piped) throw new TemplateError(`can't give arguments to a non-function value`);
    return this.arg(head, dot);
  }

  private arg(arg: Arg, dot: Data): Data {
    switch (arg.kind) {
      case "literal":
        return arg.value;
      case "pipe":
        return this.pipe(arg.pipe, dot);
      case "ident":
        return this.call(arg.name, []);
      case "field": {
        let value: Data = arg.base === "dot" ? dot : this.variable(arg.name);
        for (const key of arg.path) {
          if (!isRecord(value)) return NO_VALUE;
          value = Object.hasOwn(value, key) ? value[key] : NO_VALUE;
        }
        return value;
      }
    }
  }

  private call(name: string, args: Data[]): Data {
    const need = (n: number): void => {
      if (args.length < n) throw new TemplateError(`${name}: wrong number of arguments: want at least ${n}, got ${args.length}`);
    };
    switch (name) {
      case "eq":
        need(2);
        return args.slice(1).some((b) => equal(args[0], b));
      case "ne":
        need(2);
        return !equal(args[0], args[1]);
      case "lt":
        need(2);
        return compare(name, args[0], args[1]) < 0;
      case "le":
        need(2);
        return compare(name, args[0], args[1]) <= 0;
      case "gt":
        need(2);
        return compare(name, args[0], args[1]) > 0;
      case "ge":
        need(2);
        return compare(name, args[0], args[1]) >= 0;
      case "not":
        need(1);
        return !truthy(args[0]);
      case "and": {
        need(1);
        for (const a of args) if (!truthy(a)) return a;
        return args[args.length - 1];
      }
      case "or": {
        need(1);
        for (const a of args) if (truthy(a)) return a;
        return args[args.length - 1];
      }
      case "len": {
        need(1);
        const v = args[0];
        if (typeof v === "string" || Array.isArray(v)) return v.length;
        if (isRecord(v)) return Object.keys(v).length;
        throw new TemplateError(`len of ${printValue(v)}`);
      }
      case "index": {
        need(1);
        let v = args[0];
        for (const k of args.slice(1)) {
          if (Array.isArray(v) && typeof k === "number") v = k >= 0 && k < v.length ? v[k] : NO_VALUE;
          else if (isRecord(v) && typeof k === "string") v = Object.hasOwn(v, k) ? v[k] : NO_VALUE;
          else throw new TemplateError(`index of ${printValue(v)} with ${printValue(k)}`);
        }
        return v;
      }
      case "print":
        return args.map(printValue).join("");
      case "jsonObject":
      case "jsonArray":
        need(1);
        return json(args[0]);
      default:
        throw new TemplateError(`function "${name}" not defined`);
    }
  }
}

/** Renders `src` with `data`; throws TemplateError for a bad template or a failed evaluation. */
export function renderTemplate(src: string, data: Record<string, Data>): string {
  return parseTemplate(src).render(data);
}
