// One HTTP request and its whole answer, over Node's own http and https modules.
//
// Why not a client library: undici did the same job here, and loading it cost about
// 0.2 s of CPU in every process that called the service (a 0.5 MB bundle compiled
// afresh each time; Node's own modules come precompiled with the runtime). Terraform
// starts the provider anew for each command, so that was paid by every `terraform plan`.
// 66 keep-alive requests against the emulator: 0.29 s CPU with undici, 0.08 s here.
import * as http from "node:http";
import * as https from "node:https";
import * as tls from "node:tls";
import { deferredCaContext } from "./deferred-ca";
import { getProxyForUrl, HttpProxyAgent, HttpsProxyAgent } from "./proxy-agents";

export interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

export interface ExchangeOptions {
  method: string;
  headers: Record<string, string>;
  body?: string;
  /** Keep-alive pool (see keepAliveAgent); without one, a connection per request. */
  agent?: http.Agent;
  /** Aborts the exchange wherever it is. */
  signal?: AbortSignal;
  /** Fails the exchange when its connection stays silent this long. */
  idleTimeoutMs?: number;
}

/** Node's codes for a server certificate the client does not accept (OpenSSL's verify results, and the host name check). */
const CERTIFICATE_REFUSED = /CERT|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER/;

/** Whether an exchange failed because the server's certificate is not trusted: trying again will not change that. */
export function certificateRefused(err: unknown): boolean {
  return err instanceof ExchangeFailure && err.code !== undefined && CERTIFICATE_REFUSED.test(err.code);
}

/** A request that got no whole answer, and whether it may have reached the server. */
export class ExchangeFailure extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
    /** A connection was made, so the request may have been sent. */
    readonly connected: boolean,
  ) {
    super(message);
    this.name = "ExchangeFailure";
  }
}

/**
 * A pool of keep-alive connections to one origin. An idle connection closes after
 * idleMs, or a second before the server says it will close it (Node reads the
 * server's Keep-Alive hint), so that a request is rarely sent on a dying connection.
 *
 * When the environment names a proxy for the URL (HTTPS_PROXY, HTTP_PROXY or ALL_PROXY,
 * unless NO_PROXY names its host, as curl reads them), the pool's connections go through
 * it: a CONNECT tunnel for https (TLS stays end to end), a forwarded request for http.
 */
export function keepAliveAgent(url: string, maxSockets: number, idleMs: number): http.Agent {
  const options: http.AgentOptions = { keepAlive: true, maxSockets, timeout: idleMs };
  const https_ = new URL(url).protocol === "https:";
  const proxied = proxyAgent(url, https_, options);
  if (proxied) return proxied;
  return https_ ? new https.Agent(options) : new http.Agent(options);
}

function proxyAgent(url: string, tunnel: boolean, options: http.AgentOptions): http.Agent | undefined {
  const proxy = getProxyForUrl(url);
  if (!proxy) return undefined;
  return tunnel ? new HttpsProxyAgent(proxy, options) : new HttpProxyAgent(proxy, options);
}

function errorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/**
 * The server's certificate is checked against the URL's host, named here: through a proxy
 * tunnel the TLS connection is made without the host, and a service addressed by IP
 * address would otherwise be checked against "localhost".
 */
function identityOf(target: URL): (host: string, cert: tls.PeerCertificate) => Error | undefined {
  const host = target.hostname.replace(/^\[(.*)\]$/, "$1");
  return (_host, cert) => tls.checkServerIdentity(host, cert);
}

export function exchange(url: string, options: ExchangeOptions): Promise<HttpAnswer> {
  const target = new URL(url);
  const module = target.protocol === "https:" ? https : target.protocol === "http:" ? http : undefined;
  if (!module) return Promise.reject(new ExchangeFailure(`unsupported URL scheme ${target.protocol}`, undefined, false));
  return new Promise((resolve, reject) => {
    let connected = false;
    let settled = false;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      const message = err instanceof Error ? err.message : String(err);
      reject(new ExchangeFailure(message, errorCode(err), connected));
    };
    const headers: Record<string, string | number> = { ...options.headers };
    if (options.body !== undefined) headers["content-length"] = Buffer.byteLength(options.body);
    const req = module.request(
      target,
      {
        method: options.method,
        headers,
        agent: options.agent ?? false,
        signal: options.signal,
        ...(module === https ? { secureContext: deferredCaContext(), checkServerIdentity: identityOf(target) } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", fail);
        res.on("close", () => {
          if (!res.complete) fail(Object.assign(new Error("the connection closed before the whole answer"), { code: "ECONNRESET" }));
        });
        res.on("end", () => {
          if (settled) return;
          settled = true;
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") });
        });
      },
    );
    req.on("socket", (socket) => {
      // A reused keep-alive connection is already open; a new one counts from its connect,
      // over TLS from the end of the handshake: no byte of the request leaves before it.
      if (!socket.connecting) connected = true;
      else socket.once(module === https ? "secureConnect" : "connect", () => (connected = true));
    });
    req.on("error", fail);
    if (options.idleTimeoutMs !== undefined) {
      req.setTimeout(options.idleTimeoutMs, () => req.destroy(Object.assign(new Error(`no data for ${options.idleTimeoutMs} ms`), { code: "ETIMEDOUT" })));
    }
    req.end(options.body);
  });
}
