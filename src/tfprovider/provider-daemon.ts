// `terraform-provider-ods daemon`: the process a started provider hands Terraform's
// connection to (daemon-launcher.ts), so that the provider's code is compiled once per
// idle period instead of once per start.
//
// Why: Terraform starts the provider three or four times per command, and each start
// used to be a cold Node process: its start-up, and a JIT that warms up on the very
// calls Terraform is waiting for. A provider that stays up (`ods terraform serve`) met
// the speed goals a started one missed, but needs the user to wrap their commands. Here
// Terraform starts the provider as always; the started process is a small launcher that
// asks this daemon for a session and prints the session's handshake line.
//
// One session per launcher: a provider server of its own (startProviderServer: mTLS with
// the client certificate Terraform gave that launcher, a fresh provider instance), which
// ends when Terraform says Shutdown or the launcher's connection closes (Terraform killed
// it). The daemon's environment is the launcher's (its key covers the whole environment,
// daemon-launcher.ts), so a session behaves as the started process would have.
import * as fs from "node:fs";
import * as net from "node:net";
import { connectTo, daemonIdentity, daemonLogFile, daemonPidFile } from "./daemon-launcher";
import { createLogger, type LogLevel, logLevelFromEnv } from "./protocol/log";
import type { ProviderImpl } from "./provider-impl";
import { type RpcTally, type RunningProviderServer, startProviderServer, tallyRpc } from "./provider-server";
import { preloadProvider } from "./provider-service";

/** What a launcher asks for: how Terraform wants to be served (from its environment). */
export interface SessionRequest {
  readonly clientCertPem: string | null;
  readonly socketDir?: string;
  /** The start's daemonIdentity text; a daemon serves only its own. */
  readonly identity: string;
}

/** Daemon to launcher, one JSON object per line. */
export type DaemonMessage =
  | { readonly handshake: string; readonly pid: number }
  | { readonly log: string }
  | { readonly end: 0; readonly cpuMs: number; readonly rpcs: Record<string, RpcTally> }
  | { readonly error: string }
  | { readonly refused: string };

export interface DaemonArguments {
  readonly socket: string;
  /** Seconds without a session before the daemon exits. */
  readonly idleExitS: number;
}

/** The largest request line a launcher sends (a PEM certificate, a path, its environment). */
const MAX_REQUEST_BYTES = 1024 * 1024;
/** A connection that has not asked for a session by then is dropped. */
const REQUEST_TIMEOUT_MS = 5000;
/** How often an idle daemon checks that its socket is still its own. */
const SOCKET_CHECK_MS = 2000;
const USAGE = "usage: terraform-provider-ods daemon --socket PATH --idle-exit SECONDS";

export function parseDaemonArguments(args: readonly string[]): DaemonArguments | string {
  let socket: string | undefined;
  let idleExitS: number | undefined;
  for (let i = 0; i < args.length; i += 2) {
    const value = args[i + 1];
    if (value === undefined) return `${args[i]}: a value is missing; ${USAGE}`;
    if (args[i] === "--socket") socket = value;
    else if (args[i] === "--idle-exit" && /^\d{1,6}$/.test(value) && Number(value) > 0) idleExitS = Number(value);
    else return `unexpected ${JSON.stringify(args[i])} ${JSON.stringify(value)}; ${USAGE}`;
  }
  if (socket === undefined || idleExitS === undefined) return USAGE;
  return { socket, idleExitS };
}

/** Reads one request line; null when the peer sends something else or nothing in time. */
function readRequest(conn: net.Socket): Promise<SessionRequest | null> {
  return new Promise((resolve) => {
    let buffered = "";
    const finish = (r: SessionRequest | null): void => {
      clearTimeout(timer);
      conn.off("data", onData);
      conn.off("close", onClose);
      resolve(r);
    };
    const onClose = (): void => finish(null);
    const onData = (chunk: Buffer): void => {
      buffered += chunk.toString("utf8");
      const nl = buffered.indexOf("\n");
      if (nl < 0) {
        if (buffered.length > MAX_REQUEST_BYTES) finish(null);
        return;
      }
      try {
        const v = JSON.parse(buffered.slice(0, nl)) as Partial<SessionRequest>;
        const certOk = v.clientCertPem === null || typeof v.clientCertPem === "string";
        const dirOk = v.socketDir === undefined || typeof v.socketDir === "string";
        const identityOk = typeof v.identity === "string";
        finish(certOk && dirOk && identityOk ? { clientCertPem: v.clientCertPem ?? null, ...(v.socketDir ? { socketDir: v.socketDir } : {}), identity: v.identity as string } : null);
      } catch {
        finish(null);
      }
    };
    const timer = setTimeout(() => finish(null), REQUEST_TIMEOUT_MS);
    conn.on("data", onData);
    conn.on("close", onClose);
  });
}

/** Serves one launcher's session until Terraform shuts it down or the launcher goes. */
async function serveSession(conn: net.Socket, source: () => ProviderImpl | Promise<ProviderImpl>, level: LogLevel, identity: string): Promise<void> {
  const send = (m: DaemonMessage): void => {
    if (!conn.destroyed) conn.write(`${JSON.stringify(m)}\n`);
  };
  const request = await readRequest(conn);
  if (!request) {
    conn.destroy();
    return;
  }
  if (request.identity !== identity) {
    // Another environment, directory, node or bundle whose socket name is ours: it would
    // not behave as a process of its own would. The launcher serves the start itself.
    send({ refused: "another environment" });
    conn.end();
    return;
  }
  // Terraform killed the launcher (or it crashed), perhaps while the session was being
  // opened: nobody is left to use the session.
  let server: RunningProviderServer | undefined;
  let launcherGone = false;
  let ended = false;
  conn.once("close", () => {
    launcherGone = true;
    if (!ended) server?.closeNow();
  });
  const rpcs: Record<string, RpcTally> = {};
  const cpuAtStart = process.cpuUsage();
  // The session's logs go to the launcher, which writes them to the stderr Terraform reads.
  const logger = createLogger(level, (line) => send({ log: line }));
  try {
    server = await startProviderServer(source, {
      clientCertPem: request.clientCertPem,
      ...(request.socketDir ? { socketDir: request.socketDir } : {}),
      logger,
      observe: (rpc, ms) => tallyRpc(rpcs, rpc, ms),
    });
  } catch (err) {
    send({ error: `the provider daemon could not open a session: ${(err as Error).message}` });
    conn.end();
    return;
  }
  if (launcherGone) {
    server.closeNow();
    return;
  }
  send({ handshake: server.handshakeLine, pid: process.pid });
  await server.done;
  ended = true;
  const cpu = process.cpuUsage(cpuAtStart);
  send({ end: 0, cpuMs: (cpu.user + cpu.system) / 1000, rpcs });
  conn.end();
}

/** Listens on `socket`; false when a live daemon already holds it. A dead one's socket file is replaced. */
async function listenOnce(server: net.Server, socket: string): Promise<boolean> {
  const tryListen = (): Promise<NodeJS.ErrnoException | null> =>
    new Promise((resolve) => {
      const onError = (err: NodeJS.ErrnoException): void => resolve(err);
      server.once("error", onError);
      server.listen(socket, () => {
        server.off("error", onError);
        resolve(null);
      });
    });
  const first = await tryListen();
  if (!first) return true;
  if (first.code !== "EADDRINUSE") throw first;
  const probe = await connectTo(socket);
  if (probe) {
    probe.destroy();
    return false;
  }
  fs.rmSync(socket, { force: true });
  const second = await tryListen();
  if (second) throw second;
  return true;
}

/** The daemon's whole life; resolves with its exit code. Prints "ready" on stdout once it takes sessions. */
export async function runProviderDaemon(source: () => ProviderImpl | Promise<ProviderImpl>, args: readonly string[], bundlePath: string): Promise<number> {
  const parsed = parseDaemonArguments(args);
  if (typeof parsed === "string") {
    process.stderr.write(`terraform-provider-ods daemon: ${parsed}\n`);
    return 2;
  }
  // Ours, as the launcher that started us wrote it: the same environment (it gave us its
  // own without the per-start variables), directory, node and flags, and bundle.
  const identity = daemonIdentity(process.env, bundlePath)?.text;
  if (identity === undefined) {
    process.stderr.write(`terraform-provider-ods daemon: cannot read ${bundlePath}\n`);
    return 2;
  }
  const { socket, idleExitS } = parsed;
  const level = logLevelFromEnv(process.env);
  let sessions = 0;
  let finish!: (code: number) => void;
  const finished = new Promise<number>((resolve) => (finish = resolve));
  const server = net.createServer((conn) => {
    sessions++;
    idle();
    conn.on("error", () => undefined);
    conn.once("close", () => {
      sessions--;
      idle();
    });
    serveSession(conn, source, level, identity).catch(() => conn.destroy());
  });
  if (!(await listenOnce(server, socket))) {
    // Another launcher's daemon won the race for this socket: it serves.
    process.stdout.write("ready\n");
    return 0;
  }
  fs.chmodSync(socket, 0o600);
  const pidFile = daemonPidFile(socket);
  fs.writeFileSync(pidFile, `${process.pid}\n`, { mode: 0o600 });
  const ours = (): boolean => {
    try {
      return fs.readFileSync(pidFile, "utf8").trim() === String(process.pid) && fs.statSync(socket).isSocket();
    } catch {
      return false;
    }
  };
  const stop = (): void => {
    // Asked before close(): closing a unix socket server removes its file.
    const mine = ours();
    server.close();
    if (mine) {
      fs.rmSync(socket, { force: true });
      fs.rmSync(pidFile, { force: true });
      // A clean stop leaves nothing to read; a crash leaves its log.
      fs.rmSync(daemonLogFile(socket), { force: true });
    }
    finish(0);
  };
  // The idle clock runs whenever no session is open; unref'd, as the listening socket
  // keeps the process alive.
  let idleTimer: NodeJS.Timeout | undefined;
  function idle(): void {
    clearTimeout(idleTimer);
    if (sessions > 0) return;
    idleTimer = setTimeout(stop, idleExitS * 1000);
    idleTimer.unref();
  }
  // A socket removed or taken over (its directory deleted, a cleanup) means no launcher
  // can reach us any more: stop rather than wait out the idle time.
  setInterval(() => {
    if (sessions === 0 && !ours()) stop();
  }, SOCKET_CHECK_MS).unref();
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  // One session's stray rejection must not end every other session (Node's default is to exit).
  process.on("unhandledRejection", (reason) => {
    process.stderr.write(`${new Date().toISOString()} unhandled rejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}\n`);
  });
  // The model loads, and its schema is compiled and encoded, before the first session.
  await preloadProvider(source);
  idle();
  process.stdout.write("ready\n");
  // Nobody reads stdout after that line, and a closed pipe is not a reason to die.
  process.stdout.on("error", () => undefined);
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
  console.log = console.error;
  return finished;
}
