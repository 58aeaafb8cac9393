// One request with the client's policy: rate limiting, per-request timeout, retries with
// exponential backoff and full jitter on 5xx and network errors for idempotent methods
// (GET, PUT, DELETE), waiting out 429s, and never blindly re-sending a POST.
import { Agent, errors as undiciErrors, request } from "undici";
import type { OdsClientConfig } from "./config";
import { OdsApiError } from "./errors";
import { RateLimiter, realClock, type Clock } from "./rate-limiter";
import type { ErrorBody } from "./types";

export type Method = "GET" | "POST" | "PUT" | "DELETE";

export interface ClientStats {
  requests: number;
  retries: number;
  rateLimited429: number;
  byMethod: Record<string, number>;
}

const IDEMPOTENT = new Set<Method>(["GET", "PUT", "DELETE"]);

/** Full-jitter exponential backoff: uniform in [0, min(cap, base * 2^attempt)]. */
export function backoffMs(attempt: number, random: () => number = Math.random, base = 200, cap = 5000): number {
  return Math.floor(random() * Math.min(cap, base * 2 ** attempt));
}

/** How long a 429 asks to wait: Retry-After seconds, else until X-RateLimit-Reset. */
export function retryAfterMs(headers: Record<string, string | string[] | undefined>, now: number): number {
  const first = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);
  const after = Number(first(headers["retry-after"]));
  if (Number.isFinite(after) && after >= 0) return Math.max(after * 1000, 50);
  const reset = Number(first(headers["x-ratelimit-reset"]));
  if (Number.isFinite(reset) && reset > 0) return Math.max(reset * 1000 - now, 50);
  return 1000;
}

function isConnectRefusal(err: unknown): boolean {
  const code = (err as { code?: string }).code;
  return code === "ECONNREFUSED" || code === "ENOTFOUND" || code === "EAI_AGAIN" || err instanceof undiciErrors.ConnectTimeoutError;
}

export class Transport {
  readonly limiter: RateLimiter;
  private readonly agent = new Agent({ keepAliveTimeout: 10_000, connections: 16 });
  readonly counters: ClientStats = { requests: 0, retries: 0, rateLimited429: 0, byMethod: {} };

  constructor(private readonly config: OdsClientConfig, private readonly clock: Clock = realClock) {
    this.limiter = new RateLimiter(config.rateLimitPerSecond, clock);
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

  async send<T>(method: Method, path: string, body?: unknown, query?: Record<string, string | number | undefined>): Promise<T> {
    const qs = Object.entries(query ?? {})
      .filter(([, v]) => v !== undefined && v !== "")
      .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
      .join("&");
    const url = `${this.config.url}${path}${qs ? `?${qs}` : ""}`;
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const started = this.clock.now();
    for (let attempt = 0; ; attempt++) {
      await this.limiter.acquire();
      this.counters.requests++;
      this.counters.byMethod[method] = (this.counters.byMethod[method] ?? 0) + 1;
      const t0 = this.clock.now();
      let status = 0;
      let retryWait: number | undefined;
      let failure: OdsApiError;
      try {
        const res = await request(url, {
          method,
          headers: this.headers(payload !== undefined),
          body: payload,
          dispatcher: this.agent,
          headersTimeout: this.config.timeoutMs,
          bodyTimeout: this.config.timeoutMs,
        });
        status = res.statusCode;
        const text = await res.body.text();
        this.config.onRequest?.({ method, path, status, durationMs: this.clock.now() - t0, attempt });
        this.adaptRate(res.headers);
        if (status >= 200 && status < 300) return (text ? JSON.parse(text) : undefined) as T;
        let parsed: Partial<ErrorBody> = {};
        try {
          parsed = JSON.parse(text) as ErrorBody;
        } catch {
          parsed = { message: text.slice(0, 200) || `HTTP ${status}` };
        }
        failure = new OdsApiError({
          kind: "http", status, code: parsed.code, message: parsed.message ?? `HTTP ${status}`, method, path, detail: parsed.detail,
        });
        if (status === 429) {
          this.counters.rateLimited429++;
          retryWait = retryAfterMs(res.headers, this.clock.now());
        } else if (status >= 500 && IDEMPOTENT.has(method)) {
          retryWait = backoffMs(attempt);
        }
      } catch (err) {
        const timedOut = err instanceof undiciErrors.HeadersTimeoutError || err instanceof undiciErrors.BodyTimeoutError;
        const sent = !isConnectRefusal(err);
        this.config.onRequest?.({ method, path, status: 0, durationMs: this.clock.now() - t0, attempt });
        failure = new OdsApiError({
          kind: timedOut ? "timeout" : "network",
          status: 0,
          message: timedOut ? `no answer within ${this.config.timeoutMs} ms` : `connection failed (${(err as { code?: string }).code ?? (err as Error).message})`,
          method,
          path,
          requestMayHaveBeenApplied: method !== "GET" && sent,
        });
        // A POST that may have been sent is never re-sent: the caller lists and adopts.
        if (IDEMPOTENT.has(method) || !sent) retryWait = backoffMs(attempt);
      }
      const elapsed = this.clock.now() - started;
      if (retryWait === undefined || attempt >= this.config.maxRetries || elapsed + retryWait > this.config.maxRetryWaitMs) throw failure;
      this.counters.retries++;
      await this.clock.sleep(retryWait);
    }
  }

  /** Follows the service's advertised limit when the caller set none. */
  private adaptRate(headers: Record<string, string | string[] | undefined>): void {
    if (this.config.rateLimitPerSecond) return;
    const limit = Number(Array.isArray(headers["x-ratelimit-limit"]) ? headers["x-ratelimit-limit"][0] : headers["x-ratelimit-limit"]);
    if (Number.isFinite(limit) && limit > 0 && this.limiter.rate !== limit) this.limiter.setRate(limit);
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
