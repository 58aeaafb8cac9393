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
   * Where answers between two whole writes are appended (see the StateStore), when the
   * backend has such a place: a file beside a local state, a table beside a pg state.
   */
  readonly journal?: StateJournal;
}

/** The stored state a journal extends: a whole write bumps the serial, so older journals are ignored. */
export interface JournalBase {
  lineage: string;
  serial: number;
}

/** One changed address: its whole entry as Terraform stores it, or null when it was removed. */
export interface JournalEntry {
  address: string;
  resource: unknown;
}

/**
 * An append-only record of what an apply learned since the state was last written whole,
 * so that an apply's saves cost O(changes) instead of O(state) each.
 */
export interface StateJournal {
  /** Where it is kept, for messages. */
  readonly description: string;
  /**
   * Set when the journal is kept elsewhere than the state (an http state's journal is a
   * local file): the state is then written whole at least this often, so that another
   * machine never reads a state more than this far behind.
   */
  readonly maxLagSeconds?: number;
  /** The entries that extend BASE, in order; none when the journal extends another state. */
  read(base: JournalBase): Promise<JournalEntry[]>;
  /** Appends entries extending BASE (replacing a journal of another base); durable once it resolves. */
  append(base: JournalBase, entries: readonly JournalEntry[]): Promise<void>;
  /** Drops every entry: called once a whole write holds them. */
  discard(): Promise<void>;
  /** Releases what it holds open; the entries stay for the next read. */
  close(): Promise<void>;
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
