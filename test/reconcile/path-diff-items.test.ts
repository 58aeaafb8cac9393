// A dashboard document reviewed by id: a chart inserted, removed, moved or renamed reads
// as that one chart, in the plan's text lines and its JSON, and a chart whose content
// changed still reads path by path.
import { describe, expect, it } from "vitest";
import { compareTargets, renderComparison } from "../../src/compare/compare";
import { pathChangeLines, pathChanges, pathChangesJson } from "../../src/reconcile/path-diff";
import { resourceKind } from "../../src/resources";

type Chart = { id: string; type: string; name?: string; text?: string };
const requests: Chart = { id: "timeseries-requests", type: "TimeSeries", name: "Requests" };
const latency: Chart = { id: "statistic-p95", type: "Statistic", name: "p95" };
const note: Chart = { id: "note", type: "Note", text: "runbook" };
const failing: Chart = { id: "topk-top-failing-paths", type: "TopK", name: "Top failing paths" };

/** Charts in rows of two, six columns each, as the builder lays them out. */
function doc(charts: Chart[]): Record<string, unknown> {
  return { name: "d", charts, layout: charts.map((c, n) => ({ i: c.id, x: (n % 2) * 6, y: Math.floor(n / 2) * 4, w: 6, h: 4 })) };
}

const lines = (a: Chart[], b: Chart[]): string[] => pathChangeLines(pathChanges(doc(a), doc(b)));

describe("document diff of charts matched by id", () => {
  it("shows a chart inserted in front as one chart added, the others moving on the grid", () => {
    expect(lines([requests, latency, note], [failing, requests, latency, note])).toEqual([
      `+ charts[topk-top-failing-paths] added: {"name":"Top failing paths","type":"TopK"}`,
      `+ layout[topk-top-failing-paths] added: {"h":4,"w":6,"x":0,"y":0}`,
      "~ layout[timeseries-requests] moved from x 0, y 0 to x 6, y 0",
      "~ layout[statistic-p95] moved from x 6, y 0 to x 0, y 4",
      "~ layout[note] moved from x 0, y 4 to x 6, y 4",
    ]);
  });

  it("shows a removed chart as removed", () => {
    expect(lines([requests, latency], [requests])).toEqual(["- charts[statistic-p95] removed", "- layout[statistic-p95] removed"]);
  });

  it("shows a chart taken out of order as moved, the others not", () => {
    expect(lines([requests, latency, note], [note, requests, latency])).toEqual([
      "~ charts[note] moved from position 3 to 1",
      "~ layout[note] moved from x 0, y 4 to x 0, y 0",
      "~ layout[timeseries-requests] moved from x 0, y 0 to x 6, y 0",
      "~ layout[statistic-p95] moved from x 6, y 0 to x 0, y 4",
    ]);
  });

  it("shows a changed chart by path, and its size change beside its move", () => {
    const before = doc([requests, latency]);
    const after = doc([{ ...requests, name: "All requests" }, latency]);
    (after.layout as { w: number; x: number }[])[1] = { ...(after.layout as { w: number; x: number }[])[1], x: 4, w: 8 };
    expect(pathChangeLines(pathChanges(before, after))).toEqual([
      `~ charts[timeseries-requests].name: "Requests" -> "All requests"`,
      "~ layout[statistic-p95] moved from x 6, y 0 to x 4, y 0",
      "~ layout[statistic-p95].w: 6 -> 8",
    ]);
  });

  it("shows positional ids giving way to derived ones as renames, content unchanged", () => {
    const positional = [requests, latency].map((c, n) => ({ ...c, id: `chart-${n + 1}` }));
    const changes = pathChanges(doc(positional), doc([requests, latency]));
    expect(pathChangeLines(changes)).toEqual([
      "~ charts[chart-1] renamed to timeseries-requests (content unchanged)",
      "~ charts[chart-2] renamed to statistic-p95 (content unchanged)",
      "~ layout[chart-1] renamed to timeseries-requests (content unchanged)",
      "~ layout[chart-2] renamed to statistic-p95 (content unchanged)",
    ]);
    expect(pathChangesJson(changes, false)[0]).toEqual({ path: "charts[chart-1]", action: "rename", before: "chart-1", after: "timeseries-requests" });
  });

  it("gives whole-item changes their own actions in the JSON plan", () => {
    const json = pathChangesJson(pathChanges(doc([requests, latency]), doc([latency, failing])), false);
    expect(json).toEqual([
      { path: "charts[topk-top-failing-paths]", action: "create", before: null, after: failing },
      { path: "charts[timeseries-requests]", action: "delete", before: requests, after: null },
      { path: "layout[statistic-p95]", action: "move", before: { x: 6, y: 0 }, after: { x: 0, y: 0 } },
      { path: "layout[topk-top-failing-paths]", action: "create", before: null, after: { i: failing.id, x: 6, y: 0, w: 6, h: 4 } },
      { path: "layout[timeseries-requests]", action: "delete", before: { i: requests.id, x: 0, y: 0, w: 6, h: 4 }, after: null },
    ]);
  });

  it("reads alike in ods compare: a chart added is one line, not its leaves", () => {
    const kind = resourceKind("ods_dashboard")!;
    const target = (label: string, charts: Chart[]) => ({
      label,
      objects: [{ kind, key: ["health"], values: { uid: "health", dashboard: JSON.stringify({ ...doc(charts), owner: "X-AXIOM-EVERYONE", refreshTime: 60, schemaVersion: 2 }) } }],
    });
    const from = target("stg", [requests, latency]);
    const to = target("prod", [failing, requests, latency]);
    const text = renderComparison(from, to, compareTargets(from, to));
    expect(text).toContain(`dashboard.charts[topk-top-failing-paths] added: {"name":"Top failing paths","type":"TopK"}`);
    expect(text).toContain("dashboard.layout[statistic-p95] moved from x 6, y 0 to x 0, y 4");
    expect(text).not.toMatch(/charts\[[^\]]+\]\.(name|type)/);
  });
});
