// The SLO story on a known history: three days of traffic with a 20-minute outage and a
// day-long slow burn. `ods plan --format json` and `ods slo report --format json` each tell
// exactly the events and bad events, the budget consumed, one page for the outage and the
// tickets the table implies; at a stricter objective the slow burn pages too. The ods CLI
// runs as a subprocess against a real emulator.
import * as fs from "node:fs";
import * as path from "node:path";
import { TerraformStack, Testing } from "cdktf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notifier, provider, slo } from "../../src";
import { removeTempDirs, runOds, tempDir } from "../helpers/ods-cli";
import { startTestEmulator, type TestEmulator } from "../emulator/helpers";

const MIN = 60_000;
const HOUR = 60 * MIN;

/** The history ends 10 minutes before the test starts, on a whole minute. */
const END = Math.floor(Date.now() / MIN) * MIN - 10 * MIN;
const START = END - 72 * HOUR;
const OUTAGE = [END - 60 * HOUR, END - 60 * HOUR + 20 * MIN] as const;
const SLOW = [END - 30 * HOUR, END - 6 * HOUR] as const;

/**
 * Four events a minute (one each 15 s) over [START, END): every event of the outage is
 * bad, and during the slow burn one event in 200 (one every 50 minutes, 0.5%).
 */
function history(): { events: Record<string, unknown>[]; bad: number } {
  const events: Record<string, unknown>[] = [];
  let bad = 0;
  let n = 0;
  for (let t = START; t < END; t += 15_000, n++) {
    const isBad = (t >= OUTAGE[0] && t < OUTAGE[1]) || (t >= SLOW[0] && t < SLOW[1] && n % 200 === 0);
    if (isBad) bad++;
    events.push({ _time: new Date(t).toISOString(), status: isBad ? 503 : 200, path: "/pay/checkout" });
  }
  return { events, bad };
}

const HISTORY = history();
const EVENTS = HISTORY.events.length;

/** The stack as a user writes it, synthesized by cdktf. */
function stackJson(objectivePercent: number): Record<string, unknown> {
  const app = Testing.app();
  const stack = new TerraformStack(app, "main");
  new provider.OdsProvider(stack, "ods", {});
  const pager = new notifier.Notifier(stack, "pager", { name: "slo-story pager", properties: { email: { emails: ["oncall@example.com"] } } });
  const mail = new notifier.Notifier(stack, "mail", { name: "slo-story tickets", properties: { email: { emails: ["sre@example.com"] } } });
  new slo.Slo(stack, "checkout", {
    name: "checkout availability",
    dataset: "shop",
    badFilter: "status >= 500",
    totalFilter: "path startswith '/pay'",
    objectivePercent,
    windowDays: 7,
    alerting: { pageNotifierIds: [pager.id], ticketNotifierIds: [mail.id] },
  });
  return JSON.parse(Testing.synth(stack)) as Record<string, unknown>;
}

let emu: TestEmulator;
let env: Record<string, string>;
const dir = tempDir("ods-slo-story-");
const outDir = path.join(dir, "cdktf.out");

function write(objectivePercent: number): void {
  const file = path.join(outDir, "stacks", "main", "cdk.tf.json");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(stackJson(objectivePercent), null, 2));
}

const flags = (): string[] => ["--out-dir", outDir, "--no-synth", "--state", path.join(dir, "state.json")];

interface Figures {
  name: string;
  path: string;
  events: number;
  badEvents: number;
  sliPercent: number;
  budgetConsumedPercent: number;
  pages: number;
  tickets: number;
  queries: number;
  alerts: { severity: string; pair: string; opened: string; closed: string | null }[];
  live?: Figures;
}

beforeAll(async () => {
  emu = await startTestEmulator();
  env = { ODS_URL: emu.em.url, ODS_TOKEN: emu.em.adminToken };
  await emu.ok("POST", "/v2/datasets", { name: "shop" });
  for (let i = 0; i < HISTORY.events.length; i += 5000) await emu.ok("POST", "/v1/datasets/shop/ingest", HISTORY.events.slice(i, i + 5000));
}, 120_000);

afterAll(async () => {
  await emu.close();
  removeTempDirs();
});

/** By hand: 80 outage events and 29 of the slow burn are bad; the budget at 99% is 1% of 17,280 events. */
const BAD = 80 + 29;
const CONSUMED_AT_99 = (100 * (BAD / 17_280)) / 0.01;

function expectOutageStory(f: Figures): void {
  expect(f.name).toBe("checkout availability");
  expect(f.path).toBe("main/checkout");
  expect([f.events, f.badEvents]).toEqual([EVENTS, HISTORY.bad]);
  expect([EVENTS, HISTORY.bad]).toEqual([17_280, BAD]);
  expect(Math.abs(f.budgetConsumedPercent - CONSUMED_AT_99)).toBeLessThan(0.5);
  // One page: both page pairs fire during the outage and overlap, one episode.
  expect(f.pages).toBe(1);
  const pages = f.alerts.filter((a) => a.severity === "page");
  expect(new Set(pages.map((a) => a.pair))).toEqual(new Set(["1h/5m", "6h/30m"]));
  for (const a of pages) expect(Date.parse(a.opened)).toBeGreaterThanOrEqual(OUTAGE[0]);
  for (const a of pages) expect(Date.parse(a.opened)).toBeLessThan(OUTAGE[1]);
  // Tickets: the outage (1d/2h and 3d/6h, overlapping) and the slow burn (3d/6h: 0.5% burns 0.5×, above 0.2333× but below 0.7×).
  expect(f.tickets).toBe(2);
  const slowTickets = f.alerts.filter((a) => a.severity === "ticket" && Date.parse(a.opened) >= SLOW[0]);
  expect(slowTickets.map((a) => a.pair)).toEqual(["3d/6h"]);
}

describe("the SLO story on a history with an outage and a slow burn", () => {
  it("ods plan --format json tells it for the SLO to be created, in at most 2 queries", async () => {
    write(99);
    const plan = await runOds(["plan", "--format", "json", ...flags()], { env, timeoutMs: 120_000 });
    expect(plan.code, plan.stderr).toBe(0);
    const json = JSON.parse(plan.stdout) as { slos: Figures[]; resource_changes: { type: string; slo?: Figures; sloPair?: string }[] };
    expect(json.slos).toHaveLength(1);
    expectOutageStory(json.slos[0]);
    expect(json.slos[0].queries).toBeLessThanOrEqual(2);
    expect(json.slos[0].live).toBeUndefined();
    // Each generated monitor's change names its pair and carries the same SLO figures.
    const monitors = json.resource_changes.filter((c) => c.type === "ods_monitor");
    expect(monitors.map((c) => c.sloPair)).toEqual(["page 1h/5m", "page 6h/30m", "ticket 1d/2h", "ticket 3d/6h"]);
    for (const c of monitors) expect(c.slo?.badEvents).toBe(BAD);
  }, 120_000);

  it("the text plan gives one line and a sparkline of the budget burn; markdown a chart", async () => {
    const text = await runOds(["plan", ...flags()], { env, timeoutMs: 120_000 });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(`# SLO "checkout availability" 99% over 7d: 17280 events, 109 bad (SLI 99.369213%), ${Number(CONSUMED_AT_99.toFixed(3))}% of budget consumed, 1 page, 2 tickets`);
    expect(text.stdout).toMatch(/# [▁▂▃▄▅▆▇█]{40} {2}budget consumed over 7d: 63\.079%/);
    const md = await runOds(["plan", "--format", "markdown", ...flags()], { env, timeoutMs: 120_000 });
    expect(md.code, md.stderr).toBe(0);
    expect(md.stdout).toContain('title "checkout availability: error budget remaining"');
    expect(md.stdout).toContain('title "checkout availability: burn rate per window pair"');
  }, 120_000);

  it("ods slo report --format json tells the same once applied; at 99.9% the slow burn pages too", async () => {
    const applied = await runOds(["apply", "--auto-approve", "--no-backtest", ...flags()], { env, timeoutMs: 120_000 });
    expect(applied.code, applied.stderr).toBe(0);
    const report = await runOds(["slo", "report", "--format", "json", "--stack", "main", "--out-dir", outDir, "--no-synth"], { env, timeoutMs: 120_000 });
    expect(report.code, report.stderr).toBe(0);
    const live = JSON.parse(report.stdout) as { slos: Figures[]; notApplied: string[] };
    expect(live.notApplied).toEqual([]);
    expect(live.slos).toHaveLength(1);
    expectOutageStory(live.slos[0]);
    expect(live.slos[0].queries).toBe(1);

    // Stricter: the same events, ten times the burn; one bad event in 240 over an hour burns 4.2× (> 3.36×).
    write(99.9);
    const plan = await runOds(["plan", "--format", "json", ...flags()], { env, timeoutMs: 120_000 });
    expect(plan.code, plan.stderr).toBe(0);
    const stricter = (JSON.parse(plan.stdout) as { slos: Figures[] }).slos[0];
    expect([stricter.events, stricter.badEvents]).toEqual([EVENTS, BAD]);
    expect(Math.abs(stricter.budgetConsumedPercent - CONSUMED_AT_99 * 10)).toBeLessThan(0.5);
    expect(stricter.pages).toBeGreaterThanOrEqual(2);
    expect(stricter.alerts.some((a) => a.severity === "page" && Date.parse(a.opened) >= SLOW[0] && Date.parse(a.opened) < SLOW[1] + HOUR)).toBe(true);
    // The live definition's figures stand beside, read from the same query.
    expect(stricter.live?.pages).toBe(1);
    expect(stricter.live?.tickets).toBe(2);
    expect(stricter.queries).toBe(1);

    expect((await runOds(["apply", "--auto-approve", "--no-backtest", ...flags()], { env, timeoutMs: 120_000 })).code).toBe(0);
    const after = await runOds(["slo", "report", "--format", "json", "--url", emu.em.url], { env, timeoutMs: 120_000 });
    expect(after.code, after.stderr).toBe(0);
    const reported = (JSON.parse(after.stdout) as { slos: Figures[] }).slos[0];
    expect([reported.events, reported.badEvents, reported.pages, reported.tickets]).toEqual([stricter.events, stricter.badEvents, stricter.pages, stricter.tickets]);
    expect(Math.abs(reported.budgetConsumedPercent - CONSUMED_AT_99 * 10)).toBeLessThan(0.5);
  }, 240_000);
});
