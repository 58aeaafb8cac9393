// Which datasets an object's configuration names: through attributes that refer to a
// dataset by name (a virtual field's `dataset`, a view's `datasets`), through the query
// texts it holds (`apl`, `apl_query`, at any depth), and through a kind's own rule for
// what the model cannot see (queries inside a dashboard document). `ods apply
// --annotate` marks a change on the charts of these datasets.
import { type Attributes, isNested } from "./attributes";
import type { ResourceKind, Values } from "./kind";

/** Attribute names whose string values are query-language queries. */
const QUERY_ATTRIBUTES = new Set(["apl", "apl_query"]);

/**
 * Dataset names a query reads: `['name']` / `["name"]` anywhere (the query's source,
 * `union`, `join`, `lookup`), and a bare name as the source of the first pipe.
 */
export function datasetsInQuery(apl: string): string[] {
  const out = new Set<string>();
  for (const m of apl.matchAll(/\[\s*'((?:[^'\\]|\\.)+)'\s*\]|\[\s*"((?:[^"\\]|\\.)+)"\s*\]/g)) out.add((m[1] ?? m[2]).replace(/\\(.)/g, "$1"));
  const bare = /^\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*(\||$)/.exec(apl);
  if (bare && !["print", "datatable", "let", "range"].includes(bare[1])) out.add(bare[1]);
  return [...out];
}

function walk(attrs: Attributes, values: Values | null | undefined, out: Set<string>): void {
  if (!values) return;
  for (const [name, attr] of Object.entries(attrs)) {
    const v = values[name];
    if (v === undefined || v === null) continue;
    if (isNested(attr)) {
      if (attr.type === "object") walk(attr.attributes, v as Values, out);
      else if (attr.type === "object_list") for (const item of v as Values[]) walk(attr.attributes, item, out);
      else for (const item of Object.values(v as Record<string, Values>)) walk(attr.attributes, item, out);
      continue;
    }
    if (attr.refersTo?.typeName === "ods_dataset" && attr.refersTo.attribute === "name") {
      for (const x of Array.isArray(v) ? v : [v]) if (typeof x === "string" && x !== "") out.add(x);
    }
    if (QUERY_ATTRIBUTES.has(name) && typeof v === "string") for (const d of datasetsInQuery(v)) out.add(d);
  }
}

/** The datasets an object's values name, sorted. */
export function namedDatasets(kind: ResourceKind, values: Values): string[] {
  const out = new Set<string>();
  walk(kind.attributes, values, out);
  for (const d of kind.datasetsNamed?.(values) ?? []) out.add(d);
  return [...out].sort();
}

/** The name of the dataset a declaration of this kind creates, if it creates one. */
/** The dataset kind's type name: what declares a dataset, and the key of a shared read of the datasets (sharedRead). */
export const DATASET_TYPE_NAME = "ods_dataset";

export function datasetDeclared(typeName: string, values: Values): string | undefined {
  return typeName === DATASET_TYPE_NAME && typeof values.name === "string" && !values.name.includes("${") ? values.name : undefined;
}
