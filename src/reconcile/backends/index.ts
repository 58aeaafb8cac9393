// Picks the backend the synthesized stack declares (`terraform.backend` in cdk.tf.json):
// the same state Terraform and `cdktf deploy` use for that stack.
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { HttpBackend } from "./http";
import { LocalBackend } from "./local";
import { PgBackend } from "./pg";
import { StateBackendError, type StateBackend } from "./types";

export { HttpBackend, redactUrl } from "./http";
export { LocalBackend, lockInfoPath } from "./local";
export { PgBackend } from "./pg";
export { LockHeldError, StateBackendError, type LockInfo, type StateBackend } from "./types";

export const SUPPORTED_BACKENDS = ["local", "http", "pg"] as const;

type Block = Record<string, unknown>;

function str(block: Block, key: string, env?: string): string | undefined {
  const v = block[key];
  if (typeof v === "string" && v !== "") return v;
  if (env && process.env[env]) return process.env[env];
  return undefined;
}

function bool(block: Block, key: string): boolean {
  return block[key] === true || block[key] === "true";
}

/** cdktf's default when a stack names no backend: `terraform.<stack>.tfstate` in the project root. */
export function defaultLocalPath(projectRoot: string, stackName: string): string {
  return path.join(projectRoot, `terraform.${stackName}.tfstate`);
}

export interface BackendChoice {
  backend: StateBackend;
  /** The backend type as declared (`local` when none is). */
  type: string;
}

/**
 * The backend of a stack. `stateOverride` (--state FILE) always means a local file.
 * Relative local paths are relative to the stack's directory, where Terraform runs.
 */
export function backendForStack(stackFile: string, stackName: string, projectRoot: string, stateOverride?: string): BackendChoice {
  if (stateOverride) return { backend: new LocalBackend(path.resolve(stateOverride)), type: "local" };
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(stackFile, "utf8"));
  } catch {
    parsed = undefined; // loading the stack reports a broken file
  }
  const terraform = (parsed as { terraform?: { backend?: unknown } } | undefined)?.terraform;
  const declared = terraform?.backend;
  if (declared === undefined || declared === null) {
    return { backend: new LocalBackend(defaultLocalPath(projectRoot, stackName)), type: "local" };
  }
  if (typeof declared !== "object" || Array.isArray(declared) || Object.keys(declared).length !== 1) {
    throw new StateBackendError(`${stackFile}: terraform.backend must name exactly one backend, got ${JSON.stringify(Object.keys(declared as object))}`);
  }
  const [type, raw] = Object.entries(declared as Record<string, unknown>)[0];
  const block = (Array.isArray(raw) ? raw[0] : raw) as Block | undefined ?? {};
  return { backend: backendOf(type, block, path.dirname(stackFile), stackFile, projectRoot), type };
}

/**
 * Where an http state's journal is kept on this machine: under the project's `.ods`
 * (which `ods init` keeps out of git), named by the state's address.
 */
export function httpJournalPath(projectRoot: string, address: string): string {
  const name = crypto.createHash("sha256").update(address).digest("hex").slice(0, 16);
  return path.join(projectRoot, ".ods", "state-journal", `${name}.ods-journal`);
}

function backendOf(type: string, block: Block, stackDir: string, stackFile: string, projectRoot: string): StateBackend {
  switch (type) {
    case "local": {
      const p = str(block, "path") ?? "terraform.tfstate";
      return new LocalBackend(path.resolve(stackDir, p));
    }
    case "http": {
      const address = str(block, "address", "TF_HTTP_ADDRESS");
      if (!address) throw new StateBackendError(`${stackFile}: the http backend needs an address (or TF_HTTP_ADDRESS)`);
      return new HttpBackend({
        address,
        updateMethod: str(block, "update_method", "TF_HTTP_UPDATE_METHOD") ?? "POST",
        lockAddress: str(block, "lock_address", "TF_HTTP_LOCK_ADDRESS"),
        lockMethod: str(block, "lock_method", "TF_HTTP_LOCK_METHOD") ?? "LOCK",
        unlockAddress: str(block, "unlock_address", "TF_HTTP_UNLOCK_ADDRESS"),
        unlockMethod: str(block, "unlock_method", "TF_HTTP_UNLOCK_METHOD") ?? "UNLOCK",
        username: str(block, "username", "TF_HTTP_USERNAME"),
        password: str(block, "password", "TF_HTTP_PASSWORD"),
        journalFile: httpJournalPath(projectRoot, address),
      });
    }
    case "pg": {
      const connStr = str(block, "conn_str", "PG_CONN_STR");
      if (!connStr) throw new StateBackendError(`${stackFile}: the pg backend needs conn_str (or PG_CONN_STR)`);
      return new PgBackend({
        connStr,
        schemaName: str(block, "schema_name", "PG_SCHEMA_NAME") ?? "terraform_remote_state",
        skipSchemaCreation: bool(block, "skip_schema_creation"),
        skipTableCreation: bool(block, "skip_table_creation"),
        skipIndexCreation: bool(block, "skip_index_creation"),
      });
    }
    default:
      throw new StateBackendError(
        `the stack declares the "${type}" backend, which ods does not support (it reads and writes ${SUPPORTED_BACKENDS.join(", ")}). Use the Terraform path for this stack: "cdktf deploy", or "terraform init && terraform apply" in ${stackDir}`,
      );
  }
}
