// The provider daemon under the real `terraform`: every provider start of a command,
// and of the next command, is handed to one warm process of that environment; a
// terraform killed mid-apply leaves no session behind, and the next apply converges;
// a start with another token is
// served by a daemon with that token, never by the one before.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { stopDaemonsIn } from "../../src/tfprovider/daemon-launcher";
import type { ProviderProcessStats } from "../../src/tfprovider/provider-server";
import { processAlive as alive, removeTempDirs, tempDir, waitFor } from "../helpers/ods-cli";
import { TerraformWorkspace, hasTerraform, installProvider, odsConfig } from "./harness";

let org: EmulatorHandle;
let cliConfig: string;

beforeAll(async () => {
  if (!hasTerraform) return;
  org = await startEmulator({ port: 0, dataDir: tempDir("ods-emu-daemon-") });
  cliConfig = installProvider();
});
afterAll(async () => {
  await org?.close();
  removeTempDirs();
});


/** The ODS_PROVIDER_STATS lines written since `from`, and the new offset. */
function statsSince(file: string, from: number): { lines: ProviderProcessStats[]; next: number } {
  const lines = fs.existsSync(file) ? fs.readFileSync(file, "utf8").trim().split("\n").filter(Boolean) : [];
  return { lines: lines.slice(from).map((l) => JSON.parse(l) as ProviderProcessStats), next: lines.length };
}

const notifiers = (prefix: string, count: number) =>
  odsConfig({
    resource: {
      ods_notifier: Object.fromEntries(Array.from({ length: count }, (_, i) => [`n${i}`, { name: `${prefix}-${i}`, properties: { webhook: { url: `https://hooks.example.com/${prefix}/${i}` } } }])),
    },
  });

describe.skipIf(!hasTerraform)("the provider daemon under terraform", () => {
  it("serves every start of a command, and of the next command, from one process; with ODS_PROVIDER_DAEMON=off each start is its own", { timeout: 240_000 }, async () => {
    const cache = tempDir("ods-daemon-cache-");
    fs.chmodSync(cache, 0o700);
    const stats = path.join(tempDir("ods-daemon-stats-"), "stats.jsonl");
    const target = { url: org.url, token: org.adminToken };
    const ws = new TerraformWorkspace(cliConfig, target, undefined, { ODS_PROVIDER_CACHE_DIR: cache, ODS_PROVIDER_STATS: stats });
    ws.writeConfig(notifiers("warm", 3));
    expect((await ws.run("init")).status).toBe(0);
    const apply = await ws.run("apply", "-auto-approve");
    expect(apply.status, apply.out).toBe(0);
    const first = statsSince(stats, 0);
    // Terraform starts the provider at least three times for an apply: schema, validation, plan, apply.
    expect(first.lines.length).toBeGreaterThanOrEqual(3);
    const daemonPid = first.lines[0].daemonPid!;
    expect(daemonPid).toBeGreaterThan(0);
    // A daemon's own failures would be in its log, beside its socket.
    const logs = () => fs.readdirSync(cache).filter((f) => f.endsWith(".log")).map((f) => fs.readFileSync(path.join(cache, f), "utf8")).join("\n");
    expect(first.lines.every((l) => l.daemonPid === daemonPid), logs()).toBe(true);
    // The apply walk's writes went through the daemon's session.
    expect(first.lines.some((l) => (l.rpcs.ApplyResourceChange?.count ?? 0) === 3), logs()).toBe(true);
    expect(org.requests().filter((r) => r.method === "POST" && r.path.startsWith("/v2/notifiers")).length).toBe(3);

    const plan = await ws.run("plan", "-detailed-exitcode");
    expect(plan.status, plan.out).toBe(0);
    const second = statsSince(stats, first.next);
    expect(second.lines.length).toBeGreaterThanOrEqual(2);
    expect(second.lines.map((l) => l.daemonPid), logs()).toEqual(second.lines.map(() => daemonPid));

    const off = new TerraformWorkspace(cliConfig, target, ws.dir, { ODS_PROVIDER_CACHE_DIR: cache, ODS_PROVIDER_STATS: stats, ODS_PROVIDER_DAEMON: "off" });
    const planOff = await off.run("plan", "-detailed-exitcode");
    expect(planOff.status, planOff.out).toBe(0);
    const third = statsSince(stats, second.next);
    expect(third.lines.length).toBeGreaterThanOrEqual(2);
    expect(third.lines.every((l) => l.daemonPid === undefined), logs()).toBe(true);

    // The daemon outlives the commands until stopped (or idle), and then leaves nothing behind.
    expect(alive(daemonPid), logs()).toBe(true);
    expect(stopDaemonsIn(cache)).toBe(1);
    await waitFor("the daemon to stop", () => !alive(daemonPid), 10_000);
    expect(fs.readdirSync(cache).filter((f) => f.startsWith("daemon-"))).toEqual([]);
  });

  it("ends the session of a terraform killed mid-apply, and the next apply converges through the same daemon", { timeout: 240_000 }, async () => {
    const cache = tempDir("ods-daemon-cache-");
    fs.chmodSync(cache, 0o700);
    const sockets = tempDir("ods-daemon-sock-");
    const stats = path.join(tempDir("ods-daemon-stats-"), "stats.jsonl");
    const target = { url: org.url, token: org.adminToken };
    const ws = new TerraformWorkspace(cliConfig, target, undefined, { ODS_PROVIDER_CACHE_DIR: cache, ODS_PROVIDER_STATS: stats, PLUGIN_UNIX_SOCKET_DIR: sockets });
    ws.writeConfig(notifiers("killed", 30));
    expect((await ws.run("init")).status).toBe(0);
    let kill: (() => void) | undefined;
    const writes = () => org.requests().filter((r) => r.method === "POST" && r.path.startsWith("/v2/notifiers")).length;
    const before = writes();
    const killed = ws.runKillable((k) => (kill = k), "apply", "-auto-approve");
    // Kill terraform and the provider process it started as soon as the apply walk writes.
    await waitFor("the apply walk to start writing", () => writes() > before, 120_000);
    kill!();
    await killed;
    const pidFile = fs.readdirSync(cache).find((f) => f.endsWith(".pid"))!;
    const daemonPid = Number(fs.readFileSync(path.join(cache, pidFile), "utf8"));
    expect(alive(daemonPid)).toBe(true);
    // Each session's socket (in PLUGIN_UNIX_SOCKET_DIR) goes when its launcher does.
    await waitFor("the killed command's sessions to close", () => fs.readdirSync(sockets).every((d) => !fs.existsSync(path.join(sockets, d, "plugin.sock"))), 15_000);
    const again = await ws.run("apply", "-auto-approve");
    expect(again.status, again.out).toBe(0);
    const plan = await ws.run("plan", "-detailed-exitcode");
    expect(plan.status, plan.out).toBe(0);
    // Every declared notifier exists. (Creates that were in flight when terraform was
    // killed complete in the service and their answers are lost, as when a started
    // process is killed: the next apply can then create a second one of a name. Not the
    // daemon's doing; see the issue note.)
    const client = new OdsClient({ url: org.url, token: org.adminToken });
    const made = new Set((await client.listNotifiers()).filter((n) => n.name.startsWith("killed-")).map((n) => n.name));
    await client.close();
    expect([...made].sort()).toEqual(Array.from({ length: 30 }, (_, i) => `killed-${i}`).sort());
    expect(statsSince(stats, 0).lines.filter((l) => l.daemonPid !== undefined).every((l) => l.daemonPid === daemonPid)).toBe(true);
  });

  it("serves a start with another token from a daemon with that token", { timeout: 240_000 }, async () => {
    const cache = tempDir("ods-daemon-cache-");
    fs.chmodSync(cache, 0o700);
    const good = new TerraformWorkspace(cliConfig, { url: org.url, token: org.adminToken }, undefined, { ODS_PROVIDER_CACHE_DIR: cache });
    good.writeConfig(notifiers("token", 1));
    expect((await good.run("init")).status).toBe(0);
    expect((await good.run("plan")).status).toBe(0);
    const bad = new TerraformWorkspace(cliConfig, { url: org.url, token: "not-a-token" }, good.dir, { ODS_PROVIDER_CACHE_DIR: cache });
    const refused = await bad.run("apply", "-auto-approve");
    expect(refused.status).not.toBe(0);
    expect(refused.out).toMatch(/401|unauthori[sz]ed|token/i);
    expect(refused.out).not.toContain(org.adminToken);
    expect(fs.readdirSync(cache).filter((f) => f.endsWith(".sock"))).toHaveLength(2);
  });
});
