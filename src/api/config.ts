// Client settings: explicit options first, else the environment (ODS_URL, ODS_TOKEN,
// ODS_ORG_ID), else defaults. Errors name the setting and never echo its value.
import { OdsConfigError } from "./errors";

/** One HTTP attempt, for progress and debug logs: never the token or a body. */
export interface RequestEvent {
  method: string;
  /** Path and query string (the client puts no secret in either). */
  path: string;
  /** HTTP status, or 0 when no answer came. */
  status: number;
  durationMs: number;
  /** 1 for the first attempt, 2 for the first retry, ... */
  attempt: number;
}

export interface OdsClientConfig {
  /** Base address, without a trailing slash. */
  url: string;
  token: string;
  /** Sent as X-ODS-Org-ID when set. */
  orgId?: string;
  /** Client-side ceiling; lowered further by the service's X-RateLimit-Limit. */
  rateLimitPerSecond?: number;
  /** Per attempt, from sending to the end of the answer's body. */
  timeoutMs: number;
  /** Retries after the first attempt. */
  maxRetries: number;
  /** Longest total time one call may spend waiting between attempts. */
  maxRetryWaitMs: number;
  userAgent: string;
  onRequest?: (event: RequestEvent) => void;
}

export type OdsClientOptions = Partial<OdsClientConfig>;

export const DEFAULTS = {
  timeoutMs: 30_000,
  // Eight: a burst of five 429s (or a few 503s in a row) must not fail a call.
  maxRetries: 8,
  maxRetryWaitMs: 60_000,
  userAgent: "cdktf-provider-ods",
} as const;

// Configs this module produced: the client takes them as they are instead of resolving
// again (which would pick ODS_ORG_ID from the environment over a deliberate "no org").
const resolved = new WeakSet<OdsClientConfig>();

export function isResolvedConfig(value: OdsClientOptions): value is OdsClientConfig {
  return resolved.has(value as OdsClientConfig);
}

function positive(value: number | undefined, setting: string, integer: boolean, allowZero = false): number | undefined {
  if (value === undefined) return undefined;
  const ok = Number.isFinite(value) && (allowZero ? value >= 0 : value > 0) && (!integer || Number.isInteger(value));
  if (!ok) throw new OdsConfigError(setting, `${setting} must be ${integer ? "a whole number" : "a number"} ${allowZero ? ">= 0" : "> 0"}, got ${value}`);
  return value;
}

function baseUrl(raw: string): string {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    // The value is not echoed: a mistyped variable may well hold the token.
    throw new OdsConfigError("ODS_URL", "the service URL (ODS_URL or the url option) is not a valid URL");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new OdsConfigError("ODS_URL", `the service URL must use http or https, not ${parsed.protocol.replace(/:$/, "")}`);
  }
  if (parsed.username || parsed.password) {
    throw new OdsConfigError("ODS_URL", "the service URL must not carry credentials; pass the token as ODS_TOKEN or the token option");
  }
  if (parsed.search || parsed.hash) {
    throw new OdsConfigError("ODS_URL", "the service URL must not carry a query string or fragment");
  }
  return raw.replace(/\/+$/, "");
}

export function resolveClientConfig(options: OdsClientOptions = {}, env: NodeJS.ProcessEnv = process.env): OdsClientConfig {
  if (isResolvedConfig(options)) return options;
  const url = options.url || env.ODS_URL;
  const token = options.token || env.ODS_TOKEN;
  if (!url) throw new OdsConfigError("ODS_URL", "no service URL: set ODS_URL or pass the url option");
  if (!token) throw new OdsConfigError("ODS_TOKEN", "no API token: set ODS_TOKEN or pass the token option");
  if (/\s/.test(token)) throw new OdsConfigError("ODS_TOKEN", "the API token contains whitespace (a stray newline or a \"Bearer \" prefix?)");
  const config: OdsClientConfig = {
    url: baseUrl(url),
    token,
    timeoutMs: positive(options.timeoutMs, "timeoutMs", false) ?? DEFAULTS.timeoutMs,
    maxRetries: positive(options.maxRetries, "maxRetries", true, true) ?? DEFAULTS.maxRetries,
    maxRetryWaitMs: positive(options.maxRetryWaitMs, "maxRetryWaitMs", false, true) ?? DEFAULTS.maxRetryWaitMs,
    userAgent: options.userAgent || DEFAULTS.userAgent,
  };
  const orgId = options.orgId || env.ODS_ORG_ID;
  if (orgId) config.orgId = orgId;
  const rate = positive(options.rateLimitPerSecond, "rateLimitPerSecond", false);
  if (rate !== undefined) config.rateLimitPerSecond = rate;
  if (options.onRequest) config.onRequest = options.onRequest;
  resolved.add(config);
  return Object.freeze(config);
}
