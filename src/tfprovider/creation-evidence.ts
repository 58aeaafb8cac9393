// What the provider itself created, so that its create never takes an object another
// address may manage.
//
// A provider sees one resource at a time and never its address. A create that finds a
// live object with its natural key cannot tell a renamed resource (another address of
// the state still manages that object: adopting it, then destroying the old address,
// deletes it) from a `terraform apply` killed after its create reached the service
// (the object exists, Terraform never stored it: creating again makes a duplicate).
// Only the second may adopt, and only the provider can know it: it writes down each
// create before sending it and each answer after, and the object counts as its own
// until Terraform has it:
//   - when Terraform shows the id in a state (a refresh, a plan, an apply), and
//   - when Terraform ends the provider with its Shutdown call: it finished its walk and
//     holds every answer the provider gave (a killed Terraform never calls it).
// Kept in a journal file beside the passed checks (passed-checks.ts), per target, so that
// the next command's provider process reads it; without one, in this process only.
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";

/** Evidence older than this no longer lets a create adopt (the object is refused, and imported by hand). */
const EVIDENCE_TTL_MS = 7 * 24 * 3600_000;
const LINE = /^(\d{1,15}) (intent|made|handed|seen) ([0-9a-f]{64})(?: ([A-Za-z0-9_.:-]{1,200}))?$/;
/** The "id" of a create that made nothing. */
const NOTHING = "-";
/** A journal larger than this is rewritten with what still counts, when it is read. */
const COMPACT_BYTES = 256 * 1024;

interface KeyRecord {
  /** Creates sent for the key, and answers written down (a refused create's too). */
  intents: number;
  answers: number;
  /** The objects the answers named. */
  made: Set<string>;
  at: number;
}

/** The digest a natural key is written down under (the key may hold an e-mail address). */
export function creationKey(typeName: string, naturalKey: string): string {
  return crypto.createHash("sha256").update(`${typeName}\n${naturalKey}`).digest("hex");
}

export class CreationEvidence {
  private loaded = false;
  private readonly byKey = new Map<string, KeyRecord>();
  /** Ids Terraform has (seen in a state, or handed over at Shutdown). */
  private readonly settled = new Set<string>();
  /** Ids this process created, handed over at Shutdown. */
  private readonly mine = new Set<string>();

  /** `file`: the journal, or undefined to keep the evidence in this process only. */
  constructor(
    private readonly file?: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Written before a create is sent: if its answer is lost, the object is still this provider's. */
  intent(key: string): void {
    this.load();
    this.record("intent", key);
    this.append("intent", key);
  }

  /** The create's answer: the object this provider made for that key. */
  made(key: string, id: string): void {
    this.load();
    this.record("made", key, id);
    this.mine.add(id);
    this.append("made", key, id);
  }

  /** The create was refused (nothing was made): its intent no longer speaks for any object. */
  failed(key: string): void {
    this.made(key, NOTHING);
    this.mine.delete(NOTHING);
  }

  /** Terraform showed the id in a state: it has the object; no create may take it again. */
  seen(id: string): void {
    this.load();
    if (this.settled.has(id) || !this.knows(id)) return;
    this.settled.add(id);
    this.append("seen", "0".repeat(64), id);
  }

  /** Terraform ended the provider with Shutdown: every answer of this process reached it. */
  handOver(): void {
    for (const id of this.mine) {
      if (this.settled.has(id)) continue;
      this.settled.add(id);
      this.append("handed", "0".repeat(64), id);
    }
    this.mine.clear();
  }

  /**
   * Whether the live object `id` with this key is one this provider created and Terraform
   * never got: its create's answer names it, or a create for the key lost its answer.
   */
  holds(key: string, id: string): boolean {
    this.load();
    if (this.settled.has(id)) return false;
    const r = this.byKey.get(key);
    if (!r || this.now() - r.at > EVIDENCE_TTL_MS) return false;
    return r.made.has(id) || r.intents > r.answers;
  }

  /** Ids some create's answer named: a refresh asks for every id it sees, so a set, not a scan. */
  private readonly madeIds = new Set<string>();

  private knows(id: string): boolean {
    return this.madeIds.has(id);
  }

  private record(op: string, key: string, id?: string, at = this.now()): void {
    if (op === "seen" || op === "handed") {
      if (id) this.settled.add(id);
      return;
    }
    const r = this.byKey.get(key) ?? { intents: 0, answers: 0, made: new Set<string>(), at };
    r.at = Math.max(r.at, at);
    if (op === "intent") r.intents++;
    else {
      r.answers++;
      if (id && id !== NOTHING) {
        r.made.add(id);
        this.madeIds.add(id);
      }
    }
    this.byKey.set(key, r);
  }

  private load(): void {
    if (this.loaded) return;
    this.loaded = true;
    if (!this.file) return;
    let text: string;
    try {
      text = fs.readFileSync(this.file, "utf8");
    } catch {
      return;
    }
    for (const line of text.split("\n")) {
      const m = LINE.exec(line);
      if (m) this.record(m[2], m[3], m[4], Number(m[1]));
    }
    if (text.length > COMPACT_BYTES) this.compact();
  }

  /**
   * The journal, opened for appending at the first line this process writes and held
   * until close(): an apply writes two lines per create, and opening the file for each
   * cost more than the write. Each line is one write(2) of the whole line, as before:
   * what a killed process wrote is in the file.
   */
  private fd?: number;

  private append(op: string, key: string, id?: string): void {
    if (!this.file) return;
    const line = `${this.now()} ${op} ${key}${id ? ` ${id}` : ""}`;
    if (!LINE.test(line)) return;
    try {
      this.fd ??= fs.openSync(this.file, "a", 0o600);
      fs.writeSync(this.fd, `${line}\n`);
    } catch {
      // Not written down: the next process refuses the object rather than adopting it.
    }
  }

  /** Lets go of the journal (a later line opens it again). */
  close(): void {
    if (this.fd === undefined) return;
    try {
      fs.closeSync(this.fd);
    } catch {
      // Already closed with the process's descriptors: nothing to release.
    }
    this.fd = undefined;
  }

  /** Keeps what still counts (recent and not settled); written aside and renamed. */
  private compact(): void {
    const file = this.file!;
    const lines: string[] = [];
    for (const [key, r] of this.byKey) {
      if (this.now() - r.at > EVIDENCE_TTL_MS) continue;
      // What still speaks for an object: answers Terraform may not have (each with its
      // intent) and lost answers (an intent alone). A key that holds nothing is dropped;
      // beside a lost answer, what Terraform has is kept as such.
      const open = [...r.made].filter((id) => !this.settled.has(id));
      const lost = Math.max(0, r.intents - r.answers);
      if (open.length === 0 && lost === 0) continue;
      for (const id of open) lines.push(`${r.at} intent ${key}`, `${r.at} made ${key} ${id}`);
      for (let i = 0; i < lost; i++) lines.push(`${r.at} intent ${key}`);
      if (lost > 0) for (const id of r.made) if (this.settled.has(id)) lines.push(`${r.at} seen ${"0".repeat(64)} ${id}`);
    }
    const aside = path.join(path.dirname(file), `${path.basename(file)}.${process.pid}.tmp`);
    try {
      fs.writeFileSync(aside, lines.map((l) => `${l}\n`).join(""), { mode: 0o600 });
      fs.renameSync(aside, file);
    } catch {
      fs.rmSync(aside, { force: true });
    }
  }
}
