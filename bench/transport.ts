// `npm run bench:transport`: the provider's gRPC transport, server CPU per unary call.
//
// Two servers, each in its own Node process so that process.cpuUsage() is the server's
// alone, both with mutual TLS on a unix socket as the provider serves Terraform:
//   node:http2   a minimal node:http2 server answering with the framing the provider used
//                before (respond, one length-prefixed message, grpc-status in trailers)
//   ours         bindPluginServer (src/tfprovider/protocol/transport.ts), our own HTTP/2
// The client is node:http2 in this process, BENCH_TRANSPORT_CONCURRENCY calls in flight,
// BENCH_TRANSPORT_N calls per round after a warm-up; rounds alternate between the servers.
// Prints CPU (user + system) per call for each and the ratio measured in this run.
//
// Settings (environment): BENCH_TRANSPORT_N=5000 BENCH_TRANSPORT_CONCURRENCY=10
// BENCH_TRANSPORT_ROUNDS=3 BENCH_TRANSPORT_CPU_PROF=DIR (a V8 CPU profile of each server process)
import { type ChildProcess, fork } from "node:child_process";
import * as fs from "node:fs";
import * as http2 from "node:http2";
import * as os from "node:os";
import * as path from "node:path";
import * as tls from "node:tls";
import type * as Certificate from "../lib/tfprovider/protocol/certificate";
import type * as Transport from "../lib/tfprovider/protocol/transport";
import { envNumber, ROOT } from "./harness";

const certificate = require(path.join(ROOT, "lib/tfprovider/protocol/certificate")) as typeof Certificate;

const N = envNumber("BENCH_TRANSPORT_N", 5000);
const CONCURRENCY = envNumber("BENCH_TRANSPORT_CONCURRENCY", 10);
const ROUNDS = envNumber("BENCH_TRANSPORT_ROUNDS", 3);
const WARMUP = 1000;
const METHOD = "/tfplugin6.Provider/ReadResource";
// About the size of a small ReadResource exchange.
const REQUEST = Buffer.alloc(300, 7);
const ANSWER = Buffer.alloc(300, 9);

type Kind = "node:http2" | "ours";
interface Ready {
  address: string;
  certPem: string;
}

function lengthPrefixed(message: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt32BE(message.length, 1);
  return Buffer.concat([head, message]);
}

// ---- servers (child processes) ----

async function serveNodeHttp2(clientCertPem: string, dir: string): Promise<Ready> {
  const cert = certificate.createSelfSignedCertificate({ dnsNames: ["localhost"] });
  const server = http2.createSecureServer({
    key: cert.keyPem,
    cert: cert.certPem,
    ca: clientCertPem,
    requestCert: true,
    rejectUnauthorized: true,
    ALPNProtocols: ["h2"],
    minVersion: "TLSv1.2",
    settings: { initialWindowSize: 4 * 1024 * 1024, maxConcurrentStreams: 1000 },
    maxSessionMemory: 512,
  });
  const headers = { ":status": 200, "content-type": "application/grpc+proto", "grpc-accept-encoding": "identity" };
  server.on("stream", (stream) => {
    const chunks: Buffer[] = [];
    stream.on("data", (c: Buffer) => chunks.push(c));
    stream.on("end", () => {
      Buffer.concat(chunks); // what the old transport did with the request body
      stream.respond(headers, { waitForTrailers: true });
      stream.once("wantTrailers", () => stream.sendTrailers({ "grpc-status": "0" }));
      stream.end(lengthPrefixed(ANSWER));
    });
    stream.on("error", () => undefined);
  });
  const address = path.join(dir, "plugin.sock");
  await new Promise<void>((resolve) => server.listen(address, resolve));
  return { address, certPem: cert.certPem };
}

async function serveOurs(clientCertPem: string, dir: string): Promise<Ready> {
  const transport = require(path.join(ROOT, "lib/tfprovider/protocol/transport")) as typeof Transport;
  const route: Transport.Route = {
    decode: (body) => ({ body }),
    encode: () => ANSWER,
    unary: async (request) => request,
  };
  const bound = await transport.bindPluginServer(new Map([[METHOD, route]]), { clientCertPem, socketDir: dir });
  return { address: bound.listen.address, certPem: bound.certPem ?? "" };
}

function runServer(kind: Kind): void {
  process.on("message", (message: { clientCertPem?: string; usage?: true; dir?: string }) => {
    if (message.usage) {
      process.send?.({ usage: process.cpuUsage() });
      return;
    }
    const start = kind === "ours" ? serveOurs : serveNodeHttp2;
    void start(message.clientCertPem ?? "", message.dir ?? os.tmpdir()).then((ready) => process.send?.({ ready }));
  });
  process.on("disconnect", () => process.exit(0));
}

// ---- client (this process) ----

function ask<T>(child: ChildProcess, message: object, key: string): Promise<T> {
  return new Promise((resolve) => {
    const onMessage = (reply: Record<string, unknown>) => {
      if (key in reply) {
        child.off("message", onMessage);
        resolve(reply[key] as T);
      }
    };
    child.on("message", onMessage);
    child.send(message);
  });
}

function unary(session: http2.ClientHttp2Session, body: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = session.request({ ":method": "POST", ":path": METHOD, "content-type": "application/grpc+proto", te: "trailers" });
    let status: unknown;
    req.on("trailers", (t) => (status = t["grpc-status"]));
    req.on("data", () => undefined);
    req.on("error", reject);
    req.on("end", () => (status === "0" ? resolve() : reject(new Error(`grpc-status ${String(status)}`))));
    req.end(body);
  });
}

async function calls(session: http2.ClientHttp2Session, count: number): Promise<void> {
  const body = lengthPrefixed(REQUEST);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      await unary(session, body);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

async function measure(kind: Kind): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-transport-"));
  const profileDir = process.env.BENCH_TRANSPORT_CPU_PROF;
  const execArgv = profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=${kind.replace(":", "-")}-${Date.now()}.cpuprofile`] : [];
  const child = fork(__filename, ["serve", kind], { stdio: ["ignore", "inherit", "inherit", "ipc"], execArgv });
  try {
    const clientCert = certificate.createSelfSignedCertificate();
    const ready = await ask<Ready>(child, { clientCertPem: clientCert.certPem, dir }, "ready");
    const session = http2.connect("https://localhost", {
      createConnection: () => tls.connect({ path: ready.address, ca: ready.certPem, key: clientCert.keyPem, cert: clientCert.certPem, ALPNProtocols: ["h2"], servername: "localhost" }),
    });
    await calls(session, WARMUP);
    const before = await ask<NodeJS.CpuUsage>(child, { usage: true }, "usage");
    await calls(session, N);
    const after = await ask<NodeJS.CpuUsage>(child, { usage: true }, "usage");
    session.close();
    return (after.user - before.user + after.system - before.system) / 1000 / N; // ms per call
  } finally {
    child.disconnect();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  console.log(`transport bench: ${N} unary calls per round, ${CONCURRENCY} in flight, ${ROUNDS} rounds, mutual TLS on a unix socket`);
  console.log(`machine: ${os.cpus().length} x ${os.cpus()[0]?.model ?? "?"}, node ${process.version}, load ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  const results: Record<Kind, number[]> = { "node:http2": [], ours: [] };
  for (let round = 1; round <= ROUNDS; round++) {
    for (const kind of ["node:http2", "ours"] as const) {
      const ms = await measure(kind);
      results[kind].push(ms);
      console.log(`round ${round}  ${kind.padEnd(10)}  ${ms.toFixed(4)} ms server CPU per call`);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const old = median(results["node:http2"]);
  const ours = median(results.ours);
  console.log(`median server CPU per call: node:http2 ${old.toFixed(4)} ms, ours ${ours.toFixed(4)} ms`);
  console.log(`ratio ours / node:http2: ${(ours / old).toFixed(3)} (${(old / ours).toFixed(2)}x less CPU per call)`);
}

if (process.argv[2] === "serve") runServer(process.argv[3] as Kind);
else
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
