// The two engines of a differential run and what is compared between them: `ods` (the
// built CLI, as users run it) and the real `terraform` binary with terraform-provider-ods,
// each against its own emulator, on a stack written where both read it
// (cdktf.out/stacks/main/cdk.tf.json, state in terraform.tfstate next to it).
import * as fs from "node:fs";
import * as path from "node:path";
import { OdsClient } from "../../src/api";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { RESOURCE_KINDS, isNested, isSettable, wireName, type Attributes, type ResourceKind } from "../../src/resources";
import { runOds, tempDir } from "../helpers/ods-cli";
import { TerraformWorkspace, installProvider } from "../terraform/harness";
import { FIXTURE_FIELDS, TIMESTAMPS } from "./kinds";
import { VARIABLES } from "./render-context";
import { storedRecords } from "../helpers/emulator-store";

export interface RunOutput {
  code: number | null;
  /** stdout and stderr together, as a user reads them. */
  out: string;
}

/** An emulator and the directory its store writes (where the write-only secrets are). */
export interface Service {
  emulator: EmulatorHandle;
  dataDir: string;
}

export async function startService(): Promise<Service> {
  const dataDir = tempDir("ods-diff-emu-");
  return { emulator: await startEmulator({ port: 0, dataDir, rateLimitPerSecond: 1_000_000 }), dataDir };
}

/**
 * What every run shares: the provider installed once into a mirror, and one terraform data
 * directory initialized once against it (TF_DATA_DIR), so that no workspace runs `init`.
 */
export class Engines {
  private constructor(
    private readonly cliConfig: string,
    private readonly dataDir: string,
    private readonly lockFile: string,
  ) {}

  static async setUp(): Promise<Engines> {
    const cliConfig = installProvider();
    const template = tempDir("ods-diff-init-");
    const dataDir = path.join(template, "tf-data");
    const tf = new TerraformWorkspace(cliConfig, { url: "http://127.0.0.1:9", token: "unused" }, template, { TF_DATA_DIR: dataDir });
    tf.writeConfig({ terraform: { required_providers: { ods: { source: "registry.terraform.io/ods/ods" } } } });
    const init = await tf.run("init");
    if (init.status !== 0) throw new Error(`terraform init failed:\n${init.out}`);
    return new Engines(cliConfig, dataDir, fs.readFileSync(path.join(template, ".terraform.lock.hcl"), "utf8"));
  }

  /** A project directory for one engine's side of one run. */
  workspace(service: Service, vars: Record<string, string>, providerCache: string): Workspace {
    const dir = tempDir("ods-diff-ws-");
    const stackDir = path.join(dir, "cdktf.out", "stacks", "main");
    fs.mkdirSync(stackDir, { recursive: true });
    fs.writeFileSync(path.join(stackDir, ".terraform.lock.hcl"), this.lockFile);
    const target = { url: service.emulator.url, token: service.emulator.adminToken };
    const env: Record<string, string> = {
      TF_DATA_DIR: this.dataDir,
      // One per run: the provider's journal of passed checks stays with the run.
      ODS_PROVIDER_CACHE_DIR: providerCache,
      ...Object.fromEntries(Object.entries(vars).map(([k, v]) => [`TF_VAR_${k}`, v])),
    };
    return new Workspace(dir, stackDir, new TerraformWorkspace(this.cliConfig, target, stackDir, env), { ...env, ODS_URL: target.url, ODS_TOKEN: target.token }, service);
  }
}

export class Workspace {
  constructor(
    readonly dir: string,
    readonly stackDir: string,
    private readonly tf: TerraformWorkspace,
    private readonly odsEnv: Record<string, string>,
    readonly service: Service,
  ) {}

  get stateFile(): string {
    return path.join(this.stackDir, "terraform.tfstate");
  }

  write(stack: unknown): void {
    fs.writeFileSync(path.join(this.stackDir, "cdk.tf.json"), JSON.stringify(stack, null, 2));
  }

  async ods(...args: string[]): Promise<RunOutput> {
    const flags = ["--out-dir", path.join(this.dir, "cdktf.out"), "--no-synth", "--state", this.stateFile];
    const r = await runOds([...args, ...flags], { cwd: this.dir, env: this.odsEnv, timeoutMs: 240_000 });
    return { code: r.code, out: `${r.stdout}${r.stderr}` };
  }

  async terraform(...args: string[]): Promise<RunOutput> {
    const r = await this.tf.run(...args);
    return { code: r.status, out: r.out };
  }
}

/** The values a run gives its stack's variables (the secret is per run, so that it can be searched for). */
export function variableValues(prefix: string, fixtureDataset: string): Record<string, string> {
  return { [VARIABLES.secret]: `sv-${prefix}-hush`, [VARIABLES.fixtureDataset]: fixtureDataset };
}

/** The fixture dataset of a run, in both services: a dataset whose fields ingest created. */
export async function createFixture(service: Service, name: string): Promise<void> {
  const c = new OdsClient({ url: service.emulator.url, token: service.emulator.adminToken });
  try {
    await c.createDataset({ name, description: "fixture" });
    const event: Record<string, unknown> = {};
    for (let i = 0; i < FIXTURE_FIELDS; i++) event[`f${i}`] = i % 3 === 1 ? `v${i}` : i;
    await c.ingest(name, [event as never]);
  } finally {
    await c.close();
  }
}

/** Removes a run's provider cache; its providers ended with their terraform commands. */
export function stopProviders(providerCache: string): void {
  fs.rmSync(providerCache, { recursive: true, force: true });
}

// ---- Plan counts ----

/** Counts in Terraform's terms: what an engine's plan adds, changes and destroys. */
export interface Counts {
  add: number;
  change: number;
  destroy: number;
}

/**
 * From `ods plan/apply` text (one plan per provider configuration), in Terraform's terms,
 * one count per listed resource: created and adopted (a create that found its object)
 * add, updated and rotated change in place, replaced add and destroy, deleted and no
 * longer managed (forgotten) destroy. The Plan line of ods counts an adoption that also
 * updates under both, which Terraform counts once.
 */
export function odsCounts(out: string): Counts | undefined {
  const headers = [...out.matchAll(/^ {2}# \S+ (will be created|will be adopted|will be updated in place|must be replaced|will be rotated|will be deleted|will no longer be managed)/gm)];
  // Moves alone: nothing is counted (Terraform's "0 to add, 0 to change, 0 to destroy").
  const movesOnly = /^Plan: 0 to create, 0 to adopt, 0 to update, 0 to replace, 0 to rotate, 0 to delete, 0 to forget, \d+ to move\./m.test(out);
  // Outputs alone (Terraform's "Changes to Outputs" with no Plan line): nothing is counted either.
  const outputsOnly = /^Changes to Outputs:/m.test(out) && !/^Plan: /m.test(out);
  if (headers.length === 0) return (/No changes\./.test(out) && !/^Plan: /m.test(out)) || movesOnly || outputsOnly ? { add: 0, change: 0, destroy: 0 } : undefined;
  const total = { add: 0, change: 0, destroy: 0 };
  for (const [, verb] of headers) {
    if (verb === "will be created" || verb === "will be adopted" || verb === "must be replaced") total.add++;
    if (verb === "will be updated in place" || verb === "will be rotated") total.change++;
    if (verb === "will be deleted" || verb === "will no longer be managed" || verb === "must be replaced") total.destroy++;
  }
  return total;
}

export function terraformCounts(out: string): Counts | undefined {
  if (/No changes\./.test(out) || (/^Changes to Outputs:/m.test(out) && !/Plan: \d+ to add/.test(out))) return { add: 0, change: 0, destroy: 0 };
  const m = /Plan: (\d+) to add, (\d+) to change, (\d+) to destroy\./.exec(out);
  return m ? { add: Number(m[1]), change: Number(m[2]), destroy: Number(m[3]) } : undefined;
}

// ---- Live objects ----

export type Snapshot = Record<string, unknown[]>;

/** Attributes only the service sets (ids, times, creators, secrets it issues): they differ between any two services. */
function serviceOnly(attrs: Attributes): Set<string> {
  const out = new Set<string>();
  for (const [name, a] of Object.entries(attrs)) if (a.computed && !a.optional && !a.required) out.add(wireName(name, a));
  return out;
}

/** Secrets the stack sets (write-only): the objects' secrets are compared as stored, not as answered. */
function hasSecrets(attrs: Attributes): boolean {
  return Object.values(attrs).some((a) => (a.secret === true && isSettable(a)) || (isNested(a) && hasSecrets(a.attributes)));
}

const FIXED_EXPIRIES = new Set(TIMESTAMPS.map((t) => Date.parse(t)));

/**
 * Every live object of the run (its names start with the prefix), by kind, matched by
 * natural key: ids that name other objects are replaced by those objects' natural keys,
 * service-only attributes are left out, write-only secrets are read from the store.
 */
export async function snapshot(service: Service, prefix: string): Promise<{ objects: Snapshot; keyOfId: ReadonlyMap<string, string> }> {
  const c = new OdsClient({ url: service.emulator.url, token: service.emulator.adminToken });
  try {
    const datasets = (await c.listDatasets()).map((d) => d.name).filter((n) => n.startsWith(prefix));
    const listed = new Map<ResourceKind, Record<string, unknown>[]>();
    const keyOfId = new Map<string, string>();
    for (const u of await c.listUsers()) keyOfId.set(u.id, `user:${u.email}`);
    for (const kind of RESOURCE_KINDS) {
      const lists = kind.scope ? await Promise.all(datasets.map((d) => kind.api.list(c, d))) : [await kind.api.list(c)];
      // As the model reads them: a dashboard's document as its content text, say.
      const objects = lists.flat().map((o) => (kind.api.normalizeLive ? kind.api.normalizeLive(o, undefined) : o)).filter((o) => {
        const key = kind.naturalKey.map((k) => String(o[wireName(k, kind.attributes[k])] ?? ""));
        return key.some((k) => k.startsWith(prefix));
      });
      listed.set(kind, objects);
      for (const o of objects) {
        if (typeof o.id === "string") keyOfId.set(o.id, `${kind.typeName}:${kind.naturalKey.map((k) => String(o[wireName(k, kind.attributes[k])])).join("/")}`);
      }
    }
    const out: Snapshot = {};
    for (const [kind, objects] of listed) {
      const drop = serviceOnly(kind.attributes);
      // Only what the model names is compared: a field the model leaves out (a dashboard's
      // createdAt and createdBy) is the service's, like the computed attributes.
      const modelled = new Set(Object.entries(kind.attributes).map(([name, a]) => wireName(name, a)));
      let rows = objects.map((o) => {
        const kept: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(o)) if (!drop.has(k) && modelled.has(k)) kept[k] = v;
        return kept;
      });
      if (hasSecrets(kind.attributes)) rows = withStoredSecrets(rows, storedRecords(service.dataDir, collectionOf(kind)));
      out[kind.typeName] = rows
        .map((r) => normalize(sortUnordered(kind.attributes, replaceIds(r, keyOfId) as Record<string, unknown>)))
        .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    }
    return { objects: out, keyOfId };
  } finally {
    await c.close();
  }
}

/** The store's collection of a kind with write-only secrets. */
function collectionOf(kind: ResourceKind): string {
  if (kind.typeName === "ods_notifier") return "notifiers";
  throw new Error(`${kind.typeName} has write-only secrets: name the emulator collection that stores them here`);
}

/** Each answered object with the fields the store holds in place of the blanks answered for secrets. */
function withStoredSecrets(rows: Record<string, unknown>[], stored: Record<string, unknown>[]): Record<string, unknown>[] {
  const byName = new Map(stored.map((s) => [String(s.name), s]));
  return rows.map((r) => {
    const s = byName.get(String(r.name));
    return s ? { ...r, properties: s.properties } : r;
  });
}

/** The form of the service's ids (`usr_` and 16 hex digits); a dataset's id is its name. */
const SERVICE_ID = /^[a-z]{2,4}_[0-9a-f]{16}$/;
const SERVICE_IDS_IN_TEXT = /\b[a-z]{2,4}_[0-9a-f]{16}\b/g;

/**
 * Replaces every string that is the id of a listed object with that object's natural key;
 * an id no listed object has names one deleted since (a starred query keeps its deleted
 * owner's id), which differs between services as any id does.
 */
export function replaceIds(v: unknown, keyOfId: ReadonlyMap<string, string>): unknown {
  if (typeof v === "string") {
    const key = keyOfId.get(v);
    if (key !== undefined) return key;
    if (SERVICE_ID.test(v)) return "(the id of an object deleted since)";
    // Ids inside text (a dashboard document listing monitors) differ between services too.
    return v.replace(SERVICE_IDS_IN_TEXT, (id) => keyOfId.get(id) ?? id);
  }
  if (Array.isArray(v)) return v.map((x) => replaceIds(x, keyOfId));
  if (v && typeof v === "object") {
    const o = v as Record<string, unknown>;
    // A reference answered as {id, name} (a user's role) is the object it names.
    if (typeof o.id === "string" && keyOfId.has(o.id)) return keyOfId.get(o.id);
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, replaceIds(x, keyOfId)]));
  }
  return v;
}

/** Lists whose order carries no meaning (members, e-mails, actions), sorted (after ids became natural keys): the service keeps them as sent. */
function sortUnordered(attrs: Attributes, wire: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...wire };
  for (const [name, a] of Object.entries(attrs)) {
    const key = wireName(name, a);
    const v = out[key];
    if (v === undefined || v === null) continue;
    if (a.unordered && Array.isArray(v)) out[key] = [...v].map(String).sort();
    else if (isNested(a) && typeof v === "object") {
      if (a.type === "object") out[key] = sortUnordered(a.attributes, v as Record<string, unknown>);
      else if (a.type === "object_list" && Array.isArray(v)) out[key] = v.map((x) => sortUnordered(a.attributes, x as Record<string, unknown>));
      else out[key] = Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, sortUnordered(a.attributes, x as Record<string, unknown>)]));
    }
  }
  return out;
}

/** Keys sorted; a token's expiry that no stack declares was set by a rotation (its time differs by run). */
function normalize(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(normalize);
  if (v && typeof v === "object") {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) {
      const x = (v as Record<string, unknown>)[k];
      out[k] = k === "expiresAt" && typeof x === "string" && x !== "" && !FIXED_EXPIRIES.has(Date.parse(x)) ? "(set by a rotation)" : normalize(x);
    }
    return out;
  }
  return v;
}
