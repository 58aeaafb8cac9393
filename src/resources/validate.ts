// Validation of declared values against the model: types, required attributes,
// unknown attributes, and each attribute's checks. Values that are references to
// other resources ("${ods_dataset.logs.name}") are not known yet and pass through.
import { UNKNOWN } from "./unknown";
import { type Attribute, type Attributes, type PrimitiveType, isNested } from "./attributes";
import { MAX_STRING_LENGTH } from "./checks";
import type { ValidationIssue, Values } from "./kind";
import { checkTwins } from "./write-only";

type Path = (string | number)[];

/** A value not known yet: a string holding an unresolved reference or expression, or the unknown marker. */
export function isReference(v: unknown): boolean {
  return v === UNKNOWN || (typeof v === "string" && v.includes("${"));
}

/** Renders an attribute path the way users write it: `properties.email.emails[0]`. */
export function formatPath(path: Path): string {
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? p : `.${p}`)).join("");
}

/**
 * A URL's user:password@ part as ***@: credentials never reach a message. Up to the
 * authority's last @, as URL parsers read it, so a password holding an @ is hidden whole.
 */
export function redactCredentials(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^/\s"]*@/gi, "$1***@");
}

/** What a secret value is, without the value. */
function describeSecret(v: unknown): string {
  return v === null ? "null" : Array.isArray(v) ? "a list" : typeof v === "object" ? "an object" : `a ${typeof v} (value not shown: the attribute is secret)`;
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  if (typeof v === "object") return "an object";
  if (typeof v === "string") return `the string "${redactCredentials(v.length > 60 ? `${v.slice(0, 60)}…` : v)}"`;
  return `${typeof v} ${String(v)}`;
}

function checkPrimitive(type: PrimitiveType, attr: Attribute, v: unknown, path: Path, out: ValidationIssue[]): void {
  if (isReference(v)) return;
  const expected = type === "bool" ? "boolean" : type;
  const secret = attr.secret === true || attr.sensitive === true;
  if (typeof v !== expected) {
    out.push({ path: [...path], message: `expected a ${type === "bool" ? "boolean (true or false)" : type}, got ${secret ? describeSecret(v) : describe(v)}` });
    return;
  }
  if (typeof v === "string" && v.length > MAX_STRING_LENGTH) {
    out.push({ path: [...path], message: `expected at most ${MAX_STRING_LENGTH} characters, got ${v.length}` });
    return;
  }
  if (typeof v === "number" && !Number.isFinite(v)) {
    out.push({ path: [...path], message: `expected a finite number, got ${String(v)}` });
    return;
  }
  for (const check of attr.checks ?? []) {
    const expectedText = check(v);
    if (expectedText) {
      // A check names the value it got: never for a secret, and never a URL's credentials.
      const text = secret ? `${expectedText.replace(/, got .*$/s, "")} (value not shown: the attribute is secret)` : redactCredentials(expectedText);
      out.push({ path: [...path], message: `expected ${text}` });
      return;
    }
  }
}

function validateAttribute(attr: Attribute, v: unknown, path: Path, out: ValidationIssue[]): void {
  if (v === undefined || v === null || isReference(v)) return;
  switch (attr.type) {
    case "string":
    case "number":
    case "bool":
      checkPrimitive(attr.type, attr, v, path, out);
      return;
    case "list":
    case "set":
      if (!Array.isArray(v)) {
        out.push({ path: [...path], message: `expected a list of ${attr.element}s, got ${describe(v)}` });
        return;
      }
      v.forEach((item, i) => within(path, i, () => checkPrimitive(attr.element, attr, item, path, out)));
      return;
    case "map":
      if (typeof v !== "object" || Array.isArray(v)) {
        out.push({ path: [...path], message: `expected a map of ${attr.element}s, got ${describe(v)}` });
        return;
      }
      for (const [k, item] of Object.entries(v as object)) within(path, k, () => checkPrimitive(attr.element, attr, item, path, out));
      return;
    default:
      break;
  }
  if (!isNested(attr)) return;
  if (attr.type === "object") {
    if (typeof v !== "object" || Array.isArray(v)) out.push({ path: [...path], message: `expected an object, got ${describe(v)}` });
    else validateValues(attr.attributes, v as Values, path, out);
  } else if (attr.type === "object_list") {
    if (!Array.isArray(v)) out.push({ path: [...path], message: `expected a list of objects, got ${describe(v)}` });
    else v.forEach((item, i) => within(path, i, () => validateAttribute({ ...attr, type: "object" }, item, path, out)));
  } else if (typeof v !== "object" || Array.isArray(v)) {
    out.push({ path: [...path], message: `expected a map of objects, got ${describe(v)}` });
  } else {
    for (const [k, item] of Object.entries(v as object)) within(path, k, () => validateAttribute({ ...attr, type: "object" }, item, path, out));
  }
}

/** Validates the values of one object against its attributes; appends issues to `out`. */
export function validateValues(attrs: Attributes, values: Values, path: Path, out: ValidationIssue[]): void {
  // Called with a path it steps into (see within): callers' arrays come back as they were.
  for (const key of Object.keys(values)) {
    if (!(key in attrs)) {
      const known = Object.keys(attrs).filter((k) => attrs[k].required || attrs[k].optional);
      out.push({ path: [...path, key], message: `unknown attribute; expected one of ${known.join(", ")}` });
    }
  }
  for (const [name, attr] of Object.entries(attrs)) {
    const v = values[name];
    const settable = attr.required === true || attr.optional === true;
    if (v !== undefined && v !== null && !settable) {
      out.push({ path: [...path, name], message: "is set by the service and cannot be declared" });
      continue;
    }
    if (attr.required && (v === undefined || v === null)) {
      out.push({ path: [...path, name], message: "is required" });
      continue;
    }
    path.push(name);
    validateAttribute(attr, v, path, out);
    path.pop();
  }
  checkTwins(attrs, values, path, out);
}

/**
 * `step` added to `path` while `f` runs. Validation walks a declaration with one path
 * array, stepped into and out of (a new array per attribute was most of what a
 * validation allocated); an issue takes a copy.
 */
function within(path: Path, step: string | number, f: () => void): void {
  path.push(step);
  f();
  path.pop();
}

/** Validation of a whole declaration: attribute rules first, then the kind's own rules. */
export function validateDeclaration(
  kind: { attributes: Attributes; validate?: (values: Values) => ValidationIssue[] },
  values: Values,
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  validateValues(kind.attributes, values, [], issues);
  if (issues.length === 0 && kind.validate) issues.push(...kind.validate(values));
  return issues;
}
