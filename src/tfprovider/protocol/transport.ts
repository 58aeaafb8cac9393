// Where and how the plugin serves: gRPC over HTTP/2 on a unix socket in a private temp
// dir (127.0.0.1 on Windows), with mutual TLS when Terraform sent a client certificate.
//
// gRPC here is our own HTTP/2 server side (http2-connection.ts) and the few rules of the
// gRPC wire protocol a plugin needs (unary calls and one server stream, length-prefixed
// messages, status in trailers). Not @grpc/grpc-js: loading it took ~0.15-0.4 s of every
// provider start and its interceptor chain was the largest share of the provider's CPU per
// call. Not node:http2 either: its per-stream machinery (a Duplex per stream, header
// objects, events) was then ~60% of the provider's busy CPU in profiles of `terraform plan`.
import { X509Certificate } from "node:crypto";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import * as tls from "node:tls";
import { createSelfSignedCertificate } from "./certificate";
import type { PreEncoded, ProtoMessage } from "./codec";
import type { ListenAddress } from "./handshake";
import { Http2ServerConnection, type Http2ServerStream } from "./http2-connection";
import { encodeHeaderBlock, ErrorCode } from "./http2-frames";

export interface TransportOptions {
  /** Terraform's client certificate (PEM); every connection must present it. null: no TLS. */
  readonly clientCertPem: string | null;
  /** Parent directory for the socket's temp dir (default: the OS temp dir). */
  readonly socketDir?: string;
  /** Default: "unix", except on Windows. */
  readonly network?: "unix" | "tcp";
}

/** A server stream kept open by the server (go-plugin's stdio stream). */
export interface OpenStream {
  /** Ends the stream with status OK. */
  end(): void;
  /** Called when the client goes away. */
  onClose(listener: () => void): void;
}

export interface Route {
  decode(body: Buffer): ProtoMessage;
  encode(message: ProtoMessage | PreEncoded): Buffer;
  /** A unary call: one request, one answer. */
  readonly unary?: (request: ProtoMessage) => Promise<ProtoMessage | PreEncoded>;
  /** A server-streaming call, held open. */
  readonly stream?: (stream: OpenStream) => void;
}

/** The routes of one connection, and what to do when that connection has closed. */
export interface ConnectionRoutes {
  readonly routes: ReadonlyMap<string, Route>;
  closed(): void;
}

/** A connection's handle for the routes serving it. */
export interface ConnectionHandle {
  /** GOAWAY: the client's calls in flight finish, then the connection closes. */
  goAway(): void;
}

/**
 * One route table for every connection (a provider Terraform started: one process, one
 * provider), or a fresh table per connection (a served provider: each connection is one
 * provider instance of some terraform command, with its own configuration).
 */
export type RouteSource = ReadonlyMap<string, Route> | ((connection: ConnectionHandle) => ConnectionRoutes);

export interface BoundServer {
  readonly listen: ListenAddress;
  /** Our certificate (DER) for the handshake line; null without TLS. */
  readonly certDer: Buffer | null;
  /** The PEM form of the same certificate, for clients that want to pin it. */
  readonly certPem: string | null;
  /** Graceful: no new calls, open streams ended, calls in flight finish (at most graceMs). */
  shutdown(graceMs: number): Promise<void>;
  /** Stops serving immediately and removes the socket directory. */
  close(): void;
}

// Terraform's own client allows 256 MiB messages (large states); match it.
const MAX_MESSAGE_BYTES = 256 * 1024 * 1024;

const STATUS = { OK: 0, UNKNOWN: 2, INVALID_ARGUMENT: 3, RESOURCE_EXHAUSTED: 8, UNIMPLEMENTED: 12, INTERNAL: 13, UNAVAILABLE: 14 } as const;

class GrpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** The messages of a request body: each a 1-byte compression flag, a 4-byte length, the bytes. */
function messagesOf(body: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at < body.length; ) {
    if (body.length - at < 5) throw new GrpcError(STATUS.INTERNAL, "truncated gRPC message");
    if (body[at] !== 0) throw new GrpcError(STATUS.UNIMPLEMENTED, "compressed messages are not supported");
    const length = body.readUInt32BE(at + 1);
    if (at + 5 + length > body.length) throw new GrpcError(STATUS.INTERNAL, "truncated gRPC message");
    out.push(body.subarray(at + 5, at + 5 + length));
    at += 5 + length;
  }
  return out;
}

function lengthPrefixed(message: Buffer): Buffer {
  const head = Buffer.allocUnsafe(5);
  head[0] = 0;
  head.writeUInt32BE(message.length, 1);
  return Buffer.concat([head, message]);
}

// Header blocks encoded once (static-table names and plain literals, no encoder state).
const RESPONSE_HEADERS: ReadonlyArray<readonly [string, string]> = [
  [":status", "200"],
  ["content-type", "application/grpc+proto"],
  ["grpc-accept-encoding", "identity"],
];
const RESPONSE_HEADER_BLOCK = encodeHeaderBlock(RESPONSE_HEADERS);
const OK_TRAILER_BLOCK = encodeHeaderBlock([["grpc-status", String(STATUS.OK)]]);
const UNSUPPORTED_MEDIA_TYPE_BLOCK = encodeHeaderBlock([[":status", "415"]]);

function fail(stream: Http2ServerStream, code: number, message: string): void {
  if (stream.closed) return;
  if (stream.headersSent) {
    stream.reset(ErrorCode.INTERNAL_ERROR);
    return;
  }
  // Trailers-only answer: status in the (only) header block.
  const block = encodeHeaderBlock([...RESPONSE_HEADERS, ["grpc-status", String(code)], ["grpc-message", encodeURIComponent(message)]]);
  stream.sendHeaders(block, true);
}

function reply(stream: Http2ServerStream, body: Buffer): void {
  if (stream.closed) return;
  // Headers, data and trailers in the same tick: the connection sends them in one write.
  stream.sendHeaders(RESPONSE_HEADER_BLOCK, false);
  stream.sendData(lengthPrefixed(body));
  stream.end(OK_TRAILER_BLOCK);
}

function credentials(clientCertPem: string | null): { tls?: tls.TlsOptions; clientCertDer: Buffer | null; certDer: Buffer | null; certPem: string | null } {
  if (clientCertPem === null) return { clientCertDer: null, certDer: null, certPem: null };
  const cert = createSelfSignedCertificate({ dnsNames: ["localhost"] });
  return {
    tls: {
      key: cert.keyPem,
      cert: cert.certPem,
      // The client is pinned to the exact certificate Terraform gave us (below), not
      // verified against a CA list: Node adds a given CA to its whole bundled root
      // store, parsing ~140 certificates (30-50 ms of every start, measured), and a
      // certificate from any public CA would then pass too. An empty list builds no store.
      ca: [],
      requestCert: true,
      rejectUnauthorized: false, // the pin decides, in secureConnection, before any byte is read
      ALPNProtocols: ["h2"],
      minVersion: "TLSv1.2",
    },
    clientCertDer: new X509Certificate(clientCertPem).raw,
    certDer: cert.certDer,
    certPem: cert.certPem,
  };
}

/** Serves the routes (keyed by "/package.Service/Method") and returns the address for the handshake line. */
export async function bindPluginServer(source: RouteSource, options: TransportOptions): Promise<BoundServer> {
  const { tls: tlsOptions, clientCertDer, certDer, certPem } = credentials(options.clientCertPem);
  const connections = new Set<Http2ServerConnection>();
  const streams = new Set<{ end(): void }>();
  let inFlight = 0;
  let draining = false;
  let drained: (() => void) | undefined;

  const onStream = (stream: Http2ServerStream, routes: ReadonlyMap<string, Route>): void => {
    const requestPath = stream.headers[":path"];
    const route = routes.get(String(requestPath));
    if (draining) return fail(stream, STATUS.UNAVAILABLE, "the provider is shutting down");
    if (!String(stream.headers["content-type"] ?? "").startsWith("application/grpc")) {
      stream.sendHeaders(UNSUPPORTED_MEDIA_TYPE_BLOCK, true);
      return;
    }
    if (!route) return fail(stream, STATUS.UNIMPLEMENTED, `unknown method ${String(requestPath)}`);
    if (route.stream) {
      stream.sendHeaders(RESPONSE_HEADER_BLOCK, false);
      const open = {
        end: () => {
          streams.delete(open);
          stream.end(OK_TRAILER_BLOCK);
        },
      };
      streams.add(open);
      stream.onClose(() => streams.delete(open));
      // The request (Empty) is not needed: onData stays unset.
      route.stream({ end: open.end, onClose: (listener) => stream.onClose(listener) });
      return;
    }
    const unary = route.unary!;
    inFlight++;
    let answering = false;
    let counted = true;
    const settle = (): void => {
      if (!counted) return;
      counted = false;
      if (--inFlight === 0) drained?.();
    };
    // A request reset before it was complete is no longer in flight.
    stream.onClose(() => {
      if (!answering) settle();
    });
    const chunks: Buffer[] = [];
    let size = 0;
    stream.onData = (chunk) => {
      size += chunk.length;
      if (size <= MAX_MESSAGE_BYTES + 5) chunks.push(chunk);
    };
    stream.onEnd = () => {
      answering = true;
      void (async () => {
        try {
          if (size > MAX_MESSAGE_BYTES + 5) throw new GrpcError(STATUS.RESOURCE_EXHAUSTED, `request larger than ${MAX_MESSAGE_BYTES} bytes`);
          // A copy: the chunks are views of socket reads that must not be held by the request.
          const messages = messagesOf(Buffer.concat(chunks, size));
          if (messages.length !== 1) throw new GrpcError(STATUS.INTERNAL, `expected one request message, got ${messages.length}`);
          let request: ProtoMessage;
          try {
            request = route.decode(messages[0]);
          } catch (err) {
            throw new GrpcError(STATUS.INTERNAL, `cannot decode the request: ${(err as Error).message}`);
          }
          const answer = await unary(request);
          reply(stream, route.encode(answer));
        } catch (err) {
          fail(stream, err instanceof GrpcError ? err.code : STATUS.UNKNOWN, (err as Error).message);
        } finally {
          settle();
        }
      })();
    };
  };

  // Large states arrive in one message: wide windows save flow-control round trips.
  const windows = { maxConcurrentStreams: 1000, streamWindow: 4 * 1024 * 1024, connectionWindow: 16 * 1024 * 1024 };
  const shared = typeof source === "function" ? undefined : { ...windows, onStream: (stream: Http2ServerStream) => onStream(stream, source) };
  const serve = (socket: net.Socket): void => {
    socket.setNoDelay(true);
    let connection: Http2ServerConnection;
    if (shared) {
      connection = new Http2ServerConnection(socket, shared);
    } else {
      const session = (source as (c: ConnectionHandle) => ConnectionRoutes)({ goAway: () => connection.goAway() });
      connection = new Http2ServerConnection(socket, { ...windows, onStream: (stream) => onStream(stream, session.routes) });
      connection.onClose(() => session.closed());
    }
    connections.add(connection);
    connection.onClose(() => connections.delete(connection));
  };
  let server: net.Server;
  if (tlsOptions) {
    const secure = tls.createServer(tlsOptions);
    secure.on("secureConnection", (socket: tls.TLSSocket) => {
      // gRPC is HTTP/2 only: a client that did not negotiate h2 is not one of ours.
      if (socket.alpnProtocol !== "h2") {
        socket.destroy();
        return;
      }
      // Only Terraform's own certificate (its key proven by the handshake) gets served.
      const peer = socket.getPeerX509Certificate();
      if (!peer || !clientCertDer || !peer.raw.equals(clientCertDer)) {
        socket.destroy();
        return;
      }
      serve(socket);
    });
    secure.on("tlsClientError", () => undefined); // a refused client is not our failure
    server = secure;
  } else {
    server = net.createServer(serve);
  }

  const listen = (target: string | { port: number; host: string }): Promise<void> =>
    new Promise((resolve, reject) => {
      server.once("error", reject);
      const done = () => {
        server.off("error", reject);
        resolve();
      };
      if (typeof target === "string") server.listen(target, done);
      else server.listen(target.port, target.host, done);
    });

  let dir: string | undefined;
  let address: ListenAddress;
  const network = options.network ?? (process.platform === "win32" ? "tcp" : "unix");
  if (network === "tcp") {
    await listen({ port: 0, host: "127.0.0.1" });
    const port = (server.address() as { port: number }).port;
    address = { network, address: `127.0.0.1:${port}` };
  } else {
    // A private directory (mode 0700) so no other user can reach or replace the socket.
    dir = fs.mkdtempSync(path.join(options.socketDir ?? os.tmpdir(), "tfp-ods-"));
    const socket = path.join(dir, "plugin.sock");
    try {
      await listen(socket);
    } catch (err) {
      fs.rmSync(dir, { recursive: true, force: true });
      throw err;
    }
    address = { network, address: socket };
  }
  server.on("error", () => undefined); // after listening: accept errors must not crash the provider

  const close = (): void => {
    draining = true;
    server.close();
    for (const connection of [...connections]) connection.destroy();
    connections.clear();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  };

  return {
    listen: address,
    certDer,
    certPem,
    close,
    shutdown: (graceMs) =>
      new Promise<void>((resolve) => {
        draining = true;
        for (const stream of [...streams]) stream.end();
        let settled = false;
        const finish = () => {
          if (settled) return;
          settled = true;
          clearTimeout(force);
          close();
          resolve();
        };
        // Past the grace period, whatever is left is dropped.
        const force = setTimeout(finish, graceMs);
        const closeConnections = () => {
          drained = undefined;
          server.close(() => finish());
          // GOAWAY, then each connection closes once its streams (the answers just sent) are done.
          for (const connection of [...connections]) connection.goAway();
        };
        if (inFlight === 0) closeConnections();
        else drained = closeConnections;
      }),
  };
}
