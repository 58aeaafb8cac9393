// Plan-time checks that passed, remembered by a served provider (`ods terraform serve`).
//
// `terraform apply` plans every changed resource twice: once in its plan walk and again,
// in another provider instance, right before applying it. A provider Terraform starts runs
// each walk in a process of its own and must check twice; a served provider's instances
// share this memo, so the second plan of one command reuses the first one's answer
// instead of sending the query to the service again (28 of 221 requests of a 10%-changed
// apply at N=1000 in the bench).
//
// Only passes are kept: a failed check is asked again, so a fix shows at the next plan.
// Only checks whose answer depends on their values alone are kept (a compiled query:
// unknown fields and datasets are not errors), not those that read the organization's
// objects (does the role exist?); a pass is still kept only for a while.

/** Long enough for the plan and apply walks of one command at N=5000 (about 2 minutes). */
const PASSED_CHECK_TTL_MS = 5 * 60_000;

/** Bounds the memory of a long-lived served provider: the oldest passes go first. */
const PASSED_CHECKS_MAX = 10_000;

export class PassedChecks {
  /** Key -> when it passed; insertion order is age order (a pass is re-inserted when renewed). */
  private readonly passedAt = new Map<string, number>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly ttlMs = PASSED_CHECK_TTL_MS,
    private readonly max = PASSED_CHECKS_MAX,
  ) {}

  /** True when the same check passed less than the TTL ago. */
  passed(key: string): boolean {
    const at = this.passedAt.get(key);
    if (at === undefined) return false;
    if (this.now() - at < this.ttlMs) return true;
    this.passedAt.delete(key);
    return false;
  }

  remember(key: string): void {
    this.passedAt.delete(key);
    this.passedAt.set(key, this.now());
    if (this.passedAt.size > this.max) {
      const oldest = this.passedAt.keys().next();
      if (!oldest.done) this.passedAt.delete(oldest.value);
    }
  }

  get size(): number {
    return this.passedAt.size;
  }
}
