// The two sides `ods compare` reads: a live organization, or a synthesized stack (what
// it declares). Both come out as objects keyed by natural key, with every value that
// names another object replaced by that object's natural key.
import * as fs from "node:fs";
import * as path from "node:path";
import type { OdsClient } from "../api";
import { filledWhenUnset, type Values } from "../resources";
import { interpolations, parseReference, valueAt } from "../reconcile/expressions";
import { dependencyOrder, loadStack } from "../reconcile/stack";
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
export function stackTarget(target: string, callerMarker = CALLER): Target {
  const file = stackFileOf(target);
  const stack = loadStack(file);
  const resolved = new Map<string, Values>();
  const objects: ComparableObject[] = [];
  const byAddress = new Map(stack.resources.map((d) => [d.address, d]));
  const keyOf = (address: string): string[] | undefined => {
    const d = byAddress.get(address);
    const values = resolved.get(address);
    return d && values ? d.kind.naturalKey.map((k) => String(values[k] ?? "")) : undefined;
  };
  const resolve = (value: unknown): unknown => {
    if (typeof value === "string") {
      const spans = interpolations(value);
      if (spans.length === 0) return value;
      if (spans.length !== 1 || spans[0].start !== 0 || spans[0].end !== value.length) return value;
      const inner = spans[0].inner;
      if (inner.startsWith("var.")) return null;
      const ref = parseReference(inner);
      if (ref.address.startsWith("data.ods_current_user.")) return callerMarker;
      if (ref.path.length === 1 && ref.path[0] === "id") {
        const key = keyOf(ref.address);
        const d = byAddress.get(ref.address);
        return key && d ? referenceLabel(d.typeName, key) : value;
      }
      const values = resolved.get(ref.address);
      return values ? (valueAt(values, ref.path) ?? null) : value;
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
    objects.push({ kind: d.kind, key: d.kind.naturalKey.map((k) => String(values[k] ?? "")), values, declared });
  }
  return { label: path.relative(process.cwd(), file) || file, objects };
}
