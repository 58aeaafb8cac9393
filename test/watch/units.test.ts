// The watcher's own rules, one module at a time: schedule, budget, drift classification and
// display, the per-stack decision (with a stack whose operations are recorded), the log
// and the listen address.
import { describe, expect, it } from "vitest";
import { LockHeldError } from "../../src/reconcile/backends";
import type { Plan, PlannedChange } from "../../src/reconcile/plan";
import { emptyState, type StateFile } from "../../src/reconcile/state";
import { BURST_SECONDS, roundRate } from "../../src/reconcile/watch/budget";
import { classifyChanges } from "../../src/reconcile/watch/classify";
import { driftedObjects } from "../../src/reconcile/watch/drift";
import { formatStackLine } from "../../src/reconcile/watch/log";
import { reconcileStack, type StackPlanning, type StackRoundContext, type WatchedStack } from "../../src/reconcile/watch/reconcile-stack";
import { backoff, nextDelay, parseDuration, parseShare } from "../../src/reconcile/watch/schedule";
import { describeSource, redactSourceIn } from "../../src/reconcile/watch/git-source";
import { exposureWarning, parseListen } from "../../src/reconcile/watch/server";
import { parseSynthEnvNames, synthEnvironment } from "../../src/reconcile/watch/synth-env";
import { WatchMetrics } from "../../src/reconcile/watch/metrics";
import { RECENT_ROUNDS, type PendingPlan } from "../../src/reconcile/watch/status";
import { Watcher, type RoundSource } from "../../src/reconcile/watch/watcher";

describe("schedule", () => {
  const s = { intervalMs: 60_000, jitter: 0.1, maxBackoffMs: 600_000 };
  it("waits the interval moved by at most the jitter either way", () => {
    expect(nextDelay(s, 0, () => 0)).toBe(54_000);
    expect(nextDelay(s, 0, () => 0.5)).toBe(60_000);
    expect(nextDelay(s, 0, () => 0.999999)).toBeLessThanOrEqual(66_000);
  });
  it("backs off exponentially from the shorter of the interval and 15 s, capped", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 50].map((f) => backoff(s, f))).toEqual([15_000, 30_000, 60_000, 120_000, 240_000, 480_000, 600_000, 600_000]);
    expect(backoff({ intervalMs: 2_000, jitter: 0, maxBackoffMs: 10_000 }, 1)).toBe(2_000);
    // The cap is never below the interval.
    expect(backoff({ intervalMs: 3_600_000, jitter: 0, maxBackoffMs: 60_000 }, 9)).toBe(3_600_000);
  });
  it("reads durations and shares, naming the flag when they are wrong", () => {
    expect(parseDuration("1h30m", "--interval")).toBe(5_400_000);
    expect(parseDuration("500ms", "--interval")).toBe(500);
    expect(() => parseDuration("5", "--interval")).toThrow(/--interval expects a duration/);
    expect(() => parseDuration("0s", "--interval")).toThrow(/longer than zero/);
    expect(parseShare("10%", "--jitter", 0, 0.5)).toBeCloseTo(0.1);
    expect(parseShare("0.25", "--jitter", 0, 0.5)).toBe(0.25);
    expect(() => parseShare("80%", "--jitter", 0, 0.5)).toThrow(/--jitter expects a share from 0% to 50%/);
  });
  it("reads a listen address", () => {
    expect(parseListen("127.0.0.1:9464")).toEqual({ host: "127.0.0.1", port: 9464 });
    expect(parseListen(":0")).toEqual({ host: "0.0.0.0", port: 0 });
    expect(parseListen("[::1]:9464")).toEqual({ host: "::1", port: 9464 });
    expect(() => parseListen("9464")).toThrow(/--listen expects HOST:PORT/);
  });
});

describe("rate budget", () => {
  it("runs a small round at the budget's share of the limit, and spreads a big one over the interval", () => {
    const base = { serviceLimit: 10, share: 0.5, intervalMs: 300_000 };
    expect(roundRate({ ...base, expectedRequests: undefined })).toBe(5);
    expect(roundRate({ ...base, expectedRequests: 5 * BURST_SECONDS })).toBe(5);
    // 480 requests over 80% of 5 minutes: 2 per second, below the budget.
    expect(roundRate({ ...base, expectedRequests: 480 })).toBeCloseTo(2);
    // More than the budget can spread: the budget, and the round takes longer than the interval.
    expect(roundRate({ ...base, expectedRequests: 100_000 })).toBe(5);
    expect(roundRate({ ...base, serviceLimit: undefined, expectedRequests: 480 })).toBeUndefined();
  });
});

function change(over: Partial<PlannedChange> & Pick<PlannedChange, "address" | "typeName" | "action">): PlannedChange {
  return { before: null, after: null, changed: [], reasons: [], dependsOn: [], ...over };
}

function stateWith(entries: Record<string, { typeName: string; values: Record<string, unknown> }>): StateFile {
  const state = emptyState();
  for (const [address, e] of Object.entries(entries)) {
    state.resources[address] = { typeName: e.typeName, id: `id-${address}`, values: e.values, engineValues: {}, secretFingerprints: {}, dependsOn: [] };
  }
  return state;
}

describe("drift classification", () => {
  const state = stateWith({
    "ods_role.a": { typeName: "ods_role", values: { name: "a", description: "as applied" } },
    "ods_role.b": { typeName: "ods_role", values: { name: "b", description: "as applied" } },
    "ods_role.gone": { typeName: "ods_role", values: { name: "gone", description: "x" } },
  });
  it("tells a live change under an unchanged declaration from a change of the declaration", () => {
    const drifted = change({ address: "ods_role.a", typeName: "ods_role", action: "update", before: { name: "a", description: "by hand" }, after: { name: "a", description: "as applied" }, changed: ["description"] });
    const edited = change({ address: "ods_role.b", typeName: "ods_role", action: "update", before: { name: "b", description: "as applied" }, after: { name: "b", description: "new text" }, changed: ["description"] });
    const deletedOutside = change({ address: "ods_role.gone", typeName: "ods_role", action: "create", after: { name: "gone", description: "x" }, reasons: ["the object was deleted outside this stack"] });
    const added = change({ address: "ods_role.new", typeName: "ods_role", action: "create", after: { name: "new" } });
    const removed = change({ address: "ods_role.old", typeName: "ods_role", action: "delete", before: { name: "old" } });
    const out = classifyChanges([drifted, edited, deletedOutside, added, removed, change({ address: "ods_role.c", typeName: "ods_role", action: "noop" })], state);
    expect(out.drift.map((c) => c.address)).toEqual(["ods_role.a", "ods_role.gone"]);
    expect(out.revision.map((c) => c.address)).toEqual(["ods_role.b", "ods_role.new", "ods_role.old"]);
  });
  it("counts a changed secret as the configuration's, never as drift", () => {
    const s = stateWith({ "ods_notifier.n": { typeName: "ods_notifier", values: { name: "n", properties: { chat_b: { chat_b_channel: "#a" } } } } });
    const c = change({ address: "ods_notifier.n", typeName: "ods_notifier", action: "update", after: { name: "n", properties: { chat_b: { chat_b_channel: "#a", chat_b_token: "tok-123456" } } }, before: { name: "n", properties: { chat_b: { chat_b_channel: "#a" } } }, changed: ["properties"], reasons: ["secret properties.chat_b.chat_b_token changed"] });
    expect(classifyChanges([c], s).revision).toHaveLength(1);
  });
  it("shows drift per attribute path, with secrets as (sensitive)", () => {
    const c = change({
      address: "ods_notifier.n",
      typeName: "ods_notifier",
      action: "update",
      before: { name: "n", properties: { chat_b: { chat_b_channel: "#by-hand", chat_b_token: "live-secret-1" } } },
      after: { name: "n", properties: { chat_b: { chat_b_channel: "#alerts", chat_b_token: "declared-secret-2" } } },
      changed: ["properties"],
    });
    const [o] = driftedObjects([c]);
    expect(o).toMatchObject({ address: "ods_notifier.n", kind: "ods_notifier", action: "update" });
    expect(o.attributes).toEqual([
      { path: "properties.chat_b.chat_b_channel", live: "#by-hand", desired: "#alerts" },
      { path: "properties.chat_b.chat_b_token", live: "(sensitive)", desired: "(sensitive)" },
    ]);
    const text = formatStackLine("text", { stack: "s", revision: "abc", result: "drift_reported", durationSeconds: 0.1, requests: 3, changes: 1, drifted: [o] });
    const json = formatStackLine("json", { stack: "s", revision: "abc", result: "drift_reported", durationSeconds: 0.1, requests: 3, changes: 1, drifted: [o] });
    for (const line of [text, json]) {
      expect(line).not.toContain("live-secret-1");
      expect(line).not.toContain("declared-secret-2");
    }
    expect(text).toContain('drift: ods_notifier.n.properties.chat_b.chat_b_channel: "#by-hand" -> "#alerts"');
  });
});

/** A stack whose plans are given in turn and whose operations are recorded. */
class RecordedStack implements WatchedStack {
  readonly name = "s";
  readonly dependsOn: string[] = [];
  readonly calls: string[] = [];
  lockHeldFor = 0;
  constructor(private readonly plans: StackPlanning[]) {}
  async plan(): Promise<StackPlanning> {
    this.calls.push("plan");
    return this.plans.length > 1 ? this.plans.shift()! : this.plans[0];
  }
  async lock(): Promise<void> {
    if (this.lockHeldFor > 0) {
      this.lockHeldFor--;
      this.calls.push("lock-busy");
      throw new LockHeldError("pg state", undefined, "held by PostgreSQL session 42");
    }
    this.calls.push("lock");
  }
  async unlock(): Promise<void> {
    this.calls.push("unlock");
  }
  stateVersionNow = "l/1";
  async stateVersion(): Promise<string> {
    this.calls.push("version");
    return this.stateVersionNow;
  }
  async apply(): Promise<{ failed: number; summary: string; errors: string[]; warnings: string[] }> {
    this.calls.push("apply");
    return { failed: 0, summary: "Apply complete", errors: [], warnings: [] };
  }
  async savePlan(_p: StackPlanning, revision: string): Promise<PendingPlan> {
    this.calls.push(`save ${revision}`);
    return { file: `/plans/s-${revision}.plan.json`, outDir: "/plans/out", revision, command: "ods apply", changes: 1, savedAt: "now" };
  }
  stillHolds(): boolean {
    return true;
  }
  async annotate(): Promise<void> {
    this.calls.push("annotate");
  }
  requests(): number {
    return 0;
  }
}

function planning(changes: PlannedChange[], state: StateFile): StackPlanning {
  const plan: Plan = { formatVersion: 1, stack: "s", stateLineage: "l", stateSerial: 1, liveDigest: "d", changes, dataValues: {}, warnings: [], moves: [] };
  return { parts: [{ plan, state }] };
}

describe("one stack's round", () => {
  const state = stateWith({ "ods_role.a": { typeName: "ods_role", values: { name: "a", description: "as applied" } } });
  const drift = change({ address: "ods_role.a", typeName: "ods_role", action: "update", before: { name: "a", description: "by hand" }, after: { name: "a", description: "as applied" }, changed: ["description"] });
  const edit = change({ address: "ods_role.a", typeName: "ods_role", action: "update", before: { name: "a", description: "as applied" }, after: { name: "a", description: "v2" }, changed: ["description"] });
  const inSync = planning([change({ address: "ods_role.a", typeName: "ods_role", action: "noop" })], state);
  const events: string[] = [];
  const ctx = (over: Partial<StackRoundContext> = {}): StackRoundContext => ({
    revision: "rev2",
    onChange: "apply",
    onDrift: "report",
    annotate: false,
    lockTimeoutMs: 60_000,
    pending: null,
    previousDrift: [],
    signal: new AbortController().signal,
    sleep: async () => undefined,
    event: (e, m) => events.push(`${e}: ${m}`),
    ...over,
  });

  it("reports drift without taking the lock or applying", async () => {
    const s = new RecordedStack([planning([drift], state)]);
    const out = await reconcileStack(s, ctx());
    expect(out.result).toBe("drift_reported");
    expect(out.drifted).toHaveLength(1);
    expect(s.calls).toEqual(["plan"]);
  });

  it("with --annotate, marks drift on the datasets' charts when it is new, not every round it stays", async () => {
    const s = new RecordedStack([planning([drift], state)]);
    const first = await reconcileStack(s, ctx({ annotate: true }));
    await reconcileStack(s, ctx({ annotate: true, previousDrift: first.drifted }));
    expect(s.calls.filter((c) => c === "annotate")).toHaveLength(1);
  });

  it("corrects drift after saying so, under the lock, with the round's plan while the state did not move", async () => {
    events.length = 0;
    const s = new RecordedStack([planning([drift], state)]);
    const out = await reconcileStack(s, ctx({ onDrift: "correct" }));
    expect(out.result).toBe("drift_corrected");
    expect(events[0]).toMatch(/^drift_correcting/);
    expect(s.calls).toEqual(["plan", "lock", "version", "apply", "unlock"]);
  });

  it("plans again under the lock when the state was written since the round's plan", async () => {
    const s = new RecordedStack([planning([edit], state), inSync]);
    s.stateVersionNow = "l/2";
    const out = await reconcileStack(s, ctx());
    expect(out.result).toBe("converged_elsewhere");
    expect(s.calls).toEqual(["plan", "lock", "version", "plan", "unlock"]);
  });

  it("waits for a held lock, naming the holder once, and applies nothing when the revision was applied meanwhile", async () => {
    events.length = 0;
    const s = new RecordedStack([planning([edit], state), inSync]);
    s.lockHeldFor = 3;
    const out = await reconcileStack(s, ctx());
    expect(out.result).toBe("converged_elsewhere");
    expect(s.calls).toEqual(["plan", "lock-busy", "lock-busy", "lock-busy", "lock", "plan", "unlock"]);
    expect(events.filter((e) => e.startsWith("lock_wait"))).toEqual(["lock_wait: waiting for the state lock of stack s: the state (pg state) is locked: held by PostgreSQL session 42; wait for that run to finish"]);
  });

  it("gives up waiting for the lock after --lock-timeout", async () => {
    const s = new RecordedStack([planning([edit], state)]);
    s.lockHeldFor = 1_000;
    let now = 0;
    const out = reconcileStack(s, ctx({ lockTimeoutMs: 5_000, now: () => now, sleep: async (ms) => void (now += ms) }));
    await expect(out).rejects.toThrow(/gave up waiting for the state lock after 5 s/);
    expect(s.calls).not.toContain("apply");
  });

  it("saves a new revision's plan once, and keeps it while it holds", async () => {
    const s = new RecordedStack([planning([edit], state)]);
    const first = await reconcileStack(s, ctx({ onChange: "plan" }));
    expect(first.result).toBe("planned");
    const again = await reconcileStack(s, ctx({ onChange: "plan", pending: first.pending }));
    expect(again.pending).toBe(first.pending);
    expect(s.calls.filter((c) => c.startsWith("save"))).toEqual(["save rev2"]);
    expect(s.calls).not.toContain("lock");
  });

  it("keeps the stack's last rounds on its status, newest first, with their counts, at most ten", async () => {
    const s = new RecordedStack([planning([drift], state)]);
    const source: RoundSource = { open: async () => ({ revision: "rev1", stacks: [s], close: async () => undefined }) };
    const watcher = new Watcher({
      source,
      schedule: { intervalMs: 1_000, jitter: 0, maxBackoffMs: 1_000 },
      onChange: "apply",
      onDrift: "report",
      annotate: false,
      lockTimeoutMs: 1_000,
      metrics: new WatchMetrics(),
      logFormat: "json",
      write: () => undefined,
      sourceName: "/srv/infra",
      branch: "main",
    });
    const signal = new AbortController().signal;
    for (let i = 0; i < 12; i++) await watcher.round(signal);
    const [status] = watcher.status().stacks;
    expect(status.recentRounds).toHaveLength(RECENT_ROUNDS);
    expect(status.recentRounds[0]).toBe(status.lastReconcile);
    expect(status.recentRounds[0]).toMatchObject({ result: "drift_reported", changes: 1, drifted: 1, requests: 0 });
    const times = status.recentRounds.map((r) => r.at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it("stops before applying when the watcher is stopping", async () => {
    const stop = new AbortController();
    stop.abort();
    const s = new RecordedStack([planning([edit], state)]);
    await expect(reconcileStack(s, ctx({ signal: stop.signal }))).rejects.toThrow("stopped");
    expect(s.calls).toEqual(["plan"]);
  });
});

describe("the trust boundary", () => {
  it("shows a source URL without its user information, query values or fragment", () => {
    expect(describeSource("https://oauth2:glpat-abc123@git.example.com/platform/obs.git")).toBe("https://***@git.example.com/platform/obs.git");
    expect(describeSource("https://git.example.com/obs.git?private_token=glpat-abc123&x")).toBe("https://git.example.com/obs.git?private_token=***&x=***");
    expect(describeSource("https://git.example.com/obs.git#sig=abcdef")).toBe("https://git.example.com/obs.git#***");
    expect(describeSource("ssh://git@git.example.com/obs.git")).toBe("ssh://***@git.example.com/obs.git");
    expect(describeSource("/srv/git/obs.git")).toBe("/srv/git/obs.git");
    expect(describeSource("git@git.example.com:platform/obs.git")).toBe("git@git.example.com:platform/obs.git");
  });
  it("hides the source's credentials in git's messages, in whatever form git echoes the URL", () => {
    const source = "https://u:pass-1234567@git.example.com/obs.git?private_token=glpat-abc123";
    const git = "fatal: unable to access 'https://git.example.com/obs.git?private_token=glpat-abc123/': 403; token glpat-abc123 refused; pass-1234567";
    const shown = redactSourceIn(git, source);
    expect(shown).not.toContain("glpat-abc123");
    expect(shown).not.toContain("pass-1234567");
    expect(shown).toContain("'https://git.example.com/obs.git?private_token=***'");
  });
  it("gives the app the base environment and the named variables, nothing of the service or the backends", () => {
    const env = synthEnvironment(["NPM_TOKEN"], {
      PATH: "/usr/bin",
      HOME: "/home/w",
      LANG: "C.UTF-8",
      LC_ALL: "C",
      HTTPS_PROXY: "http://proxy:3128",
      NODE_OPTIONS: "--max-old-space-size=2048",
      npm_config_cache: "/cache",
      CHECKPOINT_DISABLE: "1",
      NPM_TOKEN: "for-the-app",
      ODS_URL: "https://ods.example.com",
      ODS_TOKEN: "t",
      PG_CONN_STR: "postgres://x",
      PGPASSWORD: "p",
      DATABASE_URL: "postgres://y",
      TF_HTTP_PASSWORD: "h",
      TF_VAR_ods_token: "v",
      AWS_SECRET_ACCESS_KEY: "a",
      npm_config__authToken: "n",
    });
    expect(Object.keys(env).sort()).toEqual(["CHECKPOINT_DISABLE", "HOME", "HTTPS_PROXY", "LANG", "LC_ALL", "NODE_OPTIONS", "NPM_TOKEN", "PATH", "npm_config_cache"]);
    expect(parseSynthEnvNames(["NPM_TOKEN", "_X1"])).toEqual(["NPM_TOKEN", "_X1"]);
    expect(() => parseSynthEnvNames(["NPM_TOKEN=secret-value"])).toThrow(/--synth-env expects the name of a variable .*"NPM_TOKEN=\.\.\."/);
    expect(() => parseSynthEnvNames(["PG*"])).toThrow(/"PG\*"/);
  });
  it("warns about a listen address other hosts can reach, and only then", () => {
    for (const host of ["127.0.0.1", "127.1.2.3", "::1", "localhost", "::ffff:127.0.0.1"]) expect(exposureWarning({ host, port: 9464 }), host).toBeUndefined();
    for (const host of ["0.0.0.0", "::", "10.1.2.3", "ods-watch.internal"]) expect(exposureWarning({ host, port: 9464 }), host).toMatch(/is not a loopback address: .*the status page \/ and \/status \(every stack.*drifted object.*pending plans/);
    expect(exposureWarning({ host: "::", port: 9464 })).toContain("--listen [::]:9464");
  });
});
