// The watcher's trust boundary, end to end with the built CLI, a real git repository and
// the emulator on 127.0.0.1: the repository's app runs without the watcher's credentials,
// `--no-synth` runs none of the repository's code, a credential in the source URL is
// never shown, the watcher's token never goes to a service the repository names, and an
// address other hosts can reach is warned about.
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { removeTempDirs, runOds, tempDir } from "../helpers/ods-cli";
import { eventually, Repo, stackJson, WatchProcess } from "./fixture";

let emu: EmulatorHandle;
let admin: OdsClient;
const running: WatchProcess[] = [];
const servers: http.Server[] = [];

beforeAll(async () => {
  emu = await startEmulator({ port: 0, dataDir: tempDir("ods-emu-") });
  admin = new OdsClient({ url: emu.url, token: emu.adminToken });
});
afterEach(async () => {
  for (const w of running.splice(0)) w.kill();
  for (const s of servers.splice(0)) await new Promise<void>((r) => { s.closeAllConnections(); s.close(() => r()); });
});
afterAll(async () => {
  await admin.close();
  await emu.close();
  removeTempDirs();
});

function roleStack(prefix: string, provider?: Record<string, unknown>): Record<string, unknown> {
  const s = stackJson({ ods_role: { readers: { name: `${prefix}-readers`, description: "read" } } });
  return provider ? { ...s, provider: { ods: [provider] } } : s;
}

/** An HTTP server on 127.0.0.1 that answers 403 to everything and records what it was sent. */
async function trap(): Promise<{ url: string; requests: { url: string; authorization?: string }[] }> {
  const requests: { url: string; authorization?: string }[] = [];
  const server = http.createServer((req, res) => {
    requests.push({ url: req.url ?? "", authorization: req.headers.authorization });
    res.writeHead(403, { "content-type": "text/plain" });
    res.end("no\n");
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

describe("ods watch: the repository is code the watcher runs", () => {
  it("gives the repository's app no service or backend credential, only the base environment and the --synth-env variables", async () => {
    const dir = tempDir("ods-watch-trust-");
    const envFile = path.join(dir, "app-env.json");
    const repo = Repo.create(path.join(dir, "origin"), roleStack("t1"));
    // A commit whose app also writes everything it was given where the test can read it.
    const app = fs.readFileSync(path.join(repo.dir, "synth.js"), "utf8");
    fs.writeFileSync(path.join(repo.dir, "synth.js"), `${app}\nfs.writeFileSync(${JSON.stringify(envFile)}, JSON.stringify(process.env));\n`);
    repo.commit(roleStack("t1"), "an app that records its environment");

    const secrets = {
      ODS_URL: emu.url,
      ODS_TOKEN: emu.adminToken,
      PGPASSWORD: "pg-password-9f2c",
      PGUSER: "watcher",
      PG_CONN_STR: "postgres://watcher:pg-conn-secret-1b7e@127.0.0.1:1/state",
      DATABASE_URL: "postgres://watcher:db-url-secret-77aa@127.0.0.1:1/db",
      TF_HTTP_PASSWORD: "tf-http-secret-31d0",
      TF_VAR_ods_token: "tf-var-secret-5e21",
      AWS_SECRET_ACCESS_KEY: "aws-secret-c0ffee",
      GITHUB_TOKEN: "ghp_watcher_secret_42",
      npm_config__authToken: "npm-auth-secret-8d8d",
    };
    const r = await runOds(
      ["watch", "--once", "--source", repo.dir, "--state", path.join(dir, "state.json"), "--workdir", path.join(dir, "checkout"), "--listen", "127.0.0.1:0", "--synth-env", "NPM_TOKEN", "--synth-env", "BUILD_FLAVOUR"],
      { cwd: dir, env: { ...secrets, NPM_TOKEN: "npm-token-for-the-app", BUILD_FLAVOUR: "prod", LANG: "C.UTF-8", LC_TIME: "C", HTTPS_PROXY: "http://proxy.invalid:3128", npm_config_cache: path.join(dir, "npm-cache") } },
    );
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stdout).toMatch(/stack=app .*result=applied/);
    expect((await admin.listRoles()).some((role) => role.name === "t1-readers")).toBe(true); // the watcher itself had its token

    const seen = JSON.parse(fs.readFileSync(envFile, "utf8")) as Record<string, string>;
    const text = JSON.stringify(seen);
    for (const [name, value] of Object.entries(secrets)) {
      expect(seen[name], name).toBeUndefined();
      expect(text, name).not.toContain(value);
    }
    expect(Object.keys(seen).filter((n) => /^(ODS_|PG|TF_|AWS_|DATABASE_)/.test(n))).toEqual([]);
    // What it needs, and what the operator chose to give it.
    expect(seen).toMatchObject({
      NPM_TOKEN: "npm-token-for-the-app",
      BUILD_FLAVOUR: "prod",
      LANG: "C.UTF-8",
      LC_TIME: "C",
      HTTPS_PROXY: "http://proxy.invalid:3128",
      npm_config_cache: path.join(dir, "npm-cache"),
      PATH: process.env.PATH,
      CHECKPOINT_DISABLE: "1",
    });
    expect(seen.CDKTF_OUTDIR).toBe(path.join(dir, "checkout", "cdktf.out"));
    expect(seen.HOME).toBeDefined();
  }, 60_000);

  it("refuses a --synth-env that is not a variable's name", async () => {
    const dir = tempDir("ods-watch-trust-");
    const r = await runOds(["watch", "--once", "--source", dir, "--listen", "127.0.0.1:0", "--synth-env", "NPM_TOKEN=abc-secret-value"], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("--synth-env expects the name of a variable");
    expect(r.stdout + r.stderr).not.toContain("abc-secret-value");
  }, 30_000);

  it("with --no-synth runs none of the repository's code: the committed cdktf.out is planned and applied", async () => {
    const dir = tempDir("ods-watch-trust-");
    const marker = path.join(dir, "the-app-ran");
    const repo = Repo.create(path.join(dir, "origin"), roleStack("t2"));
    // The configuration synthesized by CI and committed, and an app that must not run.
    const out = path.join(repo.dir, "cdktf.out");
    fs.mkdirSync(path.join(out, "stacks", "app"), { recursive: true });
    fs.writeFileSync(path.join(out, "stacks", "app", "cdk.tf.json"), JSON.stringify(roleStack("t2"), null, 2));
    fs.writeFileSync(
      path.join(out, "manifest.json"),
      JSON.stringify({ version: "0.21.0", stacks: { app: { name: "app", constructPath: "app", dependencies: [], synthesizedStackPath: "stacks/app/cdk.tf.json", workingDirectory: "stacks/app", annotations: [] } } }),
    );
    fs.writeFileSync(path.join(repo.dir, "synth.js"), `require("fs").writeFileSync(${JSON.stringify(marker)}, "ran");\nprocess.exit(1);\n`);
    repo.commit(roleStack("t2"), "cdktf.out committed");

    const r = await runOds(["watch", "--once", "--no-synth", "--source", repo.dir, "--state", path.join(dir, "state.json"), "--workdir", path.join(dir, "checkout"), "--listen", "127.0.0.1:0"], {
      cwd: dir,
      env: { ODS_URL: emu.url, ODS_TOKEN: emu.adminToken },
    });
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stdout).toMatch(/stack=app .*result=applied/);
    expect(fs.existsSync(marker)).toBe(false);
    expect((await admin.listRoles()).some((role) => role.name === "t2-readers")).toBe(true);
  }, 60_000);

  it("never sends the watcher's token to a service a provider block of the repository names", async () => {
    const dir = tempDir("ods-watch-trust-");
    const elsewhere = await trap();
    const repo = Repo.create(path.join(dir, "origin"), roleStack("t3", { url: elsewhere.url }));
    const r = await runOds(["watch", "--once", "--source", repo.dir, "--state", path.join(dir, "state.json"), "--workdir", path.join(dir, "checkout"), "--listen", "127.0.0.1:0"], {
      cwd: dir,
      env: { ODS_URL: emu.url, ODS_TOKEN: emu.adminToken },
    });
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(1);
    expect(r.stdout).toContain(`provider ods: the repository sends the watcher's token to ${elsewhere.url}, not to the watcher's service ${emu.url}:`);
    expect(elsewhere.requests).toEqual([]);
    expect(r.stdout + r.stderr).not.toContain(emu.adminToken);

    // A block with a token of its own may name its service (here the emulator, with the admin's token as a variable).
    const own = Repo.create(path.join(dir, "origin-own"), roleStack("t3b", { url: emu.url, token: "${var.ods_token}" }));
    const withOwn = JSON.parse(fs.readFileSync(path.join(own.dir, "stack.json"), "utf8")) as Record<string, unknown>;
    own.commit({ ...withOwn, variable: { ods_token: { type: "string", sensitive: true } } }, "its own token");
    const ok = await runOds(["watch", "--once", "--source", own.dir, "--state", path.join(dir, "state-own.json"), "--workdir", path.join(dir, "checkout-own"), "--listen", "127.0.0.1:0"], {
      cwd: dir,
      env: { ODS_URL: elsewhere.url, ODS_TOKEN: "the-watchers-own-token", TF_VAR_ods_token: emu.adminToken },
    });
    expect(ok.code, `${ok.stdout}\n${ok.stderr}`).toBe(0);
    expect(elsewhere.requests).toEqual([]);
  }, 60_000);
});

describe("ods watch: what it shows", () => {
  const PASSWORD = "pw-in-userinfo-3c9d";
  const QUERY_TOKEN = "glpat-query-token-8a1f";
  const FRAGMENT = "fragment-secret-77b0";

  it("hides credentials of every part of the source URL in the start line, round_failed, /status and git's own messages", async () => {
    const dir = tempDir("ods-watch-trust-");
    const forge = await trap(); // a git server that refuses: git's error echoes the URL
    const source = `${forge.url}/platform/obs.git?private_token=${QUERY_TOKEN}&ref=x#${FRAGMENT}`;
    const userSource = source.replace("http://", `http://oauth2:${PASSWORD}@`);
    const w = new WatchProcess(["--source", userSource, "--interval", "2s", "--jitter", "0%", "--state", path.join(dir, "state.json"), "--workdir", path.join(dir, "checkout")], {
      cwd: dir,
      env: { ODS_URL: emu.url, ODS_TOKEN: emu.adminToken },
    });
    running.push(w);
    const log = (): string => `stdout:\n${w.stdout}\nstderr:\n${w.stderr}`;
    const failed = await eventually("a failed round", 20_000, () => w.lines().find((l) => l.event === "round_failed"), log);
    expect(forge.requests.length).toBeGreaterThan(0); // git did reach it
    const start = w.lines().find((l) => l.event === "start");
    expect(String(start?.message)).toContain(`following ${forge.url.replace("http://", "http://***@")}/platform/obs.git?private_token=***&ref=***#*** branch main`);
    expect(String(failed.message)).toMatch(/git fetch .* failed \(exit \d+\)/);
    const status = (await w.get("/status")).body;
    expect(JSON.parse(status)).toMatchObject({ source: expect.stringContaining("private_token=***"), lastRoundError: expect.stringContaining("git fetch") });
    const metrics = (await w.get("/metrics")).body;
    for (const secret of [PASSWORD, QUERY_TOKEN, FRAGMENT]) expect(w.stdout + w.stderr + status + metrics, secret).not.toContain(secret);
  }, 60_000);

  it("warns, before it serves anything, that a non-loopback --listen serves /status to whoever reaches it", async () => {
    const dir = tempDir("ods-watch-trust-");
    const repo = Repo.create(path.join(dir, "origin"), roleStack("t4"));
    // 192.0.2.1 (TEST-NET-1) is no address of this host: the warning comes, then binding fails, and nothing listens beyond 127.0.0.1.
    const r = await runOds(["watch", "--once", "--source", repo.dir, "--workdir", path.join(dir, "checkout"), "--listen", "192.0.2.1:0"], {
      cwd: dir,
      env: { ODS_URL: emu.url, ODS_TOKEN: emu.adminToken },
    });
    expect(r.stderr).toMatch(/Warning: --listen 192\.0\.2\.1:0 is not a loopback address: whoever reaches it reads, without a credential, the status page \/ and \/status \(every stack, the revision applied, each drifted object with its attributes' live and desired values, pending plans/);
    expect(r.stderr).toContain("NetworkPolicy");
    expect(r.stderr.indexOf("Warning: --listen")).toBeLessThan(r.stderr.indexOf("cannot listen"));
    expect(r.code).toBe(1);

    const quiet = await runOds(["watch", "--once", "--source", repo.dir, "--state", path.join(dir, "state.json"), "--workdir", path.join(dir, "checkout-2"), "--listen", "127.0.0.1:0"], {
      cwd: dir,
      env: { ODS_URL: emu.url, ODS_TOKEN: emu.adminToken },
    });
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).not.toContain("loopback");
  }, 60_000);
});
