// The status page of `ods watch` (`/`): what it shows of a status, that nothing from the
// repository or the service becomes markup, and the headers the listener serves it with.
import * as http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PlannedChange } from "../../src/reconcile/plan";
import { driftedObjects } from "../../src/reconcile/watch/drift";
import { WatchMetrics } from "../../src/reconcile/watch/metrics";
import { startWatchServer, type WatchServer } from "../../src/reconcile/watch/server";
import type { WatchStatus } from "../../src/reconcile/watch/status";
import { esc as escapeHtml } from "../../src/reconcile/html/page";
import { renderStatusPage, STATUS_PAGE_CSP } from "../../src/reconcile/watch/status-page";

const HOSTILE = `<script>alert("x")</script><img src=http://198.51.100.7/x.png>`;
const LIVE_SECRET = "live-secret-page-7f31";
const DECLARED_SECRET = "declared-secret-page-9a02";

function change(over: Partial<PlannedChange> & Pick<PlannedChange, "address" | "typeName" | "action">): PlannedChange {
  return { before: null, after: null, changed: [], reasons: [], dependsOn: [], ...over };
}

/** A status as the watcher makes it: drift from real plan changes (secrets masked by drift.ts). */
function status(): WatchStatus {
  const drifted = driftedObjects([
    change({
      address: "ods_monitor.errors",
      typeName: "ods_monitor",
      action: "update",
      before: { name: `live ${HOSTILE}`, threshold: 9 },
      after: { name: "checkout errors", threshold: 5 },
      changed: ["name", "threshold"],
    }),
    change({
      address: "ods_notifier.oncall",
      typeName: "ods_notifier",
      action: "update",
      before: { name: "n", properties: { chat_b: { chat_b_channel: "#by-hand", chat_b_token: LIVE_SECRET } } },
      after: { name: "n", properties: { chat_b: { chat_b_channel: "#alerts", chat_b_token: DECLARED_SECRET } } },
      changed: ["properties"],
    }),
  ]);
  const failedRound = { at: "2026-03-01T11:59:00.000Z", result: "failed" as const, durationSeconds: 0.4, requests: 2, changes: 0, drifted: 0, error: `the service answered 400: name ${HOSTILE} is taken` };
  const planned = { at: "2026-03-01T11:59:50.000Z", result: "planned" as const, durationSeconds: 1.25, requests: 14, changes: 3, drifted: 2 };
  return {
    source: "https://git.example.com/org/infra.git",
    branch: "main",
    revision: "3f9c2a1b7d4e00112233445566778899aabbccdd",
    lastRoundAt: "2026-03-01T11:59:49.000Z",
    lastRoundError: null,
    nextRoundAt: "2026-03-01T12:04:49.000Z",
    stacks: [
      {
        name: "app",
        revision: "0011223344556677889900112233445566778899",
        lastReconcile: planned,
        recentRounds: [planned, failedRound],
        lastSuccessAt: planned.at,
        drifted,
        pendingPlan: {
          file: "/plans/app-3f9c2a1b7d4e.plan.json",
          outDir: "/plans/app-3f9c2a1b7d4e.out",
          revision: "3f9c2a1b7d4e00112233445566778899aabbccdd",
          command: "npx ods apply /plans/app-3f9c2a1b7d4e.plan.json --stack app --out-dir /plans/app-3f9c2a1b7d4e.out",
          changes: 3,
          savedAt: "2026-03-01T11:59:50.000Z",
        },
        failures: 0,
      },
    ],
  };
}

const NOW = new Date("2026-03-01T12:00:00.000Z");

describe("the status page", () => {
  const page = renderStatusPage(status(), { refreshSeconds: 15, now: NOW });

  it("shows each stack's source, revision, pending plan with its apply command, drift per attribute, last rounds and the endpoints", () => {
    expect(page).toMatch(/^<!doctype html>/);
    expect(page).toContain('<meta http-equiv="refresh" content="15">');
    expect(page).toContain('data-ods-stack="app"');
    expect(page).toContain("https://git.example.com/org/infra.git, branch <code>main</code>");
    expect(page).toContain('<code title="0011223344556677889900112233445566778899">001122334455</code>');
    // The pending plan: what to run, and the files.
    expect(page).toContain("<pre><code>npx ods apply /plans/app-3f9c2a1b7d4e.plan.json --stack app --out-dir /plans/app-3f9c2a1b7d4e.out</code></pre>");
    expect(page).toContain("3 object(s) to change");
    // Drift per object and attribute, live then desired.
    expect(page).toContain('data-ods-drifted="ods_monitor.errors"');
    expect(page).toContain("<tr><td><code>threshold</code></td><td><code>9</code></td><td><code>5</code></td></tr>");
    expect(page).toContain("<tr><td><code>properties.chat_b.chat_b_channel</code></td><td><code>&quot;#by-hand&quot;</code></td><td><code>&quot;#alerts&quot;</code></td></tr>");
    // The last rounds, newest first: time, outcome, changes, drifted, requests, duration, error.
    const rounds = page.slice(page.indexOf('data-ods-section="rounds"'));
    expect(rounds.indexOf("11:59:50Z")).toBeLessThan(rounds.indexOf("11:59:00Z"));
    expect(rounds).toContain('<time datetime="2026-03-01T11:59:50.000Z">2026-03-01 11:59:50Z</time> <span class="muted">(10 s ago)</span>');
    expect(rounds).toContain('<td class="num">3</td><td class="num">2</td><td class="num">14</td><td class="num">1.3 s</td>');
    expect(rounds).toContain("planned, waiting for approval");
    expect(page).toContain("Last round started <time");
    expect(page).toContain(", next <time");
    expect(page).toContain("(in 5 min)");
    // While a round runs, the time set for it has passed: said so, not as "next ... ago".
    const running = renderStatusPage({ ...status(), lastRoundAt: "2026-03-01T11:59:58.000Z", nextRoundAt: "2026-03-01T11:59:57.000Z" }, { refreshSeconds: 15, now: NOW });
    expect(running).toMatch(/\(2 s ago\)<\/span>, and is running\./);
    expect(running).not.toContain(", next");
    for (const link of ["/status", "/metrics", "/healthz", "/readyz"]) expect(page).toContain(`<a href="${link}">`);
    // The stack's revision is that of its pending plan here: not applied, and said so.
    const planned = { ...status(), stacks: [{ ...status().stacks[0], revision: status().stacks[0].pendingPlan!.revision }] };
    expect(renderStatusPage(planned, { refreshSeconds: 15, now: NOW })).toContain("(planned, not applied: its plan waits for approval)");
    expect(page).not.toContain("planned, not applied");
  });

  it("shows secrets as (sensitive), never their values", () => {
    expect(page).toContain('<tr><td><code>properties.chat_b.chat_b_token</code></td><td><span class="muted">(sensitive)</span></td><td><span class="muted">(sensitive)</span></td></tr>');
    expect(page).not.toContain(LIVE_SECRET);
    expect(page).not.toContain(DECLARED_SECRET);
  });

  it("renders names, values and errors from the repository or the service as text, never as markup", () => {
    expect(page).not.toContain("<script");
    expect(page).not.toContain("<img");
    // The live name, as JSON inside the cell, then escaped.
    expect(page).toContain(escapeHtml(JSON.stringify(`live ${HOSTILE}`)));
    expect(page).toContain(`name ${escapeHtml(HOSTILE)} is taken`);
    expect(escapeHtml(`a"b'c<d>&`)).toBe("a&quot;b&#39;c&lt;d&gt;&amp;");
    const hostileNames = { ...status(), branch: `x"><script>1</script>`, stacks: [{ ...status().stacks[0], name: `s"><b>` }] };
    const other = renderStatusPage(hostileNames, { refreshSeconds: 5, now: NOW });
    expect(other).not.toMatch(/<script|<b>|"><b/);
    expect(other).toContain('data-ods-stack="s&quot;&gt;&lt;b&gt;"');
  });

  it("says when no round has reconciled a stack yet", () => {
    const empty = renderStatusPage({ source: "/srv/infra", branch: "main", revision: null, lastRoundAt: null, lastRoundError: null, nextRoundAt: null, stacks: [] }, { refreshSeconds: 10, now: NOW });
    expect(empty).toContain("No round has reconciled a stack yet.");
    expect(empty).toContain('<span class="muted">none yet</span>');
  });

  it("carries a CSP that allows its own style block by hash and no load at all", () => {
    expect(STATUS_PAGE_CSP).toContain("default-src 'none'");
    expect(STATUS_PAGE_CSP).not.toContain("unsafe-inline");
    expect(STATUS_PAGE_CSP).not.toMatch(/script-src|https?:/);
    const css = /<style>([\s\S]*?)<\/style>/.exec(page)![1];
    const hash = require("node:crypto").createHash("sha256").update(css).digest("base64") as string;
    expect(STATUS_PAGE_CSP).toContain(`style-src 'sha256-${hash}'`);
    // One style block, no inline style attribute or script the CSP would refuse.
    expect(page.match(/<style>/g)).toHaveLength(1);
    expect(page).not.toMatch(/\sstyle=|<script|\son[a-z]+=/i);
  });
});

describe("the listener's /", () => {
  let server: WatchServer;
  beforeAll(async () => {
    server = await startWatchServer({ host: "127.0.0.1", port: 0 }, { metrics: new WatchMetrics(), status, ready: () => true, live: () => true, pageRefreshSeconds: 7 });
  });
  afterAll(async () => {
    await server?.close();
  });

  function get(path: string, method = "GET"): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
    return new Promise((resolve, reject) => {
      const req = http.request(`${server.url}${path}`, { method }, (res) => {
        let body = "";
        res.on("data", (d: Buffer) => (body += d.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      req.on("error", reject);
      req.end();
    });
  }

  it("answers the HTML page with a CSP forbidding any load, beside the unchanged /status JSON", async () => {
    const r = await get("/");
    expect(r.status).toBe(200);
    expect(r.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(r.headers["content-security-policy"]).toBe(STATUS_PAGE_CSP);
    expect(r.headers["x-content-type-options"]).toBe("nosniff");
    expect(r.headers["cache-control"]).toBe("no-store");
    expect(r.body).toContain('<meta http-equiv="refresh" content="7">');
    expect(r.body).toContain('data-ods-drifted="ods_notifier.oncall"');
    const head = await get("/", "HEAD");
    expect(head.status).toBe(200);
    expect(head.body).toBe("");
    const json = JSON.parse((await get("/status")).body) as WatchStatus;
    expect(json.stacks[0].pendingPlan?.command).toContain("npx ods apply");
    expect(json.stacks[0].recentRounds.map((x) => x.result)).toEqual(["planned", "failed"]);
  });
});
