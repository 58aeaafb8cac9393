// The `local` backend: a state file on disk, as `terraform` and `cdktf deploy` use it.
// Terraform locks a local state with an fcntl lock on the state file itself (released
// by the kernel when the holder dies, so a crashed run leaves no stale lock) and writes
// who holds it into `.NAME.lock.info` beside it. Node has no fcntl, so a small perl
// process takes and holds the lock for us and gives it up when we close its stdin or
// die: then an `ods apply` and a `terraform apply` on one file exclude each other.
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { LockHeldError, StateBackendError, type LockInfo, type StateBackend } from "./types";
import { FileJournal } from "../state-journal";
import { allowedEnvironment } from "../../api/allowed-env";

// Takes a whole-file write lock (F_SETLK, F_WRLCK as Terraform's filesystem_lock_unix.go
// asks) without waiting, prints "locked" or "busy", then holds it until stdin closes.
const LOCK_HOLDER = `
use strict; use Fcntl;
my $f = shift;
sysopen(my $fh, $f, O_RDWR|O_CREAT, 0600) or do { print "error $!\\n"; exit 2 };
my $lk = $^O eq 'darwin' ? pack('q q i s s', 0, 0, 0, F_WRLCK, 0) : pack('s s x4 q q i x4', F_WRLCK, 0, 0, 0, 0);
$| = 1;
if (fcntl($fh, F_SETLK, $lk)) { print "locked\\n"; } else { print "busy $!\\n"; exit 1; }
while (<STDIN>) {}
exit 0;
`;

/** `.terraform.main.tfstate.lock.info` for `terraform.main.tfstate`, as Terraform names it. */
export function lockInfoPath(stateFile: string): string {
  const name = path.basename(stateFile);
  return path.join(path.dirname(stateFile), `.${name.startsWith(".") ? name.slice(1) : name}.lock.info`);
}

/** A complete copy written before the file is rewritten in place, for a crash mid-write. */
function pendingPath(stateFile: string): string {
  return `${stateFile}.ods-pending`;
}

function holdLock(file: string): Promise<{ child: ChildProcess; busy?: string }> {
  return new Promise((resolve, reject) => {
    let child: ChildProcess;
    try {
      child = spawn("perl", ["-e", LOCK_HOLDER, file], { stdio: ["pipe", "pipe", "pipe"], env: allowedEnvironment() });
    } catch (err) {
      reject(err);
      return;
    }
    let out = "";
    let errText = "";
    let settled = false;
    const settle = (fn: () => void): void => {
      if (!settled) {
        settled = true;
        fn();
      }
    };
    child.on("error", (err) =>
      settle(() => reject(new StateBackendError(`cannot lock the local state ${file}: perl is needed to take Terraform's file lock (${err.message})`))),
    );
    child.stderr?.on("data", (d: Buffer) => (errText += d.toString()));
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      if (!out.includes("\n")) return;
      const line = out.split("\n")[0];
      if (line === "locked") settle(() => resolve({ child }));
      else if (line.startsWith("busy")) settle(() => resolve({ child, busy: line.slice(5) }));
      else settle(() => reject(new StateBackendError(`cannot lock the local state ${file}: ${line}`)));
    });
    child.on("exit", (code) => settle(() => reject(new StateBackendError(`cannot lock the local state ${file}: the lock holder exited (${code}) ${errText.trim()}`))));
  });
}

function readIfExists(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new StateBackendError(`cannot read state file ${file}: ${(err as Error).message}`);
  }
}

function fileSize(file: string): number | undefined {
  try {
    return fs.statSync(file).size;
  } catch {
    return undefined;
  }
}

/**
 * A 0-byte state file with a lock record beside it: what a run (ods or terraform) leaves
 * when it took the lock on a new state, which creates the file, and was killed before its
 * first write. Any other empty file is a state that was lost, and is refused.
 */
function madeByLock(file: string): boolean {
  return fileSize(file) === 0 && fs.existsSync(lockInfoPath(file));
}

function parsedSerial(text: string | undefined): { lineage: string; serial: number } | undefined {
  if (!text || text.trim() === "") return undefined;
  try {
    const s = JSON.parse(text) as { lineage?: unknown; serial?: unknown };
    return typeof s.serial === "number" ? { lineage: String(s.lineage ?? ""), serial: s.serial } : undefined;
  } catch {
    return undefined;
  }
}

export class LocalBackend implements StateBackend {
  private holder?: ChildProcess;

  constructor(readonly file: string) {
    this.journal = new FileJournal(`${file}.ods-journal`);
  }

  get description(): string {
    return `local file ${this.file}`;
  }

  /** `terraform.tfstate.ods-journal` beside `terraform.tfstate`. */
  readonly journal: FileJournal;

  /**
   * Set while this run holds the lock on a file that held no state when it was locked:
   * the lock itself created it (0 bytes), as Terraform's does, or a run that was killed
   * before its first write left it so.
   */
  private lockedNew = false;

  /**
   * The state text; an empty text where the file exists but holds nothing (refused by
   * the StateStore), unless a lock made it. When a run died while rewriting the file in
   * place, the complete copy written just before is used instead (it has the higher
   * serial of the same lineage).
   */
  async read(): Promise<string | undefined> {
    const main = readIfExists(this.file);
    const pending = readIfExists(pendingPath(this.file));
    if (pending !== undefined) {
      const p = parsedSerial(pending);
      const m = parsedSerial(main);
      if (p && (!m || (m.lineage === p.lineage && p.serial > m.serial))) return pending;
    }
    if (main === "" && (this.lockedNew || (!this.holder && madeByLock(this.file)))) return undefined;
    return main;
  }

  /**
   * Rewrites the file in place (truncate, write, fsync), as Terraform does: the lock is
   * on the file itself, so replacing it by a rename would leave the lock on a ghost.
   * Mode 0600: the state holds secrets.
   */
  async write(text: string): Promise<void> {
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    const pending = pendingPath(this.file);
    const tmp = `${pending}.${process.pid}.tmp`;
    writeSynced(tmp, text, "w");
    fs.renameSync(tmp, pending);
    writeSynced(this.file, text, fs.existsSync(this.file) ? "r+" : "w");
    fs.rmSync(pending, { force: true });
    this.lockedNew = false;
  }

  async lock(info: LockInfo): Promise<string> {
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    // Judged before the lock creates the file and this run's lock record replaces a dead one's.
    const isNew = !fs.existsSync(this.file) || madeByLock(this.file);
    const { child, busy } = await holdLock(this.file);
    if (busy !== undefined) {
      await new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once("exit", () => resolve())));
      let holder: Partial<LockInfo> | undefined;
      try {
        holder = JSON.parse(fs.readFileSync(lockInfoPath(this.file), "utf8")) as LockInfo;
      } catch {
        holder = undefined;
      }
      throw new LockHeldError(this.description, holder, "held by another process of this machine", false);
    }
    this.holder = child;
    this.lockedNew = isNew;
    // stdout and stderr must not keep this process alive; stdin is the lock's life line.
    child.stdout?.destroy();
    child.stderr?.destroy();
    child.unref();
    const infoFile = lockInfoPath(this.file);
    fs.writeFileSync(infoFile, JSON.stringify({ ...info, Path: this.file }), { mode: 0o600 });
    fs.chmodSync(this.file, 0o600);
    return info.ID;
  }

  async unlock(): Promise<void> {
    const child = this.holder;
    if (!child) return;
    this.holder = undefined;
    // A file the lock created and nothing was written to goes again, as Terraform's does.
    if (this.lockedNew && fileSize(this.file) === 0) fs.rmSync(this.file, { force: true });
    this.lockedNew = false;
    fs.rmSync(lockInfoPath(this.file), { force: true });
    await new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      // Referenced again: this process must live until the lock is really given up.
      child.ref();
      child.once("exit", () => resolve());
      child.stdin?.end();
    });
  }

  async forceUnlock(id: string): Promise<void> {
    const { child, busy } = await holdLock(this.file);
    child.stdin?.end();
    await new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once("exit", () => resolve())));
    if (busy !== undefined) {
      throw new StateBackendError(`the local state ${this.file} is locked by a process that is still running (lock ${id}); a local lock ends with its process, so stop that run instead`);
    }
    fs.rmSync(lockInfoPath(this.file), { force: true });
  }

  async close(): Promise<void> {
    await this.unlock();
  }
}

function writeSynced(file: string, text: string, flag: "w" | "r+"): void {
  const fd = fs.openSync(file, flag, 0o600);
  try {
    fs.ftruncateSync(fd, 0);
    fs.writeSync(fd, text, 0);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.chmodSync(file, 0o600);
}
