// Every file checked (issue 53, item 4): one notifier holding every credential the model
// lets a user supply, each fed through a variable marked sensitive (TF_VAR_...) with a
// marker value of its own, applied by every path a team uses: `ods plan --out` then
// `ods apply FILE` on the local, http and pg backends, `terraform apply` (the real 1.11),
// a round of `ods watch` whose plan is saved to its plan directory and applied, and
// `cdktf deploy` with the real cdktf-cli (installed into ~/.cache/ods-tests on first use).
// Every process runs with HOME and TMPDIR inside its leg's directory,
// so whatever it writes is scanned: every file there, and every file written there while the
// commands ran as a watcher sees it (states, .backup files, journals, pending records,
// saved plans, the watch checkout and plan directory, terraform's data directory, the
// provider's cache), every state the http server was sent, and every row of every table of the
// pg schema. The synthesized JSON holds only `${var.NAME}`, never a marker.
//
// With the write-only twins no marker is anywhere, while the emulator's stored notifier
// proves the service received every value (the emulator's data directory is the service's
// own storage, where the value legitimately lives: it is outside every scanned directory).
// The same run with the plain attributes finds every marker in each state: the scan can
// fail. Neither mode prints a marker.
import * as fs from "node:fs";
import * as path from "node:path";
import { Client } from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpStateServer, type HttpStateServer } from "../../bench/http-state-server";
import { startPg, type PgServer } from "../../bench/pg-server";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { type Attribute, isNested, resourceKind, WO_SUFFIX, WO_VERSION_SUFFIX } from "../../src/resources";
import { storedRecords } from "../helpers/emulator-store";
import { removeTempDirs, ROOT, runOds, tempDir, type RunResult } from "../helpers/ods-cli";
import { cdktfCli, runAsync } from "../packaging/consumer-harness";
import { TerraformWorkspace, hasTerraform, installProvider } from "../terraform/harness";
import { eventually, Repo, WatchProcess } from "../watch/fixture";

type Mode = "write-only" | "plain";
type Block = Record<string, unknown>;

/** A credential of the notifier's channels, as the model declares it. */
interface Credential {
  channel: string;
  name: string;
  map: boolean;
  /** The channel's other required attributes, filled with plain values. */
  others: Block;
}

/** Every credential a user supplies, taken from the model: one added later is included. */
function credentials(): Credential[] {
  const properties = resourceKind("ods_notifier")!.attributes.properties;
  if (!isNested(properties) || properties.type !== "object") throw new Error("ods_notifier.properties is no longer an object");
  const out: Credential[] = [];
  for (const [channel, attr] of Object.entries(properties.attributes)) {
    if (!isNested(attr) || attr.type !== "object") continue;
    for (const [name, a] of Object.entries(attr.attributes)) {
      if (a.writeOnlyTwin) out.push({ channel, name, map: a.type === "map", others: requiredOthers(`${channel}`, attr.attributes) });
    }
  }
  return out;
}

function requiredOthers(channel: string, attrs: Record<string, Attribute>): Block {
  const out: Block = {};
  for (const [name, a] of Object.entries(attrs)) {
    if (!a.required || a.writeOnlyTwin || a.twinRequired) continue;
    if (a.type !== "string") throw new Error(`properties.${channel}.${name}: a required ${a.type} this test does not know how to fill`);
    out[name] = `#${name}`;
  }
  return out;
}

const CREDENTIALS = credentials();
const varName = (c: Credential): string => `${c.channel}_${c.name}`;

/** The markers of one leg, one per credential, none a part of another. */
function markers(mode: Mode, leg: string): string[] {
  return CREDENTIALS.map((_, i) => `MARKER-${mode === "plain" ? "p" : "wo"}-${leg}-${i}-end`);
}

/** The TF_VAR_ values carrying the markers: URLs for URLs, a header map for headers. */
function variableEnv(marks: string[]): Record<string, string> {
  const env: Record<string, string> = {};
  CREDENTIALS.forEach((c, i) => {
    const m = marks[i];
    env[`TF_VAR_${varName(c)}`] = c.map ? JSON.stringify({ "X-Marker": m }) : /url/.test(c.name) ? `https://hooks.example.com/services/${m}` : m;
  });
  return env;
}

/** The notifier: every credential from its sensitive variable, in the mode's form. */
function notifierStack(mode: Mode, name: string, metaPrefix: string, terraformBlock: Block | undefined): Block {
  const properties: Record<string, Block> = {};
  const variable: Record<string, Block> = {};
  for (const c of CREDENTIALS) {
    variable[varName(c)] = { type: c.map ? "map(string)" : "string", sensitive: true };
    const channel = (properties[c.channel] ??= { ...c.others });
    if (mode === "plain") channel[c.name] = `\${var.${varName(c)}}`;
    else Object.assign(channel, { [`${c.name}${WO_SUFFIX}`]: `\${var.${varName(c)}}`, [`${c.name}${WO_VERSION_SUFFIX}`]: 1 });
  }
  return {
    ...(terraformBlock ? { terraform: terraformBlock } : {}),
    provider: { ods: [{}] },
    variable,
    resource: { ods_notifier: { n: { "//": { metadata: { path: `${metaPrefix}/n`, uniqueId: "n" } }, name, properties } } },
  };
}

function writeJson(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(value, null, 2));
}

/** Every regular file under DIR (symlinks are not followed: they point at installed packages). */
function filesUnder(dir: string): { where: string; bytes: Buffer }[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .map((file) => ({ where: path.relative(dir, file), bytes: fs.readFileSync(file) }));
}

/**
 * The contents of files as they are written under DIR while commands run (a recursive
 * watcher reads each file it is told of): what a run removes before its end, such as a
 * state journal, is scanned too, as far as the watcher sees it.
 */
function recordWrites(dir: string): { stop: () => { where: string; bytes: Buffer }[] } {
  const seen: { where: string; bytes: Buffer }[] = [];
  const watcher = fs.watch(dir, { recursive: true }, (_event, name) => {
    if (!name) return;
    try {
      const file = path.join(dir, name.toString());
      if (fs.statSync(file).isFile()) seen.push({ where: `${name.toString()} (while running)`, bytes: fs.readFileSync(file) });
    } catch {
      // Gone already: removed between the event and the read.
    }
  });
  return {
    stop: () => {
      watcher.close();
      return seen;
    },
  };
}

/** Which of the markers each text holds, as "where: marker" lines. */
function found(texts: { where: string; bytes: Buffer }[], marks: string[]): string[] {
  return texts.flatMap((t) => marks.filter((m) => t.bytes.includes(m)).map((m) => `${t.where}: ${m}`));
}

const text = (where: string, s: string | undefined): { where: string; bytes: Buffer } => ({ where, bytes: Buffer.from(s ?? "") });

/** What one leg leaves behind: its directory's files, the backend's storage, its output. */
interface LegResult {
  files: { where: string; bytes: Buffer }[];
  storage: { where: string; bytes: Buffer }[];
  state: { where: string; bytes: Buffer }[];
  output: string;
}

let emu: EmulatorHandle;
let dataDir: string;
let cliConfig: string | undefined;
let pg: PgServer | undefined;
let pgReason: string | undefined;
let sql: Client | undefined;

// The real cdktf-cli is installed from the npm registry into ~/.cache/ods-tests on first use
// (about a minute, once per machine). CI (ODS_REQUIRE_TERRAFORM=1) fails rather than skips
// when it cannot be installed, as it does for terraform itself.
const cdktf = hasTerraform ? cdktfCli() : undefined;
const cdktfMissing = !hasTerraform ? "`terraform` is not on PATH" : cdktf && "reason" in cdktf ? cdktf.reason : undefined;
const cdktfSkip = cdktfMissing && process.env.ODS_REQUIRE_TERRAFORM !== "1" ? cdktfMissing : undefined;
if (cdktfSkip) console.warn(`every file checked: cdktf deploy skipped: ${cdktfSkip}`);
if (!hasTerraform) console.warn("every file checked: terraform apply skipped: `terraform` is not on PATH");

beforeAll(async () => {
  dataDir = tempDir("ods-every-emu-");
  emu = await startEmulator({ port: 0, dataDir, rateLimitPerSecond: 100_000 });
  if (hasTerraform) cliConfig = installProvider();
  ({ server: pg, reason: pgReason } = await startPg());
  if (pg) {
    sql = new Client({ connectionString: pg.connStr });
    await sql.connect();
  } else console.warn(`every file checked: pg backend skipped: ${pgReason}`);
}, 180_000);

afterAll(async () => {
  await sql?.end();
  pg?.stop();
  await emu?.close();
  removeTempDirs();
});

/** The environment of every process of a leg: its home and temp inside the leg's directory. */
function legEnv(dir: string, marks: string[]): Record<string, string> {
  const home = path.join(dir, "home");
  const tmp = path.join(dir, "tmp");
  fs.mkdirSync(home, { recursive: true });
  fs.mkdirSync(tmp, { recursive: true });
  return { HOME: home, TMPDIR: tmp, ODS_URL: emu.url, ODS_TOKEN: emu.adminToken, ...variableEnv(marks) };
}

/** The service received every value: the emulator's stored notifier holds each marker. */
function expectDelivered(name: string, marks: string[]): void {
  const stored = storedRecords(dataDir, "notifiers").find((r) => r.name === name);
  expect(stored, `the emulator stored no notifier ${name}`).toBeDefined();
  const json = JSON.stringify(stored);
  expect(marks.filter((m) => !json.includes(m)), `markers the service did not receive for ${name}`).toEqual([]);
}

/**
 * One pg leg at a time: a state row not yet created is locked on the advisory key -1 of the
 * whole database, by Terraform as by ods, so two first applies in two schemas at once
 * refuse each other ("Already locked for workspace creation").
 */
let pgQueue: Promise<unknown> = Promise.resolve();
function pgTurn<T>(leg: () => Promise<T>): Promise<T> {
  const next = pgQueue.then(leg);
  pgQueue = next.catch(() => undefined);
  return next;
}

/** Every row of every table of a pg schema, as JSON. */
async function pgSchemaDump(schema: string): Promise<{ where: string; bytes: Buffer }[]> {
  const tables = await sql!.query<{ table_name: string }>("SELECT table_name FROM information_schema.tables WHERE table_schema = $1", [schema]);
  const out: { where: string; bytes: Buffer }[] = [];
  for (const { table_name } of tables.rows) {
    const rows = await sql!.query(`SELECT * FROM "${schema}"."${table_name}"`);
    out.push(text(`pg ${schema}.${table_name}`, JSON.stringify(rows.rows)));
  }
  return out;
}

function joined(...runs: RunResult[]): string {
  return runs.map((r) => `${r.stdout}\n${r.stderr}`).join("\n");
}

describe.concurrent.each<Mode>(["write-only", "plain"])("every file checked: credentials %s", (mode) => {
  let httpServer: HttpStateServer;
  const schema = mode === "plain" ? "every_plain" : "every_wo";
  beforeAll(async () => {
    httpServer = await startHttpStateServer();
  });
  afterAll(async () => {
    await httpServer?.close();
  });

  /** What each leg must show: nothing anywhere (write-only), every marker in its state (plain). */
  function check(leg: string, name: string, marks: string[], r: LegResult): void {
    expectDelivered(name, marks);
    expect(found([text("output", r.output)], marks), `${leg}: markers in the output`).toEqual([]);
    expect(r.state.length, `${leg}: no state found`).toBeGreaterThan(0);
    if (mode === "write-only") expect(found([...r.files, ...r.storage], marks), `${leg}: markers at rest`).toEqual([]);
    else {
      const inState = new Set(found(r.state, marks).map((l) => l.slice(l.lastIndexOf(": ") + 2)));
      expect(marks.filter((m) => !inState.has(m)), `${leg}: markers the plain state should hold`).toEqual([]);
    }
  }

  /** `ods plan --out` then `ods apply FILE` with the stack's backend; answers what it left. */
  async function odsLeg(leg: string, backend: Block, storage: () => Promise<{ where: string; bytes: Buffer }[]>, stateFile?: string): Promise<void> {
    const dir = tempDir(`ods-every-${leg}-`);
    const marks = markers(mode, leg);
    const name = `every-${leg}-${mode}`;
    writeJson(path.join(dir, "cdktf.out", "stacks", "main", "cdk.tf.json"), notifierStack(mode, name, "main", { backend }));
    const env = legEnv(dir, marks);
    const flags = ["--out-dir", path.join(dir, "cdktf.out"), "--no-synth"];
    const planFile = path.join(dir, "saved.plan.json");
    const recorder = recordWrites(dir);
    const plan = await runOds(["plan", "--out", planFile, ...flags], { cwd: dir, env, timeoutMs: 120_000 });
    expect(plan.code, joined(plan)).toBe(0);
    const apply = await runOds(["apply", planFile, ...flags], { cwd: dir, env, timeoutMs: 120_000 });
    expect(apply.code, joined(apply)).toBe(0);
    const again = await runOds(["plan", "--detailed-exitcode", ...flags], { cwd: dir, env, timeoutMs: 120_000 });
    expect(again.code, joined(again)).toBe(0);
    const seen = recorder.stop();
    const files = [...filesUnder(dir), ...seen];
    const stored = await storage();
    const state = stateFile ? files.filter((f) => path.basename(f.where) === stateFile) : stored;
    check(leg, name, marks, { files, storage: stored, state, output: joined(plan, apply, again) });
  }

  it("ods plan --out / ods apply FILE, local backend", async () => {
    // A relative path, as cdktf writes it: Terraform and ods resolve it in the stack's directory.
    await odsLeg("local", { local: { path: "terraform.main.tfstate" } }, async () => [], "terraform.main.tfstate");
  }, 120_000);

  it("ods plan --out / ods apply FILE, http backend", async () => {
    await odsLeg("http", { http: httpServer.backend }, async () => httpServer.posted().map((body, i) => text(`http server's copy, write ${i + 1}`, body)));
  }, 120_000);

  it("ods plan --out / ods apply FILE, pg backend", async (ctx) => {
    if (!pg) return ctx.skip(pgReason);
    await pgTurn(() => odsLeg("pg", { pg: { conn_str: pg!.connStr, schema_name: schema } }, () => pgSchemaDump(schema)));
  }, 120_000);

  /** `terraform init` / `apply` / `plan` (nothing to do) with the stack's backend. */
  async function terraformLeg(leg: string, backend: Block, storage: () => Promise<{ where: string; bytes: Buffer }[]>, stateFile?: string): Promise<void> {
    const dir = tempDir(`ods-every-${leg}-`);
    const marks = markers(mode, leg);
    const name = `every-${leg}-${mode}`;
    const stackDir = path.join(dir, "cdktf.out", "stacks", "main");
    writeJson(path.join(stackDir, "cdk.tf.json"), notifierStack(mode, name, "main", { required_providers: { ods: { source: "registry.terraform.io/ods/ods" } }, backend }));
    const tf = new TerraformWorkspace(cliConfig!, { url: emu.url, token: emu.adminToken }, stackDir, {
      ...legEnv(dir, marks),
      PLUGIN_UNIX_SOCKET_DIR: path.join(dir, "sock"),
      ODS_PROVIDER_CACHE_DIR: path.join(dir, "provider-cache"),
    });
    fs.mkdirSync(path.join(dir, "sock"));
    const recorder = recordWrites(dir);
    const init = await tf.run("init");
    expect(init.status, init.out).toBe(0);
    const apply = await tf.run("apply", "-auto-approve");
    expect(apply.status, apply.out).toBe(0);
    const again = await tf.run("plan", "-detailed-exitcode");
    expect(again.status, again.out).toBe(0);
    const files = [...filesUnder(dir), ...recorder.stop()];
    const stored = await storage();
    const state = stateFile ? files.filter((f) => path.basename(f.where) === stateFile) : stored;
    check(leg, name, marks, { files, storage: stored, state, output: init.out + apply.out + again.out });
  }

  it.skipIf(!hasTerraform)("terraform apply, local backend", async () => {
    await terraformLeg("tf", { local: { path: "terraform.main.tfstate" } }, async () => [], "terraform.main.tfstate");
  }, 180_000);

  // Terraform's own http and pg backends store what the provider answers, as the local one
  // does; checked all the same.
  it.skipIf(!hasTerraform)("terraform apply, http backend", async () => {
    const server = await startHttpStateServer();
    try {
      await terraformLeg("tfhttp", { http: server.backend }, async () => server.posted().map((body, i) => text(`http server's copy, write ${i + 1}`, body)));
    } finally {
      await server.close();
    }
  }, 180_000);

  it.skipIf(!hasTerraform)("terraform apply, pg backend", async (ctx) => {
    if (!pg) return ctx.skip(pgReason);
    const tfSchema = `${schema}_tf`;
    await pgTurn(() => terraformLeg("tfpg", { pg: { conn_str: pg!.connStr, schema_name: tfSchema } }, () => pgSchemaDump(tfSchema)));
  }, 180_000);

  it("a round of ods watch: its plan saved to the plan directory, applied with ods apply FILE, then in sync", async () => {
    const dir = tempDir("ods-every-watch-");
    const leg = "watch";
    const marks = markers(mode, leg);
    const name = `every-${leg}-${mode}`;
    const env = legEnv(dir, marks);
    const repo = Repo.create(path.join(dir, "origin"), notifierStack(mode, name, "app", undefined));
    const stateFile = path.join(dir, "state.json");
    const recorder = recordWrites(dir);
    const w = new WatchProcess(
      ["--source", repo.dir, "--interval", "2s", "--jitter", "0%", "--state", stateFile, "--workdir", path.join(dir, "checkout"), "--on-change", "plan", "--plan-dir", path.join(dir, "plans")],
      { cwd: dir, env },
    );
    const log = (): string => `stdout:\n${w.stdout}\nstderr:\n${w.stderr}`;
    let status = "";
    try {
      const planned = await eventually("a pending plan", 30_000, async () => {
        const s = await w.stack("app");
        return s?.pendingPlan ? s : undefined;
      }, log);
      const pending = planned.pendingPlan!;
      const apply = await runOds(["apply", pending.file, "--stack", "app", "--out-dir", pending.outDir, "--state", stateFile], { cwd: dir, env, timeoutMs: 120_000 });
      expect(apply.code, joined(apply)).toBe(0);
      await eventually("the next round in sync", 20_000, async () => {
        const s = await w.stack("app");
        return s?.lastReconcile?.result === "in_sync" && s.pendingPlan === null ? s : undefined;
      }, log);
      status = (await w.get("/")).body + (await w.get("/status")).body + (await w.get("/metrics")).body;
      w.child.kill("SIGTERM");
      expect((await w.exited).code, log()).toBe(0);
      const files = [...filesUnder(dir), ...recorder.stop()];
      check(leg, name, marks, { files, storage: [text("the status page, /status and /metrics", status)], state: files.filter((f) => f.where === "state.json"), output: `${w.stdout}\n${w.stderr}\n${joined(apply)}` });
    } finally {
      w.kill();
      recorder.stop();
    }
  }, 120_000);

  it.skipIf(Boolean(cdktfSkip))("cdktf deploy with the real cdktf-cli, local backend", async () => {
    const dir = tempDir("ods-every-cdktf-");
    const leg = "cdktf";
    const marks = markers(mode, leg);
    const name = `every-${leg}-${mode}`;
    const project = path.join(dir, "app");
    const stateFile = path.join(project, "terraform.every.tfstate");
    // The app writes the stack as `cdktf synth` does (a real construct tree is the
    // consumer journey's subject; here only what is stored matters).
    writeJson(path.join(project, "stack.json"), {
      "//": { metadata: { backend: "local", stackName: "every", version: "0.21.0" }, outputs: {} },
      ...notifierStack(mode, name, "every", {
        // cdktf-cli insists on a version, as the constructs write it: the package's own.
        required_providers: { ods: { source: "registry.terraform.io/ods/ods", version: PACKAGE_VERSION } },
        backend: { local: { path: stateFile } },
      }),
    });
    fs.writeFileSync(path.join(project, "synth.js"), SYNTH_APP);
    writeJson(path.join(project, "cdktf.json"), { language: "typescript", app: "node synth.js", terraformProviders: [], terraformModules: [], sendCrashReports: "false" });
    // What `eval "$(ods terraform install)"` exports (installProvider ran it): cdktf-cli locks providers from the mirror.
    const env = { ...legEnv(dir, marks), TF_CLI_CONFIG_FILE: cliConfig!, TF_CLI_ARGS_providers_lock: `-fs-mirror=${path.join(path.dirname(cliConfig!), "mirror")}`, CI: "1", TF_IN_AUTOMATION: "1", PLUGIN_UNIX_SOCKET_DIR: path.join(dir, "sock"), ODS_PROVIDER_CACHE_DIR: path.join(dir, "provider-cache") };
    fs.mkdirSync(path.join(dir, "sock"));
    const recorder = recordWrites(dir);
    if (cdktfMissing) throw new Error(`cdktf deploy cannot run: ${cdktfMissing}`);
    const deploy = await runAsync((cdktf as { bin: string }).bin, ["deploy", "every", "--auto-approve"], { cwd: project, env, timeoutMs: 600_000 });
    const out = `${deploy.stdout}\n${deploy.stderr}`;
    expect(deploy.status, out).toBe(0);
    const files = [...filesUnder(dir), ...recorder.stop()];
    check(leg, name, marks, { files, storage: [], state: files.filter((f) => f.where === path.join("app", "terraform.every.tfstate")), output: out });
  }, 600_000);
});

const PACKAGE_VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;

const SYNTH_APP = `// Writes stack.json as cdktf synth would, as the stack "every".
const fs = require("fs");
const path = require("path");
const out = process.env.CDKTF_OUTDIR || "cdktf.out";
const dir = path.join(out, "stacks", "every");
fs.mkdirSync(dir, { recursive: true });
fs.copyFileSync("stack.json", path.join(dir, "cdk.tf.json"));
fs.writeFileSync(path.join(out, "manifest.json"), JSON.stringify({ version: "0.21.0", stacks: { every: { name: "every", constructPath: "every", dependencies: [], synthesizedStackPath: "stacks/every/cdk.tf.json", workingDirectory: "stacks/every", annotations: [] } } }, null, 2));
`;
