// The one error type of the client. It carries what a user needs to act on a failure
// (status, the service's code and message, method and path, whether a write may have
// landed) and never the bearer token or a secret from the request body: such errors
// end up in CI logs, plan output and bug reports.
import type { QueryErrorDetail } from "./types";

/** `http`: the service answered with an error status; `network`: no answer; `timeout`: no answer in time. */
export type ApiErrorKind = "http" | "network" | "timeout";

export interface OdsApiErrorInit {
  kind: ApiErrorKind;
  status: number;
  code?: number | string;
  message: string;
  method: string;
  path: string;
  detail?: QueryErrorDetail;
  requestMayHaveBeenApplied?: boolean;
}

export class OdsApiError extends Error {
  readonly kind: ApiErrorKind;
  /** HTTP status, or 0 when no answer came. */
  readonly status: number;
  /** The `code` of the service's error body, when it sent one. */
  readonly code?: number | string;
  /** The `message` of the service's error body (or what went wrong on the wire), without context. */
  readonly serviceMessage: string;
  readonly method: string;
  /** The request path with its query string; the client never puts secrets in either. */
  readonly path: string;
  /** Where a query-language error is. */
  readonly detail?: QueryErrorDetail;
  /**
   * True for a write (POST, PUT, DELETE) that reached the service with an unknown outcome:
   * the connection failed or timed out after sending, or a 5xx other than 503 came back.
   * The caller lists and adopts rather than sending it again.
   */
  readonly requestMayHaveBeenApplied: boolean;

  constructor(init: OdsApiErrorInit) {
    const status = init.status ? `${init.status} ` : "";
    super(`${init.method} ${init.path}: ${status}${init.message}`);
    this.name = "OdsApiError";
    this.kind = init.kind;
    this.status = init.status;
    if (init.code !== undefined) this.code = init.code;
    this.serviceMessage = init.message;
    this.method = init.method;
    this.path = init.path;
    if (init.detail !== undefined) this.detail = init.detail;
    this.requestMayHaveBeenApplied = init.requestMayHaveBeenApplied ?? false;
  }

  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      kind: this.kind,
      status: this.status,
      code: this.code,
      message: this.serviceMessage,
      method: this.method,
      path: this.path,
      detail: this.detail,
      requestMayHaveBeenApplied: this.requestMayHaveBeenApplied,
    };
  }
}

/** A missing or invalid client setting; names the setting, never echoes a token. */
export class OdsConfigError extends Error {
  constructor(
    /** The option or environment variable at fault, e.g. `ODS_TOKEN`. */
    readonly setting: string,
    message: string,
  ) {
    super(message);
    this.name = "OdsConfigError";
  }
}

// Keys whose values the service treats as write-only secrets (docs/service-contract.md, section 6),
// plus the generic names a future secret would likely carry. Exact names, not /token/i:
// `apiTokens` (a capability) or `newTokenExpiresAt` hold nothing secret, and wiping
// "read" or a timestamp from every message would make errors unreadable.
const SECRET_KEYS = new Set(["token", "chatBToken", "apiKey", "routingKey", "secretHeaders"]);
const SECRET_KEY_PATTERN = /secret|password/i;
const isSecretKey = (key: string): boolean => SECRET_KEYS.has(key) || SECRET_KEY_PATTERN.test(key);

/** Every secret string in a request body: values under secret-looking keys and all secretHeaders values. */
export function secretsIn(body: unknown, out: Set<string> = new Set(), underSecretKey = false): Set<string> {
  if (typeof body === "string") {
    if (underSecretKey && body.length > 0) out.add(body);
  } else if (Array.isArray(body)) {
    for (const item of body) secretsIn(item, out, underSecretKey);
  } else if (body !== null && typeof body === "object") {
    for (const [key, value] of Object.entries(body)) secretsIn(value, out, underSecretKey || isSecretKey(key));
  }
  return out;
}

/** Replaces every occurrence of a secret with "***": services sometimes echo a rejected value. */
export function redact(text: string, secrets: Iterable<string>): string {
  let out = text;
  // Longest first, so that a secret containing another is wiped whole.
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (secret.length > 0) out = out.split(secret).join("***");
  }
  return out;
}

/** redact() over the string leaves of a value (an error's `detail`). */
export function redactDeep<T>(value: T, secrets: Iterable<string>): T {
  const list = [...secrets];
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return redact(v, list);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}
