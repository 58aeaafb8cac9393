// `npm run bench:transport`: the plugin protocol's transport alone, the two standard
// stacks side by side, each serving the same null handlers (a plan answers the proposed
// state, a refresh the state it was given) in a process of its own, over mutual TLS on a
// unix socket, with the TLS set up the same way (transport.ts: no CA, the client's
// certificate compared with the one expected):
//   - grpc-js: this provider's transport (protocol/transport.ts) and message code
//     (protobufjs's static code, protocol/codec.ts);
//   - connect: @connectrpc/connect-node serving the gRPC protocol on node:http2, with
//     @bufbuild/protobuf code generated from proto/ by protoc-gen-es.
// One client (grpc-js, in this process) makes the calls, 10 in flight as Terraform's
// parallelism, alternating ReadResource and PlanResourceChange with DynamicValues of a
// typical resource's size. The figure is each server process's CPU per call, in rounds
// that alternate the two servers; the report gives the medians.
//
// connect is not a dependency of the project: BENCH_CONNECT_DIR names a directory where
//   npm install @connectrpc/connect@2 @connectrpc/connect-node@2 @bufbuild/protobuf@2 @bufbuild/protoc-gen-es@2 @bufbuild/buf
// ran, and `npx buf generate PROTO_DIR` wrote gen/ (bench/README.md has the commands).
// BENCH_TRANSPORT_CALLS (default 4000 per round), BENCH_TRANSPORT_ROUNDS (default 5).
import { type ChildProcess, spawn } from "node:child_process";
import { X509Certificate } from "node:crypto";
import * as fs from "node:fs";
import * as http2 from "node:http2";
import * as os from "node:os";
import * as path from "node:path";
import * as readline from "node:readline";
import type * as tls from "node:tls";
import { credentials, makeGenericClientConstructor, type ServiceClientConstructor } from "@grpc/grpc-js";
import { envNumber, ROOT } from "./harness";
import type * as Certificate from "../lib/tfprovider/protocol/certificate";
import type * as Definitions from "../lib/tfprovider/protocol/definitions";
import type * as Transport from "../lib/tfprovider/protocol/transport";

/* eslint-disable @typescript-eslint/no-require-imports */
const { createSelfSignedCertificate } = require(path.join(ROOT, "lib/tfprovider/protocol/certificate")) as typeof Certificate;
const { loadProtocolServices } = require(path.join(ROOT, "lib/tfprovider/protocol/definitions")) as typeof Definitions;
/* eslint-enable @typescript-eslint/no-require-imports */

const CALLS = envNumber("BENCH_TRANSPORT_CALLS", 4000);
const ROUNDS = envNumber("BENCH_TRANSPORT_ROUNDS", 5);
const IN_FLIGHT = 10;
const CONNECT_DIR = process.env.BENCH_CONNECT_DIR;

/** A real dynamic import from compiled CommonJS (tsc would turn `import()` into require). */
const importEsm = new Function("specifier", "return import(specifier)") as (specifier: string) => Promise<Record<string, unknown>>;

// ------------------------------------------------------------------ servers (child processes)

/** The child's side: serves, prints `ready ADDRESS CERT_BASE64`, then answers `cpu` lines with its CPU µs. */
async function serve(kind: string, clientCertPem: string): Promise<void> {
  let address: string;
  let certDer: Buffer;
  if (kind === "grpc-js") {
    const { bindPluginServer } = require(path.join(ROOT, "lib/tfprovider/protocol/transport")) as typeof Transport; // eslint-disable-line @typescript-eslint/no-require-imports
    const defs = loadProtocolServices();
    const bound = await bindPluginServer(
      [
        {
          definition: defs.provider,
          routes: {
            ReadResource: { unary: async (req) => ({ new_state: req.current_state, private: req.private, diagnostics: [] }) },
            PlanResourceChange: { unary: async (req) => ({ planned_state: req.proposed_new_state, planned_private: req.prior_private, requires_replace: [], diagnostics: [] }) },
          },
        },
      ],
      { clientCertPem },
    );
    address = bound.listen.address;
    certDer = bound.certDer!;
  } else {
    const { connectNodeAdapter } = await importEsm(path.join(CONNECT_DIR!, "node_modules/@connectrpc/connect-node/dist/esm/index.js"));
    const { Provider } = await importEsm(path.join(CONNECT_DIR!, "gen/tfplugin6_pb.js"));
    type Req = Record<string, unknown>;
    const handler = (connectNodeAdapter as (o: unknown) => (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => void)({
      grpc: true,
      connect: false,
      grpcWeb: false,
      readMaxBytes: 256 * 1024 * 1024,
      writeMaxBytes: 256 * 1024 * 1024,
      routes: (router: { service(s: unknown, impl: Record<string, (req: Req) => Promise<Req>>): void }) =>
        router.service(Provider, {
          readResource: async (req) => ({ newState: req.currentState, private: req.private, diagnostics: [] }),
          planResourceChange: async (req) => ({ plannedState: req.proposedNewState, plannedPrivate: req.priorPrivate, requiresReplace: [], diagnostics: [] }),
        }),
    });
    const cert = createSelfSignedCertificate({ dnsNames: ["localhost"] });
    const expected = new X509Certificate(clientCertPem).raw;
    const server = http2.createSecureServer({ key: cert.keyPem, cert: cert.certPem, ca: [], requestCert: true, rejectUnauthorized: false, ALPNProtocols: ["h2"] }, handler);
    server.on("secureConnection", (socket: tls.TLSSocket) => {
      const peer = socket.getPeerCertificate();
      if (!peer?.raw || !expected.equals(peer.raw)) socket.destroy();
    });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tfp-connect-"));
    address = path.join(dir, "plugin.sock");
    await new Promise<void>((resolve) => server.listen(address, resolve));
    certDer = cert.certDer;
  }
  process.stdout.write(`ready ${address} ${certDer.toString("base64")}\n`);
  readline.createInterface({ input: process.stdin }).on("line", (line) => {
    if (line === "cpu") {
      const c = process.cpuUsage();
      process.stdout.write(`${c.user + c.system}\n`);
    } else process.exit(0);
  });
}

// ------------------------------------------------------------------ client (this process)

interface Server {
  kind: string;
  child: ChildProcess;
  target: string;
  certPem: string;
  cpu(): Promise<number>;
}

function startServer(kind: string, clientCertPem: string): Promise<Server> {
  const child = spawn(process.execPath, [__filename, "serve", kind], { stdio: ["pipe", "pipe", "inherit"], env: { ...process.env, BENCH_CLIENT_CERT: clientCertPem } });
  const lines = readline.createInterface({ input: child.stdout! });
  const waiting: ((line: string) => void)[] = [];
  lines.on("line", (line) => waiting.shift()?.(line));
  const next = (): Promise<string> => new Promise((resolve) => waiting.push(resolve));
  return next().then((ready) => {
    const [, address, cert] = ready.split(" ");
    return {
      kind,
      child,
      target: `unix:${address}`,
      certPem: `-----BEGIN CERTIFICATE-----\n${cert.replace(/(.{64})/g, "$1\n")}\n-----END CERTIFICATE-----\n`,
      cpu: () => {
        const answer = next();
        child.stdin!.write("cpu\n");
        return answer.then(Number);
      },
    };
  });
}

/** A DynamicValue of a typical resource (ten attributes, msgpack). */
function dynamicValue(i: number): Buffer {
  const attrs: Record<string, string> = {};
  for (let k = 0; k < 10; k++) attrs[`attribute_${k}`] = `value-${i}-${k}-${"x".repeat(20)}`;
  // A msgpack fixmap of fixstr keys and str8 values, enough for the transport (never decoded here).
  const parts: Buffer[] = [Buffer.from([0x80 | 10])];
  for (const [k, v] of Object.entries(attrs)) parts.push(Buffer.from([0xa0 | k.length]), Buffer.from(k), Buffer.from([0xd9, v.length]), Buffer.from(v));
  return Buffer.concat(parts);
}

async function load(server: Server, client: InstanceType<ServiceClientConstructor>): Promise<void> {
  const defs = loadProtocolServices().provider;
  let sent = 0;
  const one = (): Promise<void> => {
    if (sent >= CALLS) return Promise.resolve();
    const i = sent++;
    const value = { msgpack: dynamicValue(i) };
    const [method, request] =
      i % 2 === 0
        ? ["ReadResource", { type_name: "ods_role", current_state: value, private: Buffer.alloc(0) }]
        : ["PlanResourceChange", { type_name: "ods_role", prior_state: value, proposed_new_state: value, config: value, prior_private: Buffer.alloc(0) }];
    return new Promise<void>((resolve, reject) =>
      client.makeUnaryRequest(
        `/tfplugin6.Provider/${method}`,
        (x: unknown) => defs[method as "ReadResource"].requestSerialize(x),
        (b: Buffer) => b,
        request,
        (err: Error | null) => (err ? reject(new Error(`${server.kind}: ${err.message}`)) : resolve()),
      ),
    ).then(one);
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, one));
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

async function main(): Promise<void> {
  if (!CONNECT_DIR || !fs.existsSync(path.join(CONNECT_DIR, "gen/tfplugin6_pb.js"))) {
    process.stdout.write("skipped: BENCH_CONNECT_DIR must name a directory with connect installed and gen/ generated (bench/README.md)\n");
    return;
  }
  const clientCert = createSelfSignedCertificate({ dnsNames: ["localhost"] });
  const Provider = makeGenericClientConstructor(loadProtocolServices().provider, "Provider") as ServiceClientConstructor;
  const servers = [await startServer("grpc-js", clientCert.certPem), await startServer("connect", clientCert.certPem)];
  const perCall = new Map<string, number[]>(servers.map((s) => [s.kind, []]));
  const wall = new Map<string, number[]>(servers.map((s) => [s.kind, []]));
  const loads: string[] = [os.loadavg()[0].toFixed(1)];
  try {
    const clients = servers.map((s) => new Provider(s.target, credentials.createSsl(Buffer.from(s.certPem), Buffer.from(clientCert.keyPem), Buffer.from(clientCert.certPem)), { "grpc.ssl_target_name_override": "localhost", "grpc.default_authority": "localhost" }));
    // A warm-up round each: connections, JIT.
    for (const [i, s] of servers.entries()) await load(s, clients[i]);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, s] of servers.entries()) {
        const before = await s.cpu();
        const started = performance.now();
        await load(s, clients[i]);
        wall.get(s.kind)!.push(((performance.now() - started) * 1000) / CALLS);
        perCall.get(s.kind)!.push(((await s.cpu()) - before) / CALLS);
      }
    }
    loads.push(os.loadavg()[0].toFixed(1));
    for (const c of clients) c.close();
  } finally {
    for (const s of servers) s.child.kill();
  }
  const g = median(perCall.get("grpc-js")!);
  const c = median(perCall.get("connect")!);
  const lines = [
    `# The plugin transport alone: grpc-js against connect-node`,
    "",
    `${ROUNDS} rounds of ${CALLS} calls per server (ReadResource and PlanResourceChange alternating, ${IN_FLIGHT} in flight, mTLS on a unix socket), after a warm-up round; Node ${process.version}, ${os.cpus().length} cores, load average ${loads.join(" then ")}. Medians.`,
    "",
    "| server stack | server CPU µs per call | wall µs per call (client included) |",
    "|---|---:|---:|",
    `| grpc-js ${readVersion("@grpc/grpc-js")} + protobufjs static code (this provider's) | ${g.toFixed(0)} | ${median(wall.get("grpc-js")!).toFixed(0)} |`,
    `| @connectrpc/connect-node ${readVersion("@connectrpc/connect-node", CONNECT_DIR)} + @bufbuild/protobuf ${readVersion("@bufbuild/protobuf", CONNECT_DIR)} (protoc-gen-es) on node:http2 | ${c.toFixed(0)} | ${median(wall.get("connect")!).toFixed(0)} |`,
    "",
    `connect / grpc-js, server CPU per call: **${(c / g).toFixed(2)}**. Each round's µs per call: grpc-js ${perCall.get("grpc-js")!.map((x) => x.toFixed(0)).join(", ")}; connect ${perCall.get("connect")!.map((x) => x.toFixed(0)).join(", ")}.`,
    "",
  ];
  process.stdout.write(lines.join("\n"));
  fs.mkdirSync(path.join(ROOT, "bench/results"), { recursive: true });
  fs.writeFileSync(path.join(ROOT, "bench/results/transport.md"), lines.join("\n"));
  process.stdout.write("written: bench/results/transport.md\n");
}

function readVersion(pkg: string, dir = ROOT): string {
  try {
    return (JSON.parse(fs.readFileSync(path.join(dir, "node_modules", pkg, "package.json"), "utf8")) as { version: string }).version;
  } catch {
    return "?";
  }
}

if (process.argv[2] === "serve") {
  serve(process.argv[3], process.env.BENCH_CLIENT_CERT ?? "").catch((err: unknown) => {
    process.stderr.write(`server failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
} else {
  main().catch((err: unknown) => {
    process.stderr.write(`transport bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  });
}
