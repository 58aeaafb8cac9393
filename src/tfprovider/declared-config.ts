// What the configuration wrote for a value Terraform sends as unknown. A template holding
// a reference to an object created in the same plan (a dashboard document naming a new
// monitor) reaches the provider as one unknown string, of which Terraform keeps at most
// a short prefix: a 14-column layout item further on could not be checked, and the plan
// would pass where `ods plan` refuses. Terraform starts the provider in its working
// directory, so the provider reads the declaration from the JSON configuration there
// (`*.tf.json`, as cdktf writes it) and checks it with placeholders for the unknown
// parts, as `ods plan` does. Where the declaration cannot be found, or matched to one
// block (HCL files, modules, a served provider started elsewhere), nothing is checked.
// The datasets it declares tell a query naming a dataset the same apply creates from one
// naming a dataset that exists nowhere (lifecycle/stray-datasets.ts).
import * as fs from "node:fs";
import * as path from "node:path";
import { datasetDeclared, type Values } from "../resources";

export interface DeclaredBlock {
  /** The construct path cdktf records in the block's metadata, when there is one. */
  constructPath?: string;
  values: Values;
}

const cache = new Map<string, { mtimeMs: number; blocks: Map<string, DeclaredBlock[]> }>();

function blocksOf(file: string): Map<string, DeclaredBlock[]> {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (!stat) return new Map();
  const cached = cache.get(file);
  if (cached && cached.mtimeMs === stat.mtimeMs) return cached.blocks;
  const blocks = new Map<string, DeclaredBlock[]>();
  try {
    const json = JSON.parse(fs.readFileSync(file, "utf8")) as { resource?: Record<string, Record<string, Values>> };
    for (const [typeName, byName] of Object.entries(json.resource ?? {})) {
      for (const block of Object.values(byName ?? {})) {
        const meta = block["//"] as { metadata?: { path?: unknown } } | undefined;
        const constructPath = typeof meta?.metadata?.path === "string" ? meta.metadata.path : undefined;
        const same = blocks.get(typeName);
        if (same) same.push({ constructPath, values: block });
        else blocks.set(typeName, [{ constructPath, values: block }]);
      }
    }
  } catch {
    // Not JSON we can read: Terraform reports it itself.
  }
  cache.set(file, { mtimeMs: stat.mtimeMs, blocks });
  return blocks;
}

const isExpression = (v: unknown): boolean => typeof v === "string" && v.includes("${");

function configFiles(dir: string): string[] | undefined {
  try {
    const files = fs.readdirSync(dir).filter((f) => f.endsWith(".tf.json")).map((f) => path.join(dir, f));
    return files.length > 0 ? files : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The names of the datasets the working directory's JSON configuration declares;
 * undefined when there is no such configuration to read (then what it creates is unknown).
 */
export function declaredDatasets(dir = process.cwd()): Set<string> | undefined {
  const files = configFiles(dir);
  if (!files) return undefined;
  // Asked by every plan of a kind that names datasets: read from the blocks once per
  // version of the files, not once per call (a scan of every block per resource).
  const blockMaps = files.map(blocksOf);
  if (datasetNames && datasetNames.dir === dir && datasetNames.of.length === blockMaps.length && datasetNames.of.every((b, i) => b === blockMaps[i])) return datasetNames.names;
  const names = new Set<string>();
  for (const blocksByType of blockMaps) for (const [typeName, blocks] of blocksByType) for (const b of blocks) {
    const name = datasetDeclared(typeName, b.values);
    if (name) names.add(name);
  }
  datasetNames = { dir, of: blockMaps, names };
  return names;
}

/** The last answer of declaredDatasets, with the parsed files it was read from. */
let datasetNames: { dir: string; of: Map<string, DeclaredBlock[]>[]; names: Set<string> } | undefined;

/**
 * The one block of `typeName` in the working directory's JSON configuration whose
 * literal values agree with the known values Terraform sent; undefined when none or
 * several do.
 */
export function declaredBlock(typeName: string, known: Values, dir = process.cwd()): DeclaredBlock | undefined {
  const files = configFiles(dir) ?? [];
  const candidates = files.flatMap((f) => blocksOf(f).get(typeName) ?? []).filter((b) =>
    Object.entries(known).every(([k, v]) => {
      const declared = b.values[k];
      if (v === null || typeof v === "object" || declared === undefined || isExpression(declared) || typeof declared === "object") return true;
      return declared === v;
    }),
  );
  return candidates.length === 1 ? candidates[0] : undefined;
}
