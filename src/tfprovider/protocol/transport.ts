// Where and how the plugin serves: gRPC (@grpc/grpc-js) on a unix socket in a private temp
// dir (127.0.0.1 on Windows), with mutual TLS when Terraform sent a client certificate.
//
// The listening socket and its TLS are ours (node:tls), and each connection whose client
// presented Terraform's certificate is handed to grpc-js's server through its connection
// injector. grpc-js's own TLS would trust Terraform's certificate by adding it as a CA,
// and adding any CA makes Node parse its whole bundled root store (about 140
// certificates) first: 30-100 ms of every start, to check one certificate. Here the
// context has no CA at all, and the check is that the client's certificate is exactly
// the one Terraform sent us (go-plugin's client presents that one).
import { X509Certificate } from "node:crypto";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import * as tls from "node:tls";
import { type sendUnaryData, Server, ServerCredentials, type ServerUnaryCall, type ServerWritableStream, type ServiceDefinition, status, type UntypedHandleCall } from "@grpc/grpc-js";
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
  /** A unary call: one request, one answer. */
  readonly unary?: (request: ProtoMessage) => Promise<ProtoMessage | PreEncoded>;
  /** A server-streaming call, held open. */
  readonly stream?: (stream: OpenStream) => void;
}

/** A service and the routes (by method name) that implement it. */
export interface MountedService {
  readonly definition: ServiceDefinition;
  readonly routes: Readonly<Record<string, Route>>;
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

/**
 * The listener of the plugin's connections: with Terraform's certificate, TLS that requires
 * the client to present exactly that certificate (go-plugin's mutual TLS: Terraform
 * pins ours, which goes into the handshake line); without, plain connections.
 * `accept` receives each connection once it may be served.
 */
function listener(clientCertPem: string | null, accept: (socket: net.Socket) => void): { server: net.Server; certDer: Buffer | null; certPem: string | null } {
  if (clientCertPem === null) return { server: net.createServer(accept), certDer: null, certPem: null };
  const expected = new X509Certificate(clientCertPem).raw;
  const cert = createSelfSignedCertificate({ dnsNames: ["localhost"] });
  const server = tls.createServer({
    key: cert.keyPem,
    cert: cert.certPem,
    // No CA: the client's certificate is compared with Terraform's below, not verified
    // against a store (an empty list keeps Node from loading its root certificates).
    ca: [],
    requestCert: true,
    rejectUnauthorized: false,
    ALPNProtocols: ["h2"],
    minVersion: "TLSv1.2",
  });
  server.on("secureConnection", (socket: tls.TLSSocket) => {
    const peer = socket.getPeerCertificate();
    if (!peer?.raw || !expected.equals(peer.raw)) socket.destroy();
    else accept(socket);
  });
  // A failed handshake is the client's problem, never the server's.
  server.on("tlsClientError", (_err, socket) => socket.destroy());
  return { server, certDer: cert.certDer, certPem: cert.certPem };
}

function listen(server: net.Server, target: string | { host: string; port: number }): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    const done = (): void => {
      server.off("error", reject);
      resolve();
    };
    if (typeof target === "string") server.listen(target, done);
    else server.listen(target.port, target.host, done);
  });
}

/** Serves the services and returns the address for the handshake line. */
export async function bindPluginServer(services: readonly MountedService[], options: TransportOptions): Promise<BoundServer> {
  const server = new Server({
    "grpc.max_receive_message_length": MAX_MESSAGE_BYTES,
    "grpc.max_send_message_length": MAX_MESSAGE_BYTES,
    // Channelz keeps per-call statistics for a debugging service Terraform never asks for.
    "grpc.enable_channelz": 0,
  });
  const streams = new Set<{ end(): void }>();
  let draining = false;

  for (const { definition, routes } of services) {
    const implementation: Record<string, UntypedHandleCall> = {};
    for (const [name, route] of Object.entries(routes)) {
      if (route.stream) {
        const open = route.stream;
        implementation[name] = (call: ServerWritableStream<unknown, unknown>) => {
          const handle = {
            end: () => {
              streams.delete(handle);
              call.end();
            },
          };
          streams.add(handle);
          call.on("cancelled", () => streams.delete(handle));
          if (draining) handle.end();
          else open({ end: handle.end, onClose: (listener) => void call.on("cancelled", listener) });
        };
      } else {
        const unary = route.unary!;
        implementation[name] = (call: ServerUnaryCall<ProtoMessage, unknown>, callback: sendUnaryData<unknown>) => {
          unary(call.request).then(
            (answer) => callback(null, answer),
            (err: Error) => callback({ code: status.UNKNOWN, details: err.message }),
          );
        };
      }
    }
    server.addService(definition, implementation);
  }

  // The connections arrive already secured (or plain, without TLS): grpc-js serves them as they are.
  const injector = server.createConnectionInjector(ServerCredentials.createInsecure());
  const sockets = new Set<net.Socket>();
  const { server: listening, certDer, certPem } = listener(options.clientCertPem, (socket) => {
    if (draining) return void socket.destroy();
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    injector.injectConnection(socket);
  });

  let dir: string | undefined;
  let address: ListenAddress;
  const network = options.network ?? (process.platform === "win32" ? "tcp" : "unix");
  if (network === "tcp") {
    await listen(listening, { host: "127.0.0.1", port: 0 });
    address = { network, address: `127.0.0.1:${(listening.address() as net.AddressInfo).port}` };
  } else {
    // A private directory (mode 0700) so no other user can reach or replace the socket.
    dir = fs.mkdtempSync(path.join(options.socketDir ?? os.tmpdir(), "tfp-ods-"));
    const socket = path.join(dir, "plugin.sock");
    try {
      await listen(listening, socket);
    } catch (err) {
      fs.rmSync(dir, { recursive: true, force: true });
      throw err;
    }
    address = { network, address: socket };
  }

  const close = (): void => {
    draining = true;
    listening.close();
    server.forceShutdown();
    for (const socket of sockets) socket.destroy();
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
        listening.close();
        // Open streams would hold tryShutdown forever: they end first.
        for (const stream of [...streams]) stream.end();
        let settled = false;
        const finish = (): void => {
          if (settled) return;
          settled = true;
          clearTimeout(force);
          close();
          resolve();
        };
        // Past the grace period, whatever is left is dropped.
        const force = setTimeout(finish, graceMs);
        server.tryShutdown(finish);
      }),
  };
}
