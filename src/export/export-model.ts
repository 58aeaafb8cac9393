// The organization as code, before it is written in any language: one object per live
// object with a readable id, its attribute values with references where one object
// names another, and a variable for every write-only secret. The TypeScript and
// Terraform JSON writers render this same structure, so the two formats agree.
import { type Attribute, type AttributeReference, type Attributes, type EmbeddedReference, isNested, isSettable, type Values } from "../resources";
import { type LiveObject, type OrgSnapshot, SECRET } from "./org-snapshot";

export type Expr =
  | { type: "literal"; value: string | number | boolean }
  | { type: "list"; items: Expr[] }
  /** `attribute` entries are model attribute names (renamed per language); others are the user's map keys. */
  | { type: "object"; entries: { key: string; attribute: boolean; value: Expr }[] }
  | { type: "reference"; target: ExportedObject; attribute: string }
  /** The id of the user the token acts as, read through the ods_current_user data source. */
  | { type: "caller" }
  | { type: "variable"; variable: SecretVariable }
  /** Text with references in it (monitor ids in a dashboard document): literal parts and expressions. */
  | { type: "template"; parts: (string | Expr)[] };

export interface ExportedObject {
  live: LiveObject;
  typeName: string;
  /** Construct id and Terraform resource name: readable, unique in the export. */
  name: string;
  body: Expr & { type: "object" };
  /** Objects named by map keys (capabilities per dataset), which cannot be references. */
  dependsOn: ExportedObject[];
}

export interface SecretVariable {
  /** Terraform variable name: set it with TF_VAR_<name>. */
  name: string;
  description: string;
  /**
   * A credential the service does return (a webhook URL with its secret in it): its value
   * is known, but it is a variable all the same so that it never lands in the code.
   * Written only where the caller asks (`ods export --credentials-file`).
   */
  known?: string;
}

export interface OrgExport {
  objects: ExportedObject[];
  variables: SecretVariable[];
  /** Whether some value names the calling user (then the ods_current_user data source is read). */
  usesCaller: boolean;
  /** Things a reader must know (a reference kept as a literal, a secret that cannot be told). */
  notes: string[];
}

/** `TF_VAR_x`, and why it is a variable: for the lists export prints and writes. */
export function variableLine(v: SecretVariable): string {
  return `TF_VAR_${v.name} (${v.known === undefined ? "write-only: the service never returns it" : "a credential the service returns: --credentials-file writes its value"})`;
}

/** `checkout-oncall` → `checkout_oncall`; an e-mail's local part. */
export function slug(text: string): string {
  const local = /^[^@\s]+@[^@\s]+$/.test(text) ? text.slice(0, text.indexOf("@")) : text;
  const s = local.toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "");
  return s === "" ? "object" : s;
}

function shortKind(typeName: string): string {
  return typeName.replace(/^ods_/, "");
}

/** Readable names, unique in the export; stable for one organization's objects. */
function assignNames(objects: readonly LiveObject[]): string[] {
  const used = new Set<string>();
  return objects.map((o) => {
    const last = slug(o.key[o.key.length - 1] ?? o.id);
    const all = o.key.map(slug).join("_");
    const kind = shortKind(o.kind.typeName);
    const candidates = [last, all, `${all}_${kind}`].map((c) => (/^[a-z]/.test(c) ? c : `${kind}_${c}`));
    let name = candidates.find((c) => !used.has(c));
    for (let n = 2; name === undefined; n++) if (!used.has(`${candidates[2]}_${n}`)) name = `${candidates[2]}_${n}`;
    used.add(name);
    return name;
  });
}

class Builder {
  readonly variables: SecretVariable[] = [];
  readonly notes: string[] = [];
  usesCaller = false;
  private readonly usedVariables = new Set<string>();
  /** edges[a] = objects a refers to; a reference that would close a cycle stays a literal. */
  private readonly edges = new Map<ExportedObject, Set<ExportedObject>>();

  constructor(
    private readonly snapshot: OrgSnapshot,
    private readonly exported: ExportedObject[],
  ) {}

  private reaches(from: ExportedObject, to: ExportedObject, seen = new Set<ExportedObject>()): boolean {
    if (from === to) return true;
    if (seen.has(from)) return false;
    seen.add(from);
    for (const next of this.edges.get(from) ?? []) if (this.reaches(next, to, seen)) return true;
    return false;
  }

  private link(from: ExportedObject, to: ExportedObject): boolean {
    if (this.reaches(to, from)) return false;
    if (!this.edges.has(from)) this.edges.set(from, new Set());
    this.edges.get(from)!.add(to);
    return true;
  }

  private target(ref: AttributeReference, value: string): ExportedObject | undefined {
    return this.exported.find(
      (o) => o.typeName === ref.typeName && (ref.attribute === "id" ? o.live.id === value : o.live.values[ref.attribute] === value),
    );
  }

  /** A value that names another object: a reference, the caller, or (when nothing matches) the literal. */
  private referring(owner: ExportedObject, path: string, ref: AttributeReference, value: unknown): Expr {
    if (typeof value !== "string" || ref.except?.includes(value)) return literal(value);
    const target = this.target(ref, value);
    if (target && this.link(owner, target)) return { type: "reference", target, attribute: ref.attribute };
    if (ref.attribute === "id" && value === this.snapshot.callerId) {
      this.usesCaller = true;
      return { type: "caller" };
    }
    this.notes.push(
      target
        ? `${owner.typeName}.${owner.name}.${path} keeps the id ${value} of ${target.typeName}.${target.name}: a reference would make a cycle; set it after the first apply`
        : `${owner.typeName}.${owner.name}.${path} names ${ref.typeName} ${value}, which is not exported; it is kept as written`,
    );
    return literal(value);
  }

  private variable(owner: ExportedObject, path: string, leaf: string, known?: string): Expr {
    const base = `${owner.name}_${leaf}`;
    let name = base;
    for (let n = 2; this.usedVariables.has(name); n++) name = `${base}_${n}`;
    this.usedVariables.add(name);
    const what = `${path} of ${owner.typeName} "${owner.live.key.join("/")}"`;
    const variable: SecretVariable =
      known === undefined
        ? { name, description: `Write-only secret ${what} (the service never returns it)` }
        : { name, description: `Credential ${what} (kept out of the code; ods export --credentials-file writes its current value)`, known };
    this.variables.push(variable);
    return { type: "variable", variable };
  }

  value(owner: ExportedObject, path: string, name: string, attr: Attribute, v: unknown): Expr | undefined {
    if (v === SECRET) return this.variable(owner, path, name);
    // Named by the channel too (webhook_url, custom_webhook_url): one notifier may hold several.
    if (attr.sensitive && !attr.secret && typeof v === "string") return this.variable(owner, path, slug(path.split(".").slice(-2).join("_")), v);
    if (isNested(attr)) {
      if (attr.type === "object") return this.object(owner, path, attr.attributes, v as Values);
      if (attr.type === "object_list") return { type: "list", items: (v as Values[]).map((item, i) => this.object(owner, `${path}[${i}]`, attr.attributes, item)) };
      return {
        type: "object",
        entries: Object.entries(v as Record<string, Values>).map(([key, item]) => {
          if (attr.keysReferTo) this.keyDependency(owner, attr.keysReferTo, key);
          return { key, attribute: false, value: this.object(owner, `${path}["${key}"]`, attr.attributes, item) };
        }),
      };
    }
    if (attr.type === "map") {
      return {
        type: "object",
        entries: Object.entries(v as Record<string, unknown>).map(([key, item]) => ({
          key,
          attribute: false,
          value: item === SECRET ? this.variable(owner, `${path}["${key}"]`, `${name}_${slug(key)}`) : literal(item),
        })),
      };
    }
    if (Array.isArray(v)) {
      const items = v.map((item, i) => (attr.refersTo ? this.referring(owner, `${path}[${i}]`, attr.refersTo, item) : literal(item)));
      // Order by what the code shows, not by ids: two organizations give the same list.
      if (attr.unordered) items.sort((a, b) => sortLabel(a).localeCompare(sortLabel(b)));
      return { type: "list", items };
    }
    if (attr.referencesInText && typeof v === "string") return this.template(owner, path, v, attr.referencesInText(v));
    if (attr.refersTo) {
      // An optional attribute the service fills with the caller is left out: it is the caller's anyway.
      if (attr.computed && v === this.snapshot.callerId) return undefined;
      return this.referring(owner, path, attr.refersTo, v);
    }
    return literal(v);
  }

  /** Text whose embedded names of exported objects become references; the rest stays text. */
  private template(owner: ExportedObject, path: string, text: string, embedded: readonly EmbeddedReference[]): Expr {
    let parts: (string | Expr)[] = [text];
    for (const e of embedded) {
      const quoted = JSON.stringify(e.value);
      // A reference, the caller, or the text kept as written (with a note).
      const reference = this.referring(owner, path, e.ref, e.value);
      if (reference.type === "literal") continue;
      parts = parts.flatMap((p): (string | Expr)[] =>
        typeof p !== "string" ? [p] : p.split(quoted).flatMap((piece, i): (string | Expr)[] => (i === 0 ? [piece] : ['"', reference, '"', piece])),
      );
    }
    const merged: (string | Expr)[] = [];
    for (const p of parts) {
      if (typeof p === "string" && typeof merged[merged.length - 1] === "string") merged[merged.length - 1] += p;
      else if (p !== "") merged.push(p);
    }
    return merged.length === 1 && typeof merged[0] === "string" ? literal(merged[0]) : { type: "template", parts: merged };
  }

  private keyDependency(owner: ExportedObject, ref: AttributeReference, key: string): void {
    const target = this.target(ref, key);
    if (target && !owner.dependsOn.includes(target) && this.link(owner, target)) owner.dependsOn.push(target);
  }

  object(owner: ExportedObject, path: string, attrs: Attributes, values: Values): Expr & { type: "object" } {
    const entries: { key: string; attribute: boolean; value: Expr }[] = [];
    for (const [name, attr] of Object.entries(attrs)) {
      if (!(name in values)) continue;
      const expr = this.value(owner, path ? `${path}.${name}` : name, name, attr, values[name]);
      if (expr) entries.push({ key: name, attribute: true, value: expr });
    }
    return { type: "object", entries };
  }
}

function sortLabel(e: Expr): string {
  if (e.type === "literal") return String(e.value);
  if (e.type === "reference") return e.target.name;
  return e.type;
}

function literal(v: unknown): Expr {
  if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") return { type: "literal", value: v };
  throw new Error(`internal: cannot write ${JSON.stringify(v)} as a literal`);
}

/** Builds the export of a snapshot: pure, so one organization always gives the same code. */
export function buildExport(snapshot: OrgSnapshot): OrgExport {
  const names = assignNames(snapshot.objects);
  const exported: ExportedObject[] = snapshot.objects.map((live, i) => ({
    live,
    typeName: live.kind.typeName,
    name: names[i],
    body: { type: "object", entries: [] },
    dependsOn: [],
  }));
  const builder = new Builder(snapshot, exported);
  for (const o of exported) o.body = builder.object(o, "", o.live.kind.attributes, o.live.values);
  builder.notes.push(...optionalSecretNotes(exported));
  return { objects: dependencyFirst(exported), variables: builder.variables, usesCaller: builder.usesCaller, notes: builder.notes };
}

/** What an object refers to: its references and the objects its map keys name. */
export function referencedBy(o: ExportedObject): ExportedObject[] {
  const out = new Set<ExportedObject>();
  const visit = (e: Expr): void => {
    if (e.type === "reference") out.add(e.target);
    if (e.type === "list") e.items.forEach(visit);
    if (e.type === "object") e.entries.forEach((en) => visit(en.value));
    if (e.type === "template") for (const p of e.parts) if (typeof p !== "string") visit(p);
  };
  visit(o.body);
  for (const d of o.dependsOn) out.add(d);
  return [...out];
}

/** The registry's order, except that an object comes after what it refers to (code reads top-down). */
function dependencyFirst(objects: readonly ExportedObject[]): ExportedObject[] {
  const done = new Set<ExportedObject>();
  const out: ExportedObject[] = [];
  const visit = (o: ExportedObject): void => {
    if (done.has(o)) return;
    done.add(o);
    for (const d of referencedBy(o)) visit(d);
    out.push(o);
  };
  objects.forEach(visit);
  return out;
}

/** Optional secrets read back as "" whether set or not: say where one may be missing. */
function optionalSecretNotes(objects: readonly ExportedObject[]): string[] {
  const notes: string[] = [];
  const walk = (o: ExportedObject, attrs: Attributes, values: Values | undefined, path: string): void => {
    if (!values) return;
    for (const [name, attr] of Object.entries(attrs)) {
      const p = path ? `${path}.${name}` : name;
      if (attr.secret && !attr.required && !attr.twinRequired && !attr.writeOnly && attr.type !== "map" && isSettable(attr)) {
        notes.push(`${o.typeName}.${o.name}.${p}: an optional secret; the service does not tell whether it is set, so it is not exported`);
      } else if (isNested(attr) && attr.type === "object" && values[name]) walk(o, attr.attributes, values[name] as Values, p);
    }
  };
  for (const o of objects) walk(o, o.live.kind.attributes, o.live.values, "");
  return notes;
}
