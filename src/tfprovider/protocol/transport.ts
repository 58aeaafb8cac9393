// Where and how the plugin serves: gRPC over HTTP/2 on a unix socket in a private temp
// dir (127.0.0.1 on Windows), with mutual TLS when Terraform sent a client certificate.
//
// gRPC here is node:http2 and the few rules of the gRPC wire protocol a plugin needs
// (unary calls and one server stream, length-prefixed messages, status in trailers), not
// @grpc/grpc-js: loading grpc-js took ~0.15-0.4 s of every provider start (Terraform
// starts the provider 3-4 times per command) and its interceptor chain was the largest
// share of the provider's CPU per call in profiles of `terraform plan` at N=1000.
import * as fs from "node:fs";
import * as http2 from "node:http2";
import * as os from "node:os";
import * as path from "node:path";
import { createSelfSignedCertificate } from "./certificate";
import type { PreEncoded, ProtoMessage } from "./codec";
import type { ListenAddress } from "./handshake";

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

function frame(message: Buffer): Buffer {
  const head = Buffer.allocUnsafe(5);
  head[0] = 0;
  head.writeUInt32BE(message.length, 1);
  return Buffer.concat([head, message]);
}

const RESPONSE_HEADERS = { ":status": 200, "content-type": "application/grpc+proto", "grpc-accept-encoding": "identity" };

function fail(stream: http2.ServerHttp2Stream, code: number, message: string): void {
  if (stream.destroyed || stream.closed) return;
  if (stream.headersSent) {
    stream.close(http2.constants.NGHTTP2_INTERNAL_ERROR);
    return;
  }
  // Trailers-only answer: status in the (only) header block.
  stream.respond({ ...RESPONSE_HEADERS, "grpc-status": String(code), "grpc-message": encodeURIComponent(message) }, { endStream: true });
}

function reply(stream: http2.ServerHttp2Stream, body: Buffer): void {
  if (stream.destroyed || stream.closed) return;
  stream.respond(RESPONSE_HEADERS, { waitForTrailers: true });
  stream.once("wantTrailers", () => stream.sendTrailers({ "grpc-status": String(STATUS.OK) }));
  stream.end(frame(body));
}

function credentials(clientCertPem: string | null): { tls?: http2.SecureServerOptions; certDer: Buffer | null; certPem: string | null } {
  if (clientCertPem === null) return { certDer: null, certPem: null };
  const cert = createSelfSignedCertificate({ dnsNames: ["localhost"] });
  return {
    tls: {
      key: cert.keyPem,
      cert: cert.certPem,
      ca: clientCertPem,
      requestCert: true, // a client certificate is required, verified against Terraform's
      rejectUnauthorized: true,
      ALPNProtocols: ["h2"],
      minVersion: "TLSv1.2",
    },
    certDer: cert.certDer,
    certPem: cert.certPem,
  };
}

/** Serves the routes (keyed by "/package.Service/Method") and returns the address for the handshake line. */
export async function bindPluginServer(routes: ReadonlyMap<string, Route>, options: TransportOptions): Promise<BoundServer> {
  const { tls, certDer, certPem } = credentials(options.clientCertPem);
  // Large states arrive in one message: a wide window saves flow-control round trips.
  const settings: http2.Settings = { initialWindowSize: 4 * 1024 * 1024, maxConcurrentStreams: 1000 };
  const common = { settings, maxSessionMemory: 512 };
  const server = tls ? http2.createSecureServer({ ...common, ...tls }) : http2.createServer(common);
  const sessions = new Set<http2.ServerHttp2Session>();
  const streams = new Set<{ end(): void }>();
  let inFlight = 0;
  let draining = false;
  let drained: (() => void) | undefined;

  server.on("session", (session) => {
    sessions.add(session);
    session.on("close", () => sessions.delete(session));
    session.on("error", () => undefined); // a client going away is not our failure
  });
  server.on("sessionError", () => undefined);

  server.on("stream", (stream, headers) => {
    stream.on("error", () => undefined);
    const route = routes.get(String(headers[":path"]));
    if (draining) return fail(stream, STATUS.UNAVAILABLE, "the provider is shutting down");
    if (!String(headers["content-type"] ?? "").startsWith("application/grpc")) {
      if (!stream.destroyed) stream.respond({ ":status": 415 }, { endStream: true });
      return;
    }
    if (!route) return fail(stream, STATUS.UNIMPLEMENTED, `unknown method ${String(headers[":path"])}`);
    if (route.stream) {
      stream.respond(RESPONSE_HEADERS, { waitForTrailers: true });
      stream.once("wantTrailers", () => stream.sendTrailers({ "grpc-status": String(STATUS.OK) }));
      const open = {
        end: () => {
          streams.delete(open);
          if (!stream.destroyed && !stream.closed) stream.end();
        },
      };
      streams.add(open);
      stream.on("close", () => streams.delete(open));
      stream.resume(); // the request (Empty) is not needed
      route.stream({ end: open.end, onClose: (listener) => stream.on("close", listener) });
      return;
    }
    inFlight++;
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_MESSAGE_BYTES + 5) chunks.push(chunk);
    });
    stream.on("end", () => {
      void (async () => {
        try {
          if (size > MAX_MESSAGE_BYTES + 5) throw new GrpcError(STATUS.RESOURCE_EXHAUSTED, `request larger than ${MAX_MESSAGE_BYTES} bytes`);
          const messages = messagesOf(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
          if (messages.length !== 1) throw new GrpcError(STATUS.INTERNAL, `expected one request message, got ${messages.length}`);
          let request: ProtoMessage;
          try {
            request = route.decode(messages[0]);
          } catch (err) {
            throw new GrpcError(STATUS.INTERNAL, `cannot decode the request: ${(err as Error).message}`);
          }
          const answer = await route.unary!(request);
          reply(stream, route.encode(answer));
        } catch (err) {
          fail(stream, err instanceof GrpcError ? err.code : STATUS.UNKNOWN, (err as Error).message);
        } finally {
          if (--inFlight === 0) drained?.();
        }
      })();
    });
  });

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

  const close = (): void => {
    draining = true;
    server.close();
    for (const session of sessions) session.destroy();
    sessions.clear();
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
        const closeSessions = () => {
          drained = undefined;
          server.close(finish);
          // GOAWAY, then each session closes once its streams (the answers just sent) are done.
          for (const session of sessions) session.close();
        };
        if (inFlight === 0) closeSessions();
        else drained = closeSessions;
      }),
  };
}
