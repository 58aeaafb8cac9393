// Loads a synthesized CDKTF stack (cdk.tf.json) into the declarations the engine plans:
// every ods resource and data source, their dependencies, the provider block and the
// outputs. What the engine cannot evaluate is an error that points to the Terraform path.
import * as fs from "node:fs";
import * as path from "node:path";
import { type Attributes, dataSourceKind, resourceKind, validateDeclaration, formatPath, type DataSourceKind, type ResourceKind, type Values } from "../resources";
import { ExpressionError, referencesIn, type Reference } from "./expressions";

export interface Declaration {
  /** `ods_dataset.logs` or `data.ods_organization.org`. */
  address: string;
  mode: "managed" | "data";
  typeName: string;
  name: string;
  /** The construct path (`basic/logs`), for messages users can map to their code. */
  constructPath: string;
  /** Declared attribute values; references still as "${...}". */
  values: Values;
  /** Addresses this one needs first (references and depends_on). */
  dependsOn: string[];
}

export interface ManagedDeclaration extends Declaration {
  mode: "managed";
  kind: ResourceKind;
}

export interface DataDeclaration extends Declaration {
  mode: "data";
  kind: DataSourceKind;
}

export interface OutputDeclaration {
  name: string;
  value: unknown;
  sensitive: boolean;
}

export interface LoadedStack {
  name: string;
  file: string;
  resources: ManagedDeclaration[];
  dataSources: DataDeclaration[];
  outputs: OutputDeclaration[];
  /** The `provider.ods` block (url, token, org_id, ...), possibly empty. */
  providerConfig: Values;
  warnings: string[];
}

export class StackError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.length === 1 ? problems[0] : `${problems.length} problems in the stack:\n  ${problems.join("\n  ")}`);
    this.name = "StackError";
  }
}

const META_KEYS = new Set(["//", "depends_on", "lifecycle", "provider", "connection", "provisioner"]);

type Blocks = Record<string, Record<string, Record<string, unknown>>>;

interface SynthesizedJson {
  resource?: Blocks;
  data?: Blocks;
  output?: Record<string, { value?: unknown; sensitive?: boolean }>;
  provider?: Record<string, Values[] | Values>;
  variable?: Record<string, unknown>;
}

/** Finds cdk.tf.json of a stack in a cdktf output directory (`cdktf.out/stacks/NAME`). */
export function findStackFile(outDir: string, stackName?: string): string {
  const stacksDir = path.join(outDir, "stacks");
  if (!fs.existsSync(stacksDir)) throw new StackError([`no synthesized stacks in ${outDir}: run "ods synth" first`]);
  const names = fs.readdirSync(stacksDir).filter((n) => fs.existsSync(path.join(stacksDir, n, "cdk.tf.json")));
  if (stackName !== undefined) {
    if (!names.includes(stackName)) throw new StackError([`no stack "${stackName}" in ${outDir}; stacks: ${names.join(", ") || "none"}`]);
    return path.join(stacksDir, stackName, "cdk.tf.json");
  }
  if (names.length !== 1) {
    throw new StackError([`${names.length === 0 ? "no stacks" : `several stacks (${names.join(", ")})`} in ${outDir}: choose one with --stack NAME`]);
  }
  return path.join(stacksDir, names[0], "cdk.tf.json");
}

function constructPathOf(block: Record<string, unknown>, fallback: string): string {
  const meta = block["//"] as { metadata?: { path?: string } } | undefined;
  return meta?.metadata?.path ?? fallback;
}

export function loadStack(file: string): LoadedStack {
  let json: SynthesizedJson;
  try {
    json = JSON.parse(fs.readFileSync(file, "utf8")) as SynthesizedJson;
  } catch (err) {
    throw new StackError([`cannot read the synthesized stack ${file}: ${(err as Error).message}`]);
  }
  const problems: string[] = [];
  const warnings: string[] = [];
  const resources: ManagedDeclaration[] = [];
  const dataSources: DataDeclaration[] = [];
  const foreign = new Set<string>();
  const refs: { from: string; where: string; ref: Reference }[] = [];

  const collect = (mode: "managed" | "data", blocks: Blocks | undefined): void => {
    for (const [typeName, byName] of Object.entries(blocks ?? {})) {
      for (const [name, block] of Object.entries(byName)) {
        const address = `${mode === "data" ? "data." : ""}${typeName}.${name}`;
        const where = constructPathOf(block, address);
        if (!typeName.startsWith("ods_")) {
          foreign.add(address);
          continue;
        }
        const kind = mode === "data" ? dataSourceKind(typeName) : resourceKind(typeName);
        if (!kind) {
          problems.push(`[${where}] ${address}: unknown ${mode === "data" ? "data source" : "resource"} type ${typeName}`);
          continue;
        }
        if (block.count !== undefined || block.for_each !== undefined) {
          problems.push(`[${where}] ${address}: count and for_each are not evaluated by ods plan/apply; use the Terraform path (cdktf deploy or terraform apply)`);
          continue;
        }
        const values: Values = {};
        for (const [k, v] of Object.entries(block)) if (!META_KEYS.has(k)) values[k] = v;
        const deps = new Set<string>((block.depends_on as string[] | undefined) ?? []);
        try {
          for (const ref of referencesIn(values)) {
            deps.add(ref.address);
            refs.push({ from: address, where, ref });
          }
        } catch (err) {
          if (!(err instanceof ExpressionError)) throw err;
          problems.push(`[${where}] ${address}: ${err.message}`);
          continue;
        }
        for (const issue of validateDeclaration(kind, values)) {
          problems.push(`[${where}] ${address}: attribute "${formatPath(issue.path)}" ${issue.message}`);
        }
        const decl = { address, mode, typeName, name, constructPath: where, values, dependsOn: [...deps] };
        if (mode === "data") dataSources.push({ ...decl, mode: "data", kind: kind as DataSourceKind });
        else resources.push({ ...decl, mode: "managed", kind: kind as ResourceKind });
      }
    }
  };
  collect("managed", json.resource);
  collect("data", json.data);

  const known = new Set([...resources, ...dataSources].map((d) => d.address));
  for (const d of [...resources, ...dataSources]) {
    for (const dep of d.dependsOn) {
      if (foreign.has(dep)) {
        problems.push(`[${d.constructPath}] ${d.address} refers to ${dep} of another provider: ods plan/apply manages only ods resources; use the Terraform path (cdktf deploy or terraform apply)`);
      } else if (!known.has(dep)) {
        problems.push(`[${d.constructPath}] ${d.address} refers to ${dep}, which the stack does not declare`);
      }
    }
  }
  // A reference must name an attribute the referenced kind has, or it resolves to nothing.
  const kinds = new Map<string, { attributes: Attributes }>([...resources, ...dataSources].map((d) => [d.address, d.kind]));
  for (const { from, where, ref } of refs) {
    const kind = kinds.get(ref.address);
    const attr = ref.path[0];
    if (kind && typeof attr === "string" && !(attr in kind.attributes)) {
      problems.push(`[${where}] ${from} refers to "\${${ref.text}}": ${ref.address} has no attribute "${attr}"`);
    }
  }
  for (const f of foreign) warnings.push(`skipping ${f}: not an ods resource (nothing here refers to it)`);

  const outputs: OutputDeclaration[] = [];
  for (const [name, out] of Object.entries(json.output ?? {})) {
    try {
      for (const ref of referencesIn(out.value)) {
        if (!known.has(ref.address)) problems.push(`output "${name}" refers to ${ref.address}, which is not an ods resource of this stack`);
      }
    } catch (err) {
      if (!(err instanceof ExpressionError)) throw err;
      problems.push(`output "${name}": ${err.message}`);
    }
    outputs.push({ name, value: out.value, sensitive: out.sensitive === true });
  }

  const providerBlock = json.provider?.ods;
  const providerConfig = (Array.isArray(providerBlock) ? providerBlock[0] : providerBlock) ?? {};
  if (problems.length > 0) throw new StackError(problems);
  return {
    name: path.basename(path.dirname(file)),
    file,
    resources,
    dataSources,
    outputs,
    providerConfig: providerConfig as Values,
    warnings,
  };
}

/** Orders declarations so that each comes after what it depends on; a cycle is an error. */
export function dependencyOrder<T extends { address: string; dependsOn: string[] }>(items: readonly T[]): T[] {
  const byAddress = new Map(items.map((i) => [i.address, i]));
  const state = new Map<string, "visiting" | "done">();
  const out: T[] = [];
  const visit = (item: T, trail: string[]): void => {
    const s = state.get(item.address);
    if (s === "done") return;
    if (s === "visiting") throw new StackError([`dependency cycle: ${[...trail, item.address].join(" -> ")}`]);
    state.set(item.address, "visiting");
    for (const dep of item.dependsOn) {
      const d = byAddress.get(dep);
      if (d) visit(d, [...trail, item.address]);
    }
    state.set(item.address, "done");
    out.push(item);
  };
  for (const item of items) visit(item, []);
  return out;
}
