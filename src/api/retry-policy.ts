// When a failed attempt is tried again, and after how long. Pure functions, so the policy
// is tested without a network:
// - GET, PUT and DELETE are idempotent: retried on 5xx and on network errors and timeouts;
// - a POST is never sent again once it may have reached the service (a 5xx answer
//   included): creating twice is worse than failing, and the caller can list and adopt;
// - a connection that was never established (refused, DNS) is not retried: nobody listens
//   at that address, and waiting will not change it; the caller names the URL at once;
// - a 429 means nothing was done: any method waits for Retry-After / X-RateLimit-Reset;
// - a 503 says the request was not processed: any method retries after a backoff;
// - a failure a retry cannot change (the server's certificate refused) is not retried.

export type Method = "GET" | "POST" | "PUT" | "DELETE";

export type Headers = Record<string, string | string[] | undefined>;

/** What one attempt came to. */
export type AttemptOutcome =
  | { answered: true; status: number; headers: Headers }
  /**
   * `sent`: the request may have left the client (false only when no connection was made).
   * `final`: trying again cannot change the outcome (the server's certificate is refused).
   */
  | { answered: false; sent: boolean; final?: boolean };

const IDEMPOTENT: ReadonlySet<Method> = new Set<Method>(["GET", "PUT", "DELETE"]);

export function isIdempotent(method: Method): boolean {
  return IDEMPOTENT.has(method);
}

export const BACKOFF_BASE_MS = 200;
export const BACKOFF_CAP_MS = 5_000;
/** Floor for rate-limit waits, so that a reset "now" does not spin. */
export const MIN_RATE_LIMIT_WAIT_MS = 50;
/** Wait after a 429 that names no time. */
export const DEFAULT_RATE_LIMIT_WAIT_MS = 1_000;

/** Full-jitter exponential backoff before retry number `retry` (1, 2, ...): uniform in [0, min(cap, base * 2^(retry-1))). */
export function backoffMs(retry: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, retry - 1));
  return Math.floor(random() * ceiling);
}

function header(headers: Headers, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** How long a 429 asks to wait: Retry-After (seconds or an HTTP date), else until X-RateLimit-Reset (epoch seconds). */
export function retryAfterMs(headers: Headers, now: number): number {
  const after = header(headers, "retry-after")?.trim();
  if (after) {
    const seconds = Number(after);
    if (Number.isFinite(seconds) && seconds >= 0) return Math.max(seconds * 1000, MIN_RATE_LIMIT_WAIT_MS);
    const date = Date.parse(after);
    if (Number.isFinite(date)) return Math.max(date - now, MIN_RATE_LIMIT_WAIT_MS);
  }
  const reset = Number(header(headers, "x-ratelimit-reset"));
  if (Number.isFinite(reset) && reset > 0) return Math.max(reset * 1000 - now, MIN_RATE_LIMIT_WAIT_MS);
  return DEFAULT_RATE_LIMIT_WAIT_MS;
}

/** Milliseconds to wait before trying again, or undefined when the attempt must not be repeated. */
export function retryDelayMs(method: Method, outcome: AttemptOutcome, retry: number, now: number, random: () => number = Math.random): number | undefined {
  if (outcome.answered) {
    if (outcome.status === 429) return retryAfterMs(outcome.headers, now);
    // 503 says the request was not processed: sending it again cannot create twice.
    if (outcome.status === 503) return backoffMs(retry, random);
    if (outcome.status >= 500 && isIdempotent(method)) return backoffMs(retry, random);
    return undefined;
  }
  if (outcome.final || !outcome.sent) return undefined;
  if (isIdempotent(method)) return backoffMs(retry, random);
  return undefined;
}

/**
 * Whether a write may have been applied although it failed: the outcome is unknown when
 * no answer came after sending, or when the service failed after accepting it (500, 502,
 * 504; a 503 and a 501 say it was not processed). GETs change nothing.
 */
export function mayHaveBeenApplied(method: Method, outcome: AttemptOutcome): boolean {
  if (method === "GET") return false;
  if (!outcome.answered) return outcome.sent;
  return outcome.status >= 500 && outcome.status !== 503 && outcome.status !== 501;
}
