// The state file: what this stack manages, one JSON file per stack. Written atomically
// (temp file, fsync, rename) after every successful call, mode 0600 because it holds
// token secrets, and locked against a second concurrent run.
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Values } from "../resources";

export const STATE_FORMAT_VERSION = 1;

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
  /** The kind's schema version the values were written with; absent means 0. */
  schemaVersion?: number;
  /** Terraform's address of the provider configuration that manages it (`provider["registry.terraform.io/ods/ods"].ALIAS`); absent for the default. */
  provider?: string;
  /** Attributes whose value came from a sensitive variable: never shown. */
  sensitiveAttributes?: string[];
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
}

/** The organization recorded for a provider configuration, if any. */
export function stateOrganization(state: StateFile, provider: string): StateOrganization | undefined {
  return state.organizations?.[provider];
}

/** Records the organization a provider configuration's resources live in. */
export function setStateOrganization(state: StateFile, provider: string, org: StateOrganization): void {
  state.organizations = { ...state.organizations, [provider]: org };
}

export class StateError extends Error {}

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

/** Reads a state file; a missing file is an empty state. Never modifies the file. */
export function readState(file: string): StateFile {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return emptyState();
    throw new StateError(`cannot read state file ${file}: ${(err as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new StateError(`state file ${file} is not valid JSON (truncated or corrupt); it was left untouched. Restore it from a backup, or move it away to adopt live objects again by natural key`);
  }
  const s = parsed as Partial<StateFile>;
  if (typeof s !== "object" || s === null || typeof s.formatVersion !== "number" || typeof s.resources !== "object" || s.resources === null) {
    throw new StateError(`state file ${file} does not look like an ods state (no formatVersion or resources); it was left untouched`);
  }
  if (s.formatVersion > STATE_FORMAT_VERSION) {
    throw new StateError(`state file ${file} has format version ${s.formatVersion}, newer than this ods understands (${STATE_FORMAT_VERSION}); upgrade ods. The file was left untouched`);
  }
  return {
    formatVersion: STATE_FORMAT_VERSION,
    lineage: s.lineage ?? crypto.randomUUID(),
    serial: s.serial ?? 0,
    fingerprintSalt: s.fingerprintSalt ?? crypto.randomBytes(16).toString("hex"),
    resources: checkedEntries(s.resources as Record<string, unknown>, file),
    outputs: s.outputs ?? {},
    ...(s.organizations ? { organizations: s.organizations } : {}),
  };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Entries as the engine uses them. A hand-edited entry that cannot name its object (null,
 * no type or id) is an error naming it; what an entry can do without (values, engine
 * values, fingerprints, dependencies) is read as empty: the next plan compares with the
 * live object anyway.
 */
export function checkedEntries(resources: Record<string, unknown>, file: string): Record<string, ResourceState> {
  const out: Record<string, ResourceState> = {};
  for (const [address, raw] of Object.entries(resources)) {
    if (!isRecord(raw)) throw new StateError(`state file ${file}: the entry ${address} is ${raw === null ? "null" : `not an object`}; delete that entry from the file, or restore the file from a backup`);
    if (typeof raw.typeName !== "string" || typeof raw.id !== "string" || raw.id === "") {
      throw new StateError(`state file ${file}: the entry ${address} has no ${typeof raw.typeName !== "string" ? "typeName" : "id"}; delete that entry from the file, or restore the file from a backup`);
    }
    const record = (v: unknown): Record<string, unknown> => (isRecord(v) ? v : {});
    out[address] = {
      ...(raw as unknown as ResourceState),
      values: record(raw.values),
      engineValues: record(raw.engineValues),
      secretFingerprints: record(raw.secretFingerprints) as Record<string, string>,
      sensitive: isRecord(raw.sensitive) ? (raw.sensitive as Record<string, string>) : undefined,
      dependsOn: Array.isArray(raw.dependsOn) ? raw.dependsOn.filter((d): d is string => typeof d === "string") : [],
    };
  }
  return out;
}

/** Writes the state atomically with mode 0600; bumps the serial. */
export function writeState(file: string, state: StateFile): void {
  if (!state.lineage) state.lineage = crypto.randomUUID();
  state.serial += 1;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = fs.openSync(tmp, "w", 0o600);
  try {
    // Compact: it is rewritten after every call, and may hold thousands of objects.
    fs.writeSync(fd, `${JSON.stringify(state)}\n`);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
  fs.chmodSync(file, 0o600);
}

export { fingerprint } from "../lifecycle/secrets";

export interface LockInfo {
  pid: number;
  host: string;
  command: string;
  startedAt: string;
}

export class LockError extends Error {}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Takes the state lock (`<state>.lock`, created exclusively). A second run fails at once
 * with the holder's pid, host and command. A lock left by a process of this host that
 * no longer runs (killed) is taken over, since nothing can be writing.
 */
export function acquireLock(stateFile: string, command: string): () => void {
  const lockFile = `${stateFile}.lock`;
  fs.mkdirSync(path.dirname(lockFile), { recursive: true });
  const info: LockInfo = { pid: process.pid, host: os.hostname(), command, startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockFile, JSON.stringify(info), { flag: "wx", mode: 0o600 });
      return () => {
        try {
          fs.unlinkSync(lockFile);
        } catch {
          // already gone: nothing to release
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      let holder: LockInfo | undefined;
      try {
        holder = JSON.parse(fs.readFileSync(lockFile, "utf8")) as LockInfo;
      } catch {
        holder = undefined;
      }
      if (holder && holder.host === os.hostname() && !processAlive(holder.pid) && attempt === 0) {
        fs.rmSync(lockFile, { force: true });
        continue;
      }
      const who = holder ? `pid ${holder.pid} on ${holder.host} ("${holder.command}", since ${holder.startedAt})` : "an unknown process";
      throw new LockError(`the state ${stateFile} is locked by ${who}; wait for it to finish, or remove ${lockFile} if no run is active`);
    }
  }
  throw new LockError(`could not take the lock ${lockFile}`);
}
