// Loads a synthesized CDKTF stack (cdk.tf.json) into the declarations the engine plans:
// every ods resource and data source, their dependencies, the provider block and the
// outputs. What the engine cannot evaluate is an error that points to the Terraform path.
import * as fs from "node:fs";
import * as path from "node:path";
import { type Attributes, TYPE_PREFIX, dataSourceKind, resourceKind, secretValues, validateDeclaration, formatPath, jsonPath, reservedKeyPath, reservedKeyReason, type DataSourceKind, type KeyPath, type ResourceKind, type Values } from "../resources";
import { unmarkedOutputProblem } from "./sensitivity";
import { ExpressionError, parseVariableReference, referencesIn, substitute, valueAt, type Reference } from "./expressions";
import { redactText, secretForms } from "./redact";
import { parseMovedSection, type MoveStatement } from "./moves";
import { shapeProblems } from "./stack-shape";
import { VariableError, resolveVariables, variableDeclarations, type VariableDeclaration, type VariableInputs, type VariableValue } from "./variables";

export interface Declaration {
  /** `ods_dataset.logs` or `data.ods_organization.org`. */
  address: string;
  mode: "managed" | "data";
  typeName: string;
  name: string;
  /** The construct path (`basic/logs`), for messages users can map to their code. */
  constructPath: string;
  /** Declared attribute values; references still as "${...}", variables substituted. */
  values: Values;
  /** Addresses this one needs first (references and depends_on). */
  dependsOn: string[];
  /** The provider configuration it belongs to: `ods` (the default) or `ods.ALIAS`. */
  provider: string;
  /** Top-level attributes whose value comes (in part) from a sensitive variable. */
  sensitiveAttributes: string[];
  /** Where exactly sensitive variables' values went (attribute paths): Terraform marks those. */
  sensitivePaths: (string | number)[][];
}

export interface ManagedDeclaration extends Declaration {
  mode: "managed";
  kind: ResourceKind;
  /** `lifecycle.prevent_destroy`: a plan that would delete or replace it is an error. */
  preventDestroy: boolean;
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

/** One `provider "ods"` block: `ods` for the un-aliased one, `ods.ALIAS` for the others. */
export interface ProviderConfiguration {
  key: string;
  alias?: string;
  /** url, token, org_id, ... with variables substituted. */
  config: Values;
  /**
   * Where a setting written as one variable (`token = var.ods_token`) took its value:
   * `TF_VAR_ods_token`, `--var`, a variables file. Error messages name it, never the value.
   */
  sources?: Record<string, string>;
  /** True for the empty default configuration Terraform assumes when none is written. */
  implicit: boolean;
}

/** A cdktf cross-stack reference: `data.terraform_remote_state.cross-stack-reference-input-STACK`. */
export interface RemoteStateDeclaration {
  address: string;
  /** The stack whose outputs it reads. */
  stack: string;
}

export interface LoadedStack {
  name: string;
  file: string;
  resources: ManagedDeclaration[];
  dataSources: DataDeclaration[];
  outputs: OutputDeclaration[];
  /** The default `provider.ods` block (url, token, org_id, ...), possibly empty. */
  providerConfig: Values;
  /** Every provider configuration the stack declares or its declarations use. */
  providers: ProviderConfiguration[];
  remoteStates: RemoteStateDeclaration[];
  /** The `moved` blocks (cdktf's moveTo, moveToId, moveFromId), evaluated by the plan. */
  moved: MoveStatement[];
  /** Values of sensitive variables, to be hidden wherever they show up. */
  sensitiveValues: unknown[];
  /** Names of the variables the stack declares. */
  variables: string[];
  warnings: string[];
}

export interface LoadOptions {
  /** Where variable values come from (default: TF_VAR_* of this process only). */
  variables?: VariableInputs;
}

export class StackError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.length === 1 ? problems[0] : `${problems.length} problems in the stack:\n  ${problems.join("\n  ")}`);
    this.name = "StackError";
  }
}

const META_KEYS = new Set(["//", "depends_on", "lifecycle", "provider", "connection", "provisioner"]);
const CROSS_STACK_INPUT = "cross-stack-reference-input-";
/** Sections the engine cannot evaluate; anything written there needs the Terraform path. */
const TERRAFORM_ONLY_SECTIONS = ["locals", "module", "import", "check", "removed"];

type Blocks = Record<string, Record<string, Record<string, unknown>>>;

interface SynthesizedJson {
  resource?: Blocks;
  data?: Blocks;
  output?: Record<string, { value?: unknown; sensitive?: boolean }>;
  provider?: Record<string, Values[] | Values>;
  variable?: Record<string, unknown>;
  [section: string]: unknown;
}

/** Finds cdk.tf.json of a stack in a cdktf output directory (`cdktf.out/stacks/NAME`). */
export function findStackFile(outDir: string, stackName?: string): string {
  // Only the manifest's stacks: a directory left by an earlier synth is not one.
  const { stacks } = synthesizedStacks(outDir);
  const names = stacks.map((s) => s.name);
  if (stackName !== undefined) {
    const found = stacks.find((s) => s.name === stackName);
    if (!found) throw new StackError([`no stack "${stackName}" in ${outDir}; stacks: ${names.join(", ") || "none"}`]);
    return found.file;
  }
  if (stacks.length !== 1) {
    throw new StackError([`${names.length === 0 ? "no stacks" : `several stacks (${names.join(", ")})`} in ${outDir}: choose one with --stack NAME`]);
  }
  return stacks[0].file;
}

/** A stack of a cdktf output directory. */
export interface SynthesizedStack {
  name: string;
  file: string;
  /** Stacks whose outputs this one reads (manifest `dependencies`). */
  dependsOn: string[];
}

interface Manifest {
  stacks?: Record<string, { name?: string; synthesizedStackPath?: string; dependencies?: string[] }>;
}

/**
 * The stacks of a cdktf output directory: those `manifest.json` lists, and `stale`, the
 * directories under `stacks/` it does not list (left by an earlier synth of a stack since
 * removed: never a stack). Without a manifest (a directory made by hand), those on disk.
 */
export function synthesizedStacks(outDir: string): { stacks: SynthesizedStack[]; stale: string[] } {
  const manifestFile = path.join(outDir, "manifest.json");
  const stacksDir = path.join(outDir, "stacks");
  const onDisk = fs.existsSync(stacksDir) ? fs.readdirSync(stacksDir).filter((n) => fs.existsSync(path.join(stacksDir, n, "cdk.tf.json"))).sort() : [];
  if (fs.existsSync(manifestFile)) {
    let manifest: Manifest;
    try {
      manifest = JSON.parse(fs.readFileSync(manifestFile, "utf8")) as Manifest;
    } catch (err) {
      throw new StackError([`cannot read ${manifestFile}: ${(err as Error).message}; synthesize again`]);
    }
    if (typeof manifest.stacks !== "object" || manifest.stacks === null) throw new StackError([`${manifestFile} lists no stacks; synthesize again`]);
    const stacks = Object.entries(manifest.stacks).map(([name, s]) => ({
      name,
      file: path.join(outDir, s.synthesizedStackPath ?? path.join("stacks", name, "cdk.tf.json")),
      dependsOn: Array.isArray(s.dependencies) ? s.dependencies.filter((d) => typeof d === "string") : [],
    }));
    const listed = new Set(stacks.map((x) => path.resolve(path.dirname(x.file))));
    return { stacks, stale: onDisk.filter((n) => !listed.has(path.resolve(stacksDir, n))).map((n) => path.join(stacksDir, n)) };
  }
  if (!fs.existsSync(stacksDir)) throw new StackError([`no synthesized stacks in ${outDir}: run "ods synth" first`]);
  return { stacks: onDisk.map((name) => ({ name, file: path.join(stacksDir, name, "cdk.tf.json"), dependsOn: [] })), stale: [] };
}

/** The note that names stale stack directories, or undefined when there are none. */
export function staleStacksNote(stale: readonly string[]): string | undefined {
  if (stale.length === 0) return undefined;
  return `Note: ${stale.join(", ")} ${stale.length > 1 ? "are" : "is"} not in manifest.json (left by an earlier synth); ignored. Delete ${stale.length > 1 ? "them" : "it"} to silence this note`;
}

function constructPathOf(block: Record<string, unknown>, fallback: string): string {
  const meta = block["//"] as { metadata?: { path?: string } } | undefined | null;
  return meta?.metadata?.path ?? fallback;
}

/** `ods.ALIAS` from a resource's `provider` meta-argument (`"ods.b"` or `"${ods.b}"`). */
function providerKeyOf(block: Record<string, unknown>): string {
  const p = block.provider;
  if (typeof p !== "string" || p === "") return "ods";
  return p.replace(/^\$\{(.*)\}$/, "$1").trim();
}

/** Variable values resolved for this stack, substituted into the JSON before anything else reads it. */
class VariableScope {
  readonly sensitiveValues: unknown[] = [];
  readonly problems: string[] = [];
  private readonly values: Map<string, VariableValue>;

  constructor(decls: VariableDeclaration[], inputs: VariableInputs) {
    this.values = resolveVariables(decls, inputs);
    for (const v of this.values.values()) if (v.sensitive && v.value !== null && v.value !== undefined) this.sensitiveValues.push(v.value);
  }

  /** Substitutes `${var.x}` in a value; answers the value, whether a sensitive variable went in, and where. */
  apply(value: unknown, where: string): { value: unknown; sensitive: boolean; sensitivePaths: (string | number)[][] } {
    let sensitive = false;
    const sensitivePaths: (string | number)[][] = [];
    const out = substitute(
      value,
      (inner) => {
        const ref = parseVariableReference(inner);
        if (!ref) return undefined;
        const v = this.values.get(ref.name);
        if (!v) {
          this.problems.push(`${where} refers to var.${ref.name}, which the stack does not declare`);
          return undefined;
        }
        const found = valueAt(v.value, ref.path);
        if (typeof found === "string" && found.includes("${")) {
          this.problems.push(`${where}: the value of var.${ref.name} holds "\${", which would read as an expression`);
          return undefined;
        }
        if (v.sensitive) sensitive = true;
        return { value: found ?? null };
      },
      (inner, at) => {
        const ref = parseVariableReference(inner);
        if (ref && this.values.get(ref.name)?.sensitive) sensitivePaths.push([...at]);
      },
    );
    return { value: out, sensitive, sensitivePaths };
  }

  /** Where a value written as exactly `${var.NAME}` came from, else undefined. */
  sourceOf(value: unknown): string | undefined {
    const m = typeof value === "string" ? /^\$\{var\.([A-Za-z_][A-Za-z0-9_-]*)\}$/.exec(value) : null;
    const v = m ? this.values.get(m[1]) : undefined;
    return v ? `var.${m![1]} (from ${v.source})` : undefined;
  }
}

/**
 * Sensitivity follows values through references, as Terraform's marks do: an attribute
 * that refers to a sensitive attribute of another declaration is sensitive too.
 * A fixpoint over the declarations, bounded by their number (a chain can be that long).
 */
function propagateSensitivity(decls: Declaration[]): void {
  const byAddress = new Map(decls.map((d) => [d.address, d]));
  const refsOf = decls.map((d) => ({
    d,
    attrs: Object.entries(d.values).map(([name, v]) => {
      try {
        return { name, refs: referencesIn(v) };
      } catch {
        return { name, refs: [] };
      }
    }),
  }));
  for (let round = 0; round <= decls.length; round++) {
    let changed = false;
    for (const { d, attrs } of refsOf) {
      for (const { name, refs } of attrs) {
        if (d.sensitiveAttributes.includes(name)) continue;
        const hit = refs.some((r) => {
          const target = byAddress.get(r.address);
          return target !== undefined && (r.path.length === 0 ? target.sensitiveAttributes.length > 0 : target.sensitiveAttributes.includes(String(r.path[0])));
        });
        if (hit) {
          d.sensitiveAttributes.push(name);
          changed = true;
        }
      }
    }
    if (!changed) return;
  }
}

/** Whether an attribute shows a sensitive value outside the kind's secret (write-only) paths. */
function showsSensitive(kind: { attributes: Attributes }, values: Values, attribute: string, sensitive: unknown[]): boolean {
  const masked = JSON.parse(JSON.stringify({ [attribute]: values[attribute] ?? null })) as Record<string, unknown>;
  for (const secretPath of secretValues(kind.attributes, { [attribute]: values[attribute] } as Values).keys()) {
    const steps = secretPath.split(".");
    let cur: unknown = masked;
    for (const step of steps.slice(0, -1)) cur = cur && typeof cur === "object" ? (cur as Record<string, unknown>)[step] : undefined;
    if (cur && typeof cur === "object") delete (cur as Record<string, unknown>)[steps[steps.length - 1]];
  }
  const text = JSON.stringify(masked);
  // A value too short to search for is assumed to show (hidden rather than risked).
  return sensitive.some((v) => {
    const forms = secretForms(v);
    return forms.length === 0 || forms.some((form) => text.includes(form));
  });
}

/** `[construct path] address: ` of the resource or data block a path lies in, if it lies in one. */
function blockOf(json: SynthesizedJson, at: KeyPath): string {
  const [section, typeName, name] = at;
  if ((section !== "resource" && section !== "data") || typeof typeName !== "string" || typeof name !== "string" || at.length < 4) return "";
  const block = (json[section] as Blocks | undefined)?.[typeName]?.[name];
  const address = `${section === "data" ? "data." : ""}${typeName}.${name}`;
  return block && typeof block === "object" ? `[${constructPathOf(block, address)}] ${address}: ` : "";
}

/**
 * `ephemeral` blocks (Terraform 1.10+; cdktf has no construct for them, but a stack
 * override can write one): Terraform opens them for one run and closes them after it,
 * which the ods engine does not do. Each is named, with the way that runs it.
 */
function ephemeralRefusals(section: unknown): string[] {
  if (section === undefined || section === null) return [];
  const addresses: string[] = [];
  if (typeof section === "object" && !Array.isArray(section)) {
    for (const [typeName, byName] of Object.entries(section as Record<string, unknown>)) {
      if (byName && typeof byName === "object" && !Array.isArray(byName)) for (const name of Object.keys(byName)) addresses.push(`ephemeral.${typeName}.${name}`);
      else addresses.push(`ephemeral.${typeName}`);
    }
  } else addresses.push("ephemeral");
  return addresses.map(
    (address) =>
      `at $.${address}: the ods engine does not run ephemeral resources (Terraform opens and closes them within its own run); deploy this stack with terraform apply or cdktf deploy, or feed the write-only attribute from a variable marked sensitive instead`,
  );
}

/** Refuses a synthesized stack holding a key named __proto__, constructor or prototype, naming where (see reserved-keys.ts). */
export function refuseReservedKeys(json: unknown, file: string): void {
  const reserved = reservedKeyPath(json);
  if (reserved) throw new StackError([`${file}: ${blockOf(json as SynthesizedJson, reserved)}at ${jsonPath(reserved)}: ${reservedKeyReason(reserved[reserved.length - 1])}`]);
}

export function loadStack(file: string, options: LoadOptions = {}): LoadedStack {
  let json: SynthesizedJson;
  try {
    json = JSON.parse(fs.readFileSync(file, "utf8")) as SynthesizedJson;
  } catch (err) {
    throw new StackError([`cannot read the synthesized stack ${file}: ${(err as Error).message}`]);
  }
  refuseReservedKeys(json, file);
  const shape = shapeProblems(json);
  if (shape.length > 0) throw new StackError(shape.map((p) => `${file}: ${p}`));
  const ephemeral = ephemeralRefusals(json.ephemeral);
  if (ephemeral.length > 0) throw new StackError(ephemeral.map((p) => `${file}: ${p}`));
  for (const section of TERRAFORM_ONLY_SECTIONS) {
    const v = json[section];
    if (v !== undefined && v !== null && !(typeof v === "object" && Object.keys(v).length === 0)) {
      throw new StackError([`${file}: at $.${section}: ${section} blocks are not evaluated by ods plan/apply; use the Terraform path (cdktf deploy or terraform apply)`]);
    }
  }
  let vars: VariableScope;
  const variables = variableDeclarations(json.variable as Record<string, unknown> | undefined);
  try {
    vars = new VariableScope(variables, options.variables ?? { env: process.env, assignments: [] });
  } catch (err) {
    if (err instanceof VariableError) throw new StackError(err.problems.map((p) => `${file}: ${p}`));
    throw err;
  }
  const moved = parseMovedSection(json.moved);
  const problems: string[] = moved.problems.map((p) => `${file}: ${p}`);
  const warnings: string[] = [];
  const resources: ManagedDeclaration[] = [];
  const dataSources: DataDeclaration[] = [];
  const remoteStates: RemoteStateDeclaration[] = [];
  const foreign = new Set<string>();
  const refs: { from: string; where: string; ref: Reference }[] = [];

  const providers = new Map<string, ProviderConfiguration>();
  for (const [local, configs] of Object.entries(json.provider ?? {})) {
    if (local !== "ods") continue;
    for (const raw of Array.isArray(configs) ? configs : [configs]) {
      const alias = typeof raw.alias === "string" && raw.alias !== "" ? raw.alias : undefined;
      const key = alias ? `ods.${alias}` : "ods";
      if (providers.has(key)) {
        problems.push(`provider ${key} is configured twice; give each configuration its own alias`);
        continue;
      }
      const config: Values = {};
      const sources: Record<string, string> = {};
      for (const [k, v] of Object.entries(raw)) {
        if (k === "alias") continue;
        config[k] = vars.apply(v, `provider ${key}`).value as Values[string];
        const source = vars.sourceOf(v);
        if (source) sources[k] = source;
      }
      providers.set(key, { key, alias, config, implicit: false, sources });
    }
  }

  const collect = (mode: "managed" | "data", blocks: Blocks | undefined): void => {
    for (const [typeName, byName] of Object.entries(blocks ?? {})) {
      for (const [name, block] of Object.entries(byName)) {
        const address = `${mode === "data" ? "data." : ""}${typeName}.${name}`;
        const where = constructPathOf(block, address);
        if (mode === "data" && typeName === "terraform_remote_state" && name.startsWith(CROSS_STACK_INPUT)) {
          remoteStates.push({ address, stack: name.slice(CROSS_STACK_INPUT.length) });
          continue;
        }
        if (!typeName.startsWith(TYPE_PREFIX)) {
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
        const provider = providerKeyOf(block);
        if (provider !== "ods" && !providers.has(provider)) {
          problems.push(`[${where}] ${address}: provider = "${provider}" names no provider configuration of this stack; configured: ${[...providers.keys()].join(", ") || "none"}`);
          continue;
        }
        if (provider === "ods" && !providers.has("ods")) providers.set("ods", { key: "ods", config: {}, implicit: true });
        const values: Values = {};
        const sensitiveAttributes: string[] = [];
        const sensitivePaths: (string | number)[][] = [];
        for (const [k, v] of Object.entries(block)) {
          if (META_KEYS.has(k)) continue;
          const sub = vars.apply(v, `[${where}] ${address}`);
          values[k] = sub.value as Values[string];
          if (sub.sensitive) sensitiveAttributes.push(k);
          for (const p of sub.sensitivePaths) sensitivePaths.push([k, ...p]);
        }
        const deps = new Set<string>((block.depends_on as string[] | undefined | null) ?? []);
        try {
          for (const ref of referencesIn(values)) {
            refs.push({ from: address, where, ref });
            if (!ref.address.startsWith(`data.terraform_remote_state.`)) deps.add(ref.address);
          }
        } catch (err) {
          if (!(err instanceof ExpressionError)) throw err;
          problems.push(`[${where}] ${address}: ${err.message}`);
          continue;
        }
        // A sensitive value that lands only in the kind's own secret attributes is hidden there already.
        const shown = sensitiveAttributes.filter((a) => showsSensitive(kind, values, a, vars.sensitiveValues));
        sensitiveAttributes.splice(0, sensitiveAttributes.length, ...shown);
        for (const issue of validateDeclaration(kind, values)) {
          problems.push(`[${where}] ${address}: attribute "${formatPath(issue.path)}" ${issue.message}`);
        }
        const decl = { address, mode, typeName, name, constructPath: where, values, dependsOn: [...deps], provider, sensitiveAttributes, sensitivePaths };
        if (mode === "data") dataSources.push({ ...decl, mode: "data", kind: kind as DataSourceKind });
        else {
          const lifecycle = block.lifecycle as { prevent_destroy?: boolean } | undefined | null;
          resources.push({ ...decl, mode: "managed", kind: kind as ResourceKind, preventDestroy: lifecycle?.prevent_destroy === true });
        }
      }
    }
  };
  collect("managed", json.resource);
  collect("data", json.data);

  const known = new Set([...resources, ...dataSources].map((d) => d.address));
  const remote = new Set(remoteStates.map((r) => r.address));
  for (const d of [...resources, ...dataSources]) {
    for (const dep of d.dependsOn) {
      if (foreign.has(dep)) {
        problems.push(`[${d.constructPath}] ${d.address} refers to ${dep} of another provider: ods plan/apply manages only ods resources; use the Terraform path (cdktf deploy or terraform apply)`);
      } else if (!known.has(dep) && !remote.has(dep)) {
        problems.push(`[${d.constructPath}] ${d.address} refers to ${dep}, which the stack does not declare`);
      }
    }
  }
  // A reference must name an attribute the referenced kind has, or it resolves to nothing.
  const kinds = new Map<string, { attributes: Attributes }>([...resources, ...dataSources].map((d) => [d.address, d.kind]));
  for (const { from, where, ref } of refs) {
    if (ref.address.startsWith("data.terraform_remote_state.") && !remote.has(ref.address)) {
      problems.push(`[${where}] ${from} refers to ${ref.address}: only cdktf cross-stack references are read by ods plan/apply; use the Terraform path for other remote state`);
      continue;
    }
    const kind = kinds.get(ref.address);
    const attr = ref.path[0];
    if (kind && typeof attr === "string" && !(attr in kind.attributes)) {
      problems.push(`[${where}] ${from} refers to "\${${ref.text}}": ${ref.address} has no attribute "${attr}"`);
    }
  }
  for (const f of foreign) warnings.push(`skipping ${f}: not an ods resource (nothing here refers to it)`);
  propagateSensitivity([...resources, ...dataSources]);

  const outputs: OutputDeclaration[] = [];
  // Built once for every output: per output it made the plan grow with outputs x resources.
  const byAddress = new Map([...resources, ...dataSources].map((d) => [d.address, d]));
  for (const [name, out] of Object.entries(json.output ?? {})) {
    const sub = vars.apply(out.value, `output "${name}"`);
    if (sub.sensitive && out.sensitive !== true) {
      problems.push(unmarkedOutputProblem(name, "a sensitive variable"));
    }
    try {
      for (const ref of referencesIn(sub.value)) {
        if (!known.has(ref.address) && !remote.has(ref.address)) problems.push(`output "${name}" refers to ${ref.address}, which is not an ods resource of this stack`);
        const carries = byAddress.get(ref.address)?.sensitiveAttributes ?? [];
        if (out.sensitive !== true && (ref.path.length === 0 ? carries.length > 0 : carries.includes(String(ref.path[0])))) {
          problems.push(unmarkedOutputProblem(name, `${ref.address}.${ref.path.length > 0 ? String(ref.path[0]) : ""}, which holds a sensitive variable's value`));
        }
      }
    } catch (err) {
      if (!(err instanceof ExpressionError)) throw err;
      problems.push(`output "${name}": ${err.message}`);
    }
    outputs.push({ name, value: sub.value, sensitive: out.sensitive === true });
  }

  problems.unshift(...vars.problems);
  if (problems.length > 0) {
    const secrets = vars.sensitiveValues.flatMap(secretForms);
    throw new StackError(problems.map((p) => redactText(p, secrets)));
  }
  return {
    name: path.basename(path.dirname(file)),
    file,
    resources,
    dataSources,
    outputs,
    providerConfig: providers.get("ods")?.config ?? {},
    providers: [...providers.values()],
    remoteStates,
    moved: moved.statements,
    sensitiveValues: vars.sensitiveValues,
    variables: variables.map((v) => v.name),
    warnings,
  };
}

/**
 * Orders declarations so that each comes after what it depends on; a cycle is an error.
 * Iterative (an explicit stack), so that a chain of thousands of resources is fine.
 */
export function dependencyOrder<T extends { address: string; dependsOn: string[] }>(items: readonly T[]): T[] {
  const byAddress = new Map(items.map((i) => [i.address, i]));
  const state = new Map<string, "visiting" | "done">();
  const out: T[] = [];
  for (const root of items) {
    if (state.get(root.address) === "done") continue;
    // Each frame: the item and the index of the next dependency to visit.
    const stack: { item: T; next: number }[] = [{ item: root, next: 0 }];
    state.set(root.address, "visiting");
    while (stack.length > 0) {
      const frame = stack[stack.length - 1];
      if (frame.next < frame.item.dependsOn.length) {
        const dep = byAddress.get(frame.item.dependsOn[frame.next++]);
        if (!dep) continue;
        const s = state.get(dep.address);
        if (s === "done") continue;
        if (s === "visiting") {
          const trail = stack.map((f) => f.item.address);
          const from = trail.indexOf(dep.address);
          throw new StackError([`dependency cycle: ${[...trail.slice(from), dep.address].join(" -> ")}`]);
        }
        state.set(dep.address, "visiting");
        stack.push({ item: dep, next: 0 });
      } else {
        state.set(frame.item.address, "done");
        out.push(frame.item);
        stack.pop();
      }
    }
  }
  return out;
}
