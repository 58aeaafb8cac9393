// The watcher's Prometheus metrics, through prom-client (its own registry: only what is
// listed here is exposed, in the text format `promtool check metrics` accepts).
import { Counter, Gauge, Histogram, Registry } from "./prom-driver";
import type { RoundResult } from "./status";

/** Every metric's prefix, the command's name. */
const PREFIX = "ods";

export class WatchMetrics {
  readonly registry = new Registry();
  private readonly reconciles: Counter<"stack" | "result">;
  private readonly duration: Histogram<"stack">;
  private readonly drifted: Gauge<"stack">;
  private readonly pending: Gauge<"stack">;
  private readonly lastSuccess: Gauge<"stack">;
  private readonly requests: Counter<"status">;
  private readonly roundRequests: Gauge<"stack">;
  private readonly rounds: Counter<"result">;

  constructor() {
    const registers = [this.registry];
    this.reconciles = new Counter({ name: `${PREFIX}_reconcile_total`, help: "Stack reconciliations by result.", labelNames: ["stack", "result"], registers });
    this.duration = new Histogram({
      name: `${PREFIX}_reconcile_duration_seconds`,
      help: "Time to reconcile one stack: refresh, plan and, when needed, apply.",
      labelNames: ["stack"],
      buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
      registers,
    });
    this.drifted = new Gauge({ name: `${PREFIX}_drifted_objects`, help: "Objects changed outside the configuration, as last seen.", labelNames: ["stack"], registers });
    this.pending = new Gauge({ name: `${PREFIX}_pending_plans`, help: "Saved plans waiting for approval (ods apply FILE).", labelNames: ["stack"], registers });
    this.lastSuccess = new Gauge({
      name: `${PREFIX}_last_reconcile_success_timestamp_seconds`,
      help: "When the stack last reconciled without error (Unix time).",
      labelNames: ["stack"],
      registers,
    });
    this.requests = new Counter({ name: `${PREFIX}_api_requests_total`, help: "HTTP requests to the service by status code (0: no answer).", labelNames: ["status"], registers });
    this.roundRequests = new Gauge({ name: `${PREFIX}_round_api_requests`, help: "HTTP requests the stack's last round sent.", labelNames: ["stack"], registers });
    this.rounds = new Counter({ name: `${PREFIX}_watch_rounds_total`, help: "Rounds (fetch, synthesis, every stack) by result.", labelNames: ["result"], registers });
  }

  /** Makes a stack's series exist (at 0) before its first round, so that absence means something. */
  declareStack(stack: string): void {
    this.drifted.set({ stack }, 0);
    this.pending.set({ stack }, 0);
  }

  stackReconciled(stack: string, result: RoundResult, seconds: number, requests: number): void {
    this.reconciles.inc({ stack, result });
    this.duration.observe({ stack }, seconds);
    this.roundRequests.set({ stack }, requests);
    if (result !== "failed" && result !== "skipped") this.lastSuccess.set({ stack }, Math.floor(Date.now() / 1000));
  }

  setDrifted(stack: string, objects: number): void {
    this.drifted.set({ stack }, objects);
  }

  setPending(stack: string, plans: number): void {
    this.pending.set({ stack }, plans);
  }

  apiRequest(status: number): void {
    this.requests.inc({ status: String(status) });
  }

  round(ok: boolean): void {
    this.rounds.inc({ result: ok ? "ok" : "failed" });
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
