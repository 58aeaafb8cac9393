// The watcher's HTTP endpoints: / (an HTML status page for a person), /metrics
// (Prometheus), /healthz (the process runs its loop), /readyz (a round has completed since
// start), /status (JSON per stack). Read-only:
// nothing here changes what the watcher does, so no endpoint needs a credential, and none
// shows one (drifted secrets are "(sensitive)" already in the status).
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import type { WatchMetrics } from "./metrics";
import type { WatchStatus } from "./status";
import { renderStatusPage, STATUS_PAGE_CSP } from "./status-page";

/** How often the status page reloads itself unless told: cheap, it is rendered from memory. */
export const DEFAULT_PAGE_REFRESH_SECONDS = 10;

export interface ListenAddress {
  host: string;
  port: number;
}

/** "127.0.0.1:9464", "0.0.0.0:9464", "[::1]:9464", ":9464" (all interfaces). */
export function parseListen(text: string): ListenAddress {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]*)):(\d{1,5})$/.exec(text.trim());
  const port = m ? Number(m[3]) : NaN;
  if (!m || !Number.isInteger(port) || port > 65535) throw new Error(`--listen expects HOST:PORT such as 127.0.0.1:9464 (port 0 picks a free one), got "${text}"`);
  const host = m[1] ?? m[2];
  return { host: host === "" ? "0.0.0.0" : host, port };
}

/** Whether only this host can reach the address (127.0.0.0/8, ::1, localhost). */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase().replace(/^::ffff:/, "");
  return h === "localhost" || h === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * The warning for an address other hosts can reach: the endpoints ask no credential, and
 * / and /status tell whoever asks what the organization's configuration holds and where it drifts.
 */
export function exposureWarning(address: ListenAddress): string | undefined {
  if (isLoopback(address.host)) return undefined;
  const shown = address.host.includes(":") ? `[${address.host}]:${address.port}` : `${address.host}:${address.port}`;
  return (
    `--listen ${shown} is not a loopback address: whoever reaches it reads, without a credential, the status page / and /status ` +
    `(every stack, the revision applied, each drifted object with its attributes' live and desired values, pending plans with their files and the command that applies them, the last errors) ` +
    `and /metrics (stack names, results, request counts). Keep it inside the cluster: listen on 127.0.0.1 behind a sidecar or scrape agent, or allow only your Prometheus with a NetworkPolicy.`
  );
}

export interface WatchServerState {
  metrics: WatchMetrics;
  status: () => WatchStatus;
  /** A round completed since start (all stacks planned at least once). */
  ready: () => boolean;
  /** The loop runs (false once stopping). */
  live: () => boolean;
  /** Seconds between the status page's own reloads (default DEFAULT_PAGE_REFRESH_SECONDS). */
  pageRefreshSeconds?: number;
}

export interface WatchServer {
  url: string;
  close(): Promise<void>;
}

export async function startWatchServer(address: ListenAddress, state: WatchServerState): Promise<WatchServer> {
  const server = http.createServer((req, res) => {
    const send = (status: number, type: string, body: string, headers: http.OutgoingHttpHeaders = {}): void => {
      res.writeHead(status, { "content-type": type, "cache-control": "no-store", ...headers });
      res.end(req.method === "HEAD" ? undefined : body);
    };
    if (req.method !== "GET" && req.method !== "HEAD") return send(405, "text/plain; charset=utf-8", "only GET\n");
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    switch (path) {
      case "/metrics":
        state.metrics.text().then(
          (text) => send(200, state.metrics.contentType, text),
          (e: unknown) => send(500, "text/plain; charset=utf-8", `${e instanceof Error ? e.message : String(e)}\n`),
        );
        return;
      case "/healthz":
        return state.live() ? send(200, "text/plain; charset=utf-8", "ok\n") : send(503, "text/plain; charset=utf-8", "stopping\n");
      case "/readyz":
        return state.ready() && state.live() ? send(200, "text/plain; charset=utf-8", "ready\n") : send(503, "text/plain; charset=utf-8", "no round completed yet\n");
      case "/status":
        return send(200, "application/json", `${JSON.stringify(state.status(), null, 2)}\n`);
      case "/":
        return send(200, "text/html; charset=utf-8", renderStatusPage(state.status(), { refreshSeconds: state.pageRefreshSeconds ?? DEFAULT_PAGE_REFRESH_SECONDS }), {
          "content-security-policy": STATUS_PAGE_CSP,
          "x-content-type-options": "nosniff",
          "referrer-policy": "no-referrer",
        });
      default:
        return send(404, "text/plain; charset=utf-8", "not found\n");
    }
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", (e: NodeJS.ErrnoException) =>
      reject(new Error(`cannot listen on ${address.host}:${address.port} (${e.code ?? e.message}); choose another address with --listen`)),
    );
    server.listen(address.port, address.host, resolve);
  });
  const bound = server.address() as AddressInfo;
  const host = bound.family === "IPv6" ? `[${bound.address}]` : bound.address;
  return {
    url: `http://${host}:${bound.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
