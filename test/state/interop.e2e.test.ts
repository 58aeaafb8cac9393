// One state for both engines, through each backend, with the real `terraform` binary and
// the emulator on port 0: ods applies and terraform finds nothing to do; terraform
// applies and ods finds nothing to do; terraform destroys what ods made; each engine's
// lock stops the other at once; a crashed holder's lock is released with
// `ods state unlock ID`. `npm test` runs the local round trip and the conversion of the
// previous ods format; the locks, the http and the pg backends run with
// `npm run test:state-interop` (ODS_STATE_INTEROP=full): each costs a minute here.
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { readStateFile, removeTempDirs, runOds, tempDir, type RunResult } from "../helpers/ods-cli";
import { TerraformWorkspace, hasTerraform, installProvider, type TfResult } from "../terraform/harness";
import { startHttpStateServer, type HttpStateServer } from "../../bench/http-state-server";
import { startPg, type PgServer } from "../../bench/pg-server";

const FULL = process.env.ODS_STATE_INTEROP === "full";
let emu: EmulatorHandle;
let admin: OdsClient;
let cliConfig: string;
let httpServer: HttpStateServer;
let pg: PgServer | undefined;
let pgReason = "the pg round trip runs with ODS_STATE_INTEROP=full";

beforeAll(async () => {
  if (!hasTerraform) return;
  emu = await startEmulator({ port: 0, dataDir: tempDir("ods-emu-"), rateLimitPerSecond: 100_000 });
  admin = new OdsClient({ url: emu.url, token: emu.adminToken });
  cliConfig = installProvider();
  httpServer = await startHttpStateServer();
  if (FULL) {
    const started = await startPg();
    pg = started.server;
    if (!pg) pgReason = started.reason ?? "PostgreSQL did not start";
  }
  if (!pg) console.warn(`pg backend interop tests skipped: ${pgReason}`);
  if (!FULL) console.warn("state interop: the locks, http and pg round trips run with npm run test:state-interop");
}, 180_000);

afterAll(async () => {
  await admin?.close();
  await emu?.close();
  await httpServer?.close();
  pg?.stop();
  removeTempDirs();
});

/** Every kind the emulator can create from nothing, named by prefix; `v` changes values. */
function resources(p: string, v: number): Record<string, Record<string, Record<string, unknown>>> {
  return {
    ods_dataset: { logs: { name: `${p}-logs`, description: "interop" } },
    ods_virtual_field: { kb: { dataset: "${ods_dataset.logs.name}", name: "kb", expression: "bytes / 1024", unit: "KiB" } },
    ods_starred_query: { q: { dataset: "${ods_dataset.logs.name}", name: "errors", query: { apl: `['${p}-logs'] | where status >= 500`, default_limit: 50 } } },
    ods_notifier: { n: { name: `${p}-n`, properties: { email: { emails: ["z@example.com"] }, incident_a: { api_key: `key-${p}-${v}`, is_eu: true } } } },
    ods_role: { r: { name: `${p}-r`, description: `readers v${v}`, org_capabilities: { datasets: ["read"] }, dataset_capabilities: { [`${p}-logs`]: { query: ["read"] } } } },
    ods_api_token: { t: { name: `${p}-t`, description: `ci v${v}`, expires_at: "2031-01-01T00:00:00Z", org_capabilities: { notifiers: ["read"] } } },
    ods_user: { u: { email: `${p}@example.com`, name: `User ${v}`, role: "read-only" } },
    ods_view: { view: { name: `${p}-view`, apl_query: `['${p}-logs'] | where status >= 500`, description: `errors v${v}` } },
    ods_dashboard: {
      dash: {
        uid: `${p}-dash`,
        dashboard: JSON.stringify({
          name: `Dashboard v${v}`,
          owner: "X-AXIOM-EVERYONE",
          charts: [{ id: "c", type: "Statistic", query: { apl: `['${p}-logs'] | count` } }],
          layout: [{ i: "c", x: 0, y: 0, w: 4, h: 2 }],
          refreshTime: 300,
          schemaVersion: 2,
          timeWindowStart: "qr-now-1h",
          timeWindowEnd: "qr-now",
        }),
      },
    },
  };
}

class Project {
  readonly dir = tempDir("ods-interop-");
  readonly outDir = path.join(this.dir, "cdktf.out");
  readonly stackDir = path.join(this.outDir, "stacks", "main");
  readonly tf: TerraformWorkspace;

  constructor(private readonly backend: Record<string, unknown>) {
    fs.mkdirSync(this.stackDir, { recursive: true });
    this.tf = new TerraformWorkspace(cliConfig, { url: emu.url, token: emu.adminToken }, this.stackDir);
  }

  /** cdk.tf.json as cdktf writes it: construct paths in "//", the backend block, outputs. */
  write(p: string, v: number): void {
    const resource: Record<string, Record<string, Record<string, unknown>>> = {};
    for (const [type, byName] of Object.entries(resources(p, v))) {
      resource[type] = {};
      for (const [name, attrs] of Object.entries(byName)) resource[type][name] = { "//": { metadata: { path: `main/${name}`, uniqueId: name } }, ...attrs };
    }
    const stack = {
      terraform: { required_providers: { ods: { source: "registry.terraform.io/ods/ods" } }, backend: this.backend },
      provider: { ods: [{}] },
      resource,
      output: { token: { value: "${ods_api_token.t.token}", sensitive: true } },
    };
    fs.writeFileSync(path.join(this.stackDir, "cdk.tf.json"), JSON.stringify(stack, null, 2));
  }

  ods(args: string[], onStdout?: (chunk: string, child: ChildProcess) => void): Promise<RunResult> {
    return runOds([...args, "--out-dir", this.outDir, "--no-synth"], { cwd: this.dir, env: { ODS_URL: emu.url, ODS_TOKEN: emu.adminToken }, onStdout, timeoutMs: 120_000 });
  }

  /** `terraform apply` waiting at its confirmation prompt, holding the state lock. */
  async terraformAtPrompt(): Promise<{ child: ChildProcess; done: Promise<TfResult> }> {
    const env = { ...process.env, TF_CLI_CONFIG_FILE: cliConfig, CHECKPOINT_DISABLE: "1", ODS_URL: emu.url, ODS_TOKEN: emu.adminToken };
    const child = spawn("terraform", ["apply", "-no-color"], { cwd: this.stackDir, env, stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    let prompted: () => void = () => undefined;
    const atPrompt = new Promise<void>((resolve) => (prompted = resolve));
    const collect = (d: Buffer): void => {
      out += d.toString();
      if (out.includes("Enter a value:")) prompted();
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    const timer = setTimeout(() => child.kill("SIGKILL"), 180_000);
    const done = new Promise<TfResult>((resolve) => child.on("close", (status) => {
      clearTimeout(timer);
      prompted();
      resolve({ status, out });
    }));
    await atPrompt;
    if (!out.includes("Enter a value:")) throw new Error(`terraform apply did not ask for confirmation:\n${out}`);
    return { child, done };
  }
}

function ok(r: RunResult | TfResult): void {
  const code = "code" in r ? r.code : r.status;
  expect(code, "out" in r ? r.out : `${r.stdout}\n${r.stderr}`).toBe(0);
}

/** Each declared object lives exactly once (no duplicate from the other engine). */
async function expectEachOnce(p: string): Promise<void> {
  expect((await admin.listDatasets()).filter((d) => d.name === `${p}-logs`)).toHaveLength(1);
  expect((await admin.listVirtualFields(`${p}-logs`)).filter((f) => f.name === "kb")).toHaveLength(1);
  expect((await admin.listAllStarredQueries({ dataset: `${p}-logs`, who: "all" })).filter((q) => q.name === "errors")).toHaveLength(1);
  expect((await admin.listNotifiers()).filter((n) => n.name === `${p}-n`)).toHaveLength(1);
  expect((await admin.listRoles()).filter((r) => r.name === `${p}-r`)).toHaveLength(1);
  expect((await admin.listUsers()).filter((u) => u.email === `${p}@example.com`)).toHaveLength(1);
}

async function roundTrip(project: Project, p: string): Promise<void> {
  project.write(p, 1);
  ok(await project.ods(["apply", "--auto-approve"]));
  ok(await project.tf.run("init"));
  ok(await project.tf.run("plan", "-detailed-exitcode"));
  // The provider's refresh stores exactly the attributes ods stored for the same objects.
  const attributesNow = async (): Promise<Record<string, unknown>> => {
    const doc = JSON.parse((await project.ods(["state", "pull"])).stdout) as { resources: { mode: string; type: string; name: string; instances: { attributes: unknown }[] }[] };
    return Object.fromEntries(doc.resources.filter((r) => r.mode === "managed").map((r) => [`${r.type}.${r.name}`, r.instances[0].attributes]));
  };
  const byOds = await attributesNow();
  ok(await project.tf.run("apply", "-refresh-only", "-auto-approve"));
  expect(await attributesNow()).toEqual(byOds);
  const tfToken = (await project.tf.run("output", "-raw", "token")).out;
  const odsToken = (await project.ods(["output", "token", "--show-sensitive"])).stdout.trim();
  expect(odsToken).toMatch(/^odst_/);
  expect(tfToken).toBe(odsToken);

  // Terraform applies a changed stack (an update, a changed secret, a rotated token).
  project.write(p, 2);
  ok(await project.tf.run("apply", "-auto-approve"));
  // Terraform kept ods's private data of the objects it refreshed and updated.
  const stored = JSON.parse((await project.ods(["state", "pull"])).stdout) as { resources: { type: string; instances: { private?: string }[] }[] };
  for (const type of ["ods_dataset", "ods_role"]) {
    const priv = stored.resources.find((r) => r.type === type)?.instances[0].private;
    expect(JSON.parse(Buffer.from(priv ?? "", "base64").toString("utf8") || "{}").ods?.salt, type).toBeTruthy();
  }
  ok(await project.ods(["plan", "--detailed-exitcode"]));
  emu.resetRequests();
  const again = await project.ods(["apply", "--auto-approve"]);
  ok(again);
  expect(again.stdout).toContain("No changes");
  expect(emu.requests().filter((q) => q.method !== "GET").map((q) => `${q.method} ${q.path}`)).toEqual([]);
  await expectEachOnce(p);
  expect((await project.ods(["output", "token", "--show-sensitive"])).stdout.trim()).toBe((await project.tf.run("output", "-raw", "token")).out);

  // Terraform destroys what both made; the guarded dataset is kept out of it.
  ok(await project.ods(["state", "rm", "ods_dataset.logs"]));
  // Without a refresh: terraform's pre-destroy refresh plans the configuration, whose
  // dataset now lives outside the state, and the provider refuses to plan its create
  // (troubleshooting.md, "Refusing to create").
  ok(await project.tf.run("destroy", "-auto-approve", "-refresh=false"));
  expect((await admin.listDatasets()).filter((d) => d.name === `${p}-logs`)).toHaveLength(1);
  expect((await admin.listNotifiers()).filter((n) => n.name === `${p}-n`)).toHaveLength(0);
  expect((await admin.listRoles()).filter((r) => r.name === `${p}-r`)).toHaveLength(0);
  expect((await admin.listUsers()).filter((u) => u.email === `${p}@example.com`)).toHaveLength(0);
  expect((await admin.listVirtualFields(`${p}-logs`)).filter((f) => f.name === "kb")).toHaveLength(0);
  expect((await admin.listAllStarredQueries({ dataset: `${p}-logs`, who: "all" })).filter((q) => q.name === "errors")).toHaveLength(0);
}

/** Each engine's lock stops the other at once, naming the holder. */
async function locksExclude(project: Project, p: string, holderPattern: RegExp): Promise<void> {
  project.write(p, 1);
  ok(await project.ods(["apply", "--auto-approve"]));
  ok(await project.tf.run("init"));
  project.write(p, 2); // a pending change: terraform asks before applying it, holding the lock
  const tf = await project.terraformAtPrompt();
  const started = Date.now();
  const blocked = await project.ods(["apply", "--auto-approve"]);
  expect(blocked.code).toBe(1);
  expect(blocked.stderr).toMatch(holderPattern);
  expect(Date.now() - started).toBeLessThan(30_000);
  tf.child.stdin?.end("no\n");
  expect((await tf.done).out).toContain("Apply cancelled");

  // The other way round: while ods applies (slowly), terraform cannot take the lock.
  emu.setFaults("latency=400ms");
  let tfResult: Promise<TfResult> | undefined;
  try {
    const applied = await project.ods(["apply", "--auto-approve"], (chunk) => {
      if (!tfResult && chunk.includes(" ...")) tfResult = project.tf.run("plan", "-lock-timeout=0s");
    });
    ok(applied);
  } finally {
    emu.setFaults(undefined);
  }
  expect(tfResult).toBeDefined();
  const refused = await tfResult!;
  expect(refused.status).toBe(1);
  expect(refused.out).toContain("Error acquiring the state lock");
}

describe.skipIf(!hasTerraform)("one state for both engines: local backend (cdktf's default)", () => {
  it("ods applies, terraform plans nothing; terraform applies, ods plans and applies nothing; terraform destroys", async () => {
    const dir = tempDir("ods-interop-");
    const project = new Project({ local: { path: path.join(dir, "terraform.main.tfstate") } });
    await roundTrip(project, "lo");
    const stateFile = path.join(dir, "terraform.main.tfstate");
    expect(fs.statSync(stateFile).mode & 0o777).toBe(0o600);
  }, 300_000);

  it.runIf(FULL)("terraform's lock stops ods at once and the other way round", async () => {
    const project = new Project({ local: { path: path.join(tempDir("ods-interop-"), "terraform.main.tfstate") } });
    await locksExclude(project, "lol", /is locked: lock ID \S+, held by \S+ \(OperationTypeApply, terraform 1\.\d+/);
  }, 300_000);

  it("converts a state of the previous ods format with no change planned and no write to the service", async () => {
    const project = new Project({ local: { path: "" } });
    const stateFile = path.join(project.dir, "terraform.main.tfstate");
    project["backend"].local = { path: stateFile };
    project.write("cv", 1);
    ok(await project.ods(["apply", "--auto-approve"]));
    // The same objects as the previous ods format kept them.
    const s = readStateFile(stateFile);
    const legacy = {
      formatVersion: 1, lineage: s.lineage, serial: s.serial, fingerprintSalt: s.fingerprintSalt, outputs: s.outputs,
      resources: Object.fromEntries(Object.entries(s.resources).map(([a, r]) => [a, {
        typeName: r.typeName, id: r.id, values: r.values, engineValues: r.engineValues, secretFingerprints: r.secretFingerprints, sensitive: r.sensitive, dependsOn: r.dependsOn,
      }])),
    };
    const legacyFile = path.join(project.dir, ".ods", "state", "main.json");
    fs.mkdirSync(path.dirname(legacyFile), { recursive: true });
    fs.writeFileSync(legacyFile, JSON.stringify(legacy));
    fs.rmSync(stateFile);
    emu.resetRequests();
    ok(await project.ods(["plan", "--detailed-exitcode"]));
    const applied = await project.ods(["apply", "--auto-approve"]);
    ok(applied);
    expect(applied.stderr).toMatch(/Converted the ods state .*main\.json to Terraform's state format/);
    expect(emu.requests().filter((q) => q.method !== "GET").map((q) => `${q.method} ${q.path}`)).toEqual([]);
    expect(fs.existsSync(`${legacyFile}.ods-v1.backup`)).toBe(true);
    expect(fs.existsSync(legacyFile)).toBe(false);
    expect(readStateFile(stateFile).resources["ods_api_token.t"].sensitive?.token).toBe(s.resources["ods_api_token.t"].sensitive?.token);
    // Terraform reads the converted state and finds nothing to do either.
    if (!FULL) return;
    ok(await project.tf.run("init"));
    ok(await project.tf.run("plan", "-detailed-exitcode"));
  }, 300_000);
});

describe.skipIf(!hasTerraform || !FULL)("one state for both engines: http backend", () => {
  it("terraform's lock stops ods at once and the other way round; a crashed holder's lock is released with ods state unlock", async () => {
    const project = new Project({ http: httpServer.backend });
    await locksExclude(project, "htl", /is locked: lock ID \S+, held by \S+ \(OperationTypeApply, terraform 1\.\d+/);
    // A terraform killed while it holds the lock leaves it on the server.
    project.write("htl", 3);
    const tf = await project.terraformAtPrompt();
    tf.child.kill("SIGKILL");
    await tf.done;
    const stale = httpServer.lock();
    expect(stale?.ID).toBeTruthy();
    const blocked = await project.ods(["apply", "--auto-approve"]);
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toContain(`release the lock with: ods state unlock ${stale!.ID}`);
    expect(blocked.stderr).not.toContain(httpServer.backend.password);
    ok(await project.ods(["state", "unlock", stale!.ID]));
    expect(httpServer.lock()).toBeUndefined();
    ok(await project.ods(["apply", "--auto-approve"]));
    ok(await project.tf.run("plan", "-detailed-exitcode"));
  }, 300_000);

  it("ods applies, terraform plans nothing; terraform applies, ods plans and applies nothing; terraform destroys", async () => {
    const server = await startHttpStateServer("other", "pw-2");
    try {
      await roundTrip(new Project({ http: server.backend }), "ht");
      expect(JSON.parse(server.state() ?? "{}").version).toBe(4);
    } finally {
      await server.close();
    }
  }, 300_000);
});

describe.skipIf(!hasTerraform || !FULL)("one state for both engines: pg backend", () => {
  it("round trip, and each engine's lock stops the other", async (ctx) => {
    if (!pg) {
      console.warn(`skipped: ${pgReason}`);
      ctx.skip();
      return;
    }
    await roundTrip(new Project({ pg: { conn_str: pg.connStr } }), "pg");
    await locksExclude(new Project({ pg: { conn_str: pg.connStr, schema_name: "second" } }), "pgl", /is locked: held by PostgreSQL session \d+/);
  }, 600_000);
});
