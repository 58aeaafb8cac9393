// The one error type of the client. It carries what a user needs to act (status, the
// service's code and message, method and path) and never the bearer token or a body.
import type { ErrorBody } from "./types";

export type ApiErrorKind = "http" | "network" | "timeout" | "config";

export interface OdsApiErrorInit {
  kind: ApiErrorKind;
  status: number;
  code?: number | string;
  message: string;
  method: string;
  path: string;
  detail?: ErrorBody["detail"];
  requestMayHaveBeenApplied?: boolean;
}

export class OdsApiError extends Error {
  readonly kind: ApiErrorKind;
  /** HTTP status, or 0 when no answer came. */
  readonly status: number;
  readonly code?: number | string;
  readonly serviceMessage: string;
  readonly method: string;
  readonly path: string;
  readonly detail?: ErrorBody["detail"];
  /**
   * True for a write whose connection failed after the request was sent: the service may
   * have applied it. The caller lists and adopts rather than sending it again.
   */
  readonly requestMayHaveBeenApplied: boolean;

  constructor(init: OdsApiErrorInit) {
    const where = init.method && init.path ? `${init.method} ${init.path}: ` : "";
    const status = init.status ? `${init.status} ` : "";
    super(`${where}${status}${init.message}`);
    this.name = "OdsApiError";
    this.kind = init.kind;
    this.status = init.status;
    this.code = init.code;
    this.serviceMessage = init.message;
    this.method = init.method;
    this.path = init.path;
    this.detail = init.detail;
    this.requestMayHaveBeenApplied = init.requestMayHaveBeenApplied ?? false;
  }

  toJSON(): Record<string, unknown> {
    return {
      name: this.name, kind: this.kind, status: this.status, code: this.code, message: this.serviceMessage,
      method: this.method, path: this.path, detail: this.detail, requestMayHaveBeenApplied: this.requestMayHaveBeenApplied,
    };
  }
}
