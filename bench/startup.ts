// `npm run bench:startup`: what one start of terraform-provider-ods costs, as Terraform
// starts it (three or four times per command): the package's executable (the launcher
// script, then Node on the bundle) with Terraform's start-up environment and a client
// certificate, timed to its handshake line and to the answer of its first call
// (GetProviderSchema, which loads the resource model), and the CPU the process used by
// then. Variants run interleaved, round after round, so that the machine's drift touches
// them alike; the report gives medians.
//
// Variants: each bundle of BENCH_STARTUP_BUNDLES (`label=path,...`; default: this
// build's lib/bundle/terraform-provider-ods.js), each started with its code cache warm
// (one start made it before the rounds) and cold (an empty cache directory: the first
// start after an install or upgrade); and `node`, Node printing a line and nothing else,
// the floor of any Node provider. BENCH_STARTUP_ROUNDS (default 15).
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { credentials, makeGenericClientConstructor, type ServiceClientConstructor } from "@grpc/grpc-js";
import { envNumber, ROOT } from "./harness";
import type * as Install from "../lib/tfprovider/install";
import type * as Certificate from "../lib/tfprovider/protocol/certificate";
import type * as Definitions from "../lib/tfprovider/protocol/definitions";
import type * as Handshake from "../lib/tfprovider/protocol/handshake";
import type { ProviderProcessStats } from "../lib/tfprovider/provider-server";

// The build's own modules, from lib/ (bench/dist is compiled apart from it).
/* eslint-disable @typescript-eslint/no-require-imports */
const { providerPackageFiles } = require(path.join(ROOT, "lib/tfprovider/install")) as typeof Install;
const { createSelfSignedCertificate } = require(path.join(ROOT, "lib/tfprovider/protocol/certificate")) as typeof Certificate;
const { loadProtocolServices } = require(path.join(ROOT, "lib/tfprovider/protocol/definitions")) as typeof Definitions;
const { MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } = require(path.join(ROOT, "lib/tfprovider/protocol/handshake")) as typeof Handshake;
/* eslint-enable @typescript-eslint/no-require-imports */

const ROUNDS = envNumber("BENCH_STARTUP_ROUNDS", 15);

interface StartTimes {
  handshakeMs: number;
  firstAnswerMs: number;
  /** The provider process's CPU (user + system, the launcher script's included) at exit. */
  cpuMs: number;
}

interface Variant {
  label: string;
  start(): Promise<StartTimes>;
}

const clientCert = createSelfSignedCertificate({ dnsNames: ["localhost"] });
const Provider = makeGenericClientConstructor(loadProtocolServices().provider, "Provider") as ServiceClientConstructor;

function pemOfDer(der: Buffer): string {
  return `-----BEGIN CERTIFICATE-----\n${der.toString("base64").replace(/(.{64})/g, "$1\n")}\n-----END CERTIFICATE-----\n`;
}

/** One GetProviderSchema call over mTLS, as Terraform makes it. */
function firstCall(handshake: string): Promise<void> {
  const [, , network, address, , cert] = handshake.trim().split("|");
  const target = network === "unix" ? `unix:${address}` : address;
  const creds = credentials.createSsl(Buffer.from(pemOfDer(Buffer.from(cert, "base64"))), Buffer.from(clientCert.keyPem), Buffer.from(clientCert.certPem));
  const client = new Provider(target, creds, { "grpc.ssl_target_name_override": "localhost", "grpc.default_authority": "localhost" });
  return new Promise((resolve, reject) => {
    client.makeUnaryRequest(
      "/tfplugin6.Provider/GetProviderSchema",
      (x: unknown) => loadProtocolServices().provider.GetProviderSchema.requestSerialize(x),
      (b: Buffer) => b,
      {},
      (err: Error | null) => {
        client.close();
        if (err) reject(err);
        else resolve();
      },
    );
  });
}

/** Starts `executable` as Terraform does, times it, asks its first call, then stops it. */
function timedStart(executable: string, cacheDir: string): Promise<StartTimes> {
  const statsFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "ods-startup-stats-")), "stats.jsonl");
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE,
    PLUGIN_PROTOCOL_VERSIONS: "5,6",
    PLUGIN_CLIENT_CERT: clientCert.certPem,
    ODS_PROVIDER_CACHE_DIR: cacheDir,
    ODS_PROVIDER_STATS: statsFile,
  };
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(executable, [], { env, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    let handshakeMs = 0;
    let firstAnswerMs = 0;
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    child.stdout.on("data", (d: Buffer) => {
      if (handshakeMs > 0) return;
      out += d.toString();
      if (!out.includes("\n")) return;
      handshakeMs = performance.now() - started;
      firstCall(out).then(
        () => {
          firstAnswerMs = performance.now() - started;
          child.kill("SIGTERM");
        },
        (err: Error) => {
          child.kill("SIGKILL");
          reject(err);
        },
      );
    });
    child.on("error", reject);
    child.on("close", () => {
      clearTimeout(timer);
      try {
        const stats = JSON.parse(fs.readFileSync(statsFile, "utf8").trim().split("\n")[0]) as ProviderProcessStats;
        resolve({ handshakeMs, firstAnswerMs, cpuMs: stats.cpuMs });
      } catch (err) {
        reject(new Error(`no stats from ${executable}: ${(err as Error).message}`));
      } finally {
        fs.rmSync(path.dirname(statsFile), { recursive: true, force: true });
      }
    });
  });
}

/** Node alone: start, print a line, exit. */
function nodeFloor(): Promise<StartTimes> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ["-e", 'process.stdout.write("ready\\n"); const c = process.cpuUsage(); process.stderr.write(String((c.user + c.system) / 1000))'], { stdio: ["ignore", "pipe", "pipe"] });
    let handshakeMs = 0;
    let cpu = "";
    child.stdout.once("data", () => (handshakeMs = performance.now() - started));
    child.stderr.on("data", (d: Buffer) => (cpu += d.toString()));
    child.on("error", reject);
    child.on("close", () => resolve({ handshakeMs, firstAnswerMs: handshakeMs, cpuMs: Number(cpu) }));
  });
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

async function main(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "ods-startup-"));
  const bundles = (process.env.BENCH_STARTUP_BUNDLES ?? `this build=${path.join(ROOT, "lib/bundle/terraform-provider-ods.js")}`).split(",").map((entry) => {
    const at = entry.indexOf("=");
    return { label: entry.slice(0, at), file: path.resolve(entry.slice(at + 1)) };
  });
  const variants: Variant[] = [{ label: "node (prints a line, exits)", start: nodeFloor }];
  try {
    for (const [i, bundle] of bundles.entries()) {
      const dir = path.join(root, `package-${i}`);
      fs.mkdirSync(dir);
      const { executable, files } = providerPackageFiles({ source: "registry.terraform.io/ods/ods", version: "0.1.0", bundle: fs.readFileSync(bundle.file) });
      for (const [name, data] of files) fs.writeFileSync(path.join(dir, name), data, { mode: 0o755 });
      const exe = path.join(dir, executable);
      const warmCache = path.join(root, `cache-${i}`);
      fs.mkdirSync(warmCache, { mode: 0o700 });
      await timedStart(exe, warmCache); // leaves the code cache behind
      let cold = 0;
      variants.push(
        { label: `${bundle.label}, code cache warm`, start: () => timedStart(exe, warmCache) },
        {
          label: `${bundle.label}, code cache cold`,
          start: () => {
            const dirCold = path.join(root, `cold-${i}-${cold++}`);
            fs.mkdirSync(dirCold, { mode: 0o700 });
            return timedStart(exe, dirCold);
          },
        },
      );
    }
    const results = new Map<string, StartTimes[]>(variants.map((v) => [v.label, []]));
    const load: string[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      for (const v of variants) results.get(v.label)!.push(await v.start());
      if (round === 1 || round === ROUNDS) load.push(os.loadavg()[0].toFixed(1));
    }
    const lines = [
      `# terraform-provider-ods start-up, ${ROUNDS} interleaved rounds`,
      "",
      `Node ${process.version}, ${os.cpus().length} cores, load average ${load.join(" then ")} (1 min). Medians; ms from spawning the package's executable.`,
      "",
      "| variant | handshake line ms | first answer (GetProviderSchema) ms | process CPU ms |",
      "|---|---:|---:|---:|",
      ...variants.map((v) => {
        const r = results.get(v.label)!;
        return `| ${v.label} | ${median(r.map((x) => x.handshakeMs)).toFixed(0)} | ${median(r.map((x) => x.firstAnswerMs)).toFixed(0)} | ${median(r.map((x) => x.cpuMs)).toFixed(0)} |`;
      }),
      "",
    ];
    process.stdout.write(lines.join("\n"));
    fs.mkdirSync(path.join(ROOT, "bench/results"), { recursive: true });
    fs.writeFileSync(path.join(ROOT, "bench/results/startup.md"), lines.join("\n"));
    process.stdout.write("written: bench/results/startup.md\n");
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`startup bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
