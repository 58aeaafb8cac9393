// `ods watch` end to end: the built CLI following a real git repository (real `git`, a
// real synthesis), against the emulator over HTTP on 127.0.0.1, with a 2-second interval.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { removeTempDirs, runOds, tempDir } from "../helpers/ods-cli";
import { eventually, processesUnder, Repo, stackJson, WatchProcess } from "./fixture";
import { promtool } from "./promtool";

const SECRET = "chat-b-watch-secret-5c1e";
let emu: EmulatorHandle;
let admin: OdsClient;
const running: WatchProcess[] = [];

beforeAll(async () => {
  emu = await startEmulator({ port: 0, dataDir: tempDir("ods-emu-") });
  admin = new OdsClient({ url: emu.url, token: emu.adminToken });
});
afterEach(() => {
  for (const w of running.splice(0)) {
    w.kill();
    expect(w.stdout + w.stderr).not.toContain(SECRET);
  }
});
afterAll(async () => {
  await admin.close();
  await emu.close();
  removeTempDirs();
});

function stack(prefix: string, description: string): Record<string, unknown> {
  return stackJson({
    ods_dataset: { logs: { name: `${prefix}-logs`, description: "logs", allow_destroy: true } },
    ods_role: { readers: { name: `${prefix}-readers`, description, dataset_capabilities: { [`${prefix}-logs`]: { query: ["read"] } }, depends_on: ["ods_dataset.logs"] } },
    ods_notifier: { oncall: { name: `${prefix}-oncall`, properties: { chat_b: { chat_b_channel: "#alerts", chat_b_token: SECRET } } } },
  });
}

async function roleNamed(name: string): Promise<{ id: string; description?: string } | undefined> {
  return (await admin.listRoles()).find((r) => r.name === name);
}

function start(dir: string, repo: Repo, extra: string[]): WatchProcess {
  const w = new WatchProcess(["--source", repo.dir, "--interval", "2s", "--jitter", "0%", "--state", path.join(dir, "state.json"), "--workdir", path.join(dir, "checkout"), ...extra], {
    cwd: dir,
    env: { ODS_URL: emu.url, ODS_TOKEN: emu.adminToken },
  });
  running.push(w);
  return w;
}

function metricValue(text: string, name: string, labels: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${name}{${labels}}`));
  return line === undefined ? undefined : Number(line.split(" ").pop());
}

/** SIGTERM: the process exits with 0 within 10 s, and nothing it started (git, the app) is left. */
async function expectStopsOnSigterm(w: WatchProcess, dir: string, log: () => string): Promise<void> {
  const stopAt = Date.now();
  w.child.kill("SIGTERM");
  const exit = await Promise.race([w.exited, new Promise<undefined>((r) => setTimeout(() => r(undefined), 10_000))]);
  expect(exit, log()).toBeDefined();
  expect(Date.now() - stopAt).toBeLessThan(10_000);
  expect(exit?.code).toBe(0);
  expect(processesUnder(dir)).toEqual([]);
}

describe("ods watch", () => {
  it("applies the first revision, reports a hand-made change as drift on /metrics and /status, applies a new commit, and stops on SIGTERM within 10 s leaving no process", async () => {
    const dir = tempDir("ods-watch-");
    const repo = Repo.create(path.join(dir, "origin"), stack("w1", "read logs"));
    const first = repo.head();
    const w = start(dir, repo, ["--on-drift", "report"]);
    const log = (): string => `stdout:\n${w.stdout}\nstderr:\n${w.stderr}`;

    // The first revision is applied.
    const applied = await eventually("the first revision applied", 30_000, async () => {
      const s = await w.stack("app");
      return s?.lastReconcile?.result === "applied" ? s : undefined;
    }, log);
    expect(applied.revision).toBe(first);
    expect((await roleNamed("w1-readers"))?.description).toBe("read logs");
    expect((await w.get("/readyz")).status).toBe(200);
    expect((await w.get("/healthz")).status).toBe(200);

    // A change by hand: drift on /status (object, kind, attribute) and /metrics within two intervals.
    const role = (await roleNamed("w1-readers"))!;
    const full = (await admin.listRoles()).find((r) => r.id === role.id)!;
    const { id: _id, ...input } = full;
    await admin.updateRole(role.id, { ...input, description: "changed by hand" });
    const changedAt = Date.now();
    const drifted = await eventually("the drift on /status", 10_000, async () => {
      const s = await w.stack("app");
      return s && s.drifted.length > 0 ? s : undefined;
    }, log);
    expect(Date.now() - changedAt).toBeLessThan(2 * 2_000 + 3_000); // two intervals, and the round's own time
    expect(drifted.lastReconcile?.result).toBe("drift_reported");
    expect(drifted.drifted).toEqual([
      expect.objectContaining({ address: "ods_role.readers", kind: "ods_role", attributes: [{ path: "description", live: "changed by hand", desired: "read logs" }] }),
    ]);
    const metrics = (await w.get("/metrics")).body;
    expect(metrics + (await w.get("/status")).body).not.toContain(SECRET);
    expect(metricValue(metrics, "ods_drifted_objects", 'stack="app"')).toBe(1);
    expect(metricValue(metrics, "ods_reconcile_total", 'stack="app",result="applied"')).toBe(1);
    expect(metricValue(metrics, "ods_reconcile_total", 'stack="app",result="drift_reported"')).toBeGreaterThanOrEqual(1);
    expect(metricValue(metrics, "ods_pending_plans", 'stack="app"')).toBe(0);
    expect(metricValue(metrics, "ods_last_reconcile_success_timestamp_seconds", 'stack="app"')).toBeGreaterThan(Date.now() / 1000 - 60);
    expect(metricValue(metrics, "ods_api_requests_total", 'status="200"')).toBeGreaterThan(0);
    expect(metrics).toContain('ods_reconcile_duration_seconds_bucket{le="+Inf",stack="app"}');
    // Reported, not corrected.
    expect((await roleNamed("w1-readers"))?.description).toBe("changed by hand");
    // One JSON line per round and stack, with the drift in it.
    // The line and /status are written together, but stdout's pipe may reach us after the HTTP answer.
    const driftLine = await eventually("the drift's log line", 5_000, () => w.lines().find((l) => l.event === "reconcile" && l.result === "drift_reported"), log);
    expect(driftLine).toMatchObject({ stack: "app", revision: first });

    // The same check once, as a cron job would run it, in the text log format: exit 2 while drift remains.
    const once = await runOds(["watch", "--once", "--source", repo.dir, "--state", path.join(dir, "state.json"), "--workdir", path.join(dir, "checkout-once"), "--listen", "127.0.0.1:0"], {
      cwd: dir,
      env: { ODS_URL: emu.url, ODS_TOKEN: emu.adminToken },
    });
    expect(once.code, once.stderr).toBe(2);
    expect(once.stdout).toMatch(new RegExp(`stack=app revision=${first.slice(0, 12)} result=drift_reported changes=1 drifted=1 requests=\\d+`));
    expect(once.stdout).toContain('  drift: ods_role.readers.description: "changed by hand" -> "read logs"');
    expect(once.stdout + once.stderr).not.toContain(SECRET);

    const check = promtool(metrics);
    if (check.skipped) console.warn(`promtool check metrics skipped: ${check.skipped}`);
    else expect(check.output, check.output).toBe("");

    // A new commit is applied (the drifted description too: the revision now says something else).
    const second = repo.commit(stack("w1", "read logs, v2"), "second revision");
    await eventually("the second revision applied", 15_000, async () => {
      const s = await w.stack("app");
      return s?.revision === second && s.lastReconcile?.result === "applied" ? s : undefined;
    }, log);
    expect((await roleNamed("w1-readers"))?.description).toBe("read logs, v2");
    expect(metricValue((await w.get("/metrics")).body, "ods_drifted_objects", 'stack="app"')).toBe(0);

    // SIGTERM: the round ends, the process exits within 10 s, nothing it started is left.
    await expectStopsOnSigterm(w, dir, log);
  }, 90_000);

  it("saves a new revision's plan for approval, `ods apply FILE` applies exactly it, and --on-drift correct undoes a hand-made change after logging it", async () => {
    const dir = tempDir("ods-watch-");
    const repo = Repo.create(path.join(dir, "origin"), stack("w2", "read logs"));
    const w = start(dir, repo, ["--on-change", "plan", "--on-drift", "correct", "--plan-dir", path.join(dir, "plans")]);
    const log = (): string => `stdout:\n${w.stdout}\nstderr:\n${w.stderr}`;

    const planned = await eventually("a pending plan", 30_000, async () => {
      const s = await w.stack("app");
      return s?.pendingPlan ? s : undefined;
    }, log);
    expect(planned.lastReconcile?.result).toBe("planned");
    expect(path.basename(planned.pendingPlan!.file)).toBe(`app-${repo.head().slice(0, 12)}.plan.json`);
    expect(metricValue((await w.get("/metrics")).body, "ods_pending_plans", 'stack="app"')).toBe(1);
    expect(await roleNamed("w2-readers")).toBeUndefined(); // nothing applied without approval
    expect(fs.readFileSync(planned.pendingPlan!.file, "utf8")).not.toContain(SECRET);

    // The approver applies exactly the saved plan.
    const pending = planned.pendingPlan!;
    const apply = await runOds(["apply", pending.file, "--stack", "app", "--out-dir", pending.outDir, "--state", path.join(dir, "state.json")], {
      cwd: dir,
      env: { ODS_URL: emu.url, ODS_TOKEN: emu.adminToken },
    });
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stdout).toMatch(/3 created/);
    expect(apply.stdout + apply.stderr).not.toContain(SECRET);
    const role = (await roleNamed("w2-readers"))!;
    expect(role.description).toBe("read logs");

    // The watcher sees it applied: no plan pending any more.
    await eventually("the plan no longer pending", 10_000, async () => {
      const s = await w.stack("app");
      return s?.lastReconcile?.result === "in_sync" && s.pendingPlan === null ? s : undefined;
    }, log);

    // Drift is logged, then corrected.
    const full = (await admin.listRoles()).find((r) => r.id === role.id)!;
    const { id: _id, ...input } = full;
    await admin.updateRole(role.id, { ...input, description: "changed by hand" });
    await eventually("the drift corrected", 10_000, async () => ((await roleNamed("w2-readers"))?.description === "read logs" ? true : undefined), log);
    // The round's own line is written when the round ends, a moment after the write that corrected the role.
    await eventually("the round that corrected it logged", 10_000, async () =>
      (w.lines().some((l) => l.event === "reconcile" && l.result === "drift_corrected") ? true : undefined), log);
    const lines = w.lines();
    const logged = lines.findIndex((l) => l.event === "drift_correcting");
    const corrected = lines.findIndex((l) => l.event === "reconcile" && l.result === "drift_corrected");
    expect(logged, log()).toBeGreaterThanOrEqual(0);
    expect(corrected).toBeGreaterThan(logged);
    expect(lines[logged].drifted).toEqual([expect.objectContaining({ address: "ods_role.readers", attributes: [{ path: "description", live: "changed by hand", desired: "read logs" }] })]);
    expect(metricValue((await w.get("/metrics")).body, "ods_reconcile_total", 'stack="app",result="drift_corrected"')).toBe(1);

    w.child.kill("SIGINT");
    expect((await w.exited).code).toBe(0);
  }, 90_000);

  it("a commit that synthesizes nothing, or fails to synthesize, deletes nothing: the rounds fail and back off, and a good commit is applied", async () => {
    const dir = tempDir("ods-watch-");
    const repo = Repo.create(path.join(dir, "origin"), stack("w3", "read logs"));
    fs.copyFileSync(path.join(repo.dir, "synth.js"), path.join(dir, "synth.js.good"));
    const w = start(dir, repo, ["--max-backoff", "4s"]);
    const log = (): string => `stdout:\n${w.stdout}\nstderr:\n${w.stderr}`;
    await eventually("the first revision applied", 30_000, async () => ((await w.stack("app"))?.lastReconcile?.result === "applied" ? true : undefined), log);

    // An empty synthesis: applying it would delete everything; the existing guard refuses.
    repo.commit(stackJson({}), "everything gone by mistake");
    const backoffs = await eventually("two failed rounds backing off", 20_000, () => {
      const b = w.lines().filter((l) => l.event === "backoff");
      return b.length >= 2 ? b : undefined;
    }, log);
    const failed = w.lines().find((l) => l.event === "reconcile" && l.result === "failed");
    expect(String(failed?.message)).toMatch(/declares no ods resources, but its state manages 3/);
    const delays = backoffs.map((b) => Number(/next round in ([\d.]+) s/.exec(String(b.message))?.[1]));
    expect(delays.slice(0, 2)).toEqual([2, 4]);
    expect((await roleNamed("w3-readers"))?.description).toBe("read logs");
    expect(metricValue((await w.get("/metrics")).body, "ods_reconcile_total", 'stack="app",result="failed"')).toBeGreaterThanOrEqual(2);

    // A commit whose synthesis fails: the round fails before any plan.
    fs.writeFileSync(path.join(repo.dir, "synth.js"), "process.exit(3);\n");
    repo.commit(stackJson({}), "broken app");
    await eventually("a failed synthesis", 20_000, () => w.lines().find((l) => l.event === "round_failed" && /synthesis failed/.test(String(l.message))), log);
    expect((await w.get("/status")).body).toContain("synthesis failed");

    // Fixed: applied, and the backoff is over.
    fs.writeFileSync(path.join(repo.dir, "synth.js"), fs.readFileSync(path.join(repo.dir, "..", "synth.js.good"), "utf8"));
    const fixed = repo.commit(stack("w3", "read logs, fixed"), "fixed");
    await eventually("the fixed revision applied", 20_000, async () => {
      const s = await w.stack("app");
      return s?.revision === fixed && s.lastReconcile?.result === "applied" ? true : undefined;
    }, log);
    expect((await roleNamed("w3-readers"))?.description).toBe("read logs, fixed");
    w.child.kill("SIGTERM");
    expect((await w.exited).code).toBe(0);
  }, 90_000);

  it("SIGTERM in the middle of a round (a synthesis running) ends the app it started and exits within 10 s", async () => {
    const dir = tempDir("ods-watch-");
    const repo = Repo.create(path.join(dir, "origin"), stack("w4", "read logs"));
    // An app that takes its time: the round is synthesizing when the signal comes.
    fs.writeFileSync(path.join(repo.dir, "synth.js"), "setTimeout(() => process.exit(0), 120000);\n");
    repo.commit(stack("w4", "read logs"), "a slow app");
    const w = start(dir, repo, []);
    const log = (): string => `stdout:\n${w.stdout}\nstderr:\n${w.stderr}`;
    const checkout = path.join(dir, "checkout");
    const synthesizing = await eventually("the app running", 20_000, () => {
      const p = processesUnder(checkout).filter((x) => !x.startsWith(`${w.child.pid}:`) && x.includes("synth.js"));
      return p.length > 0 ? p : undefined;
    }, log);
    expect(synthesizing.join("\n")).toContain("synth.js");
    await expectStopsOnSigterm(w, dir, log);
    expect(await roleNamed("w4-readers")).toBeUndefined();
  }, 60_000);
});
