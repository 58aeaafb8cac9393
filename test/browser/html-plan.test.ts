// `ods plan --format html` and `ods slo report --format html` as a reviewer opens them, in
// Chromium: a real plan against the emulator of a stack with a created and a changed
// monitor over ingested data (so the backtests have alerts), an slo.Slo whose objective
// changes, and a typed dashboard with a chart inserted in front. Each page loads without a
// console error or a request beyond itself; each chart kind is there with a drawn SVG of
// non-zero size and its text alternative. Screenshots of each page and each chart kind go
// to SCREENSHOT_DIR (`npm run docs:screenshots` points it at docs/images).
import * as fs from "node:fs";
import * as path from "node:path";
import { TerraformStack, Testing } from "cdktf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DashboardChart, OdsDashboard, notifier, provider, slo } from "../../src";
import { hasChromium, launchChromium, SCREENSHOT_DIR, type BrowserSession, type LoadedPage } from "../helpers/chromium";
import { removeTempDirs, runOds, stackFlags, tempDir } from "../helpers/ods-cli";
import { startTestEmulator, type TestEmulator } from "../emulator/helpers";

const MIN = 60_000;
const HOUR = 60 * MIN;
const FIVE_MIN = 5 * MIN;
/** Part of the page notifier's URL: a credential, never in the page. */
const HOOK_SECRET = "hooksecret-5f0c2a9e";

/** Two days of checkout traffic, 2 events a minute, with a 20-minute outage a day ago. */
function sloHistory(end: number): Record<string, unknown>[] {
  const events: Record<string, unknown>[] = [];
  const outage = [end - 24 * HOUR, end - 24 * HOUR + 20 * MIN];
  for (let t = end - 48 * HOUR; t < end; t += 30_000) {
    const bad = t >= outage[0] && t < outage[1];
    events.push({ _time: new Date(t).toISOString(), status: bad ? 503 : 200, path: "/pay/checkout", service: "pay" });
  }
  return events;
}

/** Errors by service in a few 5-minute windows of the last hours: the monitors' backtests alert on them. */
function errorBursts(base: number): Record<string, unknown>[] {
  const burst = (start: number, n: number, service: string, latency: number) =>
    Array.from({ length: n }, (_, i) => ({ _time: new Date(start + 10_000 + i * 1000).toISOString(), status: 500, service, duration_ms: latency, path: "/api/errors" }));
  return [...burst(base, 4, "api", 900), ...burst(base + FIVE_MIN, 4, "api", 1200), ...burst(base + 6 * FIVE_MIN, 8, "web", 3000), ...burst(base + 20 * FIVE_MIN, 5, "web", 2500)];
}

interface Version {
  threshold: number;
  objectivePercent: number;
  /** A chart inserted in front of the others, and the monitor created beside the changed one. */
  second: boolean;
}

function stackJson(v: Version): Record<string, unknown> {
  const app = Testing.app();
  const stack = new TerraformStack(app, "main");
  new provider.OdsProvider(stack, "ods", {});
  const pager = new notifier.Notifier(stack, "pager", { name: "html pager", properties: { email: { emails: ["oncall@example.com"] } } });
  // Created by the plan: every attribute shown, the credential URL as (sensitive).
  if (v.second) new notifier.Notifier(stack, "hook", { name: "html hook", properties: { webhook: { url: `https://hooks.example.com/services/${HOOK_SECRET}` } } });
  const mail = new notifier.Notifier(stack, "mail", { name: "html tickets", properties: { email: { emails: ["sre@example.com"] } } });
  new slo.Slo(stack, "checkout", {
    name: "checkout availability",
    dataset: "shop",
    badFilter: "status >= 500",
    totalFilter: "path startswith '/pay'",
    objectivePercent: v.objectivePercent,
    windowDays: 7,
    alerting: { pageNotifierIds: [pager.id], ticketNotifierIds: [mail.id] },
  });
  new OdsDashboard(stack, "health", {
    uid: "html-plan-health",
    name: "Service health",
    charts: [
      ...(v.second ? [DashboardChart.table({ name: "Top failing paths", apl: "['shop'] | where status >= 500 | summarize count() by path | top 10 by count_", width: 12, height: 3 })] : []),
      DashboardChart.timeSeries({ name: v.second ? "Server errors" : "Errors", apl: "['shop'] | where status >= 500 | summarize count() by bin_auto(_time)", width: 8 }),
      DashboardChart.statistic({ name: "p95 latency", apl: "['shop'] | summarize percentile(duration_ms, 95)", width: 4 }),
      DashboardChart.note({ text: "Runbook: https://wiki.example.com/health", width: 12, height: 2 }),
    ],
  });
  const json = JSON.parse(Testing.synth(stack)) as { resource: Record<string, Record<string, unknown>> };
  const monitor = (name: string, query: string, threshold: number) => ({
    "//": { metadata: { path: `main/${name}`, uniqueId: name } },
    name,
    type: "Threshold",
    apl_query: query,
    operator: "Above",
    threshold,
    interval_minutes: 5,
    range_minutes: 5,
    notify_by_group: true,
    resolvable: true,
  });
  json.resource.ods_monitor = {
    ...json.resource.ods_monitor,
    errors: monitor("checkout errors", "['shop'] | where status >= 500 | summarize count() by service", v.threshold),
    ...(v.second ? { latency: monitor("slow errors", "['shop'] | where status >= 500 | summarize max(duration_ms) by service", 2000) } : {}),
  };
  return json;
}

let emu: TestEmulator;
let env: Record<string, string>;
let session: BrowserSession;
const dir = tempDir("ods-html-plan-");

function write(v: Version): void {
  const file = path.join(dir, "cdktf.out", "stacks", "main", "cdk.tf.json");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(stackJson(v), null, 2));
}

/** Each expected chart: the figure, its drawn SVG's size, its text alternatives. */
async function chartsOf(loaded: LoadedPage, kind: string): Promise<{ address: string; svgs: { width: number; height: number }[]; labels: string[]; caption: string; rows: number }[]> {
  return loaded.page.$$eval(`figure[data-ods-chart="${kind}"]`, (figures) =>
    figures.map((f) => ({
      address: f.getAttribute("data-ods-address") ?? "",
      svgs: Array.from(f.querySelectorAll('[role="img"] > svg')).map((s) => {
        const box = s.getBoundingClientRect();
        // Drawn: a box of non-zero size with marks in it (paths, rects or text).
        return { width: s.querySelectorAll("path, rect, text").length > 3 ? box.width : 0, height: box.height };
      }),
      labels: Array.from(f.querySelectorAll('[role="img"]')).map((p) => p.getAttribute("aria-label") ?? ""),
      caption: f.querySelector("figcaption")?.textContent ?? "",
      rows: f.querySelectorAll("details table tbody tr").length,
    })),
  );
}

function expectDrawn(charts: Awaited<ReturnType<typeof chartsOf>>): void {
  for (const c of charts) {
    expect(c.svgs.length, c.address).toBeGreaterThan(0);
    for (const s of c.svgs) expect(s.width > 0 && s.height > 0, c.address).toBe(true);
    for (const l of c.labels) expect(l.length, c.address).toBeGreaterThan(20);
    expect(c.caption.length, c.address).toBeGreaterThan(10);
  }
}

async function shoot(loaded: LoadedPage, selector: string, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await loaded.page.locator(selector).first().screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
}

beforeAll(async () => {
  emu = await startTestEmulator();
  env = { ODS_URL: emu.em.url, ODS_TOKEN: emu.em.adminToken };
  await emu.ok("POST", "/v2/datasets", { name: "shop" });
  const end = Math.floor(Date.now() / MIN) * MIN - 10 * MIN;
  const events = [...sloHistory(end), ...errorBursts(Math.floor(Date.now() / FIVE_MIN) * FIVE_MIN - 4 * HOUR)];
  for (let i = 0; i < events.length; i += 5000) await emu.ok("POST", "/v1/datasets/shop/ingest", events.slice(i, i + 5000));
  write({ threshold: 6, objectivePercent: 99, second: false });
  const applied = await runOds(["apply", "--auto-approve", "--no-backtest", ...stackFlags(dir)], { env, timeoutMs: 120_000 });
  expect(applied.code, applied.stderr).toBe(0);
  write({ threshold: 3, objectivePercent: 99.5, second: true });
  if (hasChromium) session = await launchChromium();
}, 180_000);

afterAll(async () => {
  await session?.close();
  await emu?.close();
  removeTempDirs();
});

describe.skipIf(!hasChromium)("the HTML plan in Chromium", () => {
  it("draws the backtests, the SLO's budget and burn rates and the dashboard's layout, with text alternatives, and nothing leaves the page", async () => {
    const plan = await runOds(["plan", "--format", "html", ...stackFlags(dir)], { env, timeoutMs: 120_000 });
    expect(plan.code, plan.stderr).toBe(0);
    const html = plan.stdout;
    expect(html.startsWith("<!doctype html>")).toBe(true);
    // The credential in the notifier's URL is shown as every plan shows it.
    expect(html).not.toContain(HOOK_SECRET);
    expect(html).toContain("(sensitive)");

    const loaded = await session.loadHtml(html);
    expect(loaded.consoleErrors).toEqual([]);
    expect(loaded.externalRequests).toEqual([]);

    const backtests = await chartsOf(loaded, "backtest");
    expect(backtests.map((c) => c.address).sort()).toEqual(["ods_monitor.errors", "ods_monitor.latency"]);
    expectDrawn(backtests);
    // The changed monitor: the live definition beside the new one; both alerted on the bursts.
    const changed = backtests.find((c) => c.address === "ods_monitor.errors")!;
    expect(changed.labels.map((l) => l.split(":")[0])).toEqual(["Backtest of ods_monitor.errors, live definition", "Backtest of ods_monitor.errors, new definition"]);
    expect(changed.labels[1]).toContain("threshold 3");
    expect(changed.rows).toBeGreaterThanOrEqual(3);
    expect(backtests.find((c) => c.address === "ods_monitor.latency")!.svgs).toHaveLength(1);

    const budget = await chartsOf(loaded, "slo-budget");
    expect(budget).toHaveLength(1);
    expectDrawn(budget);
    expect(budget[0].svgs).toHaveLength(2); // the live 99% beside the new 99.5%
    expect(budget[0].caption).toContain("checkout availability");
    const burn = await chartsOf(loaded, "slo-burn");
    expect(burn.map((c) => c.caption.split(" above")[0].split(", ")[1])).toEqual(["page on 1h/5m", "page on 6h/30m", "ticket on 1d/2h", "ticket on 3d/6h"]);
    expectDrawn(burn);
    // The outage pushed the 1h/5m pair over its factor: its figures say so.
    expect(burn[0].caption).toMatch(/[1-9]\d* alerts?$/);

    // The typed dashboard, and the one slo.Slo generates (its objective changed).
    const layouts = await chartsOf(loaded, "dashboard-layout");
    expect(layouts).toHaveLength(2);
    expectDrawn(layouts);
    const layout = layouts.filter((c) => c.address.startsWith("ods_dashboard.health"));
    expect(layout[0].svgs).toHaveLength(2);
    // Charts are matched by id (derived from name and type): the renamed chart is a new one.
    expect(layout[0].labels[0]).toContain("before the change");
    expect(layout[0].labels[0]).toContain("Errors (TimeSeries, removed)");
    expect(layout[0].labels[1]).toContain("Top failing paths (Table, added)");
    expect(layout[0].labels[1]).toContain("Server errors (TimeSeries, added)");
    expect(layout[0].labels[1]).toContain("p95 latency (Statistic, moved)");
    expect(layout[0].caption).toBe("Layout on the 12-column grid: 2 added, 1 removed, 2 moved, 0 changed");

    await loaded.screenshot("html-plan");
    await shoot(loaded, 'figure[data-ods-chart="backtest"][data-ods-address="ods_monitor.errors"]', "html-plan-backtest");
    await shoot(loaded, 'figure[data-ods-chart="slo-budget"]', "html-plan-slo-budget");
    await shoot(loaded, 'figure[data-ods-chart="slo-burn"]', "html-plan-slo-burn");
    await shoot(loaded, `figure[data-ods-chart="dashboard-layout"][data-ods-address="${layout[0].address}"]`, "html-plan-dashboard-layout");
    await loaded.page.close();
  }, 180_000);

  it("ods slo report --format html draws the same SLO charts", async () => {
    const report = await runOds(["slo", "report", "--format", "html", "--url", emu.em.url], { env, timeoutMs: 120_000 });
    expect(report.code, report.stderr).toBe(0);
    const loaded = await session.loadHtml(report.stdout);
    expect(loaded.consoleErrors).toEqual([]);
    expect(loaded.externalRequests).toEqual([]);
    const budget = await chartsOf(loaded, "slo-budget");
    expect(budget.map((c) => c.address)).toEqual(["main/checkout"]);
    expectDrawn(budget);
    const burn = await chartsOf(loaded, "slo-burn");
    expect(burn).toHaveLength(4);
    expectDrawn(burn);
    await loaded.screenshot("slo-report");
    await loaded.page.close();
  }, 120_000);
});
