// A scripted HTTP server on 127.0.0.1:0 for the client's unit tests: each request is
// recorded, then answered by the test's handler (which may also drop the connection or
// never answer). Every server is closed by the test that started it.
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import type { Clock } from "../../src/api";

export interface SeenRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type Handler = (req: SeenRequest, res: http.ServerResponse, index: number) => void;

export interface StubServer {
  url: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

export async function startStub(handler: Handler): Promise<StubServer> {
  const seen: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const r: SeenRequest = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
      seen.push(r);
      handler(r, res, seen.length - 1);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

/** Ends the connection without an answer, after the request was read: what a crash looks like. */
export function drop(res: http.ServerResponse): void {
  res.socket?.destroy();
}

/** A clock whose sleeps return at once and move time forward; records what was slept. */
export function fakeClock(start = Date.UTC(2026, 0, 1)): Clock & { sleeps: number[]; advance(ms: number): void } {
  let t = start;
  const sleeps: number[] = [];
  return {
    now: () => t,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      t += ms;
    },
    sleeps,
    advance: (ms: number) => {
      t += ms;
    },
  };
}
