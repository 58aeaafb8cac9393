// The status page of a real `ods watch` (the built CLI following a real git repository,
// against the emulator over HTTP on 127.0.0.1) holding a drifted object and a pending plan:
// first fetched over HTTP and read as text, then loaded in Chromium (test/helpers/chromium.ts).
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { esc as escapeHtml } from "../../src/reconcile/html/page";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { hasChromium, launchChromium, type BrowserSession } from "../helpers/chromium";
import { removeTempDirs, runOds, tempDir } from "../helpers/ods-cli";
import { eventually, Repo, stackJson, WatchProcess, type StackStatusView } from "../watch/fixture";

const SECRET = "chat-b-status-page-secret-41d7";
/** In the repository: a monitor's name a reviewer typed. */
const DECLARED_NAME = `sp errors <script>document.title="pwned"</script>`;
/** On the service: the same monitor renamed by hand, with markup that would load something. */
const LIVE_NAME = `sp errors <img src="/pwned.png" onerror="document.title='pwned'">`;

function stack(roleDescription: string): Record<string, unknown> {
  return stackJson({
    ods_dataset: { logs: { name: "sp-logs", description: "logs", allow_destroy: true } },
    ods_monitor: {
      errors: {
        name: DECLARED_NAME,
        type: "Threshold",
        apl_query: "['sp-logs'] | summarize count() by bin(_time, 1m)",
        operator: "Above",
        threshold: 3,
        interval_minutes: 1,
        range_minutes: 5,
        depends_on: ["ods_dataset.logs"],
      },
    },
    ods_role: { readers: { name: "sp-readers", description: roleDescription, dataset_capabilities: { "sp-logs": { query: ["read"] } }, depends_on: ["ods_dataset.logs"] } },
    ods_notifier: { oncall: { name: "sp-oncall", properties: { chat_b: { chat_b_channel: "#alerts", chat_b_token: SECRET } } } },
  });
}

let emu: EmulatorHandle;
let admin: OdsClient;
let watch: WatchProcess;
let repo: Repo;
let status: StackStatusView;
let second: string;

const log = (): string => `stdout:\n${watch?.stdout}\nstderr:\n${watch?.stderr}`;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, dataDir: tempDir("ods-emu-") });
  admin = new OdsClient({ url: emu.url, token: emu.adminToken });
  const dir = tempDir("ods-watch-page-");
  repo = Repo.create(path.join(dir, "origin"), stack("read logs"));
  watch = new WatchProcess(
    ["--source", repo.dir, "--interval", "2s", "--jitter", "0%", "--state", path.join(dir, "state.json"), "--workdir", path.join(dir, "checkout"), "--on-change", "plan", "--on-drift", "report", "--plan-dir", path.join(dir, "plans")],
    { cwd: dir, env: { ODS_URL: emu.url, ODS_TOKEN: emu.adminToken } },
  );

  // The first revision waits for approval; the approver applies it.
  const first = await eventually("the first revision's plan", 30_000, async () => (await watch.stack("app"))?.pendingPlan ?? undefined, log);
  const apply = await runOds(["apply", first.file, "--stack", "app", "--out-dir", first.outDir, "--state", path.join(dir, "state.json")], {
    cwd: dir,
    env: { ODS_URL: emu.url, ODS_TOKEN: emu.adminToken },
  });
  expect(apply.code, apply.stderr).toBe(0);
  await eventually("the stack in sync", 15_000, async () => ((await watch.stack("app"))?.lastReconcile?.result === "in_sync" ? true : undefined), log);

  // Someone renames the monitor and raises its threshold by hand; then a new revision is pushed.
  const monitor = (await admin.listMonitors()).find((m) => m.name === DECLARED_NAME)!;
  const { id, createdAt: _c, createdBy: _b, updatedAt: _u, ...input } = monitor;
  await admin.updateMonitor(id, { ...input, name: LIVE_NAME, threshold: 9 });
  second = repo.commit(stack("read logs, v2"), "second revision");
  status = await eventually("a pending plan of the second revision with the drift in it", 20_000, async () => {
    const s = await watch.stack("app");
    return s?.pendingPlan?.revision === second && s.drifted.length > 0 ? s : undefined;
  }, log);
}, 90_000);

afterAll(async () => {
  watch?.kill();
  if (watch) expect(watch.stdout + watch.stderr).not.toContain(SECRET);
  await admin?.close();
  await emu?.close();
  removeTempDirs();
});

describe("ods watch's status page over HTTP", () => {
  it("shows the stack's revision, the drifted monitor per attribute, the pending plan's apply command and the last rounds, markup from the repository and the service as text", async () => {
    const r = await watch.get("/");
    expect(r.status).toBe(200);
    const page = r.body;
    expect(page).toContain('data-ods-stack="app"');
    expect(page).toContain(`${repo.dir}, branch <code>main</code>`);
    // The pending plan and the exact command /status gives.
    expect(page).toContain(`<pre><code>${escapeHtml(status.pendingPlan!.command)}</code></pre>`);
    expect(status.revision).toBe(second);
    expect(page).toContain(`<code title="${second}">${second.slice(0, 12)}</code> <span class="muted">(planned, not applied: its plan waits for approval)</span>`);
    // The drift, per attribute: the threshold as numbers, the names as escaped JSON strings.
    expect(page).toContain('data-ods-drifted="ods_monitor.errors"');
    expect(page).toContain("<tr><td><code>threshold</code></td><td><code>9</code></td><td><code>3</code></td></tr>");
    expect(page).toContain("sp errors &lt;script&gt;document.title=\\&quot;pwned\\&quot;&lt;/script&gt;");
    expect(page).toContain("sp errors &lt;img src=\\&quot;/pwned.png\\&quot; onerror=\\&quot;document.title=&#39;pwned&#39;\\&quot;&gt;");
    expect(page).not.toMatch(/<script|<img/);
    // The last rounds, newest first: planned (the second revision, with the drift), in sync, then planned (the first).
    const rounds = page.slice(page.indexOf('data-ods-section="rounds"'));
    expect(rounds.indexOf("r-planned")).toBeLessThan(rounds.indexOf("r-in_sync"));
    expect(page).not.toContain(SECRET);
    expect((await watch.get("/status")).body).not.toContain(SECRET);
  });
});

describe.skipIf(!hasChromium)("ods watch's status page in Chromium", () => {
  let session: BrowserSession;
  beforeAll(async () => {
    session = await launchChromium();
  });
  afterAll(async () => {
    await session?.close();
  });

  it("loads with no console error and no request beyond itself, shows every section, keeps the markup inert, and no secret", async () => {
    const loaded = await session.loadUrl(`${watch.url}/`, { width: 1280, height: 900 });
    const { page } = loaded;
    // Nothing the page holds ran: neither the repository's <script> nor the service's <img onerror>.
    expect(await page.title()).toBe("ods watch: main");
    expect(await page.locator("script").count()).toBe(0);
    expect(await page.locator("main img").count()).toBe(0);
    const text = await page.locator("body").innerText();
    // Each name shown as the JSON string it is, quotes and all.
    expect(text).toContain(JSON.stringify(DECLARED_NAME));
    expect(text).toContain(JSON.stringify(LIVE_NAME));
    expect(text).not.toContain(SECRET);
    for (const heading of ["Pending plan", "Drifted objects (1)", "Last rounds"]) expect(text).toContain(heading);
    expect(await page.locator('[data-ods-section="pending-plan"] pre').innerText()).toBe(status.pendingPlan!.command);
    expect(await page.locator('[data-ods-drifted="ods_monitor.errors"] tbody tr').count()).toBe(2);
    expect(await page.locator('[data-ods-section="rounds"] tbody tr').count()).toBeGreaterThanOrEqual(3);
    // The style applied (the CSP let its one block through): the badges are drawn as such.
    const badge = await page.locator(".stack-head .badge").evaluate((el) => getComputedStyle(el).borderRadius);
    expect(badge).not.toBe("0px");
    for (const link of ["/status", "/metrics"]) expect(await page.locator(`nav a[href="${link}"]`).count()).toBe(1);
    // Not even its own origin was asked for anything beyond the document.
    expect(await page.evaluate(() => performance.getEntriesByType("resource").map((e) => e.name))).toEqual([]);
    await loaded.screenshot("watch-status");

    // It reloads itself (every 10 s by default), and stays as clean.
    await page.waitForEvent("load", { timeout: 20_000 });
    expect(await page.locator('[data-ods-stack="app"]').count()).toBe(1);
    expect(loaded.consoleErrors).toEqual([]);
    expect(loaded.externalRequests).toEqual([]);
    await page.close();
  });
});
