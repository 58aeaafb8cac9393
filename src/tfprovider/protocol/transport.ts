// Where and how the plugin's gRPC server listens: a unix socket in a private temp dir
// (127.0.0.1 on Windows), with mutual TLS when Terraform sent a client certificate.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Server, ServerCredentials } from "@grpc/grpc-js";
import { createSelfSignedCertificate } from "./certificate";
import type { ListenAddress } from "./handshake";

export interface TransportOptions {
  /** Terraform's client certificate (PEM); every connection must present it. null: no TLS. */
  readonly clientCertPem: string | null;
  /** Parent directory for the socket's temp dir (default: the OS temp dir). */
  readonly socketDir?: string;
  /** Default: "unix", except on Windows. */
  readonly network?: "unix" | "tcp";
}

export interface BoundServer {
  readonly server: Server;
  readonly listen: ListenAddress;
  /** Our certificate (DER) for the handshake line; null without TLS. */
  readonly certDer: Buffer | null;
  /** The PEM form of the same certificate, for clients that want to pin it. */
  readonly certPem: string | null;
  /** Stops serving immediately and removes the socket directory. */
  close(): void;
}

// Terraform's own client allows 256 MiB messages (large states); match it.
const MAX_MESSAGE_BYTES = 256 * 1024 * 1024;

export function newGrpcServer(): Server {
  return new Server({ "grpc.max_receive_message_length": MAX_MESSAGE_BYTES, "grpc.max_send_message_length": MAX_MESSAGE_BYTES });
}

function credentials(clientCertPem: string | null): { creds: ServerCredentials; certDer: Buffer | null; certPem: string | null } {
  if (clientCertPem === null) return { creds: ServerCredentials.createInsecure(), certDer: null, certPem: null };
  const cert = createSelfSignedCertificate({ dnsNames: ["localhost"] });
  const creds = ServerCredentials.createSsl(
    Buffer.from(clientCertPem),
    [{ private_key: Buffer.from(cert.keyPem), cert_chain: Buffer.from(cert.certPem) }],
    true, // require a client certificate, verified against Terraform's
  );
  return { creds, certDer: cert.certDer, certPem: cert.certPem };
}

function bind(server: Server, target: string, creds: ServerCredentials): Promise<number> {
  return new Promise((resolve, reject) => server.bindAsync(target, creds, (err, port) => (err ? reject(err) : resolve(port))));
}

/** Binds an already populated server and returns the address for the handshake line. */
export async function bindPluginServer(server: Server, options: TransportOptions): Promise<BoundServer> {
  const { creds, certDer, certPem } = credentials(options.clientCertPem);
  const network = options.network ?? (process.platform === "win32" ? "tcp" : "unix");
  if (network === "tcp") {
    const port = await bind(server, "127.0.0.1:0", creds);
    return { server, listen: { network, address: `127.0.0.1:${port}` }, certDer, certPem, close: () => server.forceShutdown() };
  }
  // A private directory (mode 0700) so no other user can reach or replace the socket.
  const dir = fs.mkdtempSync(path.join(options.socketDir ?? os.tmpdir(), "tfp-ods-"));
  const socket = path.join(dir, "plugin.sock");
  try {
    await bind(server, `unix:${socket}`, creds);
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    server,
    listen: { network, address: socket },
    certDer,
    certPem,
    close: () => {
      server.forceShutdown();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
