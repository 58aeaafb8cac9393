// The typed client of the Observability Data Service.
export { OdsClient, STARRED_QUERY_PAGE, type AplFormat, type AplQueryOptions } from "./client";
export { DEFAULTS, resolveClientConfig, type OdsClientConfig, type OdsClientOptions, type RequestEvent } from "./config";
export { OdsApiError, OdsConfigError, type ApiErrorKind } from "./errors";
export { RateLimiter, realClock, WINDOW_SAFETY_MS, type Clock } from "./rate-limiter";
export { backoffMs, retryAfterMs, retryDelayMs, mayHaveBeenApplied, type Method } from "./retry-policy";
export { tabularRows, type TabularRow } from "./tabular";
export type { ClientStats, TransportDeps } from "./transport";
export * from "./types";
export * from "./observe-types";
