// A forwarding proxy on 127.0.0.1:0 in front of an emulator, for tests that need the
// network to misbehave on cue: lose the answer of a chosen write after the emulator
// applied it (a dropped connection), or hold every request until released (a client
// stuck part-way through an apply, so a second process meets its lock for certain,
// however loaded the machine is), or change what the service answered (a service whose
// answer is not what it keeps, or that keeps another value than the one sent).
import * as http from "node:http";
import * as net from "node:net";
import type { AddressInfo } from "node:net";

export interface ForwardProxy {
  url: string;
  /**
   * Loses the answer of the next request whose method and path match (after it was
   * applied); `then` runs at that moment (e.g. kills the caller, as a crash would).
   */
  loseNextAnswer(method: string, path: RegExp, then?: () => void): void;
  lost: number;
  /**
   * Every later answer (2xx, JSON) to a request whose method and path match goes through
   * `edit` before it reaches the client; the service itself is untouched.
   */
  rewriteAnswers(method: string, path: RegExp, edit: (body: unknown) => unknown): void;
  /** Answers changed by rewriteAnswers so far. */
  rewritten: number;
  /** Requests arriving from now on wait until release(). */
  hold(): void;
  release(): void;
  close(): Promise<void>;
}

export async function startForwardProxy(target: string): Promise<ForwardProxy> {
  let pending: { method: string; path: RegExp; then?: () => void } | undefined;
  const rewrites: { method: string; path: RegExp; edit: (body: unknown) => unknown }[] = [];
  let gate: Promise<void> = Promise.resolve();
  let open: () => void = () => undefined;
  const proxy: ForwardProxy = {
    url: "",
    lost: 0,
    rewritten: 0,
    loseNextAnswer: (method, path, then) => {
      pending = { method, path, then };
    },
    rewriteAnswers: (method, path, edit) => {
      rewrites.push({ method, path, edit });
    },
    hold: () => {
      gate = new Promise<void>((resolve) => (open = resolve));
    },
    release: () => open(),
    close: () =>
      new Promise<void>((resolve) => {
        open();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const forward = async (req: http.IncomingMessage, body: Buffer, res: http.ServerResponse): Promise<void> => {
    await gate;
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string" && k !== "host" && k !== "content-length") headers[k] = v;
    const answer = await fetch(target + (req.url ?? ""), { method: req.method, headers, body: body.length > 0 ? body : undefined });
    let text = Buffer.from(await answer.arrayBuffer());
    const rewrite = rewrites.find((r) => r.method === req.method && r.path.test(req.url ?? ""));
    if (rewrite && answer.ok && text.length > 0) {
      text = Buffer.from(JSON.stringify(rewrite.edit(JSON.parse(text.toString("utf8")))));
      proxy.rewritten++;
    }
    if (pending && req.method === pending.method && pending.path.test(req.url ?? "")) {
      const then = pending.then;
      pending = undefined;
      proxy.lost++;
      then?.();
      res.socket?.destroy();
      return;
    }
    const out: Record<string, string> = {};
    answer.headers.forEach((v, k) => {
      if (k !== "content-length" && k !== "transfer-encoding" && k !== "content-encoding" && k !== "connection") out[k] = v;
    });
    res.writeHead(answer.status, out);
    res.end(text);
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => void forward(req, Buffer.concat(chunks), res).catch(() => res.socket?.destroy()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}

/**
 * Two applies on one state at once, for certain: the first talks through `proxy`; once it
 * has finished one call (it holds the lock), the proxy holds its further requests and the
 * second starts, straight to the service; the first goes on when the second has ended.
 */
export async function twoAtOnce<R>(
  proxy: ForwardProxy,
  runFirst: (onStdout: (chunk: string) => void) => Promise<R>,
  runSecond: () => Promise<R>,
): Promise<{ first: R; second: R }> {
  let second: Promise<R> | undefined;
  const first = await runFirst((chunk) => {
    if (second || !chunk.includes(" complete")) return;
    proxy.hold();
    second = runSecond().finally(() => proxy.release());
  });
  if (!second) throw new Error("the first apply ended before it had finished one call");
  return { first, second: await second };
}

/** An HTTP proxy as HTTP_PROXY / HTTPS_PROXY name one: what it relayed, by request line. */
export interface HttpProxy {
  /** http://127.0.0.1:PORT */
  url: string;
  /** "GET http://host/path" for a forwarded request, "CONNECT host:port" for a tunnel. */
  readonly seen: string[];
  /** The most forwarded requests that were waiting for their answers at one time. */
  readonly maxInFlight: number;
  /** Each forwarded request's line and when it started and was answered (ms, a monotonic clock). */
  readonly spans: { line: string; start: number; end: number }[];
  close(): Promise<void>;
}

/** The most of `spans` that were waiting at one time. */
export function mostAtOnce(spans: readonly { start: number; end: number }[]): number {
  const edges = spans.flatMap((s) => [{ at: s.start, d: 1 }, { at: s.end, d: -1 }]).sort((a, b) => a.at - b.at || a.d - b.d);
  let now = 0;
  let most = 0;
  for (const e of edges) most = Math.max(most, (now += e.d));
  return most;
}

/**
 * A forwarding proxy on 127.0.0.1:0, as a corporate network has one: plain HTTP requests
 * arrive in absolute form and are relayed, https goes through a CONNECT tunnel.
 */
export async function startHttpProxy(): Promise<HttpProxy> {
  const seen: string[] = [];
  const sockets = new Set<net.Socket>();
  const spans: HttpProxy["spans"] = [];
  const server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const span = { line: `${req.method} ${req.url}`, start: performance.now(), end: Infinity };
    spans.push(span);
    res.on("close", () => {
      span.end = performance.now();
    });
    const target = new URL(req.url ?? "");
    const headers = { ...req.headers };
    delete headers["proxy-connection"];
    const upstream = http.request({ host: target.hostname, port: target.port, path: target.pathname + target.search, method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on("error", () => res.socket?.destroy());
    req.pipe(upstream);
  });
  server.on("connection", (socket: net.Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  server.on("connect", (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    seen.push(`CONNECT ${req.url}`);
    const [host, port] = String(req.url).split(":");
    const upstream = net.connect(Number(port), host, () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on("close", () => sockets.delete(upstream));
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
  });
  const proxy: HttpProxy = {
    url: "",
    seen,
    get maxInFlight() {
      return mostAtOnce(spans);
    },
    spans,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}
