// The state: what a stack manages, kept in Terraform's own state format (version 4, as
// Terraform 1.11 writes it) through the backend the stack declares, so that `ods` and
// `terraform` share one state. Each managed object is stored exactly as
// terraform-provider-ods stores it; what only ods needs (secret fingerprints and their
// salt, the organization the state belongs to) rides in the instance's `private` data,
// which Terraform hands to the provider and keeps intact.
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import { PROVIDER_SOURCE, isNested, resourceKind, secretValues, valueSteps, type Attributes, type ResourceKind, type Values } from "../resources";
import { fingerprint, isComputedOnly, sensitivePaths, shapeObject, upgradeValues, type PathStep } from "../lifecycle";
import { LockHeldError, StateBackendError, type LockInfo, type StateBackend } from "./backends";
import { providerKey } from "./provider-address";
import { replayJournal, type JournalBase } from "./state-journal";

/** Terraform's state format version. */
export const STATE_FORMAT_VERSION = 4;
/** The previous ods format (`.ods/state/<stack>.json`), read once and converted. */
export const LEGACY_FORMAT_VERSION = 1;
/** Written into `terraform_version` of a new state: the Terraform release this format matches. */
export const TERRAFORM_VERSION = "1.11.4";
const PROVIDER_ADDRESS = `provider["${PROVIDER_SOURCE}"]`;

export interface ResourceState {
  typeName: string;
  id: string;
  /** Last values seen live (model form, secrets excluded) after the last successful call. */
  values: Values;
  /** Engine-only declared values (allow_destroy, rotation settings) as last applied. */
  engineValues: Values;
  /** Salted HMAC of each secret attribute path's declared value, as last applied. */
  secretFingerprints: Record<string, string>;
  /** Secrets the service returned once and never again (a token's secret). */
  sensitive?: Record<string, string>;
  /** Attributes that took a sensitive value through a reference: `ods state show` hides them. */
  marked?: string[];
  /** The id a rotation started on, written before its call; cleared by its answer (see lifecycle/rotation.ts). */
  rotating?: string;
  /** Addresses this resource depended on when last applied; deletes run in reverse. */
  dependsOn: string[];
  /** The attributes as terraform-provider-ods stores them, when known (see tf-attributes). */
  attributes?: Values;
  /** Terraform's address of the provider configuration that manages it (`provider["registry.terraform.io/ods/ods"].ALIAS`); absent for the default. */
  provider?: string;
  /** The kind's schema version the values were written with; absent means 0. */
  schemaVersion?: number;
  /** Attributes whose value came from a sensitive variable: never shown. */
  sensitiveAttributes?: string[];
  /** Where exactly sensitive variables' values went: recorded as Terraform marks them. */
  sensitivePaths?: (string | number)[][];
}

/** The organization a provider configuration's part of the state belongs to. */
export interface StateOrganization {
  id: string;
  name?: string;
}

export interface StateFile {
  formatVersion: number;
  /** Identifies this state's history; a saved plan from another lineage is refused. */
  lineage: string;
  /** Incremented on every write. */
  serial: number;
  /** Per-state salt of the secret fingerprints, so equal secrets in two states differ. */
  fingerprintSalt: string;
  resources: Record<string, ResourceState>;
  outputs: Record<string, { value: unknown; sensitive: boolean }>;
  /** Per provider configuration (`ods`, `ods.ALIAS`): the organization it was applied to. Read through stateOrganization. */
  organizations?: Record<string, StateOrganization>;
  /** `terraform_version` as read (kept so that a newer Terraform's state stays its own). */
  terraformVersion?: string;
  /** Entries ods does not manage (data sources, other providers, modules), kept as read. */
  foreign?: unknown[];
  checkResults?: unknown;
  /** Where the state was read from the previous ods format; the next write converts it. */
  convertedFrom?: string;
}

export class StateError extends Error {}

/**
 * A stored state that exists but holds nothing (0 bytes, or only whitespace). Terraform
 * reads such a state as none, so the next apply would adopt (and rotate) or recreate every
 * object it managed: a truncated copy, a failed download or an emptied row must not read that way.
 */
export class EmptyStateError extends StateError {
  constructor(where: string) {
    super(
      `the state ${where} exists but is empty: a lost or truncated state is not taken as "no state" (that would adopt or recreate every object it managed). ` +
        "Restore it from a backup (terraform state push, ods state push), or, if you really mean to start afresh, delete it first. Nothing was written",
    );
    this.name = "EmptyStateError";
  }
}

/** Refuses a stored state text that is empty or whitespace (see EmptyStateError). */
export function refuseEmptyState(text: string, where: string): void {
  if (text.trim() === "") throw new EmptyStateError(where);
}

/**
 * Terraform's serial is a 64-bit unsigned integer; JavaScript numbers hold integers
 * exactly up to 2^53 - 1 only. A serial past that would be read rounded and stop
 * increasing, so that a newer state could not be told from an older one. A serial above
 * 2^52 is refused when read, before any call is made: the 2^52 exact values above it are
 * room for any number of writes (Terraform adds one per write; only an edit gets there).
 */
export const LARGEST_SERIAL = 2 ** 52;

const LOWER_SERIAL = 'Lower it (terraform state pull, edit "serial", terraform state push -force) to go on';

function exactSerial(raw: unknown, where: string): number {
  if (raw === undefined || raw === null) return 0;
  if (typeof raw !== "number" || !Number.isInteger(raw) || raw < 0) {
    throw new StateError(`the state ${where} has serial ${JSON.stringify(raw)}: expected a non-negative integer; it was left untouched`);
  }
  if (raw > LARGEST_SERIAL) {
    throw new StateError(`the state ${where} has a serial above 2^52 (${LARGEST_SERIAL}): ods counts serials exactly only below 2^53 and keeps the values between as room for its writes; it was left untouched. ${LOWER_SERIAL}`);
  }
  return raw;
}

/** A state before its first write: no lineage yet, so that two reads of "nothing" agree. */
export function emptyState(): StateFile {
  return {
    formatVersion: STATE_FORMAT_VERSION,
    lineage: "",
    serial: 0,
    fingerprintSalt: crypto.randomBytes(16).toString("hex"),
    resources: {},
    outputs: {},
  };
}

/** The organization recorded for a provider configuration, if any. */
export function stateOrganization(state: StateFile, provider: string): StateOrganization | undefined {
  return state.organizations?.[provider];
}

/** Records the organization a provider configuration's resources live in. */
export function setStateOrganization(state: StateFile, provider: string, org: StateOrganization): void {
  state.organizations = { ...state.organizations, [provider]: org };
}

export { fingerprint };

// ---------------------------------------------------------------------------------------
// Terraform's format

interface OdsPrivate {
  salt?: string;
  secret_fingerprints?: Record<string, string>;
  /** The organization (id) of the instance's provider configuration. */
  organization?: string;
  organization_name?: string;
  /** Attributes whose value came from a sensitive variable. */
  sensitive_variables?: string[];
  /** Attributes that took a sensitive value through a reference. */
  marked?: string[];
  /** Attribute paths where sensitive variables' values went. */
  sensitive_paths?: (string | number)[][];
  /** The id a rotation started on, written before its call (see lifecycle/rotation.ts). */
  rotating?: string;
}

interface TfInstance {
  schema_version: number;
  attributes: Values;
  sensitive_attributes: unknown[];
  private?: string;
  dependencies?: string[];
  index_key?: unknown;
  deposed?: string;
}

interface TfResource {
  module?: string;
  mode: string;
  type: string;
  name: string;
  provider: string;
  instances: TfInstance[];
}

function encodePrivate(p: OdsPrivate): string {
  return Buffer.from(JSON.stringify({ ods: p })).toString("base64");
}

function decodePrivate(text: unknown): OdsPrivate {
  if (typeof text !== "string" || text === "") return {};
  try {
    const parsed = JSON.parse(Buffer.from(text, "base64").toString("utf8")) as { ods?: OdsPrivate };
    return parsed && typeof parsed === "object" && parsed.ods && typeof parsed.ods === "object" ? parsed.ods : {};
  } catch {
    return {};
  }
}

/** Secrets the user declares (not the ones the service issues), by attribute path. */
function declaredSecrets(attrs: Attributes, values: Values): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [p, v] of secretValues(attrs, values)) {
    const top = attrs[p.split(".")[0]];
    if (top && !isComputedOnly(top)) out.set(p, v);
  }
  return out;
}

/** Model values from stored attributes: what the live object held, secrets left out. */
function valuesOf(attrs: Attributes, stored: Values): Values {
  const out: Values = {};
  for (const [name, attr] of Object.entries(attrs)) {
    if (attr.engineOnly || (attr.secret && isComputedOnly(attr))) continue;
    const v = stored[name] ?? null;
    if (attr.secret) out[name] = null;
    else if (isNested(attr) && attr.type === "object" && v !== null && typeof v === "object") out[name] = valuesOf(attr.attributes, v as Values);
    else out[name] = v;
  }
  return out;
}

/** The attributes to store for an entry: as applied, or built from an entry of the old format. */
function attributesOf(kind: ResourceKind, r: ResourceState): Values {
  if (r.attributes) return r.attributes;
  return shapeObject(kind.attributes, { ...r.values, ...r.engineValues, ...(r.sensitive ?? {}), id: r.id });
}

/** The JSON type Terraform records beside an output value. */
function ctyType(v: unknown): unknown {
  if (typeof v === "string") return "string";
  if (typeof v === "number") return "number";
  if (typeof v === "boolean") return "bool";
  if (Array.isArray(v)) return ["tuple", v.map(ctyType)];
  if (v && typeof v === "object") {
    const fields: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) fields[k] = ctyType(x);
    return ["object", fields];
  }
  return "dynamic";
}

/**
 * Schema-sensitive paths plus the top-level attributes that took a sensitive value (from a
 * variable or through a reference), as Terraform records its marks, so that `terraform
 * show` hides them too.
 */
function withMarks(paths: PathStep[][], names: readonly string[]): PathStep[][] {
  const out: PathStep[][] = [];
  for (const p of paths) if (!out.some((q) => JSON.stringify(q) === JSON.stringify(p))) out.push(p);
  for (const name of new Set(names)) {
    if (!out.some((p) => p.length === 1 && p[0].value === name)) out.push([{ type: "get_attr", value: name }]);
  }
  return out;
}

function splitAddress(address: string): { type: string; name: string } {
  const dot = address.indexOf(".");
  return { type: address.slice(0, dot), name: address.slice(dot + 1) };
}

/** A path inside an object's values as Terraform's steps: attribute names, then map keys or list indexes. */
function stepsOf(attrs: Attributes, path: readonly (string | number)[]): PathStep[] {
  return valueSteps(attrs, path).map((s): PathStep =>
    "attribute" in s ? { type: "get_attr", value: s.attribute } : { type: "index", value: "index" in s ? { value: s.index, type: "number" } : { value: s.key, type: "string" } },
  );
}

/** One managed object as Terraform stores it. */
function resourceDoc(state: StateFile, address: string, r: ResourceState): TfResource {
  const kind = resourceKind(r.typeName);
  if (!kind) throw new StateError(`${address}: unknown type ${r.typeName}`);
  const attributes = attributesOf(kind, r);
  const { type, name } = splitAddress(address);
  const priv: OdsPrivate = { salt: state.fingerprintSalt, secret_fingerprints: r.secretFingerprints };
  // Each instance carries the organization of its own provider configuration.
  const org = stateOrganization(state, providerKey(r.provider));
  if (org) {
    priv.organization = org.id;
    if (org.name) priv.organization_name = org.name;
  }
  if (r.sensitiveAttributes && r.sensitiveAttributes.length > 0) priv.sensitive_variables = r.sensitiveAttributes;
  if (r.marked && r.marked.length > 0) priv.marked = r.marked;
  if (r.sensitivePaths && r.sensitivePaths.length > 0) priv.sensitive_paths = r.sensitivePaths;
  if (r.rotating) priv.rotating = r.rotating;
  const instance: TfInstance = {
    schema_version: r.schemaVersion ?? 0,
    attributes,
    sensitive_attributes: withMarks(
      [...sensitivePaths(kind.attributes, attributes), ...(r.sensitivePaths ?? []).map((p) => stepsOf(kind.attributes, p))],
      // Where a variable's value went is known exactly: Terraform marks those paths, not the attribute.
      [...(r.sensitivePaths?.length ? [] : (r.sensitiveAttributes ?? [])), ...(r.marked ?? [])],
    ),
    private: encodePrivate(priv),
  };
  const deps = [...new Set(r.dependsOn)].sort();
  if (deps.length > 0) instance.dependencies = deps;
  return { mode: "managed", type, name, provider: r.provider ?? PROVIDER_ADDRESS, instances: [instance] };
}

/** JSON.stringify(v, null, 2) as it reads nested `depth` levels deep in a document. */
function nested(v: unknown, depth: number): string {
  return JSON.stringify(v, null, 2).replace(/\n/g, `\n${"  ".repeat(depth)}`);
}

/**
 * Each object's text as last written, reused while the object is unchanged: an apply
 * rewrites the whole state after every few calls, and building each object's attributes,
 * sensitive paths and private data again cost 0.2 s per write at 5,000 objects. Entries
 * are replaced when they change; the fields that are set in place (provider, marks) and
 * the state-wide salt and organization are part of the check, the value objects are
 * compared by identity.
 */
const writtenEntries = new WeakMap<ResourceState, { key: string; refs: unknown[]; text: string }>();

function entryText(state: StateFile, address: string, r: ResourceState): string {
  const key = JSON.stringify([
    address, state.fingerprintSalt, stateOrganization(state, providerKey(r.provider)) ?? null, r.typeName, r.id, r.provider ?? null,
    r.schemaVersion ?? 0, r.sensitiveAttributes ?? null, r.sensitivePaths ?? null, r.marked ?? null, r.rotating ?? null,
  ]);
  const refs: unknown[] = [r.values, r.engineValues, r.secretFingerprints, r.sensitive, r.dependsOn, r.attributes];
  const hit = writtenEntries.get(r);
  if (hit && hit.key === key && hit.refs.every((x, i) => x === refs[i])) return hit.text;
  const text = `    ${nested(resourceDoc(state, address, r), 2)}`;
  writtenEntries.set(r, { key, refs, text });
  return text;
}

/** The state as Terraform 1.11 writes it (two-space indented, resources sorted). */
export function serializeState(state: StateFile): string {
  const outputs: Record<string, unknown> = {};
  for (const name of Object.keys(state.outputs).sort()) {
    const o = state.outputs[name];
    if (o.value === null || o.value === undefined) continue; // Terraform keeps no null outputs
    outputs[name] = { value: o.value, type: ctyType(o.value), ...(o.sensitive ? { sensitive: true } : {}) };
  }
  const sortKey = (r: { module?: string; mode: string; type: string; name: string }): string => `${r.module ?? ""}\u0000${r.mode}\u0000${r.type}\u0000${r.name}`;
  const items: { key: string; text: string }[] = [];
  for (const [address, r] of Object.entries(state.resources)) {
    items.push({ key: sortKey({ mode: "managed", ...splitAddress(address) }), text: entryText(state, address, r) });
  }
  for (const f of (state.foreign ?? []) as TfResource[]) items.push({ key: sortKey(f), text: `    ${nested(f, 2)}` });
  items.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  // The document as JSON.stringify(doc, null, 2) writes it, assembled from the objects' texts.
  const head = JSON.stringify({
    version: STATE_FORMAT_VERSION,
    terraform_version: state.terraformVersion ?? TERRAFORM_VERSION,
    serial: state.serial,
    lineage: state.lineage,
    outputs,
  }, null, 2);
  const resources = items.length === 0 ? "[]" : `[\n${items.map((i) => i.text).join(",\n")}\n  ]`;
  return `${head.slice(0, -2)},\n  "resources": ${resources},\n  "check_results": ${nested(state.checkResults ?? null, 1)}\n}\n`;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function fromTerraform(doc: Record<string, unknown>, where: string): StateFile {
  if (!Array.isArray(doc.resources)) throw new StateError(`${where} has no resources list; it was left untouched`);
  const state: StateFile = {
    formatVersion: STATE_FORMAT_VERSION,
    lineage: typeof doc.lineage === "string" ? doc.lineage : "",
    serial: exactSerial(doc.serial, where),
    fingerprintSalt: "",
    resources: {},
    outputs: {},
    terraformVersion: typeof doc.terraform_version === "string" ? doc.terraform_version : undefined,
    foreign: [],
    checkResults: doc.check_results ?? null,
  };
  const pending: { address: string; kind: ResourceKind; instance: TfInstance; provider: string; priv: OdsPrivate }[] = [];
  for (const [i, raw] of (doc.resources as unknown[]).entries()) {
    if (!isObject(raw)) throw new StateError(`${where}: resources[${i}] is not an object; it was left untouched`);
    const r = raw as unknown as TfResource;
    const kind = r.mode === "managed" && !r.module ? resourceKind(r.type) : undefined;
    if (!kind) {
      state.foreign!.push(raw);
      continue;
    }
    const address = `${r.type}.${r.name}`;
    if (!Array.isArray(r.instances)) throw new StateError(`${where}: ${address} has no instances list; it was left untouched`);
    if (r.instances.length === 0) continue;
    if (r.instances.length > 1 || r.instances.some((x) => isObject(x) && (x.index_key !== undefined || x.deposed !== undefined))) {
      throw new StateError(`${where}: ${address} has several instances (count, for_each or a deposed object); ods manages single objects only: use Terraform for this state`);
    }
    const instance = r.instances[0];
    if (!isObject(instance) || !isObject(instance.attributes) || typeof instance.attributes.id !== "string") {
      throw new StateError(`${where}: ${address} has no attributes with an id; it was left untouched`);
    }
    pending.push({ address, kind, instance, provider: typeof r.provider === "string" ? r.provider : PROVIDER_ADDRESS, priv: decodePrivate(instance.private) });
  }
  state.fingerprintSalt = pending.find((p) => p.priv.salt)?.priv.salt ?? crypto.randomBytes(16).toString("hex");
  for (const p of pending) {
    const key = providerKey(p.provider);
    if (p.priv.organization && !stateOrganization(state, key)) {
      setStateOrganization(state, key, { id: p.priv.organization, ...(p.priv.organization_name ? { name: p.priv.organization_name } : {}) });
    }
  }
  for (const { address, kind, instance, provider, priv } of pending) {
    // Stored under an older schema version of the kind: upgraded as the provider's
    // UpgradeResourceState does, so both engines see the current shape.
    const version = typeof instance.schema_version === "number" ? instance.schema_version : 0;
    let attributes: Values;
    try {
      attributes = upgradeValues(kind, instance.attributes, version);
    } catch (err) {
      throw new StateError(`${where}: ${address}: ${(err as Error).message}`);
    }
    const engineValues: Values = {};
    const sensitive: Record<string, string> = {};
    for (const [name, attr] of Object.entries(kind.attributes)) {
      const v = attributes[name];
      if (attr.engineOnly && v !== null && v !== undefined) engineValues[name] = v;
      if (attr.secret && isComputedOnly(attr) && typeof v === "string" && v !== "") sensitive[name] = v;
    }
    // A secret stored in the attributes is authoritative (Terraform may have changed it);
    // the fingerprint ods kept stands where the attribute holds none (an old ods state).
    const secretFingerprints: Record<string, string> = { ...(priv.secret_fingerprints ?? {}) };
    for (const [p, v] of declaredSecrets(kind.attributes, attributes)) secretFingerprints[p] = fingerprint(state.fingerprintSalt, v);
    state.resources[address] = {
      typeName: kind.typeName,
      id: attributes.id as string,
      values: valuesOf(kind.attributes, attributes),
      engineValues,
      secretFingerprints,
      sensitive: Object.keys(sensitive).length > 0 ? sensitive : undefined,
      dependsOn: Array.isArray(instance.dependencies) ? instance.dependencies.filter((d): d is string => typeof d === "string" && !d.startsWith("data.")) : [],
      attributes,
      provider,
      ...(kind.schemaVersion > 0 ? { schemaVersion: kind.schemaVersion } : {}),
      ...(Array.isArray(priv.sensitive_variables) && priv.sensitive_variables.length > 0 ? { sensitiveAttributes: priv.sensitive_variables } : {}),
      ...(Array.isArray(priv.marked) && priv.marked.length > 0 ? { marked: priv.marked.filter((m): m is string => typeof m === "string") } : {}),
      ...(Array.isArray(priv.sensitive_paths) && priv.sensitive_paths.length > 0 ? { sensitivePaths: priv.sensitive_paths.filter((p): p is (string | number)[] => Array.isArray(p)) } : {}),
      // A rotation intent holds only while the instance is still the object it started on:
      // if Terraform finished the rotation meanwhile, the id moved on and the intent is void.
      ...(typeof priv.rotating === "string" && priv.rotating === attributes.id ? { rotating: priv.rotating } : {}),
    };
  }
  if (isObject(doc.outputs)) {
    for (const [name, o] of Object.entries(doc.outputs)) {
      if (isObject(o)) state.outputs[name] = { value: o.value ?? null, sensitive: o.sensitive === true };
    }
  }
  return state;
}

function fromLegacy(doc: Record<string, unknown>, where: string): StateFile {
  if (typeof doc.formatVersion !== "number" || !isObject(doc.resources)) {
    throw new StateError(`${where} does not look like a Terraform or ods state (no version and resources); it was left untouched`);
  }
  if (doc.formatVersion > LEGACY_FORMAT_VERSION) {
    throw new StateError(`${where} has ods format version ${doc.formatVersion}, newer than this ods understands; upgrade ods. It was left untouched`);
  }
  const resources: Record<string, ResourceState> = {};
  // A hand-edited entry that cannot name its object (null, no type or id) is an error naming
  // it; what an entry can do without (values, engine values, fingerprints, dependencies) is
  // read as empty: the next plan compares with the live object anyway.
  for (const [address, raw] of Object.entries(doc.resources)) {
    if (!isObject(raw)) throw new StateError(`${where}: the entry ${address} is ${raw === null ? "null" : "not an object"}; delete that entry from the file, or restore the file from a backup. It was left untouched`);
    if (typeof raw.typeName !== "string" || typeof raw.id !== "string" || raw.id === "") {
      throw new StateError(`${where}: the entry ${address} has no ${typeof raw.typeName !== "string" ? "typeName" : "id"}; delete that entry from the file, or restore the file from a backup. It was left untouched`);
    }
    resources[address] = {
      typeName: raw.typeName,
      id: raw.id,
      values: isObject(raw.values) ? raw.values : {},
      engineValues: isObject(raw.engineValues) ? raw.engineValues : {},
      secretFingerprints: isObject(raw.secretFingerprints) ? (raw.secretFingerprints as Record<string, string>) : {},
      sensitive: isObject(raw.sensitive) ? (raw.sensitive as Record<string, string>) : undefined,
      dependsOn: Array.isArray(raw.dependsOn) ? raw.dependsOn.filter((d): d is string => typeof d === "string") : [],
      ...(typeof raw.schemaVersion === "number" ? { schemaVersion: raw.schemaVersion } : {}),
      ...(typeof raw.provider === "string" ? { provider: raw.provider } : {}),
      ...(Array.isArray(raw.sensitiveAttributes) ? { sensitiveAttributes: raw.sensitiveAttributes.filter((a): a is string => typeof a === "string") } : {}),
      ...(Array.isArray(raw.marked) ? { marked: raw.marked.filter((a): a is string => typeof a === "string") } : {}),
      ...(typeof raw.rotating === "string" ? { rotating: raw.rotating } : {}),
    };
  }
  // The previous format kept one organization per provider configuration (or, earlier, one id).
  const organizations: Record<string, StateOrganization> = {};
  if (isObject(doc.organizations)) {
    for (const [key, o] of Object.entries(doc.organizations)) {
      if (isObject(o) && typeof o.id === "string") organizations[key] = { id: o.id, ...(typeof o.name === "string" ? { name: o.name } : {}) };
    }
  } else if (typeof doc.organization === "string") {
    organizations.ods = { id: doc.organization };
  }
  return {
    formatVersion: STATE_FORMAT_VERSION,
    lineage: typeof doc.lineage === "string" && doc.lineage ? doc.lineage : crypto.randomUUID(),
    serial: exactSerial(doc.serial, where),
    fingerprintSalt: typeof doc.fingerprintSalt === "string" ? doc.fingerprintSalt : crypto.randomBytes(16).toString("hex"),
    resources,
    outputs: isObject(doc.outputs) ? (doc.outputs as StateFile["outputs"]) : {},
    ...(Object.keys(organizations).length > 0 ? { organizations } : {}),
    convertedFrom: where,
  };
}

/**
 * The secret values a state holds: secrets the service returned once, and attributes
 * that took a sensitive value. An output that was written unmarked by an older engine
 * is still hidden when it holds one of them.
 */
export function secretValuesIn(state: StateFile): unknown[] {
  const out: unknown[] = [];
  for (const r of Object.values(state.resources)) {
    out.push(...Object.values(r.sensitive ?? {}));
    for (const a of [...(r.sensitiveAttributes ?? []), ...(r.marked ?? [])]) out.push(r.values[a]);
  }
  return out;
}

/** Reads state text: Terraform's format, or the previous ods format (marked for conversion). */
export function parseState(text: string, where: string): StateFile {
  refuseEmptyState(text, where);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new StateError(`the state ${where} is not valid JSON (truncated or corrupt); it was left untouched. Restore it from a backup, or move it away to adopt live objects again by natural key`);
  }
  if (!isObject(parsed)) throw new StateError(`the state ${where} does not look like a Terraform or ods state; it was left untouched`);
  if (typeof parsed.version === "number") {
    if (parsed.version > STATE_FORMAT_VERSION) {
      throw new StateError(`the state ${where} has format version ${parsed.version}, newer than this ods understands (${STATE_FORMAT_VERSION}); upgrade ods. It was left untouched`);
    }
    if (parsed.version < STATE_FORMAT_VERSION) {
      throw new StateError(`the state ${where} has Terraform's format version ${parsed.version}; run a current terraform once (terraform plan) to upgrade it. It was left untouched`);
    }
    return fromTerraform(parsed, where);
  }
  return fromLegacy(parsed, where);
}

// ---------------------------------------------------------------------------------------
// Reading and writing through a backend, under its lock

/** Terraform's operation names, shown by `terraform` when ods holds the lock. */
const OPERATIONS: Record<string, string> = { apply: "OperationTypeApply", destroy: "OperationTypeApply", plan: "OperationTypePlan" };

export function lockInfo(command: string): LockInfo {
  const op = command.replace(/^ods\s+/, "").split(/\s+/)[0];
  let user = "unknown";
  try {
    user = os.userInfo().username;
  } catch {
    // no user name (a container without passwd entry)
  }
  return {
    ID: crypto.randomUUID(),
    Operation: OPERATIONS[op] ?? "OperationTypeInvalid",
    Info: `${command} (pid ${process.pid})`,
    Who: `${user}@${os.hostname()}`,
    Version: "ods 0.1.0",
    Created: new Date().toISOString(),
    Path: "",
  };
}

/**
 * The lineage and serial of a stored state's text. Terraform and ods write both near the
 * top, so the head is read first; a whole parse of a state of many megabytes is the
 * fallback, not the rule.
 */
function stateBase(text: string): JournalBase | undefined {
  // Only what comes before the outputs and resources, whose values could hold anything.
  const first = text.slice(0, 2048);
  const body = first.search(/"(outputs|resources)"\s*:/);
  const head = body < 0 ? first : first.slice(0, body);
  const serial = /"serial":\s*(\d+)/.exec(head);
  const lineage = /"lineage":\s*"([^"\\]*)"/.exec(head);
  if (serial && lineage) return { lineage: lineage[1], serial: Number(serial[1]) };
  try {
    const doc = JSON.parse(text) as { lineage?: unknown; serial?: unknown };
    return { lineage: String(doc.lineage ?? ""), serial: Number(doc.serial) };
  } catch {
    return undefined;
  }
}

/** The journal is compacted into the state after this many entries at least (see writeChanges). */
const JOURNAL_MIN_ENTRIES = 1000;

export class StateStore {
  private conversionDone = false;

  /**
   * @param legacyFile the previous ods state file of this stack; read (and converted on the
   *   first write) when the backend holds no state yet.
   */
  constructor(
    readonly backend: StateBackend,
    private readonly log: (line: string) => void = () => undefined,
    private readonly legacyFile?: string,
  ) {}

  get description(): string {
    return this.backend.description;
  }

  /** Takes the backend's lock, or fails at once naming the holder. */
  async lock(command: string): Promise<void> {
    await this.backend.lock(lockInfo(command));
  }

  /** Releases the lock this run holds (the store stays usable for reads). */
  async unlock(): Promise<void> {
    await this.settle();
    await this.backend.unlock();
  }

  /**
   * Writes the whole state once more when its journal holds entries, so that a run that
   * ends (even on an error) leaves the stored state complete for Terraform, which reads no
   * journal, and no copy of an http state on this machine. Only a killed run leaves one.
   */
  private async settle(): Promise<void> {
    const state = this.journalState;
    if (!state || this.journalCount === 0) return;
    await this.write(state);
  }

  /** The stored state text with the journal of a run that stopped before its last write applied. */
  async readText(): Promise<string | undefined> {
    const text = await this.backend.read();
    if (text !== undefined) refuseEmptyState(text, this.backend.description);
    const journal = this.backend.journal;
    this.readBase = undefined;
    if (text === undefined || !journal) return text;
    const base = stateBase(text);
    if (!base) return text; // parseState says what is wrong with it
    const entries = await journal.read(base);
    this.readBase = { ...base, entries: entries.length };
    return replayJournal(text, entries);
  }

  /** The stored state the last read found, and how many journal entries extended it. */
  private readBase: (JournalBase & { entries: number }) | undefined;

  async read(): Promise<StateFile> {
    const text = await this.readText();
    if (text !== undefined) return parseState(text, this.backend.description);
    if (this.legacyFile && fs.existsSync(this.legacyFile)) {
      return parseState(fs.readFileSync(this.legacyFile, "utf8"), this.legacyFile);
    }
    return emptyState();
  }

  /** Writes the state (serial bumped). A state read from the old format is converted, with a backup. */
  async write(state: StateFile): Promise<void> {
    const startedAt = Date.now();
    if (!state.lineage) state.lineage = crypto.randomUUID();
    if (!Number.isSafeInteger(state.serial + 1)) {
      throw new StateError(`the state in the ${this.backend.description} has serial ${state.serial}, past which ods cannot count exactly; nothing was written. ${LOWER_SERIAL}`);
    }
    state.serial += 1;
    const text = serializeState(state);
    const from = state.convertedFrom;
    if (from && !this.conversionDone && fs.existsSync(from)) {
      const backup = `${from}.ods-v1.backup`;
      fs.copyFileSync(from, backup);
      fs.chmodSync(backup, 0o600);
      await this.backend.write(text);
      if (from === this.legacyFile) fs.rmSync(from, { force: true });
      this.log(`Converted the ods state ${from} to Terraform's state format in the ${this.backend.description}; the old file is kept as ${backup}`);
    } else {
      await this.backend.write(text);
    }
    this.conversionDone = true;
    delete state.convertedFrom;
    await this.startJournal(state, startedAt);
  }

  /** Replaces the stored state with TEXT as given (`ods state push`); a journal is dropped with the state it extended. */
  async writeText(text: string): Promise<void> {
    await this.backend.write(text);
    this.journalBase = undefined;
    await this.backend.journal?.discard();
  }

  /** After a whole write: the journal it holds is dropped, and the next entries extend this state. */
  private async startJournal(state: StateFile, startedAt: number): Promise<void> {
    const journal = this.backend.journal;
    this.journalBase = undefined;
    this.readBase = undefined;
    if (!journal) return;
    await journal.discard();
    this.extendJournal(state, Date.now() - startedAt);
  }

  /** From now on, saves append entries extending STATE as it is stored (written whole in WHOLE_WRITE_MS, 0 when read). */
  private extendJournal(state: StateFile, wholeWriteMs: number): void {
    const journal = this.backend.journal;
    if (!journal) return;
    this.journalBase = { lineage: state.lineage, serial: state.serial };
    this.journalCount = 0;
    this.journalState = undefined;
    this.compactAfter = Math.max(JOURNAL_MIN_ENTRIES, Math.ceil(Object.keys(state.resources).length / 2));
    // A journal kept away from the state is compacted at least every maxLagSeconds, but
    // never so often that whole writes take more than a twentieth of the run.
    const lag = journal.maxLagSeconds;
    this.compactAt = lag === undefined ? Infinity : Date.now() + Math.max(lag * 1000, 20 * wholeWriteMs);
  }

  /** The state the journal extends; undefined until a whole write of this run. */
  private journalBase: JournalBase | undefined;
  private journalCount = 0;
  /** The state the last appended entries belong to (the apply mutates it in place). */
  private journalState: StateFile | undefined;
  private compactAfter = JOURNAL_MIN_ENTRIES;
  private compactAt = Infinity;

  /**
   * Saves the changes of ADDRESSES (set or removed in STATE) durably. Where the backend
   * has a journal, they are appended to it, and the whole state is written only once the
   * journal holds as many entries as half the state (so an apply's writes cost O(N) in
   * all), or once a journal kept away from the state is due; otherwise, and for the first
   * save of a run, the whole state is written.
   */
  async writeChanges(state: StateFile, addresses: Iterable<string>): Promise<void> {
    const journal = this.backend.journal;
    const read = this.readBase;
    if (journal && !this.journalBase && read && read.entries === 0 && read.lineage === state.lineage && read.serial === state.serial && !state.convertedFrom) {
      // The first save of a run on the state it read: the journal can extend that state
      // at once, with no whole write first (one left by a killed run is written in first).
      this.extendJournal(state, 0);
    }
    const base = this.journalBase;
    const changed = [...addresses];
    if (
      !journal ||
      !base ||
      base.lineage !== state.lineage ||
      base.serial !== state.serial ||
      state.convertedFrom ||
      this.journalCount + changed.length > this.compactAfter ||
      Date.now() >= this.compactAt
    ) {
      await this.write(state);
      return;
    }
    this.journalState = state;
    await journal.append(base, changed.map((address) => {
      const r = state.resources[address];
      return { address, resource: r ? resourceDoc(state, address, r) : null };
    }));
    this.journalCount += changed.length;
  }

  async close(): Promise<void> {
    try {
      await this.settle();
      await this.backend.journal?.close();
    } finally {
      await this.backend.close();
    }
  }
}

export { LockHeldError, StateBackendError };
