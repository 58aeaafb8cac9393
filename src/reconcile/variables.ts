// Input variables (`var.NAME`), evaluated the way Terraform does: the value comes from
// the last of, in rising precedence, TF_VAR_NAME in the environment, then --var and
// --var-file in the order given on the command line; else the variable's default; else
// it is an error naming the variable. A sensitive variable's value is remembered as
// such, so that everything derived from it can be hidden. With several stacks in one run,
// an assignment may be for one stack only (`--var STACK:NAME=VALUE`, `--var-file
// STACK=FILE`): each environment then gets its own target and secrets.
import * as fs from "node:fs";
import { jsonPath, reservedKeyPath, reservedKeyReason } from "../resources";

export interface VariableDeclaration {
  name: string;
  /** The declared type constraint as cdktf writes it ("string", "number", "list(string)", ...). */
  type?: string;
  default?: unknown;
  hasDefault: boolean;
  sensitive: boolean;
}

/** One assignment from the command line, in the order given; `stack` when it is for that stack only. */
export type VariableAssignment =
  | { name: string; raw: string; source: string; stack?: string }
  | { name: string; value: unknown; source: string; stack?: string };

export interface VariableInputs {
  env: NodeJS.ProcessEnv;
  assignments: VariableAssignment[];
}

export interface VariableValue {
  value: unknown;
  sensitive: boolean;
  /** Where the value came from (`TF_VAR_x`, `--var`, a file, the default), for messages: never the value. */
  source: string;
}

export class VariableError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join("\n"));
    this.name = "VariableError";
  }
}

/** Reads the `variable` section of a synthesized stack. */
export function variableDeclarations(section: Record<string, unknown> | undefined): VariableDeclaration[] {
  const out: VariableDeclaration[] = [];
  for (const [name, raw] of Object.entries(section ?? {})) {
    const block = (raw ?? {}) as Record<string, unknown>;
    out.push({
      name,
      type: typeof block.type === "string" ? block.type.replace(/^\$\{(.*)\}$/, "$1") : undefined,
      default: block.default,
      hasDefault: "default" in block,
      sensitive: block.sensitive === true,
    });
  }
  return out;
}

/**
 * A value given as text (TF_VAR_x, --var x=...) converted to the declared type:
 * primitives parse as Terraform parses them; lists, maps and objects are read as JSON
 * (the HCL forms that are also JSON). Messages never hold the text: it may be a secret.
 */
function fromText(decl: VariableDeclaration, raw: string, source: string): unknown {
  const type = (decl.type ?? "any").trim();
  if (type === "string" || type === "any") return raw;
  if (type === "number") {
    const n = Number(raw);
    if (raw.trim() === "" || !Number.isFinite(n)) throw new VariableError([`variable "${decl.name}" (from ${source}): expected a number`]);
    return n;
  }
  if (type === "bool") {
    if (raw === "true") return true;
    if (raw === "false") return false;
    throw new VariableError([`variable "${decl.name}" (from ${source}): expected true or false`]);
  }
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new VariableError([`variable "${decl.name}" (from ${source}): expected a ${type} written as JSON (for example ["a", "b"] or {"k": "v"})`]);
  }
  const reserved = reservedKeyPath(value);
  if (reserved) throw new VariableError([`variable "${decl.name}" (from ${source}): at ${jsonPath(reserved)}: ${reservedKeyReason(reserved[reserved.length - 1])}`]);
  return value;
}

/** Checks a value that already has a type (a var file, a default) against primitive types. */
function checked(decl: VariableDeclaration, value: unknown, source: string): unknown {
  const type = (decl.type ?? "any").trim();
  if (value === null) return value;
  if (type === "string") {
    if (typeof value === "number" || typeof value === "boolean") return String(value);
    if (typeof value !== "string") throw new VariableError([`variable "${decl.name}" (from ${source}): expected a string`]);
  } else if (type === "number" && typeof value !== "number") {
    if (typeof value === "string") return fromText(decl, value, source);
    throw new VariableError([`variable "${decl.name}" (from ${source}): expected a number`]);
  } else if (type === "bool" && typeof value !== "boolean") {
    if (typeof value === "string") return fromText(decl, value, source);
    throw new VariableError([`variable "${decl.name}" (from ${source}): expected true or false`]);
  } else if (/^(list|set|tuple)\b/.test(type) && !Array.isArray(value)) {
    throw new VariableError([`variable "${decl.name}" (from ${source}): expected a ${type}`]);
  } else if (/^(map|object)\b/.test(type) && (typeof value !== "object" || Array.isArray(value))) {
    throw new VariableError([`variable "${decl.name}" (from ${source}): expected a ${type}`]);
  }
  return value;
}

/** The value of every declared variable, or one error listing every variable without one. */
export function resolveVariables(decls: readonly VariableDeclaration[], inputs: VariableInputs): Map<string, VariableValue> {
  const values = new Map<string, VariableValue>();
  const problems: string[] = [];
  for (const decl of decls) {
    let value: unknown;
    let found = false;
    let source = "";
    try {
      const env = inputs.env[`TF_VAR_${decl.name}`];
      if (env !== undefined) {
        value = fromText(decl, env, `TF_VAR_${decl.name}`);
        found = true;
        source = `TF_VAR_${decl.name}`;
      }
      for (const a of inputs.assignments) {
        if (a.name !== decl.name) continue;
        value = "raw" in a ? fromText(decl, a.raw, a.source) : checked(decl, a.value, a.source);
        found = true;
        source = a.source;
      }
      if (!found && decl.hasDefault) {
        value = decl.default;
        found = true;
        source = `the default of variable "${decl.name}"`;
      }
    } catch (err) {
      if (!(err instanceof VariableError)) throw err;
      problems.push(...err.problems);
      continue;
    }
    if (!found) {
      problems.push(`no value for the variable "${decl.name}": set TF_VAR_${decl.name}, pass --var ${decl.name}=VALUE or --var-file FILE, or give it a default`);
      continue;
    }
    values.set(decl.name, { value, sensitive: decl.sensitive, source });
  }
  if (problems.length > 0) throw new VariableError(problems);
  return values;
}

/**
 * `NAME=VALUE` or `STACK:NAME=VALUE` from --var; the value is kept as text and typed
 * against the declaration. A variable name holds no colon, so the first colon before
 * the `=` ends the stack's name.
 */
export function parseVarFlag(text: string): VariableAssignment {
  const eq = text.indexOf("=");
  const left = eq > 0 ? text.slice(0, eq).trim() : "";
  const colon = left.indexOf(":");
  const stack = colon >= 0 ? left.slice(0, colon) : undefined;
  const name = colon >= 0 ? left.slice(colon + 1) : left;
  if (stack !== undefined && !STACK_NAME.test(stack)) {
    throw new VariableError([`--var expects STACK:NAME=VALUE with STACK a stack name${stack ? `, got "${stack}"` : ""}`]);
  }
  if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(name)) {
    throw new VariableError([`--var expects NAME=VALUE or STACK:NAME=VALUE with NAME a variable name${eq > 0 ? `, got the name "${name}"` : ""}`]);
  }
  return stack === undefined ? { name, raw: text.slice(eq + 1), source: "--var" } : { name, raw: text.slice(eq + 1), source: `--var ${stack}:${name}`, stack };
}

/** What cdktf allows in a stack's name (a construct id that is also a directory name). */
const STACK_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/**
 * `FILE` or `STACK=FILE` from --var-file. `STACK=FILE` when the text before the first `=`
 * is a stack name and the whole text is not an existing file (a file may have `=` in
 * its name); `knownStacks` turns a mistyped stack name into an error instead of a
 * missing file.
 */
export function parseVarFileFlag(text: string, exists: (file: string) => boolean, knownStacks: readonly string[]): { file: string; stack?: string } {
  const eq = text.indexOf("=");
  if (eq <= 0 || exists(text)) return { file: text };
  const stack = text.slice(0, eq);
  if (!STACK_NAME.test(stack)) return { file: text };
  if (!knownStacks.includes(stack)) {
    throw new VariableError([`--var-file ${text}: no stack "${stack}"; stacks: ${knownStacks.join(", ") || "none"} (a file whose name holds "=" must exist)`]);
  }
  return { file: text.slice(eq + 1), stack };
}

/**
 * Reads a variables file: JSON (`.json`) or the `.tfvars` form (`name = "value"`, numbers,
 * bools, lists, maps and comments), parsed by cdktf's own HCL reader. Errors name the
 * file and never show its contents.
 */
/**
 * cdktf's own HCL reader, loaded only for a .tfvars file. It is not bundled with the
 * package (its WebAssembly parser is 2 MB, more than the whole package): projects that run
 * cdktf-cli have it already; others install it, or use a .tfvars.json / .json file.
 */
async function tfvarsParser(file: string): Promise<(name: string, text: string) => Promise<unknown>> {
  try {
    return (await import("@cdktf/hcl2json")).parse;
  } catch {
    throw new VariableError([`reading ${file} needs @cdktf/hcl2json (npm install --save-dev @cdktf/hcl2json, as cdktf-cli projects have), or write the variables as JSON (a .json file)`]);
  }
}

export async function readVarFile(file: string, stack?: string): Promise<VariableAssignment[]> {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (err) {
    throw new VariableError([`cannot read the variables file ${file}: ${(err as NodeJS.ErrnoException).code ?? "unreadable"}`]);
  }
  let parsed: unknown;
  if (file.endsWith(".json")) {
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new VariableError([`the variables file ${file} is not valid JSON`]);
    }
  } else {
    const parse = await tfvarsParser(file);
    try {
      parsed = await parse(file, text);
    } catch (err) {
      // The parser's message holds positions, not values.
      throw new VariableError([`the variables file ${file} is not valid .tfvars: ${String((err as Error).message ?? err).replace(/^parse config: /, "")}`]);
    }
  }
  const reserved = reservedKeyPath(parsed);
  if (reserved) throw new VariableError([`the variables file ${file}: at ${jsonPath(reserved)}: ${reservedKeyReason(reserved[reserved.length - 1])}`]);
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new VariableError([`the variables file ${file} must assign variables (name = value), not hold a single value`]);
  }
  const out: VariableAssignment[] = [];
  for (const [name, value] of Object.entries(parsed)) {
    if (typeof value === "string" && value.includes("${")) {
      throw new VariableError([`${file}: the value of "${name}" holds an expression ("\${...}"); variables files take literal values only`]);
    }
    out.push(stack === undefined ? { name, value, source: file } : { name, value, source: `${file} (for stack ${stack})`, stack });
  }
  return out;
}
