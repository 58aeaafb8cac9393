// The HTTP exchange under the client and the http state backend: a partial answer is a
// failure, a silent server times out, and whether the request may have been sent is known.
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ExchangeFailure, exchange, keepAliveAgent } from "../../src/api/http-exchange";

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => { s.closeAllConnections(); s.close(r); })));
});

async function serve(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function failureOf(p: Promise<unknown>): Promise<ExchangeFailure> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(ExchangeFailure);
  return err as ExchangeFailure;
}

describe("exchange", () => {
  it("answers status, headers and the whole body, reusing one kept-alive connection", async () => {
    const ports = new Set<number>();
    const url = await serve((req, res) => {
      ports.add(req.socket.remotePort ?? 0);
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => res.writeHead(201, { "x-seen": body }).end("é".repeat(50_000)));
    });
    const agent = keepAliveAgent(url, 4, 5_000);
    for (let i = 0; i < 3; i++) {
      const answer = await exchange(`${url}/x`, { method: "POST", headers: {}, body: `{"n":${i}}`, agent });
      expect(answer.status).toBe(201);
      expect(answer.headers["x-seen"]).toBe(`{"n":${i}}`);
      expect(answer.text).toBe("é".repeat(50_000));
    }
    agent.destroy();
    expect(ports.size).toBe(1);
  });

  it("fails, not answers, when the connection closes in the middle of the body; the request was sent", async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { "content-length": "100" });
      res.write("partial");
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const failure = await failureOf(exchange(url, { method: "GET", headers: {} }));
    expect(failure.connected).toBe(true);
  });

  it("fails after idleTimeoutMs of silence from a server that never answers", async () => {
    const url = await serve(() => undefined);
    const failure = await failureOf(exchange(url, { method: "PUT", headers: {}, body: "{}", idleTimeoutMs: 150 }));
    expect(failure.code).toBe("ETIMEDOUT");
    expect(failure.connected).toBe(true);
  });

  it("says nothing was sent when nothing listens", async () => {
    const url = await serve(() => undefined);
    const closed = servers.pop() as http.Server;
    await new Promise((r) => closed.close(r));
    const failure = await failureOf(exchange(url, { method: "POST", headers: {}, body: "{}" }));
    expect(failure.code).toBe("ECONNREFUSED");
    expect(failure.connected).toBe(false);
  });

  it("stops at once when aborted", async () => {
    const url = await serve(() => undefined);
    const controller = new AbortController();
    const pending = exchange(url, { method: "GET", headers: {}, signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await failureOf(pending);
    expect(controller.signal.aborted).toBe(true);
  });
});
