// One small interface over where a state lives (a local file, an HTTP state server,
// PostgreSQL). Each backend locks the way Terraform's backend of the same name does, so
// that `ods apply` and `terraform apply` on one state exclude each other.

/** Terraform's lock record (statemgr.LockInfo), as written by every backend that stores one. */
export interface LockInfo {
  ID: string;
  Operation: string;
  Info: string;
  Who: string;
  Version: string;
  Created: string;
  Path: string;
}

export interface StateBackend {
  /** How the state is named in messages ("local file X", "http state at URL"), no credentials. */
  readonly description: string;
  /** The stored state text, or undefined when none is stored yet. */
  read(): Promise<string | undefined>;
  /** Replaces the stored state; called only while the lock is held (or for an unlocked push). */
  write(text: string): Promise<void>;
  /** Takes the lock or throws LockHeldError at once. Answers the lock id. */
  lock(info: LockInfo): Promise<string>;
  /** Releases the lock this process holds. */
  unlock(): Promise<void>;
  /** Releases a lock some other run left behind (`ods state unlock ID`). */
  forceUnlock(id: string): Promise<void>;
  /** Closes connections; no lock remains. */
  close(): Promise<void>;
  /**
   * A local file where answers between two full writes are appended (see the StateStore's
   * journal), when the backend has one: the local backend's is beside its state file.
   */
  readonly journalFile?: string;
}

export class StateBackendError extends Error {}

/** The state is locked by someone else; names the holder and how to release a stale lock. */
export class LockHeldError extends StateBackendError {
  constructor(
    readonly where: string,
    readonly holder: Partial<LockInfo> | undefined,
    readonly detail?: string,
    /** False where a lock ends with its holder (local files, pg): no stale lock to release. */
    releasable = true,
  ) {
    const version = holder?.Version ? (holder.Version.startsWith("ods") ? holder.Version : `terraform ${holder.Version}`) : undefined;
    const what = [holder?.Info || holder?.Operation, version].filter(Boolean).join(", ");
    const who = holder?.ID
      ? `lock ID ${holder.ID}, held by ${holder.Who || "an unknown user"}${what ? ` (${what})` : ""}${holder.Created ? ` since ${holder.Created}` : ""}`
      : detail ?? "held by another run";
    const release = holder?.ID && releasable
      ? `; wait for that run to finish, or, if it crashed, release the lock with: ods state unlock ${holder.ID}`
      : "; wait for that run to finish";
    super(`the state (${where}) is locked: ${who}${release}`);
    this.name = "LockHeldError";
  }
}
