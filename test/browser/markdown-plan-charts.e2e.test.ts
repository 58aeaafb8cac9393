// The pull-request comment's charts, drawn by mermaid itself in Chromium: `ods plan --format
// markdown` of a real stack (the ods CLI as a subprocess, the emulator over HTTP, ingested
// events) with a changed monitor, a created monitor whose name tries every way out of a
// mermaid block, and a changed slo.Slo. Every block parses and draws; the charts cost no
// query the text plan does not spend; --html-url links the HTML plan and refuses a URL
// with credentials without printing it.
import * as fs from "node:fs";
import * as path from "node:path";
import { TerraformStack, Testing } from "cdktf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { monitor, provider, slo } from "../../src";
import { hasChromium, launchChromium, mermaidBlocks, renderMermaid, type BrowserSession, type LoadedPage } from "../helpers/chromium";
import { removeTempDirs, runOds, tempDir } from "../helpers/ods-cli";
import { startTestEmulator, type TestEmulator } from "../emulator/helpers";

const MIN = 60_000;
const HOUR = 60 * MIN;
const FIVE_MIN = 5 * MIN;

/** Every way a name could leave its string, its line or its fence, or inject a directive. */
const HOSTILE = 'pay "5xx"\n```\n%%{init: {"theme": "dark"}}%%\n`x` #quot; ]; --> </details> 100%';

function stackJson(threshold: number, objectivePercent: number, withHostile: boolean): Record<string, unknown> {
  const app = Testing.app();
  const stack = new TerraformStack(app, "main");
  new provider.OdsProvider(stack, "ods", {});
  const errors = { type: "Threshold", aplQuery: "['shop'] | where status >= 500 | summarize count() by service", operator: "Above", intervalMinutes: 5, rangeMinutes: 5, notifyByGroup: true, resolvable: true };
  new monitor.Monitor(stack, "changed", { ...errors, name: "checkout errors", threshold });
  if (withHostile) new monitor.Monitor(stack, "hostile", { ...errors, name: HOSTILE, threshold: 2 });
  new slo.Slo(stack, "checkout", { name: "checkout availability", dataset: "shop", badFilter: "status >= 500", totalFilter: "path startswith '/pay'", objectivePercent, windowDays: 7, dashboard: false });
  return JSON.parse(Testing.synth(stack)) as Record<string, unknown>;
}

let emu: TestEmulator;
let env: Record<string, string>;
let session: BrowserSession | undefined;
const dir = tempDir("ods-md-charts-");
const outDir = path.join(dir, "cdktf.out");
const flags = (): string[] => ["--out-dir", outDir, "--no-synth", "--state", path.join(dir, "state.json")];

function write(json: Record<string, unknown>): void {
  const file = path.join(outDir, "stacks", "main", "cdk.tf.json");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(json, null, 2));
}

/** Queries the emulator answered since `from` (an index into its request log). */
function queriesSince(from: number): number {
  return emu.em.requests().slice(from).filter((r) => r.path === "/v1/datasets/_apl").length;
}

beforeAll(async () => {
  emu = await startTestEmulator();
  env = { ODS_URL: emu.em.url, ODS_TOKEN: emu.em.adminToken };
  await emu.ok("POST", "/v2/datasets", { name: "shop" });
  // Two days of checkout traffic, one event a minute, with a 20-minute outage 30 hours ago,
  // and three hours ago two bursts of errors by service (what the monitors count).
  const end = Math.floor(Date.now() / MIN) * MIN - 10 * MIN;
  const events: Record<string, unknown>[] = [];
  for (let t = end - 48 * HOUR; t < end; t += MIN) {
    const outage = t >= end - 30 * HOUR && t < end - 30 * HOUR + 20 * MIN;
    events.push({ _time: new Date(t).toISOString(), status: outage ? 503 : 200, path: "/pay/checkout" });
  }
  const base = Math.floor(Date.now() / FIVE_MIN) * FIVE_MIN - 3 * HOUR;
  for (const [start, n, service] of [[base, 4, "api"], [base + FIVE_MIN, 4, "api"], [base + 6 * FIVE_MIN, 8, "web"]] as const) {
    for (let i = 0; i < n; i++) events.push({ _time: new Date(start + 10_000 + i * 1000).toISOString(), status: 500, service });
  }
  await emu.ok("POST", "/v1/datasets/shop/ingest", events);
  write(stackJson(6, 99, false));
  const applied = await runOds(["apply", "--auto-approve", "--no-backtest", ...flags()], { env, timeoutMs: 120_000 });
  expect(applied.code, applied.stderr).toBe(0);
  write(stackJson(3, 99.5, true));
  if (hasChromium) session = await launchChromium();
}, 180_000);

afterAll(async () => {
  await session?.close();
  await emu?.close();
  removeTempDirs();
});

/** The markdown plan of the changed stack (the first test makes it). */
let markdown = "";

describe("the markdown plan's mermaid charts", () => {
  it("cost no query the text plan does not spend", async () => {
    const before = emu.em.requests().length;
    const text = await runOds(["plan", ...flags()], { env, timeoutMs: 120_000 });
    expect(text.code, text.stderr).toBe(0);
    const middle = emu.em.requests().length;
    const md = await runOds(["plan", "--format", "markdown", ...flags()], { env, timeoutMs: 120_000 });
    expect(md.code, md.stderr).toBe(0);
    markdown = md.stdout;
    const textQueries = emu.em.requests().slice(before, middle).filter((r) => r.path === "/v1/datasets/_apl").length;
    expect(textQueries).toBeGreaterThan(0);
    expect(queriesSince(middle)).toBe(textQueries);
    // And not one request of any other kind more.
    expect(emu.em.requests().length - middle).toBe(middle - before);
  }, 240_000);

  it("carry the backtest with its episodes and the live definition, and the SLO's budget and burn rates", () => {
    const blocks = mermaidBlocks(markdown);
    const titles = blocks.map((b) => /^ {2}title "(.*)"$/m.exec(b)?.[1]);
    // In the order of the changes: the monitors' addresses sort the SLO's generated ones between.
    expect(titles).toEqual([
      "checkout errors: backtest 7d",
      "checkout availability: error budget remaining",
      "checkout availability: burn rate per window pair",
      expect.stringMatching(/^pay .*: backtest 7d$/),
    ]);
    // The changed monitor: alert bars of both definitions, both thresholds; the legend under it says which is which.
    expect(blocks[0]).toMatch(/^ {2}x-axis "days before the plan" -7 --> 0$/m);
    expect(blocks[0].match(/^ {2}bar \[/gm)).toHaveLength(2);
    expect(markdown).toContain("🟥 in alert (full height) · 🟨 live definition in alert (half height) · 🟦 value");
    expect(markdown).toContain("⬛ threshold: alerts Above 3 · 🟫 live threshold: Above 6");
    // The new definition is in alert where the bursts were: some bar reaches the top of the axis.
    const top = /^ {2}y-axis "monitor value" [\d.-]+ --> ([\d.]+)$/m.exec(blocks[0])![1];
    expect(/^ {2}bar \[(.*)\]$/m.exec(blocks[0])![1].split(", ")).toContain(top);
    // The SLO: the outage opened a page (a full-height bar at 100%), and the live objective's line beside.
    expect(/^ {2}bar \[(.*)\]$/m.exec(blocks[1])![1].split(", ")).toContain("100");
    expect(markdown).toContain("🟪 live definition's budget remaining (99%)");
    expect(markdown).toMatch(/🟥 page 1h\/5m \(alerts above [\d.]+×\) · 🟧 page 6h\/30m/);
  });
});

interface DrawnPage {
  page: LoadedPage;
  /** Each chart's title as drawn: its text and colour. */
  titles: { title: string; fill: string }[];
}

/** Draws the blocks with mermaid one under the other in one page (the caller closes it). */
async function drawBlocks(browser: BrowserSession, blocks: string[]): Promise<DrawnPage> {
  const page = await browser.loadHtml(`<!doctype html><html><body>${blocks.map((_, i) => `<div id=c${i} style="width:800px"></div>`).join("")}</body></html>`);
  await page.page.addScriptTag({ path: require.resolve("mermaid/dist/mermaid.min.js") });
  const titles = await page.page.evaluate(async (sources: string[]) => {
    const m = (window as unknown as { mermaid: { initialize(c: object): void; render(id: string, s: string): Promise<{ svg: string }> } }).mermaid;
    m.initialize({ startOnLoad: false, securityLevel: "strict" });
    const out: { title: string; fill: string }[] = [];
    for (const [i, source] of sources.entries()) {
      const host = document.getElementById(`c${i}`)!;
      host.innerHTML = (await m.render(`r${i}`, source)).svg;
      const text = host.querySelector("svg .chart-title text") ?? host.querySelector("svg text");
      out.push({ title: text?.textContent ?? "", fill: text?.getAttribute("fill") ?? "" });
    }
    return out;
  }, blocks);
  return { page, titles };
}

describe.skipIf(!hasChromium)("the markdown plan's charts in Chromium", () => {
  it("each one is parsed and drawn by mermaid itself", async () => {
    const blocks = mermaidBlocks(markdown);
    expect(blocks).toHaveLength(4);
    const drawn = await renderMermaid(session!, blocks);
    for (const [i, d] of drawn.entries()) {
      expect(d, `block ${i}: ${d.ok ? "" : d.error}`).toMatchObject({ ok: true });
      if (d.ok) expect(d.width * d.height).toBeGreaterThan(0);
    }
    // For review: the charts as GitHub would draw them.
    const { page } = await drawBlocks(session!, blocks);
    await page.screenshot("markdown-plan-charts");
    expect(page.consoleErrors).toEqual([]);
    expect(page.externalRequests).toEqual([]);
    await page.page.close();
  }, 60_000);

  it("a hostile name is drawn as the text it is, and its directive is not applied", async () => {
    const block = mermaidBlocks(markdown).find((b) => b.includes("title \"pay "))!;
    // Beside it the same chart under a plain name: the title's colour is the default theme's, not the dark one's.
    const { page, titles } = await drawBlocks(session!, [block, block.replace(/^ {2}title ".*"$/m, '  title "plain"')]);
    const [hostile, plain] = titles;
    expect(hostile.title).toBe(`${HOSTILE.replace(/\n/g, " ")}: backtest 7d`);
    expect(plain.title).toBe("plain");
    expect(hostile.fill).toBe(plain.fill);
    expect(page.consoleErrors).toEqual([]);
    await page.page.close();
  }, 60_000);
});

describe("a hostile monitor name", () => {
  it("stays one line of text inside its chart's string", () => {
    // Every fence the comment opens, it closes: the name made none of its own.
    const fences = markdown.split("\n").filter((l) => /^ {0,3}(```|~~~)/.test(l));
    expect(fences.filter((l) => l.startsWith("```mermaid"))).toHaveLength(4);
    expect(fences.length % 2).toBe(0);
    const block = mermaidBlocks(markdown).find((b) => b.includes("title \"pay "))!;
    // One directive (ours, first), a title line with no quote, backtick or percent sign of the name's own.
    expect(block.match(/%%\{/g)).toHaveLength(1);
    expect(block.split("\n")[0]).toMatch(/^%%\{init: \{"themeVariables"/);
    const title = /^ {2}title "(.*)"$/m.exec(block)![1];
    expect(title).not.toMatch(/["`%\n]/);
  });
});

describe("--html-url", () => {
  it("links the HTML plan at the top of the comment, from the flag or ODS_PLAN_HTML_URL", async () => {
    const md = await runOds(["plan", "--format", "markdown", "--html-url", "https://ci.example.com/runs/7/plan.html", ...flags()], { env, timeoutMs: 120_000 });
    expect(md.code, md.stderr).toBe(0);
    expect(md.stdout.split("\n").slice(0, 3)).toEqual(["## ods plan", "", "Full plan with charts: <https://ci.example.com/runs/7/plan.html>"]);
    const fromEnv = await runOds(["plan", "--format", "markdown", ...flags()], { env: { ...env, ODS_PLAN_HTML_URL: "https://ci.example.com/runs/8/plan.html" }, timeoutMs: 120_000 });
    expect(fromEnv.stdout).toContain("Full plan with charts: <https://ci.example.com/runs/8/plan.html>");
    expect(markdown).not.toContain("Full plan with charts");
  }, 240_000);

  it("refuses a URL with credentials before any request, without printing it", async () => {
    const before = emu.em.requests().length;
    const bad = await runOds(["plan", "--format", "markdown", "--html-url", "https://ci:hunter2secret@ci.example.com/plan.html", ...flags()], { env });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("--html-url: the URL carries credentials");
    expect(bad.stdout + bad.stderr).not.toContain("hunter2secret");
    expect(emu.em.requests().length).toBe(before);
    const text = await runOds(["plan", "--html-url", "https://ci.example.com/plan.html", ...flags()], { env });
    expect(text.code).toBe(1);
    expect(text.stderr).toContain("--html-url: only with --format markdown");
  });
});
