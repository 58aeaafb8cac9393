// The pull-request comment's shortening, as a unit: plans built in memory (30 changed
// monitors with a backtest chart each, the live definition's lines in it, and one change
// apply would refuse) rendered under a falling size limit. Whatever the limit, the comment
// fits it, keeps every fence closed, leaves detail out only in the stated order, and names
// at the top each thing it left out.
import { describe, expect, it } from "vitest";
import { markdownPlan } from "../../src/cli/plan-markdown";
import type { StackPlan } from "../../src/reconcile/stack-plan";
import type { PlannedChange } from "../../src/reconcile/plan";
import { markdownChart } from "../../src/resources/backtest/render";
import type { BacktestResult } from "../../src/resources/backtest";

const DAY = 86_400_000;
const NOW = Date.parse("2026-11-29T00:00:00Z");

function replay(peakAt: number, threshold: number): BacktestResult {
  const times = Array.from({ length: 7 * 288 }, (_, i) => NOW - 7 * DAY + (i + 1) * 300_000);
  const series = times.map((_, i) => (i % 288 === peakAt ? 8 : 1));
  const alerts = times.filter((_, i) => i % 288 === peakAt && 8 > threshold).map((t) => ({ opened: new Date(t).toISOString(), closed: new Date(t + 300_000).toISOString(), group: null }));
  return { days: 7, checks: times.length, queries: 1, alerts, series, times, minutesInAlert: alerts.length * 5 };
}

function monitorChange(i: number): PlannedChange {
  const chart = markdownChart({ name: `checkout errors ${i}`, operator: "Above", threshold: 3, result: replay(i % 288, 3), live: { result: replay(i % 288, 6), threshold: 6 } });
  return {
    address: `ods_monitor.errors_${String(i).padStart(2, "0")}`,
    typeName: "ods_monitor",
    action: "update",
    id: `mon_${i}`,
    before: { name: `checkout errors ${i}`, threshold: 6 },
    after: { name: `checkout errors ${i}`, threshold: 3 },
    changed: ["threshold"],
    reasons: [],
    dependsOn: [],
    insight: { summary: "backtest 7d: would have opened 7 alerts, 35 min in alert (1 query); live definition: 7 alerts", lines: [], markdown: "", mermaid: [chart], json: {}, queries: 1 },
    ...(i === 0 ? { refusal: "the dashboard was changed in the UI" } : {}),
  };
}

function stackPlan(n: number): StackPlan {
  const changes = Array.from({ length: n }, (_, i) => monitorChange(i));
  const plan = { formatVersion: 1, stack: "main", stateLineage: "l", stateSerial: 1, changes, warnings: [], outputChanges: [] };
  return {
    unit: { name: "main" },
    state: {},
    parts: [{ provider: "ods", target: { url: "http://127.0.0.1:1", organization: { id: "org_1", name: "Acme" } }, plan }],
  } as unknown as StackPlan;
}

/** The stated order of what a comment leaves out, as the note names each. */
const ORDER = [/the folded full plan text/, /the live definition's lines in \d+ charts?/, /\d+ charts? after the first 10/, /\d+ table rows? after the first 100/, /\d+ notes? \(backtests, SLOs, rotations\) after the first 50/, /the end of the comment/];

function leftOut(md: string): boolean[] {
  const note = md.split("\n").find((l) => l.startsWith("> **Shortened**")) ?? "";
  return ORDER.map((re) => re.test(note));
}

function fencesClosed(md: string): boolean {
  let open: string | undefined;
  for (const line of md.split("\n")) {
    const m = /^(`{3,})/.exec(line);
    if (!m) continue;
    if (open === undefined) open = m[1];
    else if (m[1].length >= open.length && line.trim() === m[1]) open = undefined;
  }
  return open === undefined;
}

describe("a markdown plan under a size limit", () => {
  const plans = [stackPlan(120)];
  const full = markdownPlan(plans, [], { limit: Number.POSITIVE_INFINITY });

  it("is whole when it fits: the full plan folded, every chart with the live definition's lines", () => {
    expect(full).not.toContain("**Shortened**");
    expect(full).toContain("<details><summary>Full plan</summary>");
    expect(full.match(/^```mermaid$/gm)).toHaveLength(120);
    expect(full).toContain("🟨 live definition in alert (half height)");
    expect(markdownPlan(plans, [], { limit: full.length })).toBe(full);
  });

  it("leaves detail out in the stated order, fits every limit, and keeps its fences closed", () => {
    let previous = 0;
    for (let limit = full.length - 1; limit > 1_000; limit = Math.floor(limit * 0.8)) {
      const md = markdownPlan(plans, [], { limit });
      expect(md.length, `limit ${limit}`).toBeLessThanOrEqual(limit);
      expect(fencesClosed(md), `limit ${limit}`).toBe(true);
      const out = leftOut(md);
      // What is left out is a prefix of the order: nothing later before something earlier.
      const count = out.filter(Boolean).length;
      expect(out, `limit ${limit}`).toEqual(ORDER.map((_, i) => i < count));
      expect(count).toBeGreaterThanOrEqual(previous);
      previous = count;
      // A refusal stays while anything of the stack's changes does.
      if (!out[5]) expect(md).toContain("**apply will refuse it**");
      if (out[1]) expect(md).not.toContain("live definition in alert");
      if (out[2] && !out[5]) expect(md.match(/^```mermaid$/gm)).toHaveLength(10);
      if (out[3] && !out[5]) expect(md).toContain("| … | and 20 more changes | |");
      if (out[4] && !out[5]) expect(md).toContain("… and 70 more notes");
    }
    // The falling limits went through every step down to the cut.
    expect(previous).toBe(ORDER.length);
  });

  it("links the HTML plan at the top and points the note at it", () => {
    const md = markdownPlan(plans, [], { limit: 20_000, htmlUrl: "https://ci.example.com/plan.html" });
    expect(md.split("\n")[2]).toBe("Full plan with charts: <https://ci.example.com/plan.html>");
    expect(md).toContain("The full plan linked above, and the output of `ods plan` in the CI job, have all of it.");
  });
});
