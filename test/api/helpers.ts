// Test helpers of the client: a scripted HTTP server on 127.0.0.1:0 (each request is
// recorded, then answered by the test's handler, which may also drop the connection or
// never answer), a fake clock, and a harness that closes every server and client it made.
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, expect } from "vitest";
import { OdsApiError, OdsClient, type Clock, type OdsClientOptions } from "../../src/api";

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
  let closed: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      (closed ??= new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      })),
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

/** The OdsApiError a call fails with (the test fails if it succeeds or throws something else). */
export async function apiFailure(p: Promise<unknown>): Promise<OdsApiError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(OdsApiError);
    return err as OdsApiError;
  }
  throw new Error("expected the call to fail");
}

/**
 * Scripted server + client pairs for one test file; all are closed after each test. The
 * client runs on a fake clock with jitter fixed at one half, and 3 retries unless told.
 */
export function stubHarness(token: string) {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    // Clients before the servers they talk to.
    for (const o of open.splice(0).reverse()) await o.close();
  });
  return {
    async setup(handler: Handler, options: OdsClientOptions = {}) {
      const stub = await startStub(handler);
      open.push(stub);
      const clock = fakeClock();
      const client = new OdsClient({ url: stub.url, token, maxRetries: 3, ...options }, { clock, random: () => 0.5 });
      open.push(client);
      return { stub, client, clock };
    },
  };
}
