// `ods terraform serve`: one provider process that terraform commands attach to through
// TF_REATTACH_PROVIDERS, driven with the real `ods` CLI and the real `terraform`.
// Each attached command gets its own provider instance: two commands at once, for two
// organizations, each write only to their own; the process outlives them, and stops on
// SIGTERM or when idle, taking its private socket directory with it.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { removeTempDirs, runOds, tempDir } from "../helpers/ods-cli";
import { TerraformWorkspace, hasTerraform, installProvider, odsConfig, terraformEnv } from "./harness";

let orgA: EmulatorHandle;
let orgB: EmulatorHandle;
/** An organization whose service answers 429 past 5 requests per second. */
let limited: EmulatorHandle;
const LIMIT = 5;
let cliConfig: string;
const started: number[] = [];

beforeAll(async () => {
  if (!hasTerraform) return;
  orgA = await startEmulator({ port: 0, dataDir: tempDir("ods-emu-a-") });
  orgB = await startEmulator({ port: 0, dataDir: tempDir("ods-emu-b-") });
  limited = await startEmulator({ port: 0, dataDir: tempDir("ods-emu-limited-"), rateLimitPerSecond: LIMIT });
  cliConfig = installProvider();
});
afterAll(async () => {
  for (const pid of started) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone, as it should be
    }
  }
  await orgA?.close();
  await orgB?.close();
  await limited?.close();
  removeTempDirs();
});

interface Served {
  pid: number;
  reattach: string;
  socket: string;
  stdout: string;
  stderr: string;
  logFile: string;
}

/** `ods terraform serve --detach` with the target in its environment, as a CI step runs it. */
async function serve(target: EmulatorHandle, ...args: string[]): Promise<Served> {
  const logFile = path.join(tempDir("ods-serve-log-"), "provider.log");
  const r = await runOds(["terraform", "serve", "--detach", "--log-file", logFile, ...args], {
    env: { ODS_URL: target.url, ODS_TOKEN: target.adminToken, TF_LOG_PROVIDER: "debug", ODS_PROVIDER_CACHE_DIR: tempDir("ods-serve-cache-") },
    timeoutMs: 60_000,
  });
  expect(r.code, r.stderr).toBe(0);
  const reattach = /^export TF_REATTACH_PROVIDERS='(.+)'$/m.exec(r.stdout)?.[1];
  const pid = Number(/^export ODS_PROVIDER_SERVER_PID=(\d+)$/m.exec(r.stdout)?.[1]);
  expect(reattach, r.stdout).toBeDefined();
  started.push(pid);
  const config = JSON.parse(reattach!) as Record<string, { Pid: number; Test: boolean; Addr: { Network: string; String: string } }>;
  const entry = config["registry.terraform.io/ods/ods"];
  expect(entry).toMatchObject({ Pid: pid, Test: true, Addr: { Network: "unix" } });
  return { pid, reattach: reattach!, socket: entry.Addr.String, stdout: r.stdout, stderr: r.stderr, logFile };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits (bounded) for a process to be gone. */
async function gone(pid: number, withinMs: number): Promise<boolean> {
  for (const until = Date.now() + withinMs; Date.now() < until; ) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return !alive(pid);
}

function stack(prefix: string, provider: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    ...odsConfig({
      resource: {
        ods_role: { r: { name: `${prefix}-readers`, description: "served", members: [], org_capabilities: { datasets: ["read"] } } },
        ods_notifier: { n: { name: `${prefix}-oncall`, properties: { email: { emails: ["a@example.com"] } } } },
      },
    }),
    provider: { ods: provider },
  };
}

describe.skipIf(!hasTerraform)("terraform attached to a served provider", () => {
  it("serves two terraform commands at once, each with its own configuration, and outlives them", { timeout: 300_000 }, async () => {
    const served = await serve(orgA, "--idle-exit", "0");
    const env = { TF_REATTACH_PROVIDERS: served.reattach };
    // Workspace a: the served provider's environment (org A). Workspace b: org B, named in the provider block.
    const a = new TerraformWorkspace(cliConfig, { url: "http://127.0.0.1:9", token: "not-this-one" }, undefined, env);
    const b = new TerraformWorkspace(cliConfig, { url: "http://127.0.0.1:9", token: "not-this-one" }, undefined, env);
    a.writeConfig(stack("ws-a"));
    b.writeConfig({ ...stack("ws-b", { url: orgB.url, token: "${var.token}" }), variable: { token: { type: "string", sensitive: true } } });
    const bEnv = { TF_VAR_token: orgB.adminToken };
    const b2 = new TerraformWorkspace(cliConfig, { url: "http://127.0.0.1:9", token: "not-this-one" }, b.dir, { ...env, ...bEnv });

    for (const ws of [a, b2]) {
      const init = await ws.run("init");
      expect(init.status, init.out).toBe(0);
    }
    const [applyA, applyB] = await Promise.all([a.run("apply", "-auto-approve"), b2.run("apply", "-auto-approve")]);
    expect(applyA.status, applyA.out).toBe(0);
    expect(applyB.status, applyB.out).toBe(0);
    expect(applyA.out).toMatch(/2 added/);
    expect(applyB.out).toMatch(/2 added/);

    // Each organization holds its own workspace's objects and nothing of the other's.
    const names = async (emu: EmulatorHandle) => {
      const client = new OdsClient({ url: emu.url, token: emu.adminToken });
      try {
        return (await client.listRoles()).map((r) => r.name).sort();
      } finally {
        await client.close();
      }
    };
    expect(await names(orgA)).toContain("ws-a-readers");
    expect(await names(orgA)).not.toContain("ws-b-readers");
    expect(await names(orgB)).toContain("ws-b-readers");
    expect(await names(orgB)).not.toContain("ws-a-readers");

    // Converged, through the same process, which is still the one serving.
    for (const ws of [a, b2]) {
      const plan = await ws.run("plan", "-detailed-exitcode");
      expect(plan.status, plan.out).toBe(0);
    }
    expect(alive(served.pid)).toBe(true);
    // Terraform did not start a provider of its own: no plugin process other than the served one.
    expect(fs.existsSync(path.join(a.dir, ".terraform/providers/registry.terraform.io/ods"))).toBe(false);

    // No token anywhere: what serve printed, the provider's debug log, terraform's output.
    const log = fs.readFileSync(served.logFile, "utf8");
    expect(log).toMatch(/ReadResource|PlanResourceChange|ApplyResourceChange/);
    for (const text of [served.stdout, served.stderr, log, applyA.out, applyB.out]) {
      expect(text).not.toContain(orgA.adminToken);
      expect(text).not.toContain(orgB.adminToken);
    }

    // SIGTERM: the process ends and its private socket directory goes with it.
    expect(fs.statSync(path.dirname(served.socket)).mode & 0o777).toBe(0o700);
    process.kill(served.pid, "SIGTERM");
    expect(await gone(served.pid, 10_000)).toBe(true);
    expect(fs.existsSync(path.dirname(served.socket))).toBe(false);
    // And a terraform command attached to it now fails plainly instead of starting its own provider.
    const after = await a.run("plan");
    expect(after.status).not.toBe(0);
  });

  it("keeps two commands for one organization under its one budget together: no 429", { timeout: 180_000 }, async () => {
    const served = await serve(limited, "--idle-exit", "0");
    try {
      const env = { TF_REATTACH_PROVIDERS: served.reattach };
      // Each command alone keeps under the limit; two side by side with a limiter each would not.
      const notifiers = (prefix: string) =>
        Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`n${i}`, { name: `${prefix}-${i}`, properties: { email: { emails: ["a@example.com"] } } }]));
      const workspaces = ["one", "two"].map((prefix) => {
        const ws = new TerraformWorkspace(cliConfig, { url: limited.url, token: limited.adminToken }, undefined, env);
        ws.writeConfig({ ...odsConfig({ resource: { ods_notifier: notifiers(prefix) } }), provider: { ods: { rate_limit_per_second: LIMIT } } });
        return ws;
      });
      for (const ws of workspaces) expect((await ws.run("init")).status).toBe(0);
      limited.resetRequests();
      const applies = await Promise.all(workspaces.map((ws) => ws.run("apply", "-auto-approve")));
      for (const a of applies) expect(a.status, a.out).toBe(0);
      const log = limited.requests();
      expect(log.filter((r) => r.method === "POST").length).toBe(16);
      expect(log.filter((r) => r.status === 429)).toEqual([]);
    } finally {
      process.kill(served.pid, "SIGTERM");
      expect(await gone(served.pid, 10_000)).toBe(true);
    }
  });

  it("compiles each changed query once per apply, served or started (its processes share a journal); with ODS_PROVIDER_CACHE_DIR=off a started provider compiles it in both walks", { timeout: 240_000 }, async () => {
    const admin = new OdsClient({ url: orgA.url, token: orgA.adminToken });
    await admin.createDataset({ name: "served-queries" } as never);
    await admin.close();
    const vfields = (prefix: string, expression: string) =>
      odsConfig({ resource: { ods_virtual_field: Object.fromEntries([1, 2].map((i) => [`v${i}`, { dataset: "served-queries", name: `${prefix}-${i}`, expression: `${expression} + ${i}` }])) } });
    const compiles = () => orgA.requests().filter((r) => r.method === "POST" && r.path === "/v1/datasets/_apl").length;
    const served = await serve(orgA, "--idle-exit", "0");
    try {
      const target = { url: orgA.url, token: orgA.adminToken };
      const attached = new TerraformWorkspace(cliConfig, target, undefined, { TF_REATTACH_PROVIDERS: served.reattach });
      const own = new TerraformWorkspace(cliConfig, target);
      const unjournaled = new TerraformWorkspace(cliConfig, target, undefined, { ODS_PROVIDER_CACHE_DIR: "off" });
      attached.writeConfig(vfields("served", "1 + 2"));
      own.writeConfig(vfields("started", "1 + 2"));
      unjournaled.writeConfig(vfields("off", "1 + 2"));
      for (const ws of [attached, own, unjournaled]) expect((await ws.run("init")).status).toBe(0);
      for (const expression of ["1 + 2", "2 + 3"]) {
        attached.writeConfig(vfields("served", expression));
        orgA.resetRequests();
        const apply = await attached.run("apply", "-auto-approve");
        expect(apply.status, apply.out).toBe(0);
        expect(compiles()).toBe(2);
      }
      for (const [ws, expected] of [[own, 2], [unjournaled, 4]] as const) {
        orgA.resetRequests();
        const apply = await ws.run("apply", "-auto-approve");
        expect(apply.status, apply.out).toBe(0);
        expect(compiles()).toBe(expected);
      }
    } finally {
      process.kill(served.pid, "SIGTERM");
      expect(await gone(served.pid, 10_000)).toBe(true);
    }
  });

  it("exits by itself after --idle-exit seconds without a terraform command", { timeout: 60_000 }, async () => {
    const served = await serve(orgA, "--idle-exit", "1");
    expect(await gone(served.pid, 15_000)).toBe(true);
    expect(fs.existsSync(path.dirname(served.socket))).toBe(false);
  });

  it("runs in the foreground without --detach, printing the same lines, until idle", { timeout: 60_000 }, async () => {
    const r = await runOds(["terraform", "serve", "--idle-exit", "1"], { env: { ODS_URL: orgA.url, ODS_TOKEN: orgA.adminToken }, timeoutMs: 30_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^export TF_REATTACH_PROVIDERS='\{"registry\.terraform\.io\/ods\/ods":/m);
    expect(r.stderr).toMatch(/reads? ODS_URL, ODS_TOKEN|read ODS_URL, ODS_TOKEN/);
    expect(r.stdout + r.stderr).not.toContain(orgA.adminToken);
  });

  /** The environment a CI job gives `ods terraform serve -- ...` for the workspace's terraform. */
  const jobEnv = (target: EmulatorHandle): Record<string, string> => ({
    ...terraformEnv(cliConfig, { url: target.url, token: target.adminToken }),
    // Were terraform to start a provider of its own, it would run this and fail.
    ODS_PROVIDER_NODE: "/nonexistent/node",
    ODS_PROVIDER_CACHE_DIR: tempDir("ods-serve-cache-"),
  });
  const servedPid = (out: string): number => Number(/^served=(\d+)$/m.exec(out)?.[1]);

  it("serves the provider for one command (-- COMMAND), stops it when the command ends, and exits with the command's code", { timeout: 180_000 }, async () => {
    const dir = tempDir("ods-serve-cmd-");
    const writeStack = (description: string) => {
      const config = stack("cmd");
      ((config.resource as Record<string, Record<string, Record<string, unknown>>>).ods_role.r as Record<string, unknown>).description = description;
      fs.writeFileSync(path.join(dir, "main.tf.json"), JSON.stringify(config));
    };
    writeStack("served");
    const logFile = path.join(dir, "provider.log");
    const script = [
      "terraform init -input=false -no-color > /dev/null",
      "terraform apply -auto-approve -input=false -no-color",
      "terraform plan -detailed-exitcode -input=false -no-color > /dev/null",
      'echo "served=$ODS_PROVIDER_SERVER_PID"',
    ].join(" && ");
    const first = await runOds(["terraform", "serve", "--log-file", logFile, "--", "sh", "-c", script], { cwd: dir, env: jobEnv(orgA), timeoutMs: 150_000 });
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(first.stdout).toMatch(/Apply complete! Resources: 2 added/);
    // Terraform attached to the served provider: it installed and started none of its own.
    expect(fs.existsSync(path.join(dir, ".terraform/providers/registry.terraform.io/ods"))).toBe(false);
    const socket = /serving on (\S+) \(pid/.exec(fs.readFileSync(logFile, "utf8"))?.[1];
    expect(socket).toBeDefined();
    const socketDir = path.dirname(socket!);
    const client = new OdsClient({ url: orgA.url, token: orgA.adminToken });
    try {
      expect((await client.listRoles()).find((r) => r.name === "cmd-readers")?.description).toBe("served");
    } finally {
      await client.close();
    }
    // Gone with the command: the process and its private socket directory.
    const pid = servedPid(first.stdout);
    expect(pid).toBeGreaterThan(0);
    expect(alive(pid)).toBe(false);
    expect(fs.existsSync(socketDir)).toBe(false);
    for (const text of [first.stdout, first.stderr, fs.readFileSync(logFile, "utf8")]) expect(text).not.toContain(orgA.adminToken);

    // The command's exit code is ods's: a plan with changes, -detailed-exitcode, exits 2.
    writeStack("changed");
    const second = await runOds(["terraform", "serve", "--", "terraform", "plan", "-detailed-exitcode", "-input=false", "-no-color"], { cwd: dir, env: jobEnv(orgA), timeoutMs: 120_000 });
    expect(second.code, second.stdout + second.stderr).toBe(2);
    expect(second.stdout).toMatch(/1 to change/);
  });

  it("stops the provider served for a command when ods itself is killed", { timeout: 60_000 }, async () => {
    let pids: { served: number; shell: number } | undefined;
    const run = runOds(["terraform", "serve", "--", "sh", "-c", 'echo "served=$ODS_PROVIDER_SERVER_PID shell=$$"; exec sleep 50 > /dev/null 2>&1'], {
      env: jobEnv(orgA),
      timeoutMs: 40_000,
      onStdout: (chunk, child) => {
        const m = /served=(\d+) shell=(\d+)/.exec(chunk);
        if (!m || pids) return;
        pids = { served: Number(m[1]), shell: Number(m[2]) };
        child.kill("SIGKILL");
      },
    });
    const r = await run;
    expect(r.signal).toBe("SIGKILL");
    expect(pids).toBeDefined();
    try {
      expect(await gone(pids!.served, 10_000)).toBe(true);
    } finally {
      process.kill(pids!.shell, "SIGKILL");
    }
  });

  it("refuses --detach with a command, and reports a command that cannot run", async () => {
    const both = await runOds(["terraform", "serve", "--detach", "--", "true"], { env: jobEnv(orgA) });
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--detach and a command exclude each other/);
    expect(both.stdout).not.toContain("TF_REATTACH_PROVIDERS");
    const missing = await runOds(["terraform", "serve", "--", "no-such-command-here"], { env: jobEnv(orgA) });
    expect(missing.code).toBe(127);
    expect(missing.stderr).toMatch(/cannot run no-such-command-here/);
  });

  it("refuses a malformed --idle-exit before starting anything", async () => {
    const r = await runOds(["terraform", "serve", "--detach", "--idle-exit", "soon"], { env: { ODS_URL: orgA.url, ODS_TOKEN: orgA.adminToken } });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/--idle-exit.*whole number of seconds/);
    expect(r.stdout).not.toContain("TF_REATTACH_PROVIDERS");
  });
});
