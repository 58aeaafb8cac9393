// One call with the client's policy: rate limiting, a per-attempt timeout, retries as
// decided by retry-policy.ts, and errors that carry no secret. HTTP goes over a
// keep-alive pool (http-exchange.ts): a plan issues hundreds of small calls to one origin.
import type * as http from "node:http";
import type { OdsClientConfig, RequestEvent } from "./config";
import { OdsApiError, redact, redactDeep, secretsIn } from "./errors";
import { certificateRefused, ExchangeFailure, exchange, keepAliveAgent } from "./http-exchange";
import { RateLimiter, realClock, type Clock } from "./rate-limiter";
import { mayHaveBeenApplied, retryAfterMs, retryDelayMs, type AttemptOutcome, type Headers, type Method } from "./retry-policy";
import type { ErrorBody } from "./types";

export interface ClientStats {
  /** HTTP attempts, retries included. */
  requests: number;
  retries: number;
  /** 429 answers received. */
  rateLimited429: number;
  /** HTTP attempts per method. */
  byMethod: Record<string, number>;
}

export type QueryParams = Record<string, string | number | boolean | undefined>;

export interface CallOptions {
  query?: QueryParams;
  body?: unknown;
  /** A POST that changes nothing (a query): retried like a GET. */
  readOnly?: boolean;
}

export interface TransportDeps {
  clock?: Clock;
  /** Jitter source in [0, 1). */
  random?: () => number;
  /**
   * A limiter shared with other clients of the same organization in this process, so that
   * together they keep under its one budget.
   */
  limiter?: RateLimiter;
}

type Attempt =
  | { answered: true; status: number; headers: Headers; text: string }
  /** `final`: trying again cannot help (the server's certificate is refused). */
  | { answered: false; sent: boolean; timedOut: boolean; final: boolean; reason: string };

/** True when no connection was made, so nothing can have reached the service. */
function neverConnected(err: unknown): boolean {
  return err instanceof ExchangeFailure && !err.connected;
}

function firstHeader(headers: Headers, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function queryString(query: QueryParams | undefined): string {
  const pairs = Object.entries(query ?? {})
    .filter(([, v]) => v !== undefined && v !== "")
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  return pairs.length ? `?${pairs.join("&")}` : "";
}

export class Transport {
  readonly limiter: RateLimiter;
  readonly counters: ClientStats = { requests: 0, retries: 0, rateLimited429: 0, byMethod: {} };
  private agent?: http.Agent;
  /** Set by close(): nothing more is sent. */
  private closed = false;
  private readonly clock: Clock;
  private readonly random: () => number;
  /** The lowest of: configured, organization record, X-RateLimit-Limit. */
  private readonly limits: { configured?: number; organization?: number; advertised?: number } = {};

  constructor(private readonly config: OdsClientConfig, deps: TransportDeps = {}) {
    this.clock = deps.clock ?? realClock;
    this.random = deps.random ?? Math.random;
    this.limits.configured = config.rateLimitPerSecond;
    this.limiter = deps.limiter ?? new RateLimiter(config.rateLimitPerSecond, this.clock);
  }

  /** The limit the client keeps under now, if any. */
  get rateLimitPerSecond(): number | undefined {
    return this.limiter.rate;
  }

  setOrganizationLimit(perSecond: number): void {
    this.limits.organization = perSecond;
    this.applyLimits();
  }

  private applyLimits(): void {
    const known = [this.limits.configured, this.limits.organization, this.limits.advertised].filter(
      (v): v is number => v !== undefined && v > 0,
    );
    this.limiter.setRate(known.length ? Math.min(...known) : undefined);
  }

  private headers(hasBody: boolean): Record<string, string> {
    const h: Record<string, string> = {
      authorization: `Bearer ${this.config.token}`,
      accept: "application/json",
      "user-agent": this.config.userAgent,
    };
    if (hasBody) h["content-type"] = "application/json";
    if (this.config.orgId) h["x-ods-org-id"] = this.config.orgId;
    return h;
  }

  async send<T>(method: Method, path: string, options: CallOptions = {}): Promise<T> {
    const target = `${path}${queryString(options.query)}`;
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    // Whatever the service echoes back, these never reach an error or a log.
    const secrets = secretsIn(options.body);
    secrets.add(this.config.token);
    let waitedMs = 0;
    let ambiguous = false; // an earlier attempt of this call may have been applied
    for (let attempt = 1; ; attempt++) {
      await this.limiter.acquire();
      this.counters.requests++;
      this.counters.byMethod[method] = (this.counters.byMethod[method] ?? 0) + 1;
      const started = this.clock.now();
      const result = await this.attempt(method, target, payload);
      this.emit({ method, path: target, status: result.answered ? result.status : 0, durationMs: this.clock.now() - started, attempt });

      // Policy decisions see a read-only POST as the read it is.
      const policyMethod: Method = options.readOnly ? "GET" : method;
      const settled = this.settle(method, target, result, secrets, ambiguous, started);
      if (settled.done) return settled.value as T;
      const { outcome, failure } = settled;
      ambiguous = failure.requestMayHaveBeenApplied;

      const delay = retryDelayMs(policyMethod, outcome, attempt, this.clock.now(), this.random);
      if (delay === undefined || attempt > this.config.maxRetries || waitedMs + delay > this.config.maxRetryWaitMs) throw failure;
      waitedMs += delay;
      this.counters.retries++;
      await this.clock.sleep(delay);
    }
  }

  /** What an attempt means: the call's value, or the failure and what the policy needs to know. */
  private settle(method: Method, target: string, result: Attempt, secrets: Set<string>, ambiguous: boolean, sentAt: number):
    | { done: true; value: unknown }
    | { done: false; outcome: AttemptOutcome; failure: OdsApiError } {
    if (!result.answered) {
      const outcome: AttemptOutcome = { answered: false, sent: result.sent, final: result.final };
      const failure = new OdsApiError({
        kind: result.timedOut ? "timeout" : "network",
        status: 0,
        message: redact(result.reason, secrets),
        method,
        path: target,
        requestMayHaveBeenApplied: ambiguous || mayHaveBeenApplied(method, outcome),
      });
      return { done: false, outcome, failure };
    }
    const outcome: AttemptOutcome = { answered: true, status: result.status, headers: result.headers };
    this.observeRateHeaders(result.headers, sentAt);
    if (result.status >= 200 && result.status < 300) {
      if (!result.text) return { done: true, value: undefined };
      try {
        return { done: true, value: JSON.parse(result.text) };
      } catch {
        // Not retried: a write behind it has been applied, and a read would answer the same.
        throw new OdsApiError({
          kind: "http", status: result.status, message: "the answer is not JSON", method, path: target,
          requestMayHaveBeenApplied: method !== "GET",
        });
      }
    }
    // A retried DELETE whose first try may have landed: "not found" means it did.
    if (method === "DELETE" && result.status === 404 && ambiguous) return { done: true, value: undefined };
    if (result.status === 429) {
      this.counters.rateLimited429++;
      // Calls in flight or still to come hold too: the budget is the whole organization's.
      // Bounded, so that a Retry-After of an hour fails the next calls fast instead of hanging them.
      const hold = Math.min(retryAfterMs(result.headers, this.clock.now()), this.config.maxRetryWaitMs);
      this.limiter.pauseUntil(this.clock.now() + hold);
    }
    const failure = this.httpError(method, target, result.status, result.text, secrets, ambiguous || mayHaveBeenApplied(method, outcome));
    return { done: false, outcome, failure };
  }

  private async attempt(method: Method, target: string, payload: string | undefined): Promise<Attempt> {
    // A closed client sends nothing more: calls still queued, or about to retry, when its
    // user went away (a provider session whose Terraform was killed) end here, as they
    // would have in a killed process.
    if (this.closed) return { answered: false, sent: false, timedOut: false, final: true, reason: "the client was closed" };
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.config.timeoutMs);
    try {
      this.agent ??= keepAliveAgent(this.config.url, 16, 10_000);
      const res = await exchange(`${this.config.url}${target}`, {
        method,
        headers: this.headers(payload !== undefined),
        body: payload,
        agent: this.agent,
        signal: controller.signal,
      });
      return { answered: true, status: res.status, headers: res.headers, text: res.text };
    } catch (err) {
      if (controller.signal.aborted) {
        return { answered: false, sent: true, timedOut: true, final: false, reason: `no answer within ${this.config.timeoutMs} ms` };
      }
      const sent = !neverConnected(err);
      const what = sent ? "the connection failed" : "could not connect";
      const code = err instanceof ExchangeFailure ? err.code : undefined;
      const why = [code, err instanceof Error ? err.message : undefined].filter(Boolean).join(": ");
      return { answered: false, sent, timedOut: false, final: certificateRefused(err), reason: `${what} (${why || "unknown error"})` };
    } finally {
      clearTimeout(timer);
    }
  }

  private httpError(method: Method, target: string, status: number, text: string, secrets: Set<string>, applied: boolean): OdsApiError {
    let body: Partial<ErrorBody> = {};
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) body = parsed as Partial<ErrorBody>;
    } catch {
      // Not the service's JSON (a proxy's page, say): keep a short excerpt as the message.
      body = { message: text.trim().slice(0, 200) };
    }
    const message = typeof body.message === "string" && body.message ? body.message : `HTTP ${status}`;
    const code = typeof body.code === "number" || typeof body.code === "string" ? body.code : undefined;
    return new OdsApiError({
      kind: "http",
      status,
      code,
      message: redact(message, secrets),
      method,
      path: target,
      detail: body.detail && typeof body.detail === "object" ? redactDeep(body.detail, secrets) : undefined,
      requestMayHaveBeenApplied: applied,
    });
  }

  /** Follows the service's advertised limit, and holds all calls when its window is spent. */
  private observeRateHeaders(headers: Headers, sentAt: number): void {
    const limit = Number(firstHeader(headers, "x-ratelimit-limit"));
    if (Number.isFinite(limit) && limit > 0 && limit !== this.limits.advertised) {
      this.limits.advertised = limit;
      this.applyLimits();
    }
    const remaining = firstHeader(headers, "x-ratelimit-remaining");
    const reset = Number(firstHeader(headers, "x-ratelimit-reset"));
    if (Number.isInteger(reset) && reset > 0) this.limiter.observeServiceWindow(reset, sentAt, this.clock.now());
    if (remaining !== undefined && remaining !== "" && Number(remaining) <= 0 && Number.isFinite(reset) && reset > 0) {
      // Bounded by one window: a skewed server clock must not stall the client for long.
      const now = this.clock.now();
      const windowMs = this.limiter.window()?.windowMs ?? 1000;
      this.limiter.pauseUntil(Math.min(reset * 1000, now + windowMs));
    }
  }

  private emit(event: RequestEvent): void {
    try {
      this.config.onRequest?.(event);
    } catch {
      // A logging hook must not turn a successful call into a failure.
    }
  }

  close(): Promise<void> {
    this.closed = true;
    this.agent?.destroy();
    this.agent = undefined;
    return Promise.resolve();
  }
}
