// The typed client of the Observability Data Service.
export { OdsClient, tabularRows, type AplQueryOptions } from "./client";
export { resolveClientConfig, type OdsClientConfig, type OdsClientOptions, type RequestEvent } from "./config";
export { OdsApiError, type ApiErrorKind } from "./errors";
export { RateLimiter, realClock, type Clock } from "./rate-limiter";
export { backoffMs, retryAfterMs, type ClientStats, type Method } from "./transport";
export * from "./types";
