// `npm run bench:html-plan`: the HTML plan at the size the issue names. An emulator (its own
// process) holds events over the last 7 days; a stack of 1,000 resources (950 of every kind
// from the generator, 50 threshold monitors checked every minute) is applied, the 50
// thresholds changed, and `ods plan --format html` written. Measured in the same run: the
// page's size, the plan's time with and without the backtest, and Debian's Chromium loading
// and drawing the page (setContent to the second animation frame), median of a few loads.
// Acceptance (issue 55): at most 5 MB, and drawn within 2 s on this machine.
//
// Settings (environment): BENCH_HTML_EVENTS=200000 BENCH_HTML_MONITORS=50 BENCH_HTML_N=1000
// BENCH_HTML_LOADS=5 ODS_CHROMIUM=/usr/bin/chromium
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { performance } from "node:perf_hooks";
import { chromium } from "playwright-core";
import { ROOT, envNumber, ingestWeek, odsAgainst as ods, prepareDatasets, startEmulatorProcess, writeBenchStack, type EmulatorProcess } from "./harness";
import { generateStack, layoutOf, resourceCount } from "./stack-gen";

const EVENTS = envNumber("BENCH_HTML_EVENTS", 200_000);
const MONITORS = envNumber("BENCH_HTML_MONITORS", 50);
const N = envNumber("BENCH_HTML_N", 1000);
const LOADS = envNumber("BENCH_HTML_LOADS", 5);
const CHROMIUM = process.env.ODS_CHROMIUM ?? "/usr/bin/chromium";
const SERVICES = ["api", "web", "cart", "search", "auth", "pay", "mail", "img", "feed", "ads"];
const MB = 1024 * 1024;

/** The generator's 950 resources, and the monitors checked every minute (a week is 10,080 checks each). */
function stack(changed: boolean): Record<string, unknown> {
  const rest = generateStack({ n: N - MONITORS, prefix: "h" });
  const monitors: Record<string, unknown> = { ...rest.resource.ods_monitor };
  for (let i = 0; i < MONITORS; i++) {
    monitors[`html_m${i}`] = {
      name: `html monitor ${i}`,
      type: "Threshold",
      apl_query: `['htmlbench'] | where status >= ${500 + (i % 4)} | summarize count() by service`,
      operator: "Above",
      threshold: 2 + (i % 5) - (changed ? 1 : 0),
      interval_minutes: 1,
      range_minutes: 5,
      notify_by_group: true,
      resolvable: true,
    };
  }
  return { terraform: { required_providers: { ods: { source: "registry.terraform.io/ods/ods" } } }, provider: { ods: [{}] }, resource: { ...rest.resource, ods_monitor: monitors } };
}

/** Errors come in bursts of an hour twice a day, so that alerts open and close; a few scattered between. */
function ingest(emu: EmulatorProcess, nowMs: number): Promise<void> {
  return ingestWeek(emu, "htmlbench", EVENTS, nowMs, (i, t) => {
    const burst = Math.floor(t / 3_600_000) % 12 === 3;
    return { service: SERVICES[i % SERVICES.length], status: burst && i % 3 === 0 ? 500 + (i % 4) : i % 97 === 0 ? 503 : 200 };
  });
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Loads the page LOADS times in a fresh tab each: ms from setContent to the second animation frame after load. */
async function drawTimes(html: string): Promise<{ times: number[]; figures: number; drawn: number; externalRequests: number; consoleErrors: number }> {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ods-bench-chromium-"));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: userDataDir },
    viewport: { width: 1280, height: 900 },
  });
  try {
    const times: number[] = [];
    let figures = 0;
    let drawn = 0;
    let externalRequests = 0;
    let consoleErrors = 0;
    for (let i = 0; i < LOADS; i++) {
      const page = await context.newPage();
      page.on("console", (m) => (consoleErrors += m.type() === "error" ? 1 : 0));
      await page.route("**/*", (route) => {
        externalRequests++;
        return route.abort();
      });
      const t0 = performance.now();
      await page.setContent(html, { waitUntil: "load" });
      // Layout and paint of the whole page: two frames after load.
      // (A string: the bench compiles without the DOM's types.)
      await page.evaluate("new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))");
      times.push(performance.now() - t0);
      figures = await page.locator("figure[data-ods-chart]").count();
      drawn = await page.$$eval("figure[data-ods-chart] [role=img] > svg", (svgs) => svgs.filter((s) => s.getBoundingClientRect().width > 0).length);
      await page.close();
    }
    return { times, figures, drawn, externalRequests, consoleErrors };
  } finally {
    await context.close();
    fs.rmSync(userDataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ods-bench-html-"));
  const emu = await startEmulatorProcess({ dataDir: path.join(dir, "emulator"), rateLimit: 100_000 });
  try {
    const base = stack(false);
    const count = resourceCount(base as { resource: Record<string, Record<string, Record<string, unknown>>> });
    if (count !== N) throw new Error(`the stack holds ${count} resources, not ${N}`);
    await prepareDatasets(emu, "h", layoutOf(N - MONITORS));
    await ingest(emu, Date.now());
    writeBenchStack(dir, base);
    const applied = await ods(dir, emu, ["apply", "--auto-approve", "--no-backtest", "--no-check-queries"]);
    if (applied.code !== 0) throw new Error(`apply failed: ${applied.stderr}`);
    process.stdout.write(`applied ${N} resources in ${applied.seconds.toFixed(1)} s\n`);
    writeBenchStack(dir, stack(true));

    const text = await ods(dir, emu, ["plan", "--no-backtest", "--no-check-queries"]);
    if (text.code !== 0) throw new Error(`plan failed: ${text.stderr}`);
    const plan = await ods(dir, emu, ["plan", "--no-check-queries", "--format", "html"]);
    if (plan.code !== 0) throw new Error(`plan failed: ${plan.stderr}`);
    const html = plan.stdout;
    const bytes = Buffer.byteLength(html);
    const backtests = (html.match(/data-ods-chart="backtest"/g) ?? []).length;
    if (backtests !== MONITORS) throw new Error(`${backtests} backtest charts for ${MONITORS} changed monitors`);
    // The backtests must have something to shade: the alerts each new definition's label counts.
    const alerts = [...html.matchAll(/new definition: [^"]*?, (\d+) alerts?"/g)].map((m) => Number(m[1]));
    const draw = await drawTimes(html);
    const ms = median(draw.times);
    const lines = [
      `# HTML plan (${new Date().toISOString().slice(0, 10)}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")})`,
      "",
      `A stack of ${N} resources (${N - MONITORS} of every kind from the generator, ${MONITORS} threshold monitors checked every minute), the ${MONITORS} thresholds changed; each monitor backtested over 7 days (10,080 checks, new and live definition) against ${EVENTS.toLocaleString("en")} events. \`ods plan --format html\`, then Chromium (${CHROMIUM}) loading the page ${LOADS} times, median.`,
      "",
      "| measure | value | bound (issue 55) |",
      "| --- | ---: | ---: |",
      `| page size | ${(bytes / MB).toFixed(2)} MB | 5 MB |`,
      `| charts (figures) / drawn SVG panels | ${draw.figures} / ${draw.drawn} | |`,
      `| alerts of the new definitions (shaded): total, fewest, most per monitor | ${alerts.reduce((a, b) => a + b, 0)}, ${Math.min(...alerts)}, ${Math.max(...alerts)} | |`,
      `| Chromium load + draw, median of ${LOADS} | ${ms.toFixed(0)} ms (${draw.times.map((t) => t.toFixed(0)).join(", ")}) | 2000 ms |`,
      `| requests beyond the page / console errors | ${draw.externalRequests} / ${draw.consoleErrors} | 0 / 0 |`,
      `| \`ods plan --no-backtest\` (text) | ${text.seconds.toFixed(2)} s | |`,
      `| \`ods plan --format html\` (backtests and charts) | ${plan.seconds.toFixed(2)} s | |`,
      "",
      `Size within the bound: **${bytes <= 5 * MB ? "yes" : "NO"}**; drawn within the bound: **${ms <= 2000 ? "yes" : "NO"}**.`,
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
    const out = path.join(ROOT, "bench", "results", "html-plan.md");
    fs.writeFileSync(out, `${lines.join("\n")}\n`);
    process.stdout.write(`written to ${path.relative(ROOT, out)}\n`);
    if (bytes > 5 * MB || ms > 2000 || draw.externalRequests > 0 || draw.consoleErrors > 0) process.exitCode = 1;
  } finally {
    await emu.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exitCode = 1;
});
