// What generated stacks cover: the attribute paths of each kind that they set, and the
// shapes of values the issue names (references in values and in map keys, interpolations,
// lists, sets, maps, write-only secrets, outputs, variables, depends_on, provider aliases).
import { RESOURCE_KINDS, isNested, isSettable, resourceKind, type Attribute, type Attributes } from "../../src/resources";

/** `properties.webhook.url`, `dataset_capabilities.*.query`, `query.default_order[].field`. */
function childPrefix(name: string, a: Attribute): string {
  return a.type === "object_map" ? `${name}.*.` : a.type === "object_list" ? `${name}[].` : `${name}.`;
}

/** Every attribute path a user can set, per kind (the model's, from src/resources). */
export function settablePaths(): Map<string, string[]> {
  const walk = (attrs: Attributes, prefix: string, out: string[]): void => {
    for (const [name, a] of Object.entries(attrs)) {
      if (!isSettable(a)) continue;
      out.push(`${prefix}${name}`);
      if (isNested(a)) walk(a.attributes, `${prefix}${childPrefix(name, a)}`, out);
    }
  };
  return new Map(RESOURCE_KINDS.map((k) => {
    const out: string[] = [];
    walk(k.attributes, "", out);
    return [k.typeName, out];
  }));
}

export const SHAPES = [
  "reference in a value",
  "reference in a map key",
  "interpolation in a string",
  "list",
  "set",
  "map",
  "write-only secret",
  "sensitive output",
  "plain output",
  "variable",
  "sensitive variable",
  "depends_on",
  "second provider alias",
] as const;
export type Shape = (typeof SHAPES)[number];

export class Coverage {
  readonly paths = new Map<string, Set<string>>();
  readonly shapes = new Set<Shape>();
  readonly kinds = new Set<string>();
  /** Kinds moved to a new address, as "TYPE with a moved block" or "TYPE by natural key". */
  readonly moves = new Set<string>();

  /** Records the moves of a step: each kind, with a moved block or without one. */
  addMoves(moves: readonly { from: string; written: boolean }[] | undefined): void {
    for (const m of moves ?? []) this.moves.add(`${m.from.split(".")[0]} ${m.written ? "with a moved block" : "by natural key"}`);
  }

  /** Records what one rendered stack (cdk.tf.json) sets. */
  add(stack: Record<string, unknown>): void {
    const resources = (stack.resource ?? {}) as Record<string, Record<string, Record<string, unknown>>>;
    for (const [type, byName] of Object.entries(resources)) {
      const kind = resourceKind(type);
      if (!kind) continue;
      this.kinds.add(type);
      const seen = this.paths.get(type) ?? new Set<string>();
      this.paths.set(type, seen);
      for (const block of Object.values(byName)) {
        if (block.depends_on) this.shapes.add("depends_on");
        if (block.provider) this.shapes.add("second provider alias");
        for (const [name, v] of Object.entries(block)) {
          const a = kind.attributes[name];
          if (a) this.value(a, name, v, seen);
        }
      }
    }
    for (const out of Object.values((stack.output ?? {}) as Record<string, { sensitive?: boolean }>)) {
      this.shapes.add(out.sensitive ? "sensitive output" : "plain output");
    }
  }

  private value(a: Attribute, path: string, v: unknown, seen: Set<string>): void {
    if (v === undefined || v === null) return;
    seen.add(path);
    if (a.secret) this.shapes.add("write-only secret");
    if (a.type === "list") this.shapes.add(a.unordered ? "set" : "list");
    if (a.type === "set") this.shapes.add("set");
    if (a.type === "map" || a.type === "object_map") this.shapes.add("map");
    if (typeof v === "string") this.text(v);
    if (!isNested(a) || typeof v !== "object") return;
    const entries: [string, unknown][] =
      a.type === "object" ? [["", v]] : a.type === "object_list" ? (v as unknown[]).map((x) => ["", x]) : Object.entries(v as object);
    for (const [key, element] of entries) {
      if (key.includes("${")) this.shapes.add("reference in a map key");
      if (!element || typeof element !== "object") continue;
      for (const [name, x] of Object.entries(element as Record<string, unknown>)) {
        const child = a.attributes[name];
        if (child) this.value(child, `${childPrefix(path, a)}${name}`, x, seen);
      }
    }
  }

  private text(v: string): void {
    if (!v.includes("${")) return;
    if (v.includes("${var.notifier_secret}")) this.shapes.add("sensitive variable");
    if (v.includes("${var.")) this.shapes.add("variable");
    const whole = /^\$\{[^}]*\}$/.test(v);
    if (!whole) this.shapes.add("interpolation in a string");
    else if (!v.startsWith("${var.")) this.shapes.add("reference in a value");
  }

  merge(other: Coverage): void {
    for (const k of other.kinds) this.kinds.add(k);
    for (const s of other.shapes) this.shapes.add(s);
    for (const m of other.moves) this.moves.add(m);
    for (const [k, p] of other.paths) for (const x of p) (this.paths.get(k) ?? this.paths.set(k, new Set()).get(k)!).add(x);
  }

  /** Settable attribute paths of the model no stack set, as `type: path`. */
  missing(): string[] {
    const out: string[] = [];
    for (const [type, paths] of settablePaths()) for (const p of paths) if (!this.paths.get(type)?.has(p)) out.push(`${type}: ${p}`);
    return out;
  }

  summary(): string {
    const all = [...settablePaths().values()].reduce((n, p) => n + p.length, 0);
    const covered = all - this.missing().length;
    return [
      `kinds: ${this.kinds.size}/${RESOURCE_KINDS.length} (${[...this.kinds].sort().join(", ")})`,
      `attributes: ${covered}/${all} settable attribute paths`,
      `moves: ${this.moves.size}/${RESOURCE_KINDS.length * 2} (kinds moved with a moved block and by natural key)`,
      `shapes: ${SHAPES.filter((s) => this.shapes.has(s)).length}/${SHAPES.length}${SHAPES.some((s) => !this.shapes.has(s)) ? ` (missing: ${SHAPES.filter((s) => !this.shapes.has(s)).join(", ")})` : ""}`,
    ].join("\n");
  }
}
