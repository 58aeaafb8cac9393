// What a started `terraform-provider-ods` does first: hand this start to the provider
// daemon (provider-daemon.ts) that serves starts with the same environment, starting it
// when there is none, and relay the session: its handshake line to stdout, its logs to
// stderr, its end as our exit. When no daemon can be had, the caller serves in this
// process as before: the daemon only ever saves time, it is never a new way to fail.
//
// ODS_PROVIDER_DAEMON: unset, the daemon exits after DEFAULT_IDLE_EXIT_S without a
// session; a number of seconds sets that; "off" (or 0) serves every start in its own
// process. The daemon's socket lives in the provider's cache directory
// (ODS_PROVIDER_CACHE_DIR, see passed-checks.ts), which only this user can open.
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as net from "node:net";
import * as path from "node:path";
import { IDENTITY_HASH, IDENTITY_VERSION, isPerStart, MAX_SOCKET_PATH, SESSION_OPEN_TIMEOUT_MS } from "./daemon-identity";
import { checkLaunchEnvironment, type PluginEnv } from "./protocol/handshake";
import type { DaemonMessage, SessionRequest } from "./provider-daemon";
import type { ProviderProcessStats, RpcTally } from "./provider-server";
import { checkJournalDir } from "./passed-checks";

/** Five minutes: as long as a passed check counts, and long enough for a plan and its apply. */
export const DEFAULT_IDLE_EXIT_S = 300;
/** A cold daemon loads the model before it says it is ready; beyond this we serve ourselves. */
const DAEMON_START_TIMEOUT_MS = 10_000;

/** A file beside a daemon's socket, of the same name. */
const besideSocket = (socket: string, extension: string): string => `${socket.replace(/\.sock$/, "")}.${extension}`;

/** The daemon's pid file, next to its socket: what a cleanup (or a curious user) reads to stop it. */
export const daemonPidFile = (socket: string): string => besideSocket(socket, "pid");

/**
 * Stops the provider daemons whose sockets are in `dir` (SIGTERM to each pid file's
 * process that is still a daemon of ours); the number signalled. For a test's or a
 * bench's cleanup, and for a user who wants them gone before their idle time is up.
 */
export function stopDaemonsIn(dir: string): number {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return 0;
  }
  let stopped = 0;
  for (const name of names) {
    if (!/^daemon-[0-9a-f]+\.pid$/.test(name)) continue;
    const pid = Number(fs.readFileSync(path.join(dir, name), "utf8").trim());
    if (!Number.isSafeInteger(pid) || pid <= 1) continue;
    try {
      // Only a process that is still one of our daemons: a pid may have been reused.
      if (!fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").includes("daemon")) continue;
    } catch {
      continue; // gone, or no /proc to tell (then better left running than a stranger signalled)
    }
    try {
      process.kill(pid, "SIGTERM");
      stopped++;
    } catch {
      // already gone
    }
  }
  return stopped;
}

/** Where a daemon's own stderr goes. */
export const daemonLogFile = (socket: string): string => besideSocket(socket, "log");

export interface DaemonPlan {
  /** The daemon's socket for this environment. */
  readonly socket: string;
  readonly idleExitS: number;
  /** The environment the daemon runs with: ours without the per-start variables. */
  readonly env: NodeJS.ProcessEnv;
  /** daemonIdentity's text: sent with the session request, checked by the daemon. */
  readonly identity: string;
}

/** Idle seconds from ODS_PROVIDER_DAEMON; undefined: off; a string: the value is not understood. */
export function daemonIdleSeconds(value: string | undefined): number | undefined | string {
  if (value === undefined || value === "") return DEFAULT_IDLE_EXIT_S;
  if (value === "off" || value === "0") return undefined;
  if (/^\d{1,6}$/.test(value)) return Number(value);
  return `ODS_PROVIDER_DAEMON: expected "off" or a number of idle seconds, got ${JSON.stringify(value)}; serving this start in its own process`;
}

/**
 * What a daemon serves, as text: everything a started provider's behaviour depends on:
 * the whole environment (ODS_URL, ODS_TOKEN, proxies, CA files, log levels...) but the
 * per-start variables, the working directory (its path and the directory itself), the
 * node binary and its flags, and the bundle's content. Two starts share a daemon only
 * when a started process would have behaved the same; a new token, or an upgraded
 * provider, gets a daemon of its own, and the old one idles out.
 *
 * The provider package's Perl launcher (launcher-pl.ts) writes the same text, byte for
 * byte, for the same start; the daemon compares a session request's text with its own,
 * so a start whose text differs (or whose socket name collides) is never served by it.
 * `runtime`: the node and flags of the process the text is for, by default this one.
 */
export function daemonIdentity(
  env: NodeJS.ProcessEnv,
  bundlePath: string,
  runtime: { readonly node: string; readonly flags: readonly string[] } = { node: process.execPath, flags: process.execArgv },
): { text: string; env: NodeJS.ProcessEnv } | undefined {
  const daemonEnv: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) if (!isPerStart(k) && v !== undefined) daemonEnv[k] = v;
  let bundle: Buffer;
  try {
    bundle = fs.readFileSync(bundlePath);
  } catch {
    return undefined;
  }
  const lines = [
    IDENTITY_VERSION,
    `node ${runtime.node}`,
    `flags ${runtime.flags.join("\x1f")}`,
    // The code's own digest, not its path or time: `terraform init` lays the same bundle out again.
    `bundle ${createHash("sha256").update(bundle).digest("hex")}`,
    `cwd ${process.cwd()}`,
    // The directory itself, not only its path: a workspace removed and made again at the
    // same path must not be served by a daemon whose working directory was the old one.
    `dir ${cwdIdentity()}`,
    "env",
  ];
  // Sorted by UTF-16 code units, which for the ASCII names of an environment is the byte
  // order Perl's sort uses.
  const vars = Object.keys(daemonEnv)
    .sort()
    .map((k) => `${k}=${daemonEnv[k]}\0`)
    .join("");
  return { text: `${lines.join("\n")}\n${vars}`, env: daemonEnv };
}

/** A socket name for an identity (IDENTITY_HASH): 16 hex digits. */
export function identityName(text: string): string {
  const { bases, prime } = IDENTITY_HASH;
  let [a, b]: number[] = [...bases];
  for (const byte of Buffer.from(text, "utf8")) {
    a = Math.imul(a ^ byte, prime) >>> 0;
    b = Math.imul(b ^ byte, prime) >>> 0;
  }
  return a.toString(16).padStart(8, "0") + b.toString(16).padStart(8, "0");
}

/** Which daemon serves a start with this environment (see daemonIdentity), or why none does. */
export function planDaemon(env: NodeJS.ProcessEnv, bundlePath: string): DaemonPlan | string | undefined {
  const idleExitS = daemonIdleSeconds(env.ODS_PROVIDER_DAEMON);
  if (typeof idleExitS !== "number") return idleExitS;
  const dir = checkJournalDir(env);
  if (!dir) return undefined;
  const identity = daemonIdentity(env, bundlePath);
  if (!identity) return undefined;
  const socket = path.join(dir, `daemon-${identityName(identity.text)}.sock`);
  if (socket.length > MAX_SOCKET_PATH) return undefined;
  return { socket, idleExitS, env: identity.env, identity: identity.text };
}

function cwdIdentity(): string {
  try {
    // As bigints: exact, as the Perl launcher's stat() prints them.
    const st = fs.statSync(".", { bigint: true });
    return `${st.dev}:${st.ino}`;
  } catch {
    return "";
  }
}

/** A connection to a unix socket, or null when nobody listens there (a launcher's first try; a daemon's probe of a socket file it found). */
export function connectTo(socket: string): Promise<net.Socket | null> {
  return new Promise((resolve) => {
    const conn = net.connect(socket);
    conn.once("connect", () => {
      conn.off("error", onError);
      resolve(conn);
    });
    const onError = (): void => resolve(null);
    conn.once("error", onError);
  });
}

/** Starts a daemon for `plan`, detached (its own session, no terminal), and waits for its "ready". */
function startDaemon(plan: DaemonPlan, bundlePath: string): Promise<boolean> {
  return new Promise((resolve) => {
    // Its own failures (a crash, a rejection nobody awaited) go to a log beside its socket:
    // no session is there to carry them to Terraform.
    let log: number | "ignore" = "ignore";
    try {
      // Appended: a second daemon losing the race for the socket must not cut the first one's log.
      log = fs.openSync(daemonLogFile(plan.socket), "a", 0o600);
    } catch {
      log = "ignore";
    }
    // Required here, not at the top: every start loads this module, few start a daemon.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { spawn } = require("node:child_process") as typeof import("node:child_process");
    const child = spawn(process.execPath, [...process.execArgv, bundlePath, "daemon", "--socket", plan.socket, "--idle-exit", String(plan.idleExitS)], {
      detached: true,
      stdio: ["ignore", "pipe", log],
      env: plan.env,
    });
    if (typeof log === "number") fs.closeSync(log);
    let out = "";
    const done = (ok: boolean): void => {
      clearTimeout(timer);
      child.stdout?.destroy();
      child.unref();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), DAEMON_START_TIMEOUT_MS);
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("ready\n")) done(true);
    });
    child.once("error", () => done(false));
    child.once("exit", () => done(out.includes("ready\n")));
  });
}

/** What the session's end tells the launcher's ODS_PROVIDER_STATS line. */
export interface SessionEnd {
  readonly cpuMs: number;
  readonly rpcs: Record<string, RpcTally>;
}

export interface DaemonSession {
  readonly handshakeLine: string;
  readonly daemonPid: number;
  /** Settles when the session ends: its tally, or null when the daemon went away first. */
  readonly ended: Promise<SessionEnd | null>;
  /** Ends the session from our side (we are being stopped). */
  close(): void;
}

/** Asks the daemon at `plan.socket` (started if needed) for a session; null when none can be had. */
export async function openDaemonSession(plan: DaemonPlan, bundlePath: string, request: SessionRequest, onLog: (line: string) => void): Promise<DaemonSession | null> {
  let conn = await connectTo(plan.socket);
  if (!conn) {
    if (!(await startDaemon(plan, bundlePath))) return null;
    conn = await connectTo(plan.socket);
    if (!conn) return null;
  }
  const socket = conn;
  socket.write(`${JSON.stringify(request)}\n`);
  let buffered = "";
  let handshake!: (opened: { line: string; pid: number } | null) => void;
  const opened = new Promise<{ line: string; pid: number } | null>((resolve) => (handshake = resolve));
  const ended = new Promise<SessionEnd | null>((resolve) => {
    socket.on("data", (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      for (let nl = buffered.indexOf("\n"); nl >= 0; nl = buffered.indexOf("\n")) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        let m: DaemonMessage;
        try {
          m = JSON.parse(line) as DaemonMessage;
        } catch {
          continue;
        }
        if ("handshake" in m) handshake({ line: m.handshake, pid: m.pid });
        else if ("log" in m) onLog(m.log);
        else if ("error" in m) onLog(`[WARN] provider.ods: ${m.error}\n`);
        else if ("refused" in m) onLog(`[DEBUG] provider.ods: the provider daemon at ${plan.socket} serves ${m.refused}; serving this start in its own process\n`);
        else if ("end" in m) resolve({ cpuMs: m.cpuMs, rpcs: m.rpcs });
      }
    });
    socket.on("error", () => undefined);
    socket.once("close", () => {
      handshake(null);
      resolve(null);
    });
  });
  // A daemon that accepts but does not answer (stuck, or stopping) must not hold
  // Terraform's start: past the bound this start serves itself.
  const timer = setTimeout(() => {
    socket.destroy();
    handshake(null);
  }, SESSION_OPEN_TIMEOUT_MS);
  const session = await opened;
  clearTimeout(timer);
  if (session === null) return null;
  return { handshakeLine: session.line, daemonPid: session.pid, ended, close: () => socket.destroy() };
}

/**
 * The launcher's whole job when Terraform starts us: true when a daemon served this start
 * (the process then exits with the session), false to serve in this process instead.
 */
export async function launchThroughDaemon(env: PluginEnv & NodeJS.ProcessEnv, bundlePath: string): Promise<boolean> {
  const check = checkLaunchEnvironment(env);
  if (!check.ok) return false;
  const plan = planDaemon(env, bundlePath);
  if (typeof plan === "string") process.stderr.write(`[WARN] provider.ods: ${plan}\n`);
  if (typeof plan !== "object") return false;
  const session = await openDaemonSession(plan, bundlePath, { ...check.launch, identity: plan.identity }, (line) => void process.stderr.write(line));
  if (!session) return false;
  const started = performance.now();
  process.stdout.write(`${session.handshakeLine}\n`);
  // Terraform stops a provider with Shutdown (which ends the session) and kills it after
  // a grace period; a kill or SIGTERM reaching us ends the session from our side.
  process.on("SIGTERM", () => {
    session.close();
    process.exit(0);
  });
  process.on("SIGINT", () => undefined);
  const end = await session.ended;
  if (env.ODS_PROVIDER_STATS) {
    const own = process.cpuUsage();
    const stats: ProviderProcessStats = {
      pid: process.pid,
      handshakeMs: started,
      lifeMs: performance.now(),
      cpuMs: (own.user + own.system) / 1000 + (end?.cpuMs ?? 0),
      rpcs: end?.rpcs ?? {},
      daemonPid: session.daemonPid,
      sessionCpuMs: end?.cpuMs ?? 0,
    };
    fs.appendFileSync(env.ODS_PROVIDER_STATS, `${JSON.stringify(stats)}\n`);
  }
  if (!end) process.stderr.write("[ERROR] provider.ods: the provider daemon serving this start stopped before Terraform ended the session\n");
  process.exit(end ? 0 : 1);
}
