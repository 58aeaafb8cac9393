// A JSON document held in an attribute (a dashboard's `dashboard`) is reviewed by path:
// `charts[c1].name: "errors" -> "server errors"`, `layout[c1].w: 6 -> 8`, never as two
// escaped one-line strings. Keys are sorted; an array whose items all carry an `id` (or
// an `i`, as layout items do) is matched by it, so that moving or inserting a chart does
// not read as every later chart changing; other arrays are matched by position. An item
// of such an array is shown whole when it is added, removed, moved or only renamed
// (`+ charts[timeseries-errors] added: {...}`, `~ charts[note] moved from position 3 to
// 1`, `~ layout[note] moved from x 0, y 4 to x 0, y 0`), and by path when its content
// changed. One module for every place a change is shown: plan text and markdown, the JSON
// plan, drift and compare.
import type { Attribute, Attributes, Values } from "../resources";
import { PLACEHOLDER, isPlaceholder, withPlaceholders } from "../resources/placeholders";
import { UNKNOWN, interpolations, parseReference, type Reference } from "./expressions";

type Json = Record<string, unknown>;

/**
 * One leaf that differs; `before` / `after` undefined: absent on that side. With `item`,
 * a whole item of an array matched by id: added (`after` the item), removed (`before`
 * the item), moved (`before` / `after` its place: `{position}` in the array, or `{x, y}`
 * on a grid) or renamed (`before` / `after` its id, content unchanged).
 */
export interface PathChange {
  path: string;
  before: unknown;
  after: unknown;
  item?: "added" | "removed" | "moved" | "renamed";
}

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** Whether the attribute holds a JSON document (shown by path). */
export function holdsDocument(attr: Attribute | undefined): boolean {
  return attr?.document === true;
}

/**
 * The document a value holds, in the attribute's comparable form (without what the
 * service adds), or undefined when the value is not a known JSON object.
 */
export function documentOf(attr: Attribute | undefined, value: unknown, asWritten = false): Json | undefined {
  if (!holdsDocument(attr) || typeof value !== "string" || value.includes("${")) return undefined;
  const comparable = attr!.normalize && !asWritten ? attr!.normalize(value) : value;
  if (typeof comparable !== "string") return undefined;
  try {
    const doc = JSON.parse(comparable) as unknown;
    return isObject(doc) ? doc : undefined;
  } catch {
    return undefined;
  }
}

/** The key naming items of an array, when every item of both sides has one: `id`, else `i`. */
function identityKey(a: readonly unknown[], b: readonly unknown[]): "id" | "i" | undefined {
  const items = [...a, ...b];
  if (items.length === 0) return undefined;
  for (const key of ["id", "i"] as const) {
    const ids = (side: readonly unknown[]): unknown[] => side.map((x) => (isObject(x) ? x[key] : undefined));
    const unique = (ids: unknown[]): boolean => ids.every((v) => typeof v === "string" || typeof v === "number") && new Set(ids).size === ids.length;
    if (unique(ids(a)) && unique(ids(b))) return key;
  }
  return undefined;
}

function step(path: string, key: string): string {
  const plain = /^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(key);
  if (!plain) return `${path}[${JSON.stringify(key)}]`;
  return path === "" ? key : `${path}.${key}`;
}

function walk(a: unknown, b: unknown, path: string, out: PathChange[]): void {
  if (JSON.stringify(a) === JSON.stringify(b)) return;
  // An object or array on one side only is shown leaf by leaf, as a reviewer reads a new chart.
  const objA = isObject(a) ? a : a === undefined && isObject(b) ? {} : undefined;
  const objB = isObject(b) ? b : b === undefined && isObject(a) ? {} : undefined;
  if (objA && objB && (Object.keys(objA).length > 0 || Object.keys(objB).length > 0)) {
    for (const k of [...new Set([...Object.keys(objA), ...Object.keys(objB)])].sort()) walk(objA[k], objB[k], step(path, k), out);
    return;
  }
  const arrA = Array.isArray(a) ? a : a === undefined && Array.isArray(b) ? [] : undefined;
  const arrB = Array.isArray(b) ? b : b === undefined && Array.isArray(a) ? [] : undefined;
  if (arrA && arrB && (arrA.length > 0 || arrB.length > 0)) {
    const key = identityKey(arrA, arrB);
    if (key && arrA.length > 0 && arrB.length > 0) {
      walkItems(arrA as Json[], arrB as Json[], key, path, out);
    } else if (key) {
      // A list new (or gone) as a whole, as in a dashboard created: read item by item, path by path.
      const byId = (side: readonly unknown[]): Map<string, unknown> => new Map(side.map((x) => [String((x as Json)[key]), x]));
      const mapA = byId(arrA);
      const mapB = byId(arrB);
      for (const id of [...new Set([...mapB.keys(), ...mapA.keys()])]) walk(mapA.get(id), mapB.get(id), `${path}[${id}]`, out);
    } else {
      for (let i = 0; i < Math.max(arrA.length, arrB.length); i++) walk(arrA[i], arrB[i], `${path}[${i}]`, out);
    }
    return;
  }
  out.push({ path, before: a, after: b });
}

/** An item without its id: what it holds. */
function content(item: Json, key: string): string {
  const { [key]: _id, ...rest } = item;
  return JSON.stringify(sortKeys(rest));
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (!isObject(v)) return v;
  return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys(v[k])]));
}

/** Ids, in order, of the longest run of common items that kept their relative order. */
function keptOrder(a: readonly string[], b: readonly string[]): Set<string> {
  const n = a.length;
  const m = b.length;
  const len: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) len[i][j] = a[i] === b[j] ? len[i + 1][j + 1] + 1 : Math.max(len[i + 1][j], len[i][j + 1]);
  const kept = new Set<string>();
  for (let i = 0, j = 0; i < n && j < m; ) {
    if (a[i] === b[j]) {
      kept.add(a[i]);
      i++;
      j++;
    } else if (len[i + 1][j] >= len[i][j + 1]) i++;
    else j++;
  }
  return kept;
}

const onGrid = (x: Json): boolean => typeof x.x === "number" && typeof x.y === "number";

/**
 * The items of two arrays matched by id. An item on one side only is one change (added
 * or removed), unless an item on the other side holds the same content under another id:
 * then it was renamed (as when ids stop being positional). Items of an `id` array that
 * left the longest run kept in order moved; an item on a grid (`x`, `y`, as layout items
 * are, whose array order means nothing) moved when its place changed. What else differs
 * in an item is shown by path.
 */
function walkItems(arrA: readonly Json[], arrB: readonly Json[], key: "id" | "i", path: string, out: PathChange[]): void {
  const idOf = (x: Json): string => String(x[key]);
  const mapA = new Map(arrA.map((x) => [idOf(x), x]));
  const mapB = new Map(arrB.map((x) => [idOf(x), x]));
  // Old id -> new id, for items only renamed: paired in order by identical content.
  const renamed = new Map<string, string>();
  const added = arrB.filter((x) => !mapA.has(idOf(x)));
  for (const x of arrA) {
    if (mapB.has(idOf(x))) continue;
    const twin = added.findIndex((y) => content(y, key) === content(x, key));
    if (twin < 0) continue;
    renamed.set(idOf(x), idOf(added[twin]));
    added.splice(twin, 1);
  }
  const newIdOf = (id: string): string => renamed.get(id) ?? id;
  const oldIds = arrA.map(idOf).map(newIdOf).filter((id) => mapB.has(id));
  const newIds = arrB.map(idOf).filter((id) => oldIds.includes(id));
  const kept = keptOrder(oldIds, newIds);
  const oldPosition = new Map(arrA.map((x, i) => [newIdOf(idOf(x)), i + 1]));
  const oldById = new Map(arrA.map((x) => [newIdOf(idOf(x)), x]));
  const renamedTo = new Map([...renamed].map(([from, to]) => [to, from]));
  // The order of the new side, then what only the old side had.
  arrB.forEach((b, index) => {
    const id = idOf(b);
    const at = `${path}[${id}]`;
    const a = oldById.get(id);
    if (!a) {
      out.push({ path: at, before: undefined, after: b, item: "added" });
      return;
    }
    const from = renamedTo.get(id);
    if (from !== undefined) out.push({ path: `${path}[${from}]`, before: from, after: id, item: "renamed" });
    if (key === "id" && !kept.has(id)) out.push({ path: at, before: { position: oldPosition.get(id) }, after: { position: index + 1 }, item: "moved" });
    if (onGrid(a) && onGrid(b) && (a.x !== b.x || a.y !== b.y)) {
      out.push({ path: at, before: { x: a.x, y: a.y }, after: { x: b.x, y: b.y }, item: "moved" });
      const { x: _ax, y: _ay, ...restA } = a;
      const { x: _bx, y: _by, ...restB } = b;
      walk({ ...restA, [key]: id }, restB, at, out);
      return;
    }
    walk({ ...a, [key]: id }, b, at, out);
  });
  for (const a of arrA) if (!mapB.has(idOf(a)) && !renamed.has(idOf(a))) out.push({ path: `${path}[${idOf(a)}]`, before: a, after: undefined, item: "removed" });
}

/** The leaves where two documents differ, in a stable order. */
export function pathChanges(before: unknown, after: unknown): PathChange[] {
  const out: PathChange[] = [];
  walk(before, after, "", out);
  return out;
}

/** How a leaf is shown: JSON, `(absent)` on the side it is missing from. */
export function leafText(v: unknown, hidden = false): string {
  if (v === undefined) return "(absent)";
  if (v === UNKNOWN || v === PLACEHOLDER) return "(known after apply)";
  if (hidden) return "(sensitive)";
  const text = JSON.stringify(v);
  return isPlaceholder(v) ? text.split(PLACEHOLDER).join("(known after apply)") : text;
}

/** `+`, `-` or `~`: added, removed or changed. */
export function changeSymbol(c: PathChange): "+" | "-" | "~" {
  return c.before === undefined ? "+" : c.after === undefined ? "-" : "~";
}

/** Where a moved item was or is: `position 2`, `x 0, y 4`. */
function place(v: unknown): string {
  const p = isObject(v) ? v : {};
  return "position" in p ? `position ${String(p.position)}` : `x ${String(p.x)}, y ${String(p.y)}`;
}

/** What happened to an item changed as a whole: `added: {...}`, `moved from position 2 to 3`. */
export function itemChangeText(c: PathChange, hidden = false): string {
  switch (c.item) {
    case "added": {
      const key = isObject(c.after) && "id" in c.after ? "id" : "i";
      return `added${hidden || !isObject(c.after) ? "" : `: ${content(c.after, key).split(PLACEHOLDER).join("(known after apply)")}`}`;
    }
    case "removed":
      return "removed";
    case "renamed":
      return `renamed to ${String(c.after)} (content unchanged)`;
    default: {
      const inArray = isObject(c.after) && "position" in c.after;
      return `moved from ${place(c.before)} to ${inArray ? String((c.after as Json).position) : place(c.after)}`;
    }
  }
}

/** An item changed as a whole: `+ charts[a] added: {...}`, `~ charts[a] moved from position 2 to 3`. */
function itemLine(c: PathChange, hidden: boolean): string {
  const symbol = c.item === "added" ? "+" : c.item === "removed" ? "-" : "~";
  return `${symbol} ${c.path} ${itemChangeText(c, hidden)}`;
}

/** How a change is named in a list of paths (the markdown table): `charts[a]` (added). */
export function pathChangeLabel(c: PathChange): string {
  return c.item ? `${c.path} (${c.item})` : c.path;
}

/** One line per change: `~ charts[c1].name: "errors" -> "server errors"`; values hidden when sensitive. */
export function pathChangeLines(changes: readonly PathChange[], hidden = false): string[] {
  return changes.map((c) => {
    if (c.item) return itemLine(c, hidden);
    const symbol = changeSymbol(c);
    if (symbol === "+") return `+ ${c.path}: ${leafText(c.after, hidden)}`;
    if (symbol === "-") return `- ${c.path}: ${leafText(c.before, hidden)}`;
    return `~ ${c.path}: ${hidden ? "differs (sensitive)" : `${leafText(c.before)} -> ${leafText(c.after)}`}`;
  });
}

/**
 * The path-level changes of one attribute's value, when the attribute holds a document
 * and both sides are known documents (or absent); undefined otherwise, and the value is
 * shown as a whole (unknown, or text that is not JSON).
 */
export function documentChanges(attr: Attribute | undefined, before: unknown, after: unknown): PathChange[] | undefined {
  if (!holdsDocument(attr)) return undefined;
  const absent = (v: unknown): boolean => v === undefined || v === null;
  // A document on one side only is shown as written; two are compared in their comparable forms.
  const a = absent(before) ? {} : documentOf(attr, before, absent(after));
  const b = absent(after) ? {} : documentOf(attr, after, absent(before));
  if (!a || !b) return undefined;
  return pathChanges(a, b);
}

/** The machine form of path changes (the JSON plan): values left out when hidden. */
export function pathChangesJson(changes: readonly PathChange[], hidden: boolean): Json[] {
  return changes.map((c) => {
    const unknown = isPlaceholder(c.after);
    if (c.item === "moved" || c.item === "renamed") {
      // A place or an id: never a value of the document, so shown even when hidden.
      return { path: c.path, action: c.item === "moved" ? "move" : "rename", before: c.before, after: c.after };
    }
    return {
      path: c.path,
      action: { "+": "create", "-": "delete", "~": "update" }[changeSymbol(c)],
      before: hidden || c.before === undefined ? null : c.before,
      after: hidden || unknown || c.after === undefined ? null : c.after,
      ...(unknown ? { after_unknown: true } : {}),
      ...(hidden ? { sensitive: true } : {}),
    };
  });
}

/**
 * The lines of a plan or drift report for one document attribute: a heading, then one
 * line per path. Undefined when the value is not a known document on both sides.
 */
export function documentAttributeLines(symbol: string, name: string, attr: Attribute | undefined, before: unknown, after: unknown, hidden: boolean, indent: string): string[] | undefined {
  const changes = documentChanges(attr, before, after);
  if (!changes) return undefined;
  const count = `${changes.length} path${changes.length === 1 ? "" : "s"}`;
  return [`${indent}${symbol} ${name} (JSON document, ${count}):`, ...pathChangeLines(changes, hidden).map((l) => `${indent}    ${l}`)];
}

/**
 * For each document attribute known only after apply (its text names a monitor created
 * in the same plan): the declared text with every known part filled in and a placeholder
 * for the rest, so that the plan still shows the document by path. Undefined when none.
 */
export function pendingDocuments(attrs: Attributes, declared: Values, after: Values, lookup: (ref: Reference) => unknown): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const [name, attr] of Object.entries(attrs)) {
    const text = declared[name];
    if (!holdsDocument(attr) || after[name] !== UNKNOWN || typeof text !== "string") continue;
    let filled = "";
    let last = 0;
    for (const span of interpolations(text)) {
      let v: unknown;
      try {
        v = lookup(parseReference(span.inner));
      } catch {
        v = UNKNOWN;
      }
      // An unknown part stays an expression: withPlaceholders makes it a placeholder where JSON allows.
      filled += text.slice(last, span.start) + (v === UNKNOWN || v === undefined ? text.slice(span.start, span.end) : typeof v === "string" ? v : JSON.stringify(v));
      last = span.end;
    }
    out[name] = withPlaceholders(filled + text.slice(last), true);
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
