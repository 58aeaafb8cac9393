// The two sides `ods compare` reads: a live organization, or a synthesized stack (what
// it declares). Both come out as objects keyed by natural key, with every value that
// names another object replaced by that object's natural key.
import * as fs from "node:fs";
import * as path from "node:path";
import type { OdsClient } from "../api";
import { filledWhenUnset, type Values } from "../resources";
import { interpolations, parseReference, valueAt } from "../reconcile/expressions";
import { dependencyOrder, loadStack } from "../reconcile/stack";
import { sensitiveMarks } from "../reconcile/sensitivity";
import type { VariableInputs } from "../reconcile/variables";
import { readOrganization, SECRET, type SnapshotOptions } from "../export/org-snapshot";
import { rewriteReferences } from "../export/references";
import { referenceLabel, type ComparableObject, type Target } from "./compare";

/** The calling user stands for itself in every organization. */
const CALLER = "(the calling user)";

export async function organizationTarget(client: OdsClient, label: string, opts: SnapshotOptions): Promise<Target> {
  const snapshot = await readOrganization(client, opts);
  const objects: ComparableObject[] = snapshot.objects.map((o) => {
    const values = rewriteReferences(o.kind.attributes, o.values, (value, ref) => {
      if (ref.attribute !== "id") return value;
      if (value === snapshot.callerId) return CALLER;
      const target = snapshot.objects.find((t) => t.kind.typeName === ref.typeName && t.id === value);
      return target ? referenceLabel(target.kind.typeName, target.key) : value;
    });
    for (const [k, v] of Object.entries(values)) if (v === SECRET) delete values[k];
    return { kind: o.kind, key: o.key, values };
  });
  return { label, objects };
}

/** `cdktf.out/stacks/NAME`, its cdk.tf.json, or a Terraform JSON file. */
export function stackFileOf(target: string): string {
  const stat = fs.statSync(target, { throwIfNoEntry: false });
  if (!stat) throw new Error(`compare: "${target}" is neither a URL (http:// or https://) nor an existing stack directory or file`);
  return stat.isDirectory() ? path.join(target, "cdk.tf.json") : target;
}

/**
 * What a synthesized stack declares. References resolve to the referenced declaration's
 * literal values, and a reference to an id to that object's natural key; variables
 * (secrets) are not compared.
 */
export interface StackTargetOptions {
  /** Variable values (--var, --var-file, TF_VAR_*); default: TF_VAR_* only. */
  variables?: VariableInputs;
  /** Only objects of these kinds (--kinds); every kind when unset. */
  kinds?: readonly string[];
  callerMarker?: string;
}

/** The name a stack target is known by for `--var STACK:NAME=VALUE`: its directory under stacks/. */
export function stackNameOf(target: string): string {
  const file = stackFileOf(target);
  return path.basename(file) === "cdk.tf.json" ? path.basename(path.dirname(file)) : path.basename(file).replace(/(\.tf)?\.json$/, "");
}

export function stackTarget(target: string, options: StackTargetOptions = {}): Target {
  const callerMarker = options.callerMarker ?? CALLER;
  const file = stackFileOf(target);
  const stack = loadStack(file, { variables: options.variables });
  // What carries a sensitive variable's value, or refers to a sensitive attribute: shown as (sensitive).
  const marks = sensitiveMarks(stack);
  const resolved = new Map<string, Values>();
  const objects: ComparableObject[] = [];
  const byAddress = new Map(stack.resources.map((d) => [d.address, d]));
  const keyOf = (address: string): string[] | undefined => {
    const d = byAddress.get(address);
    const values = resolved.get(address);
    return d && values ? d.kind.naturalKey.map((k) => String(values[k] ?? "")) : undefined;
  };
  /** One interpolation's value: a reference to an id is that object's natural key. */
  const resolveOne = (inner: string, whole: string): unknown => {
    if (inner.startsWith("var.")) return null;
    const ref = parseReference(inner);
    if (ref.address.startsWith("data.ods_current_user.")) return callerMarker;
    if (ref.path.length === 1 && ref.path[0] === "id") {
      const key = keyOf(ref.address);
      const d = byAddress.get(ref.address);
      return key && d ? referenceLabel(d.typeName, key) : whole;
    }
    const values = resolved.get(ref.address);
    return values ? (valueAt(values, ref.path) ?? null) : whole;
  };
  const resolve = (value: unknown): unknown => {
    if (typeof value === "string") {
      const spans = interpolations(value);
      if (spans.length === 0) return value;
      if (spans.length === 1 && spans[0].start === 0 && spans[0].end === value.length) return resolveOne(spans[0].inner, value);
      // Text with references in it (monitor ids in a dashboard document): each one that resolves to text is put in its place.
      let text = value;
      for (const span of [...spans].sort((a, b) => b.start - a.start)) {
        const v = resolveOne(span.inner, value);
        if (typeof v === "string" && v !== value) text = text.slice(0, span.start) + v + text.slice(span.end);
      }
      return text;
    }
    if (Array.isArray(value)) return value.map(resolve);
    if (value && typeof value === "object") {
      // Keys resolve like values: `{ [logs.name]: ... }` is keyed by the dataset's name.
      return Object.fromEntries(Object.entries(value).map(([k, v]) => { const key = resolve(k); return [typeof key === "string" ? key : k, resolve(v)]; }));
    }
    return value;
  };
  for (const d of dependencyOrder(stack.resources)) {
    const values = resolve(d.values) as Values;
    resolved.set(d.address, values);
    // What the stack sets, and what it leaves unset meaning "none" (not filled by the service).
    const declared = new Set(Object.keys(d.values).filter((k) => d.values[k] !== null && d.values[k] !== undefined));
    for (const [name, attr] of Object.entries(d.kind.attributes)) if (attr.optional && !attr.engineOnly && !filledWhenUnset(attr)) declared.add(name);
    if (options.kinds && !options.kinds.includes(d.typeName)) continue;
    const sensitive = new Set([...d.sensitiveAttributes, ...(marks.get(d.address) ?? [])]);
    objects.push({ kind: d.kind, key: d.kind.naturalKey.map((k) => String(values[k] ?? "")), values, declared, sensitive });
  }
  return { label: path.relative(process.cwd(), file) || file, objects, sensitiveValues: stack.sensitiveValues };
}
