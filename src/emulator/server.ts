// The HTTP side: one pipeline every request goes through, in this order:
//   authentication (401) -> X-ODS-Org-ID (403) -> rate-limit accounting -> latency fault
//   -> 503/429 faults -> 429 over the limit -> route (404/405) -> body (413, and 400 when
//   parsed) -> handler (403/400/404/409) -> dropAfterWrite fault -> answer, and a line
//   in the request log. Every answer carries the X-RateLimit headers.
// Authentication comes first (docs/service-contract.md, section 10): a request without a
// valid token spends none of the organization's budget and its body is never read; its
// 401 closes the connection instead.
import type { IncomingMessage, ServerResponse } from "node:http";
import { timingSafeEqual } from "node:crypto";
import { authenticate, sha256Hex, type Caller } from "./auth";
import type { EmulatorCore } from "./core";
import { forbidden, HttpError } from "./errors";
import { FaultInjector, FaultSpecError, parseFaultSpec, validateFaultSpec, type FaultSpec } from "./faults";
import { QueryError } from "./query/types";
import type { RateDecision, RateLimiter } from "./rate-limit";
import { DEFAULT_BODY_LIMIT, JsonText, parseJsonBody, type Answer, type RequestContext, type Router } from "./routing";
import { isObject } from "./validate";

export interface RequestRecord {
  method: string;
  /** Without the query string. */
  path: string;
  query: string;
  /** 0 when the connection was dropped on purpose (dropAfterWrite). */
  status: number;
  at: string;
}

const MAX_REQUEST_RECORDS = 100_000;
const ORG_HEADER = "x-ods-org-id";
const WRITE_METHODS = new Set(["POST", "PUT", "DELETE", "PATCH"]);

export function faultInjectorFor(spec: string | FaultSpec | undefined): FaultInjector | undefined {
  if (spec === undefined) return undefined;
  const parsed = typeof spec === "string" ? parseFaultSpec(spec) : validateFaultSpec({ ...spec });
  return Object.keys(parsed).length === 0 ? undefined : new FaultInjector(parsed);
}

function errorBody(err: unknown): { status: number; body: Record<string, unknown> } {
  // The query engine's QueryError has the same shape: status, message, optional detail.
  if (err instanceof HttpError || err instanceof QueryError) {
    const body: Record<string, unknown> = { code: err.status, message: err.message };
    if (err.detail !== undefined) body.detail = err.detail;
    return { status: err.status, body };
  }
  process.stderr.write(`ods emulator: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  return { status: 500, body: { code: 500, message: "internal error in the emulator" } };
}

function rateHeaders(rate: RateDecision): Record<string, string> {
  const headers: Record<string, string> = {
    "X-RateLimit-Scope": "organization",
    "X-RateLimit-Limit": String(rate.limit),
    "X-RateLimit-Remaining": String(rate.remaining),
    "X-RateLimit-Reset": String(rate.reset),
  };
  if (rate.limited) headers["Retry-After"] = String(rate.retryAfter);
  return headers;
}

/** Reads the body, answering 413 as soon as it passes `limit` bytes. */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers["content-length"]);
  const tooLarge = (): HttpError => new HttpError(413, `request body is larger than ${limit} bytes`);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on("data", (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) {
        failed = true;
        chunks.length = 0;
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (!failed) resolve(Buffer.concat(chunks));
    });
    // A client that gives up mid-body gets no answer anyway; not an internal error.
    const cutOff = (): void => {
      if (failed) return;
      failed = true;
      reject(new HttpError(400, "the request body was cut off"));
    };
    req.on("error", cutOff);
    req.on("aborted", cutOff);
  });
}

/** Whether the request announces a body (a length above 0, or chunked). */
function bodyFollows(req: IncomingMessage): boolean {
  const length = Number(req.headers["content-length"] ?? 0);
  return (Number.isFinite(length) && length > 0) || req.headers["transfer-encoding"] !== undefined;
}

function bearerMatches(authorization: string | undefined, secret: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  if (!match) return false;
  return timingSafeEqual(Buffer.from(sha256Hex(match[1]!), "hex"), Buffer.from(sha256Hex(secret), "hex"));
}

/** A test hook under /_emulator beyond the built-in ones: answers the body to send (200). */
export type AdminHandler = (body: unknown, query: URLSearchParams) => unknown;

export interface ServerOptions {
  core: EmulatorCore;
  router: Router;
  limiter: RateLimiter;
  faults: FaultInjector | undefined;
  adminToken: () => string;
  /** Keyed by "METHOD /_emulator/path". */
  adminHooks?: Readonly<Record<string, AdminHandler>>;
}

export class EmulatorServer {
  private records: RequestRecord[] = [];
  faults: FaultInjector | undefined;

  constructor(private readonly options: ServerOptions) {
    this.faults = options.faults;
  }

  requests(): RequestRecord[] {
    return this.records.slice();
  }

  resetRequests(): void {
    this.records = [];
  }

  private record(entry: RequestRecord): void {
    this.records.push(entry);
    // Trim in chunks so that the log stays bounded without a shift per request.
    if (this.records.length > MAX_REQUEST_RECORDS * 1.1) this.records.splice(0, this.records.length - MAX_REQUEST_RECORDS);
  }

  readonly listener = (req: IncomingMessage, res: ServerResponse): void => {
    this.handle(req, res).catch((err: unknown) => {
      const { status, body } = errorBody(err);
      if (!res.headersSent && !res.destroyed) send(res, status, body, {});
    });
  };

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const arrived = Date.now();
    const target = req.url ?? "/";
    const q = target.indexOf("?");
    const path = q === -1 ? target : target.slice(0, q);
    const queryString = q === -1 ? "" : target.slice(q + 1);
    const method = req.method ?? "GET";
    if (path === "/_emulator" || path.startsWith("/_emulator/")) return this.handleAdmin(req, res, method, path, queryString);

    const at = new Date(arrived).toISOString();
    const { core, limiter } = this.options;
    let headers = rateHeaders(limiter.peek(arrived));
    const answer = (status: number, body: unknown): void => {
      send(res, status, body, headers);
      this.record({ method, path, query: queryString, status, at });
    };
    const faults = this.faults;
    try {
      let caller: Caller;
      try {
        caller = authenticate(core, req.headers.authorization, arrived);
        const orgHeader = req.headers[ORG_HEADER];
        const orgId = Array.isArray(orgHeader) ? orgHeader[0] : orgHeader;
        if (orgId !== undefined && orgId !== "" && orgId !== core.orgId) {
          throw forbidden(`organization ${JSON.stringify(orgId)} is not accessible with this token`);
        }
      } catch (err) {
        // The body of a request refused here is not worth reading: close after answering.
        if (bodyFollows(req)) headers = { ...headers, Connection: "close" };
        throw err;
      }
      const rate = limiter.take(arrived);
      headers = rateHeaders(rate);
      const delay = faults?.latency() ?? 0;
      if (delay > 0) await new Promise((r) => setTimeout(r, delay));
      const fault = faults?.onRequest();
      if (fault === "burst429" || (rate.limited && fault !== "error5xx")) {
        headers = rateHeaders(fault === "burst429" ? limiter.exhausted(arrived) : rate);
        return answer(429, { code: 429, message: "rate limit exceeded" });
      }
      if (fault === "error5xx") return answer(503, { code: 503, message: "service unavailable (injected fault)" });

      const match = this.options.router.match(method, path);
      if ("error" in match) throw match.error;
      const { route, params } = match;
      let rawBody: Buffer;
      try {
        rawBody = await readBody(req, route.bodyLimit ?? DEFAULT_BODY_LIMIT);
      } catch (err) {
        // The rest of an oversized body is not worth reading: close after answering.
        if (err instanceof HttpError && err.status === 413) headers = { ...headers, Connection: "close" };
        throw err;
      }
      let parsed: { value: unknown } | undefined;
      const ctx: RequestContext = {
        core,
        caller,
        params,
        query: new URLSearchParams(queryString),
        contentType: String(req.headers["content-type"] ?? ""),
        rawBody,
        // The emulator's clock, which tests may have stopped: server timestamps, the
        // default _time of events and query ranges all follow it.
        now: core.clock.now(),
        json: () => (parsed ??= { value: parseJsonBody(rawBody) }).value,
      };
      const result: Answer = await route.handle(ctx);
      if (WRITE_METHODS.has(method) && result.status < 300 && faults?.dropAnswer()) {
        // The write is applied and durable; the client only sees the connection die.
        res.socket?.destroy();
        this.record({ method, path, query: queryString, status: 0, at });
        return;
      }
      return answer(result.status, result.body);
    } catch (err) {
      const { status, body } = errorBody(err);
      return answer(status, body);
    }
  }

  /** Test hooks, for tests that run the emulator as a subprocess; admin token only. */
  private async handleAdmin(req: IncomingMessage, res: ServerResponse, method: string, path: string, queryString: string): Promise<void> {
    try {
      if (!bearerMatches(req.headers.authorization, this.options.adminToken())) {
        throw new HttpError(401, "the /_emulator endpoints need the emulator's admin token");
      }
      const raw = await readBody(req, DEFAULT_BODY_LIMIT);
      const route = `${method} ${path}`;
      switch (route) {
        case "GET /_emulator/requests":
          return send(res, 200, this.requests(), {});
        case "DELETE /_emulator/requests":
          this.resetRequests();
          return send(res, 204, undefined, {});
        case "PUT /_emulator/faults": {
          const body = parseJsonBody(raw);
          if (!isObject(body)) throw new HttpError(400, 'body must be {"spec": "<fault spec>"} or {} to clear');
          const spec = body.spec;
          if (spec !== undefined && spec !== null && typeof spec !== "string") throw new HttpError(400, '"spec" must be a string');
          try {
            this.faults = faultInjectorFor(spec ?? undefined);
          } catch (err) {
            if (err instanceof FaultSpecError) throw new HttpError(400, err.message);
            throw err;
          }
          return send(res, 200, { spec: this.faults?.spec ?? {} }, {});
        }
        case "GET /_emulator/query-history": {
          const dataset = new URLSearchParams(queryString).get("dataset");
          const runs = [...this.options.core.state.queryHistory.values()].filter((r) => dataset === null || r.dataset === dataset);
          return send(res, 200, runs, {});
        }
        default: {
          const hook = this.options.adminHooks?.[route];
          if (!hook) throw new HttpError(404, `no such endpoint: ${route}`);
          return send(res, 200, await hook(parseJsonBody(raw), new URLSearchParams(queryString)), {});
        }
      }
    } catch (err) {
      const { status, body } = errorBody(err);
      send(res, status, body, {});
    }
  }
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
  if (res.headersSent || res.destroyed) return;
  if (status === 204 || body === undefined) {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  const text = body instanceof JsonText ? body.text : JSON.stringify(body);
  res.writeHead(status, { ...headers, "Content-Type": "application/json; charset=utf-8", "Content-Length": String(Buffer.byteLength(text)) });
  res.end(text);
}
