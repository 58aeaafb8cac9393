// Client settings from options, else the environment (ODS_URL, ODS_TOKEN, ODS_ORG_ID).
import { OdsApiError } from "./errors";

export interface OdsClientConfig {
  url: string;
  token: string;
  orgId?: string;
  /** Client-side limit; the organization's apiRateLimitPerSecond when known. */
  rateLimitPerSecond?: number;
  timeoutMs: number;
  maxRetries: number;
  /** Longest total wait for retries of one request. */
  maxRetryWaitMs: number;
  userAgent: string;
  onRequest?: (event: RequestEvent) => void;
}

export interface RequestEvent {
  method: string;
  path: string;
  status: number;
  durationMs: number;
  attempt: number;
}

export type OdsClientOptions = Partial<OdsClientConfig>;

export function resolveClientConfig(options: OdsClientOptions = {}, env: NodeJS.ProcessEnv = process.env): OdsClientConfig {
  const url = options.url ?? env.ODS_URL;
  const token = options.token ?? env.ODS_TOKEN;
  const missing = (what: string, variable: string): OdsApiError =>
    new OdsApiError({ kind: "config", status: 0, message: `no ${what}: set ${variable} or pass it explicitly`, method: "", path: "" });
  if (!url) throw missing("service URL", "ODS_URL");
  if (!token) throw missing("API token", "ODS_TOKEN");
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new OdsApiError({ kind: "config", status: 0, message: `the service URL "${url}" is not a URL`, method: "", path: "" });
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new OdsApiError({ kind: "config", status: 0, message: `the service URL must be http(s), got "${parsed.protocol}"`, method: "", path: "" });
  }
  return {
    url: url.replace(/\/+$/, ""),
    token,
    orgId: options.orgId ?? (env.ODS_ORG_ID || undefined),
    rateLimitPerSecond: options.rateLimitPerSecond,
    timeoutMs: options.timeoutMs ?? 30_000,
    maxRetries: options.maxRetries ?? 5,
    maxRetryWaitMs: options.maxRetryWaitMs ?? 60_000,
    userAgent: options.userAgent ?? "cdktf-provider-ods",
    onRequest: options.onRequest,
  };
}
