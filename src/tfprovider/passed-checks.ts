// Plan-time checks that passed, remembered so that one command checks a query once.
//
// `terraform apply` plans every changed resource twice: once in its plan walk and again,
// in another provider instance, right before applying it. Without a memo the second plan
// compiles every changed query on the service again (28 of 221 requests of a 10%-changed
// apply at N=1000 in the bench, all of them in the apply walk, where the writes already
// press against the organization's requests-per-second budget).
// A provider Terraform starts runs each walk in a process of its own; its memo is a
// journal file (see checkJournal below) that the next process of the command reads.
//
// Only passes are kept: a failed check is asked again, so a fix shows at the next plan.
// Only checks whose answer depends on their values alone are kept (a compiled query:
// unknown fields and datasets are not errors), not those that read the organization's
// objects (does the role exist?); a pass is still kept only for a while.
import * as fs from "node:fs";
import * as path from "node:path";
import { providerCacheDir } from "./provider-cache-dir";

/** Long enough for the plan and apply walks of one command at N=5000 (about 2 minutes). */
const PASSED_CHECK_TTL_MS = 5 * 60_000;

/** Bounds the memory a journal can fill: the oldest passes go first. */
const PASSED_CHECKS_MAX = 10_000;

/** Where passes outlive the process: read once before the first question, appended to on each pass. */
export interface PassJournal {
  /**
   * Every pass recorded, as [key, when it passed], oldest first; [] when there is nothing
   * to read. Passes from before `staleBefore` are past the TTL: a grown journal drops them.
   */
  read(staleBefore: number): readonly (readonly [string, number])[];
  append(key: string, at: number): void;
}

export class PassedChecks {
  /** Key -> when it passed; insertion order is age order (a pass is re-inserted when renewed). */
  private readonly passedAt = new Map<string, number>();
  private journalRead = false;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly ttlMs = PASSED_CHECK_TTL_MS,
    private readonly max = PASSED_CHECKS_MAX,
    private readonly journal?: PassJournal,
  ) {}

  /** True when the same check passed less than the TTL ago (in this process or, with a journal, in an earlier one). */
  passed(key: string): boolean {
    this.readJournal();
    const at = this.passedAt.get(key);
    if (at === undefined) return false;
    if (this.now() - at < this.ttlMs) return true;
    this.passedAt.delete(key);
    return false;
  }

  remember(key: string): void {
    const at = this.now();
    this.record(key, at);
    this.journal?.append(key, at);
  }

  private record(key: string, at: number): void {
    this.passedAt.delete(key);
    this.passedAt.set(key, at);
    if (this.passedAt.size > this.max) {
      const oldest = this.passedAt.keys().next();
      if (!oldest.done) this.passedAt.delete(oldest.value);
    }
  }

  /** Lazily: the schema and validation processes of a command never ask, and never read the file. */
  private readJournal(): void {
    if (this.journalRead || !this.journal) return;
    this.journalRead = true;
    const now = this.now();
    for (const [key, at] of this.journal.read(now - this.ttlMs)) if (now - at < this.ttlMs && at <= now) this.record(key, at);
  }

  get size(): number {
    return this.passedAt.size;
  }
}

// ---- the journal file of a provider Terraform starts ----

/** A journal larger than this is rewritten with its live passes only, when it is read. */
const JOURNAL_COMPACT_BYTES = 256 * 1024;

/** One pass per line: "<epoch ms> <key>", the key a hex digest (checkJournal's caller hashes it). */
const journalLine = (key: string, at: number): string => `${at} ${key}`;
const JOURNAL_LINE = /^(\d{1,15}) ([0-9a-f]{16,128})$/;

/**
 * The directory for journals: ODS_PROVIDER_CACHE_DIR, or a directory of this user's own
 * under the system's temporary directory; undefined (no journal) for "off", or when the
 * directory is not this user's alone. Other users must not be able to plant passes.
 */
export function checkJournalDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return providerCacheDir(env);
}

/**
 * A journal file under `dir` for one target (`name`: a digest of URL, organization and
 * token, never the token). Every failure reads as an empty journal or a pass not
 * written down: a memo must never fail a plan. Appends are single writes of one short
 * line, so two commands writing at once do not interleave within a line; a torn or
 * foreign line is skipped.
 */
export function checkJournal(dir: string, name: string): PassJournal {
  const file = path.join(dir, `checks-${name}.log`);
  return {
    read(staleBefore) {
      let text: string;
      try {
        text = fs.readFileSync(file, "utf8");
      } catch {
        return [];
      }
      const passes: [string, number][] = [];
      for (const line of text.split("\n")) {
        const m = JOURNAL_LINE.exec(line);
        if (m) passes.push([m[2], Number(m[1])]);
      }
      if (text.length > JOURNAL_COMPACT_BYTES) compact(file, passes, staleBefore);
      return passes;
    },
    append(key, at) {
      // Only what read() would take back is written.
      const line = journalLine(key, at);
      if (!JOURNAL_LINE.test(line)) return;
      try {
        fs.appendFileSync(file, `${line}\n`, { mode: 0o600 });
      } catch {
        // Not written down: the next process asks the service again.
      }
    },
  };
}

/** Keeps the passes still inside the TTL; written aside and renamed, so a reader never sees half a file. */
function compact(file: string, passes: readonly (readonly [string, number])[], staleBefore: number): void {
  const kept = passes.filter(([, at]) => at >= staleBefore).map(([key, at]) => `${journalLine(key, at)}\n`);
  const aside = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(aside, kept.join(""), { mode: 0o600 });
    fs.renameSync(aside, file);
  } catch {
    fs.rmSync(aside, { force: true });
  }
}
