// The loop of `ods watch`: a round every interval (with jitter), each fetching the
// branch, synthesizing when it moved, and reconciling every selected stack in dependency
// order; failed rounds back off exponentially. Stopping (SIGTERM, SIGINT) ends the
// current round at the next stack or wait, never in the middle of a state write.
import { formatEvent, formatStackLine, type LogFormat } from "./log";
import type { WatchMetrics } from "./metrics";
import { reconcileStack, WatchStopped, type StackRoundOutcome, type WatchedStack } from "./reconcile-stack";
import { nextDelay, type Schedule } from "./schedule";
import { newStackStatus, RECENT_ROUNDS, type StackStatus, type WatchStatus } from "./status";

/** One round's view of the source: the commit, and its stacks loaded and ready. */
export interface OpenedRound {
  revision: string;
  stacks: WatchedStack[];
  /** Releases what the round opened (state stores, connections). */
  close(): Promise<void>;
}

export interface RoundSource {
  /** Fetches the branch, synthesizes when needed, loads the selected stacks. */
  open(signal: AbortSignal): Promise<OpenedRound>;
}

export interface WatcherOptions {
  source: RoundSource;
  schedule: Schedule;
  onChange: "apply" | "plan";
  onDrift: "report" | "correct";
  annotate: boolean;
  lockTimeoutMs: number;
  metrics: WatchMetrics;
  logFormat: LogFormat;
  /** Where log lines go (one per round and stack). */
  write: (line: string) => void;
  sourceName: string;
  branch: string;
  random?: () => number;
  /** Applied to every error before it is logged or served (the source's credentials hidden). */
  redact?: (text: string) => string;
}

/** Resolves after `ms`, or at once when the signal aborts. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export class Watcher {
  private readonly stacks = new Map<string, StackStatus>();
  private readonly state: WatchStatus;
  private failures = 0;
  private roundsDone = 0;

  constructor(private readonly o: WatcherOptions) {
    this.state = { source: o.sourceName, branch: o.branch, revision: null, lastRoundAt: null, lastRoundError: null, nextRoundAt: null, stacks: [] };
  }

  status(): WatchStatus {
    return { ...this.state, stacks: [...this.stacks.values()] };
  }

  /** True once a round has planned every stack without failing to open. */
  get ready(): boolean {
    return this.roundsDone > 0;
  }

  /** Rounds until the signal aborts; the round running then ends first. */
  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      const ok = await this.round(signal);
      if (signal.aborted) break;
      this.failures = ok ? 0 : this.failures + 1;
      const delay = nextDelay(this.o.schedule, this.failures, this.o.random);
      this.state.nextRoundAt = new Date(Date.now() + delay).toISOString();
      if (!ok) this.event("backoff", `round failed; next round in ${(delay / 1000).toFixed(1)} s`, { failures: this.failures });
      await abortableSleep(delay, signal);
    }
  }

  private errorText(e: unknown): string {
    const text = errorText(e);
    return this.o.redact ? this.o.redact(text) : text;
  }

  private event(event: string, message: string, extra?: Record<string, unknown>): void {
    this.o.write(formatEvent(this.o.logFormat, event, message, extra));
  }

  /** One round; answers whether every stack reconciled. */
  async round(signal: AbortSignal): Promise<boolean> {
    this.state.lastRoundAt = new Date().toISOString();
    let opened: OpenedRound;
    try {
      opened = await this.o.source.open(signal);
    } catch (e) {
      if (signal.aborted) return false;
      this.state.lastRoundError = this.errorText(e);
      this.o.metrics.round(false);
      this.event("round_failed", this.errorText(e));
      return false;
    }
    this.state.revision = opened.revision;
    let ok = true;
    try {
      const failed = new Set<string>();
      for (const stack of opened.stacks) {
        if (signal.aborted) break;
        const status = this.statusOf(stack.name);
        const blocker = stack.dependsOn.find((d) => failed.has(d));
        if (blocker) {
          failed.add(stack.name);
          ok = false;
          this.record(stack, status, opened.revision, { result: "skipped", changes: 0, drifted: status.drifted, pending: status.pendingPlan, message: `stack ${blocker} failed in this round` }, 0, 0);
          continue;
        }
        const started = Date.now();
        const requestsBefore = stack.requests();
        try {
          const outcome = await reconcileStack(stack, {
            revision: opened.revision,
            onChange: this.o.onChange,
            onDrift: this.o.onDrift,
            annotate: this.o.annotate,
            lockTimeoutMs: this.o.lockTimeoutMs,
            pending: status.pendingPlan,
            previousDrift: status.drifted,
            signal,
            sleep: abortableSleep,
            event: (ev, message, extra) => this.event(ev, message, extra),
          });
          this.record(stack, status, opened.revision, outcome, (Date.now() - started) / 1000, stack.requests() - requestsBefore);
        } catch (e) {
          if (e instanceof WatchStopped) break;
          failed.add(stack.name);
          ok = false;
          this.record(stack, status, opened.revision, { result: "failed", changes: 0, drifted: status.drifted, pending: status.pendingPlan, message: this.errorText(e) }, (Date.now() - started) / 1000, stack.requests() - requestsBefore);
        }
      }
    } finally {
      await opened.close().catch((e: unknown) => this.event("close_failed", this.errorText(e)));
    }
    if (!signal.aborted) {
      this.roundsDone++;
      this.state.lastRoundError = ok ? null : "a stack failed (see its lastReconcile)";
      this.o.metrics.round(ok);
    }
    return ok;
  }

  private statusOf(name: string): StackStatus {
    let s = this.stacks.get(name);
    if (!s) {
      s = newStackStatus(name);
      this.stacks.set(name, s);
      this.o.metrics.declareStack(name);
    }
    return s;
  }

  private record(
    stack: WatchedStack,
    status: StackStatus,
    revision: string,
    outcome: StackRoundOutcome,
    seconds: number,
    requests: number,
  ): void {
    const at = new Date().toISOString();
    const failed = outcome.result === "failed" || outcome.result === "skipped";
    status.lastReconcile = {
      at,
      result: outcome.result,
      durationSeconds: seconds,
      requests,
      changes: outcome.changes,
      drifted: outcome.drifted.length,
      ...(failed && outcome.message ? { error: outcome.message } : {}),
    };
    status.recentRounds = [status.lastReconcile, ...status.recentRounds].slice(0, RECENT_ROUNDS);
    if (!failed) {
      status.revision = revision;
      status.lastSuccessAt = at;
      status.failures = 0;
    } else status.failures++;
    status.drifted = outcome.drifted;
    status.pendingPlan = outcome.pending;
    this.o.metrics.stackReconciled(stack.name, outcome.result, seconds, requests);
    this.o.metrics.setDrifted(stack.name, outcome.result === "drift_corrected" ? 0 : outcome.drifted.length);
    this.o.metrics.setPending(stack.name, outcome.pending ? 1 : 0);
    if (outcome.result === "drift_corrected") status.drifted = [];
    this.o.write(
      formatStackLine(this.o.logFormat, {
        stack: stack.name,
        revision,
        result: outcome.result,
        durationSeconds: seconds,
        requests,
        changes: outcome.changes,
        drifted: outcome.drifted,
        message: outcome.message,
        planFile: outcome.pending?.file,
      }),
    );
  }
}
