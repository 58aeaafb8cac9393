// A started terraform-provider-ods hands itself to a provider daemon with the same
// environment: the real bundle, started as Terraform starts it (cookie, protocol
// versions, a client certificate), driven by a grpc-js client playing Terraform.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { type Client, credentials, makeGenericClientConstructor, type ServiceDefinition } from "@grpc/grpc-js";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import * as net from "node:net";
import { DEFAULT_IDLE_EXIT_S, daemonIdentity, daemonIdleSeconds, identityName, planDaemon, stopDaemonsIn } from "../../src/tfprovider/daemon-launcher";
import { DEFAULT_PROVIDER_SOURCE, providerPackageFiles } from "../../src/tfprovider/install";
import { createSelfSignedCertificate, type SelfSignedCertificate } from "../../src/tfprovider/protocol/certificate";
import { loadProtocolServices } from "../../src/tfprovider/protocol/definitions";
import { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from "../../src/tfprovider/protocol/handshake";
import type { ProviderProcessStats } from "../../src/tfprovider/provider-server";
import { processAlive as alive, waitFor } from "../helpers/ods-cli";

const BUNDLE = path.resolve(__dirname, "../../lib/bundle/terraform-provider-ods.js");
const services = loadProtocolServices();
const dirs: string[] = [];
const children: ReturnType<typeof spawn>[] = [];

function privateDir(prefix: string): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.chmodSync(d, 0o700);
  dirs.push(d);
  return d;
}

afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill("SIGKILL");
});
afterAll(() => {
  for (const d of dirs.splice(0)) {
    stopDaemonsIn(d);
    fs.rmSync(d, { recursive: true, force: true });
  }
});


function grpcClient(service: ServiceDefinition, address: string, serverCertPem: string, clientCert: SelfSignedCertificate): Client {
  const creds = credentials.createSsl(Buffer.from(serverCertPem), Buffer.from(clientCert.keyPem), Buffer.from(clientCert.certPem));
  return new (makeGenericClientConstructor(service, "svc"))(`unix:${address}`, creds, { "grpc.use_local_subchannel_pool": 1 });
}

function call(c: Client, method: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const fn = (c as unknown as Record<string, (req: object, opts: { deadline: number }, cb: (e: Error | null, r: Record<string, unknown>) => void) => void>)[method];
    fn.call(c, {}, { deadline: Date.now() + 15_000 }, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

interface Start {
  child: ReturnType<typeof spawn>;
  address: string;
  serverCertPem: string;
  terraformCert: SelfSignedCertificate;
  exited: Promise<number | null>;
  err(): string;
}

/** Starts the bundle as Terraform does and waits for its handshake line. */
async function startProvider(env: Record<string, string>, command: readonly string[] = [process.execPath, BUNDLE]): Promise<Start> {
  const terraformCert = createSelfSignedCertificate();
  const child = spawn(command[0], command.slice(1), {
    env: { PATH: process.env.PATH, [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE, PLUGIN_PROTOCOL_VERSIONS: "5,6", PLUGIN_CLIENT_CERT: terraformCert.certPem, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const line = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no handshake; stderr: ${stderr}`)), 20_000);
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
      if (stdout.includes("\n")) {
        clearTimeout(timer);
        resolve(stdout.split("\n")[0]);
      }
    });
  });
  const [, , network, address, , cert] = line.split("|");
  expect(network).toBe("unix");
  const serverCertPem = `-----BEGIN CERTIFICATE-----\n${Buffer.from(cert, "base64").toString("base64")}\n-----END CERTIFICATE-----\n`;
  return { child, address, serverCertPem, terraformCert, exited, err: () => stderr };
}

/** One session as Terraform's schema start makes it: GetProviderSchema, then Shutdown. */
async function schemaThenShutdown(s: Start): Promise<Record<string, unknown>> {
  const provider = grpcClient(services.provider, s.address, s.serverCertPem, s.terraformCert);
  const controller = grpcClient(services.controller, s.address, s.serverCertPem, s.terraformCert);
  try {
    const schema = await call(provider, "GetProviderSchema");
    await call(controller, "Shutdown");
    return schema;
  } finally {
    provider.close();
    controller.close();
  }
}

/** A whole start as Terraform's schema-only start makes it: started, GetProviderSchema, Shutdown, then exit 0. */
async function schemaStart(env: Record<string, string>, command?: readonly string[]): Promise<{ start: Start; schema: Record<string, unknown> }> {
  const start = await startProvider(env, command);
  const schema = await schemaThenShutdown(start);
  expect(await start.exited).toBe(0);
  return { start, schema };
}

const statsOf = (file: string): ProviderProcessStats[] =>
  fs
    .readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as ProviderProcessStats);

describe("which daemon serves a start", () => {
  const dir = privateDir("ods-daemon-plan-");
  const base = { ODS_PROVIDER_CACHE_DIR: dir, ODS_URL: "http://127.0.0.1:1", ODS_TOKEN: "tok-one" };

  it("is the same for the same environment, whatever certificate, protocol list, stats file and shell bookkeeping this start was given", () => {
    // Terraform gives every start a certificate of its own, and lists the protocol versions in either order.
    // Nor what a shell says about itself (`cd ..; cd -` changes OLDPWD).
    const a = planDaemon({ ...base, PLUGIN_CLIENT_CERT: "A", PLUGIN_PROTOCOL_VERSIONS: "5,6", ODS_PROVIDER_STATS: "/tmp/a", OLDPWD: "/a", _: "/usr/bin/terraform" }, BUNDLE);
    const b = planDaemon({ ...base, PLUGIN_CLIENT_CERT: "B", PLUGIN_PROTOCOL_VERSIONS: "6,5", ODS_PROVIDER_STATS: "/tmp/b", OLDPWD: "/b", _: "/usr/local/bin/terraform" }, BUNDLE);
    if (typeof a !== "object" || typeof b !== "object") throw new Error("expected a daemon plan");
    expect(a.socket).toBe(b.socket);
    expect(path.dirname(a.socket)).toBe(dir);
    // The daemon runs with the environment, less what belongs to one start.
    expect(a.env).toEqual(base);
    expect(a.idleExitS).toBe(DEFAULT_IDLE_EXIT_S);
  });

  it("differs for another token or URL, and its name holds neither", () => {
    const a = planDaemon(base, BUNDLE);
    const b = planDaemon({ ...base, ODS_TOKEN: "tok-two" }, BUNDLE);
    const c = planDaemon({ ...base, ODS_URL: "http://127.0.0.1:2" }, BUNDLE);
    if (typeof a !== "object" || typeof b !== "object" || typeof c !== "object") throw new Error("expected daemon plans");
    expect(new Set([a.socket, b.socket, c.socket]).size).toBe(3);
    expect(a.socket).not.toContain("tok-one");
  });

  it("is none when turned off or without a private cache directory; a value it cannot read is said", () => {
    expect(planDaemon({ ...base, ODS_PROVIDER_DAEMON: "off" }, BUNDLE)).toBeUndefined();
    expect(planDaemon({ ...base, ODS_PROVIDER_CACHE_DIR: "off" }, BUNDLE)).toBeUndefined();
    expect(planDaemon({ ...base, ODS_PROVIDER_DAEMON: "soon" }, BUNDLE)).toMatch(/ODS_PROVIDER_DAEMON: expected "off" or a number of idle seconds, got "soon"/);
    expect(daemonIdleSeconds("45")).toBe(45);
    expect(daemonIdleSeconds("0")).toBeUndefined();
  });
});

describe("a started provider and its daemon", { timeout: 60_000 }, () => {
  it("hands the start to a daemon, which serves the next start with the same environment; each start ends on Shutdown", async () => {
    const dir = privateDir("ods-daemon-");
    const stats = path.join(dir, "stats.jsonl");
    const env = { ODS_PROVIDER_CACHE_DIR: dir, ODS_PROVIDER_STATS: stats, TF_LOG: "debug", ODS_URL: "http://127.0.0.1:1" };

    const { start: first, schema } = await schemaStart(env);
    expect(Object.keys(schema.resource_schemas as object)).toContain("ods_dataset");
    // The session's logs reach the stderr Terraform reads.
    expect(first.err()).toMatch(/\[DEBUG\] provider\.ods: GetProviderSchema took/);

    await schemaStart(env);
    const [a, b] = statsOf(stats);
    expect(a.daemonPid).toBeGreaterThan(0);
    expect(b.daemonPid).toBe(a.daemonPid);
    expect(a.pid).not.toBe(b.pid);
    expect(b.rpcs.GetProviderSchema.count).toBe(1);
    expect(alive(a.daemonPid!)).toBe(true);

    // Another token: a daemon of its own, as a started process would read its own environment.
    await schemaStart({ ...env, ODS_TOKEN: "another" });
    expect(statsOf(stats)[2].daemonPid).not.toBe(a.daemonPid);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith(".sock"))).toHaveLength(2);

    expect(stopDaemonsIn(dir)).toBe(2);
    await waitFor("the daemons to stop", () => !alive(a.daemonPid!) && fs.readdirSync(dir).every((f) => !f.startsWith("daemon-")));
  });

  it("ends a session whose launcher Terraform killed, and exits after its idle time", async () => {
    const dir = privateDir("ods-daemon-kill-");
    const stats = path.join(dir, "stats.jsonl");
    const env = { ODS_PROVIDER_CACHE_DIR: dir, ODS_PROVIDER_DAEMON: "2", ODS_PROVIDER_STATS: stats, ODS_URL: "http://127.0.0.1:1" };
    const start = await startProvider(env);
    expect(fs.existsSync(start.address)).toBe(true);
    const pidFile = fs.readdirSync(dir).find((f) => f.endsWith(".pid"))!;
    const daemonPid = Number(fs.readFileSync(path.join(dir, pidFile), "utf8"));
    start.child.kill("SIGKILL");
    // The session's own socket goes with it; the daemon, idle now, exits after 2 s.
    await waitFor("the session socket to be removed", () => !fs.existsSync(start.address));
    expect(alive(daemonPid)).toBe(true);
    await waitFor("the idle daemon to exit", () => !alive(daemonPid));
    expect(fs.readdirSync(dir).filter((f) => f.startsWith("daemon-"))).toEqual([]);
  });

  it("starts one daemon for two starts at once: the one that loses the race for the socket leaves, and both starts are served by the winner", async () => {
    const dir = privateDir("ods-daemon-race-");
    const stats = path.join(dir, "stats.jsonl");
    const env = { ODS_PROVIDER_CACHE_DIR: dir, ODS_PROVIDER_STATS: stats, ODS_URL: "http://127.0.0.1:1" };
    await Promise.all([schemaStart(env), schemaStart(env)]);
    const [a, b] = statsOf(stats);
    expect(a.daemonPid).toBeGreaterThan(0);
    expect(b.daemonPid).toBe(a.daemonPid);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith(".pid"))).toHaveLength(1);
  });

  it("replaces a daemon that was killed outright: the next start finds its socket dead and starts another", async () => {
    const dir = privateDir("ods-daemon-dead-");
    const stats = path.join(dir, "stats.jsonl");
    const env = { ODS_PROVIDER_CACHE_DIR: dir, ODS_PROVIDER_STATS: stats, ODS_URL: "http://127.0.0.1:1" };
    await schemaStart(env);
    const killed = statsOf(stats)[0].daemonPid!;
    process.kill(killed, "SIGKILL");
    await waitFor("the daemon to die", () => !alive(killed));
    // Its socket file is still there, with nobody listening.
    expect(fs.readdirSync(dir).filter((f) => f.endsWith(".sock"))).toHaveLength(1);
    await schemaStart(env);
    const replacement = statsOf(stats)[1].daemonPid!;
    expect(replacement).not.toBe(killed);
    expect(alive(replacement)).toBe(true);
  });

  it("serves the start itself when its daemon does not answer (stopped with SIGSTOP)", { timeout: 60_000 }, async () => {
    const dir = privateDir("ods-daemon-stuck-");
    const stats = path.join(dir, "stats.jsonl");
    const env = { ODS_PROVIDER_CACHE_DIR: dir, ODS_PROVIDER_STATS: stats, ODS_URL: "http://127.0.0.1:1" };
    await schemaStart(env);
    const stuck = statsOf(stats)[0].daemonPid!;
    process.kill(stuck, "SIGSTOP");
    try {
      // The launcher gives the daemon 10 s to open the session, then serves itself.
      const { schema } = await schemaStart(env);
      expect(Object.keys(schema.resource_schemas as object)).toContain("ods_dataset");
      expect(statsOf(stats)[1].daemonPid).toBeUndefined();
    } finally {
      process.kill(stuck, "SIGCONT");
    }
  });

  it("stops when its directory is removed", async () => {
    const dir = privateDir("ods-daemon-gone-");
    await schemaStart({ ODS_PROVIDER_CACHE_DIR: dir, ODS_URL: "http://127.0.0.1:1" });
    const daemonPid = Number(fs.readFileSync(path.join(dir, fs.readdirSync(dir).find((f) => f.endsWith(".pid"))!), "utf8"));
    fs.rmSync(dir, { recursive: true, force: true });
    await waitFor("the orphaned daemon to exit", () => !alive(daemonPid));
  });

  it("serves in the started process itself with ODS_PROVIDER_DAEMON=off, and with a value it cannot read (saying so)", async () => {
    const dir = privateDir("ods-daemon-off-");
    const stats = path.join(dir, "stats.jsonl");
    await schemaStart({ ODS_PROVIDER_CACHE_DIR: dir, ODS_PROVIDER_DAEMON: "off", ODS_PROVIDER_STATS: stats });
    const { start: odd } = await schemaStart({ ODS_PROVIDER_CACHE_DIR: dir, ODS_PROVIDER_DAEMON: "soon", ODS_PROVIDER_STATS: stats });
    expect(odd.err()).toMatch(/\[WARN\] provider\.ods: ODS_PROVIDER_DAEMON: expected "off" or a number of idle seconds, got "soon"/);
    expect(statsOf(stats).map((s) => s.daemonPid)).toEqual([undefined, undefined]);
    expect(fs.readdirSync(dir).filter((f) => f.startsWith("daemon-"))).toEqual([]);
  });
});

/** The provider package as Terraform unpacks it, in a directory of its own; the shim's path. */
function unpackedPackage(): string {
  const dir = privateDir("ods-package-");
  const { executable, files } = providerPackageFiles({ source: DEFAULT_PROVIDER_SOURCE, version: "0.1.0", bundle: fs.readFileSync(BUNDLE) });
  for (const [name, data] of files) fs.writeFileSync(path.join(dir, name), data, { mode: name === executable ? 0o755 : 0o644 });
  return path.join(dir, executable);
}

/** What runs as a started process, by its command line: the Perl launcher or node. */
function runningProgram(pid: number): string {
  return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
}

const perlMissing = spawnSync("perl", ["-e", "1"]).status === 0 ? undefined : "perl is not on PATH";
if (perlMissing) process.stdout.write(`skipped: the package's Perl launcher tests: ${perlMissing}\n`);

describe.skipIf(perlMissing !== undefined)("the provider package's Perl launcher", { timeout: 60_000 }, () => {
  it("hands a start to the daemon a Node start made, without starting node, and writes its stats line", async () => {
    const dir = privateDir("ods-daemon-perl-");
    const stats = path.join(dir, "stats.jsonl");
    // The shim runs the node on PATH; this one, so that both starts run the same node. A
    // value with a newline, quotes, an equals sign and non-ASCII letters: both launchers
    // must write the same identity for it.
    const env = {
      ODS_PROVIDER_CACHE_DIR: dir,
      ODS_PROVIDER_STATS: stats,
      TF_LOG: "debug",
      ODS_URL: "http://127.0.0.1:1",
      ODS_PROVIDER_NODE: process.execPath,
      ODS_TEAM_NOTE: 'line one\nline "two" = zwei, Zürich ✓',
    };
    const shim = unpackedPackage();
    await schemaStart(env);
    const start = await startProvider(env, [shim]);
    expect(runningProgram(start.child.pid!)).toMatch(/^perl .*launcher\.pl /);
    await schemaThenShutdown(start);
    expect(await start.exited).toBe(0);
    // The session's logs, JSON-escaped on the way, reach stderr as lines.
    expect(start.err()).toMatch(/\[DEBUG\] provider\.ods: GetProviderSchema took [\d.]+ ms\n/);
    const [node, perl] = statsOf(stats);
    expect(perl.pid).toBe(start.child.pid);
    expect(perl.daemonPid).toBe(node.daemonPid);
    expect(perl.rpcs.GetProviderSchema.count).toBe(1);
    expect(perl.sessionCpuMs).toBeGreaterThan(0);
    expect(perl.cpuMs).toBeGreaterThanOrEqual(perl.sessionCpuMs!);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith(".sock"))).toHaveLength(1);
  });

  it("leaves to the Node launcher what it does not do: the first start (no daemon yet), and a start with the daemon off", async () => {
    const dir = privateDir("ods-daemon-perl-first-");
    const stats = path.join(dir, "stats.jsonl");
    const env = { ODS_PROVIDER_CACHE_DIR: dir, ODS_PROVIDER_STATS: stats, ODS_URL: "http://127.0.0.1:1", ODS_PROVIDER_NODE: process.execPath };
    const shim = unpackedPackage();
    const first = await startProvider(env, [shim]);
    // The shim's pid, exec'd twice: perl found no daemon and exec'd the Node launcher, which started one.
    expect(runningProgram(first.child.pid!)).toMatch(/provider-bundle\.js$/);
    await schemaThenShutdown(first);
    expect(await first.exited).toBe(0);
    const second = await startProvider(env, [shim]);
    expect(runningProgram(second.child.pid!)).toMatch(/launcher\.pl/);
    await schemaThenShutdown(second);
    expect(await second.exited).toBe(0);
    const off = await startProvider({ ...env, ODS_PROVIDER_DAEMON: "off" }, [shim]);
    expect(runningProgram(off.child.pid!)).toMatch(/provider-bundle\.js$/);
    await schemaThenShutdown(off);
    expect(await off.exited).toBe(0);
    const [a, b, c] = statsOf(stats);
    expect(b.daemonPid).toBe(a.daemonPid);
    expect(c.daemonPid).toBeUndefined();
  });

  it("leaves a start to a Node launcher serving it itself when the daemon takes the request and does not answer", { timeout: 40_000 }, async () => {
    const dir = privateDir("ods-daemon-perl-stuck-");
    const stats = path.join(dir, "stats.jsonl");
    const env = { ODS_PROVIDER_CACHE_DIR: dir, ODS_PROVIDER_STATS: stats, ODS_URL: "http://127.0.0.1:1", ODS_PROVIDER_NODE: process.execPath };
    // The socket both launchers compute for this start: the shim adds nothing to the
    // environment they read, and runs node without flags (this test's worker has some).
    const identity = daemonIdentity({ PATH: process.env.PATH, [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE, ...env }, BUNDLE, { node: process.execPath, flags: [] });
    if (!identity) throw new Error("expected an identity");
    const plan = { socket: path.join(dir, `daemon-${identityName(identity.text)}.sock`) };
    const connections: net.Socket[] = [];
    const stuck = net.createServer((conn) => {
      connections.push(conn);
      conn.on("error", () => undefined);
      conn.resume(); // takes the request, never answers
    });
    await new Promise<void>((resolve) => stuck.listen(plan.socket, resolve));
    try {
      const start = await startProvider(env, [unpackedPackage()]);
      expect(runningProgram(start.child.pid!)).toMatch(/provider-bundle\.js$/);
      await schemaThenShutdown(start);
      expect(await start.exited).toBe(0);
      // Asked once, by the Perl launcher; the Node launcher it exec'd served the start itself.
      expect(connections).toHaveLength(1);
      expect(statsOf(stats)[0].daemonPid).toBeUndefined();
    } finally {
      for (const conn of connections) conn.destroy();
      await new Promise<void>((resolve) => stuck.close(() => resolve()));
    }
  });

  it("is refused by a daemon whose identity is not the start's, before any session opens", async () => {
    const dir = privateDir("ods-daemon-refuse-");
    const env = { ODS_PROVIDER_CACHE_DIR: dir, ODS_URL: "http://127.0.0.1:1" };
    await schemaStart(env);
    const socket = fs.readdirSync(dir).find((f) => f.endsWith(".sock"))!;
    const answer = await new Promise<string>((resolve, reject) => {
      const conn = net.connect(path.join(dir, socket));
      let got = "";
      conn.on("data", (d: Buffer) => (got += d.toString()));
      conn.on("close", () => resolve(got));
      conn.on("error", reject);
      conn.write(`${JSON.stringify({ clientCertPem: null, identity: "ods-provider-daemon 2\nsomeone else" })}\n`);
    });
    expect(JSON.parse(answer.trim())).toEqual({ refused: "another environment" });
  });
});
