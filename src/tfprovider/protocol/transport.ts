// Where and how the plugin serves: gRPC (@grpc/grpc-js) on a unix socket in a private temp
// dir (127.0.0.1 on Windows), with mutual TLS when Terraform sent a client certificate.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
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
 * Mutual TLS as go-plugin sets it up: Terraform's certificate (self-signed, a CA) is the
 * only one a client may present; ours goes into the handshake line, where Terraform pins it.
 */
function credentials(clientCertPem: string | null): { credentials: ServerCredentials; certDer: Buffer | null; certPem: string | null } {
  if (clientCertPem === null) return { credentials: ServerCredentials.createInsecure(), certDer: null, certPem: null };
  const cert = createSelfSignedCertificate({ dnsNames: ["localhost"] });
  return {
    credentials: ServerCredentials.createSsl(Buffer.from(clientCertPem), [{ private_key: Buffer.from(cert.keyPem), cert_chain: Buffer.from(cert.certPem) }], true),
    certDer: cert.certDer,
    certPem: cert.certPem,
  };
}

function bind(server: Server, target: string, creds: ServerCredentials): Promise<number> {
  return new Promise((resolve, reject) => server.bindAsync(target, creds, (err, port) => (err ? reject(err) : resolve(port))));
}

/** Serves the services and returns the address for the handshake line. */
export async function bindPluginServer(services: readonly MountedService[], options: TransportOptions): Promise<BoundServer> {
  const { credentials: creds, certDer, certPem } = credentials(options.clientCertPem);
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

  let dir: string | undefined;
  let address: ListenAddress;
  const network = options.network ?? (process.platform === "win32" ? "tcp" : "unix");
  if (network === "tcp") {
    const port = await bind(server, "127.0.0.1:0", creds);
    address = { network, address: `127.0.0.1:${port}` };
  } else {
    // A private directory (mode 0700) so no other user can reach or replace the socket.
    dir = fs.mkdtempSync(path.join(options.socketDir ?? os.tmpdir(), "tfp-ods-"));
    const socket = path.join(dir, "plugin.sock");
    try {
      await bind(server, `unix:${socket}`, creds);
    } catch (err) {
      fs.rmSync(dir, { recursive: true, force: true });
      throw err;
    }
    address = { network, address: socket };
  }

  const close = (): void => {
    draining = true;
    server.forceShutdown();
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
