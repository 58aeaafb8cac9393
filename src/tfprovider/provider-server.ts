// Runs a ProviderImpl as a Terraform provider plugin (protocol 6).
//
//   serveProvider(impl)       the provider binary's whole main: checks that Terraform
//                             started us, serves gRPC over mTLS on a unix socket, prints
//                             the handshake line, runs until Terraform says Shutdown
//                             (or is gone), then exits the process.
//   startProviderServer(...)  the same server without touching process state, for
//                             tests and tools that talk to it in-process.
//
// The ProviderImpl contract is documented in provider-impl.ts; pass a factory instead
// of an instance to load the resource model only after the handshake line is out
// (Terraform starts the provider 3-5 times per command, start-up time adds up).
import * as fs from "node:fs";
import { loadProtocolServices } from "./protocol/definitions";
import { checkLaunchEnvironment, handshakeLine, type ListenAddress, type PluginEnv } from "./protocol/handshake";
import { createLogger, type Logger, logLevelFromEnv } from "./protocol/log";
import { bindPluginServer, type MountedService, type Route } from "./protocol/transport";
import { createProviderRpcs, type Message, type ProviderImplSource, type RpcObserver } from "./provider-service";

export type * from "./provider-impl";
export type { ProviderImplSource } from "./provider-service";

export interface ProviderServerOptions {
  /** Terraform's client certificate (PEM): mTLS required. null: plaintext. */
  readonly clientCertPem: string | null;
  readonly socketDir?: string;
  readonly network?: "unix" | "tcp";
  readonly logger?: Logger;
  /** Told the name and duration of every RPC (see ODS_PROVIDER_STATS). */
  readonly observe?: RpcObserver;
  /** GetProviderSchema's answer encoded at build time (encodedSchemaResponse): a start asked only for the schema loads no model. */
  readonly schemaAnswer?: Buffer;
}

export interface RunningProviderServer {
  /** The line go-plugin expects on stdout, without the newline. */
  readonly handshakeLine: string;
  readonly listen: ListenAddress;
  /** Our server certificate (PEM), null without TLS. */
  readonly certPem: string | null;
  /** Settles once the server has stopped (Shutdown RPC or close()). */
  readonly done: Promise<void>;
  /** Graceful: ends open streams, lets in-flight calls finish (bounded), then stops. */
  close(): Promise<void>;
  /** Immediate: drops connections, removes the socket, releases the provider instance (its client sends nothing more). */
  closeNow(): void;
}

const SHUTDOWN_GRACE_MS = 1000;

/**
 * The services of one provider instance. `shutdown` is what the controller's Shutdown
 * RPC does: stop the process's server. `close` releases the instance (its connections to
 * the service, its credentials) and never rejects: a failure to release is logged.
 */
function providerServices(source: ProviderImplSource, log: Logger, options: Pick<ProviderServerOptions, "observe" | "schemaAnswer">, shutdown: () => void): { services: MountedService[]; close(): Promise<void> } {
  const definitions = loadProtocolServices();
  const rpcs = createProviderRpcs(source, log, options.observe, options.schemaAnswer);
  let graceful = false;
  const provider: Record<string, Route> = {};
  for (const [rpc, handler] of Object.entries(rpcs.handlers)) provider[rpc] = { unary: handler as (request: Message) => Promise<Message> };
  // StopProvider answers an error string instead of diagnostics.
  provider.StopProvider = {
    unary: () =>
      rpcs.stop().then(
        () => ({ Error: "" }),
        (err: Error) => ({ Error: err.message }),
      ),
  };
  const services: MountedService[] = [
    { definition: definitions.provider, routes: provider },
    // go-plugin's stdio stream: held open and never written (we log to stderr directly).
    { definition: definitions.stdio, routes: { StreamStdio: { stream: () => undefined } } },
    { definition: definitions.health, routes: { Check: { unary: async () => ({ status: "SERVING" }) } } },
    {
      definition: definitions.controller,
      routes: {
        Shutdown: {
          unary: async () => {
            log.debug("Shutdown requested by Terraform");
            graceful = true;
            setImmediate(shutdown);
            return {};
          },
        },
      },
    },
  ];
  return { services, close: () => rpcs.close(graceful).catch((err: Error) => log.warn(`closing a provider instance: ${err.message}`)) };
}

export async function startProviderServer(source: ProviderImplSource, options: ProviderServerOptions): Promise<RunningProviderServer> {
  const log = options.logger ?? createLogger("warn");
  let stopping: Promise<void> | undefined;
  let finished!: () => void;
  const done = new Promise<void>((resolve) => (finished = resolve));
  const close = (): Promise<void> => (stopping ??= bound.shutdown(SHUTDOWN_GRACE_MS).then(() => session.close()).then(finished));
  const session = providerServices(source, log, options, () => void close());
  const bound = await bindPluginServer(session.services, options);
  return {
    handshakeLine: handshakeLine(bound.listen, bound.certDer),
    listen: bound.listen,
    certPem: bound.certPem,
    done,
    close,
    closeNow: () => {
      bound.close();
      void session.close();
      finished();
    },
  };
}

export interface ServeOptions {
  /** Default: process.env. */
  readonly env?: PluginEnv;
  /** Default: process.exit. Called with 0 after Shutdown, 1 when not started by Terraform. */
  readonly exit?: (code: number) => void;
  /** See ProviderServerOptions.schemaAnswer. */
  readonly schemaAnswer?: Buffer;
}

/** Keeps everything but the handshake line off stdout, where go-plugin reads it. */
function guardStdout(): (line: string) => void {
  const realWrite = process.stdout.write.bind(process.stdout);
  const toStderr = (...args: unknown[]) => void process.stderr.write(`${args.map(String).join(" ")}\n`);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
  return (line) => void realWrite(`${line}\n`);
}

/** One RPC's calls: how many, and their summed and largest handler time in ms. */
export interface RpcTally {
  count: number;
  totalMs: number;
  maxMs: number;
}

/** Counts one call of `rpc` that took `ms` into `rpcs`. */
export function tallyRpc(rpcs: Record<string, RpcTally>, rpc: string, ms: number): void {
  const s = (rpcs[rpc] ??= { count: 0, totalMs: 0, maxMs: 0 });
  s.count++;
  s.totalMs += ms;
  s.maxMs = Math.max(s.maxMs, ms);
}

/** One provider process's calls, as ODS_PROVIDER_STATS records them (one JSON line per process). */
export interface ProviderProcessStats {
  readonly pid: number;
  /** Milliseconds from process start to the handshake line. */
  readonly handshakeMs: number;
  /** Milliseconds from process start to exit. */
  readonly lifeMs: number;
  /** CPU milliseconds (user + system) the process used, start-up included. */
  readonly cpuMs: number;
  /** Per RPC: how many calls, and their summed and largest handler time in ms. */
  readonly rpcs: Record<string, RpcTally>;
}

/**
 * ODS_PROVIDER_STATS=FILE appends one ProviderProcessStats line per provider process at
 * exit: how often Terraform starts us, how long each start takes, which calls it makes.
 * Names and timings only, never values.
 */
function statsRecorder(file: string | undefined): { observe?: RpcObserver; handshake(): void } {
  if (!file) return { handshake: () => undefined };
  const rpcs: ProviderProcessStats["rpcs"] = {};
  let handshakeMs = 0;
  process.on("exit", () => {
    const cpu = process.cpuUsage();
    const stats: ProviderProcessStats = { pid: process.pid, handshakeMs, lifeMs: performance.now(), cpuMs: (cpu.user + cpu.system) / 1000, rpcs };
    fs.appendFileSync(file, `${JSON.stringify(stats)}\n`);
  });
  return {
    handshake: () => void (handshakeMs = performance.now()),
    observe: (rpc, ms) => tallyRpc(rpcs, rpc, ms),
  };
}

/** How often a provider looks whether Terraform, its parent, is still there. */
const PARENT_CHECK_MS = 250;

/**
 * Calls `gone` once the process that started us (Terraform) has ended without stopping
 * us: killed, or dead of SIGPIPE in `terraform plan | head`. Its children are then given
 * to another parent, and a provider left so would serve nobody, holding its environment.
 */
function followParent(log: Logger, gone: () => void): void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    log.debug("Terraform is gone; exiting");
    gone();
  }, PARENT_CHECK_MS);
  timer.unref();
}

export async function serveProvider(source: ProviderImplSource, options: ServeOptions = {}): Promise<void> {
  const env = options.env ?? process.env;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const check = checkLaunchEnvironment(env);
  if (!check.ok) {
    process.stderr.write(check.message);
    exit(1);
    return;
  }
  const writeHandshake = guardStdout();
  const log = createLogger(logLevelFromEnv(env));
  // Ctrl-C reaches every process in the terminal's group; Terraform then sends
  // StopProvider and lets running calls finish, so we must not die on SIGINT.
  process.on("SIGINT", () => log.debug("interrupt received; waiting for Terraform to stop us"));
  process.on("unhandledRejection", (reason) => log.error(`unhandled rejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}`));

  const stats = statsRecorder(env.ODS_PROVIDER_STATS);
  const running = await startProviderServer(source, { ...check.launch, logger: log, observe: stats.observe, schemaAnswer: options.schemaAnswer });
  // However we end, the socket directory goes with us.
  process.on("exit", () => running.closeNow());
  process.on("SIGTERM", () => void running.close().then(() => exit(0)));
  followParent(log, () => {
    running.closeNow();
    exit(0);
  });
  writeHandshake(running.handshakeLine);
  stats.handshake();
  log.debug(`serving protocol 6 on ${running.listen.network} ${running.listen.address}${running.certPem ? " with mTLS" : ""}, ${Math.round(performance.now())} ms after process start`);
  await running.done;
  exit(0);
}
