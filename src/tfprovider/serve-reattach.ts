// `terraform-provider-ods serve` (what `ods terraform serve` runs): the provider as one
// long-lived process that terraform commands attach to through TF_REATTACH_PROVIDERS,
// go-plugin's reattach contract, instead of starting it three times per command.
//
// Why: every start costs a Node start, the bundle's load, a TLS context and a cold JIT
// (about 0.25 s of CPU each, three per plan); a served provider pays them once and its
// handlers stay compiled across commands.
//
// What changes for the user, and is printed at start:
// - The provider reads its environment (ODS_URL, ODS_TOKEN, ...) once, when it starts:
//   terraform does not pass its own environment to a provider it attaches to.
// - "Test": true in the reattach line tells Terraform not to stop the process when a
//   command ends; it stops on SIGTERM/SIGINT, or after --idle-exit seconds without a
//   connection.
// - Plaintext gRPC on a unix socket in a directory only this user can open (mode 0700),
//   as Terraform's own debug mode serves; each connection is its own provider instance,
//   and the instances share one rate limiter per organization (see main.ts).
import { PROVIDER_SOURCE } from "../resources/schema";
import { createLogger, logLevelFromEnv } from "./protocol/log";
import { startSessionServer } from "./provider-server";
import type { ProviderImpl } from "./provider-impl";
import { preloadProvider } from "./provider-service";

export const DEFAULT_IDLE_EXIT_S = 15 * 60;

export interface ServeArguments {
  readonly socketDir?: string;
  /** Seconds without any connection before the process exits; 0: never. */
  readonly idleExitS: number;
  /** Stop when our stdin ends, i.e. the process that started us is gone (`ods terraform serve -- COMMAND`). */
  readonly exitWithParent?: true;
}

const USAGE = "usage: terraform-provider-ods serve [--socket-dir DIR] [--idle-exit SECONDS] [--exit-with-parent]";

/** Parses `serve [--socket-dir DIR] [--idle-exit SECONDS] [--exit-with-parent]`; a string is the usage error. */
export function parseServeArguments(args: readonly string[]): ServeArguments | string {
  let socketDir: string | undefined;
  let idleExitS = DEFAULT_IDLE_EXIT_S;
  let exitWithParent = false;
  for (let i = 0; i < args.length; i++) {
    const value = args[i + 1];
    if (args[i] === "--exit-with-parent") {
      exitWithParent = true;
    } else if (args[i] === "--socket-dir" && value !== undefined) {
      socketDir = value;
      i++;
    } else if (args[i] === "--idle-exit" && value !== undefined) {
      const n = Number(value);
      if (!/^\d+$/.test(value) || !Number.isSafeInteger(n)) return `--idle-exit: expected a whole number of seconds (0: never), got ${JSON.stringify(value)}`;
      idleExitS = n;
      i++;
    } else {
      return `unexpected argument ${JSON.stringify(args[i])}; ${USAGE}`;
    }
  }
  return { ...(socketDir ? { socketDir } : {}), idleExitS, ...(exitWithParent ? { exitWithParent: true as const } : {}) };
}

/** go-plugin's ReattachConfig for our provider address, as TF_REATTACH_PROVIDERS holds it. */
export function reattachValue(socketPath: string, pid: number): string {
  return JSON.stringify({
    [PROVIDER_SOURCE]: { Protocol: "grpc", ProtocolVersion: 6, Pid: pid, Test: true, Addr: { Network: "unix", String: socketPath } },
  });
}

/**
 * A word for sh. The twin of install.ts's shellQuote, not imported from there: that would
 * put the installer (zip, hashing) into the provider bundle every Terraform start parses.
 */
function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * Calls `gone` once the process that started us has ended, seen as the end of our stdin:
 * `ods terraform serve -- COMMAND` holds the pipe's other end open and never writes to
 * it, and the kernel closes it when `ods` exits in any way. `ods` stops us itself when the
 * command ends; this covers `ods` being killed outright (SIGKILL, a crashed CI runner),
 * which would otherwise leave us serving with nobody to stop us.
 */
function watchParent(gone: () => void): void {
  process.stdin.on("data", () => undefined);
  process.stdin.once("end", gone);
  process.stdin.once("error", gone);
  // The listening socket keeps the process alive; this pipe must not.
  (process.stdin as unknown as { unref?: () => void }).unref?.();
}

export async function serveReattachable(source: () => ProviderImpl | Promise<ProviderImpl>, args: readonly string[]): Promise<number> {
  const parsed = parseServeArguments(args);
  if (typeof parsed === "string") {
    process.stderr.write(`terraform-provider-ods serve: ${parsed}\n`);
    return 2;
  }
  const log = createLogger(logLevelFromEnv(process.env));
  let finish!: (code: number) => void;
  const finished = new Promise<number>((resolve) => (finish = resolve));
  const stop = (): void => void server.close().then(() => finish(0));
  // The idle clock runs while no command is attached, from the start on. Unref'd: the
  // listening socket is what keeps the process alive.
  let idleTimer: NodeJS.Timeout | undefined;
  const idle = (open: number): void => {
    clearTimeout(idleTimer);
    if (open > 0 || parsed.idleExitS === 0) return;
    idleTimer = setTimeout(() => {
      log.info(`no terraform command attached for ${parsed.idleExitS} s; exiting`);
      stop();
    }, parsed.idleExitS * 1000);
    idleTimer.unref();
  };
  const server = await startSessionServer(source, { logger: log, ...(parsed.socketDir ? { socketDir: parsed.socketDir } : {}), onSessions: idle });
  process.on("exit", () => server.closeNow());
  // The model loads, and its schema is compiled and encoded, before we say we are ready:
  // the first terraform command then finds them done (a Terraform-started provider does
  // this after its handshake, on each of its starts).
  await preloadProvider(source);
  // `on`, not `once`: Ctrl-C in a terminal reaches this process twice (from the terminal
  // and from `ods terraform serve`), and a second signal must not kill it mid-close.
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  idle(0);
  if (parsed.exitWithParent) watchParent(stop);
  process.stdout.write(
    `export TF_REATTACH_PROVIDERS=${shellQuote(reattachValue(server.listen.address, process.pid))}\n` + `export ODS_PROVIDER_SERVER_PID=${process.pid}\n`,
  );
  // Detached, nobody reads stdout after these lines: anything else goes to stderr, and a
  // closed pipe is not a reason to die.
  process.stdout.on("error", () => undefined);
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
  console.log = console.error;
  process.stderr.write(
    `terraform-provider-ods serving on ${server.listen.address} (pid ${process.pid}).\n` +
      `Terraform commands with TF_REATTACH_PROVIDERS set as above attach to this process instead of starting the provider.\n` +
      `It read ODS_URL, ODS_TOKEN and the rest of its environment now, once; ` +
      `stop it with: kill ${process.pid}${parsed.idleExitS > 0 ? ` (it exits by itself after ${parsed.idleExitS} s without a connection)` : ""}.\n`,
  );
  return finished;
}
