// ods_dashboard and ods_view in the model: what the comparison ignores, the document
// checks made at synth time (naming the chart or layout item), and the typed builder,
// which must write the very document a user would paste as JSON.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { App, TerraformStack, Testing } from "cdktf";
import { afterEach, describe, expect, it } from "vitest";
import { DashboardBuilder, DashboardChart, OdsDashboard, dashboard, provider, view } from "../../src";
import { resourceKind, sameValue, validateDeclaration } from "../../src/resources";
import { comparableDocument } from "../../src/resources/dashboard-document";

const kind = resourceKind("ods_dashboard")!;

const pasted = {
  name: "Checkout",
  owner: "X-AXIOM-EVERYONE",
  description: "Checkout health",
  charts: [
    { id: "timeseries-errors", type: "TimeSeries", name: "Errors", query: { apl: "['checkout'] | summarize count() by bin(_time, 1m)" } },
    { id: "statistic-p95", type: "Statistic", name: "p95", query: { apl: "['checkout'] | summarize percentile(duration, 95)" } },
    { id: "note", type: "Note", text: "Owned by payments" },
    { id: "monitorlist", type: "MonitorList", monitors: ["mon_1"] },
    { id: "table", type: "Table", query: { apl: "['checkout'] | take 10" } },
  ],
  layout: [
    { i: "timeseries-errors", x: 0, y: 0, w: 8, h: 4 },
    { i: "statistic-p95", x: 8, y: 0, w: 4, h: 4 },
    { i: "note", x: 0, y: 4, w: 6, h: 2 },
    { i: "monitorlist", x: 6, y: 4, w: 6, h: 4 },
    { i: "table", x: 0, y: 8, w: 12, h: 6 },
  ],
  refreshTime: 300,
  schemaVersion: 2,
  timeWindowStart: "qr-now-6h",
  timeWindowEnd: "qr-now",
};

function charts(): DashboardChart[] {
  return [
    DashboardChart.timeSeries({ name: "Errors", apl: "['checkout'] | summarize count() by bin(_time, 1m)", width: 8 }),
    DashboardChart.statistic({ name: "p95", apl: "['checkout'] | summarize percentile(duration, 95)", width: 4 }),
    DashboardChart.note({ text: "Owned by payments", height: 2 }),
    DashboardChart.monitorList({ monitorIds: ["mon_1"] }),
    DashboardChart.table({ apl: "['checkout'] | take 10", width: 12, height: 6 }),
  ];
}

function built(): DashboardBuilder {
  return new DashboardBuilder({ name: "Checkout", description: "Checkout health", timeWindowStart: "qr-now-6h", refreshSeconds: 300 }).addCharts(...charts());
}

describe("dashboard comparison", () => {
  it("ignores what the service adds: ids, versions, timestamps, owner case, key order, empty overrides", () => {
    const declared = JSON.stringify(pasted);
    const answered = {
      ...pasted,
      id: "dsh_1",
      uid: "checkout",
      version: 7,
      createdAt: "2027-01-01T00:00:00Z",
      updatedBy: "usr_x",
      owner: "x-axiom-everyone",
      charts: pasted.charts.map((c) => ({ overrides: {}, ...c })),
    };
    const reordered = JSON.stringify(Object.fromEntries(Object.entries(answered).reverse()), null, 4);
    expect(sameValue(kind.attributes.dashboard, declared, reordered)).toBe(true);
  });

  it("sees a changed chart, a moved layout item and a changed refresh", () => {
    const declared = JSON.stringify(pasted);
    const changes = [
      { ...pasted, charts: [{ ...pasted.charts[0], name: "Errors!" }, ...pasted.charts.slice(1)] },
      { ...pasted, layout: [{ ...pasted.layout[0], w: 6 }, ...pasted.layout.slice(1)] },
      { ...pasted, refreshTime: 60 },
      { ...pasted, charts: [{ ...pasted.charts[0], overrides: { color: "red" } }, ...pasted.charts.slice(1)] },
    ];
    for (const changed of changes) expect(sameValue(kind.attributes.dashboard, declared, JSON.stringify(changed))).toBe(false);
  });
});

describe("dashboard document checks", () => {
  const issues = (doc: unknown): string[] =>
    validateDeclaration(kind, { uid: "checkout", dashboard: typeof doc === "string" ? doc : JSON.stringify(doc) }).map((i) => i.message);

  it.each([
    ["a layout item naming no chart", { ...pasted, layout: [...pasted.layout, { i: "ghost", x: 0, y: 20, w: 4, h: 4 }] }, /layout item "ghost" names no chart/],
    ["a width over 12", { ...pasted, layout: [{ ...pasted.layout[0], w: 13 }, ...pasted.layout.slice(1)] }, /layout item "timeseries-errors": width "w" must be from 1 to 12, got 13/],
    ["an unknown chart type", { ...pasted, charts: [{ ...pasted.charts[0], type: "Gauge" }, ...pasted.charts.slice(1)] }, /chart "timeseries-errors": unknown chart type "Gauge"/],
    ["a refresh time outside 15/60/300", { ...pasted, refreshTime: 30 }, /"refreshTime" must be 15, 60 or 300 \(seconds\), got 30/],
    ["text that is not JSON", "{ name: ", /not valid JSON/],
    ["a document uid that is not the resource's", { ...pasted, uid: "other" }, /differs from the resource's uid/],
  ])("refuses %s", (_what, doc, message) => {
    expect(issues(doc).join("\n")).toMatch(message);
  });

  it("accepts the pasted document", () => {
    expect(issues(pasted)).toEqual([]);
  });
});

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function synthError(build: (stack: TerraformStack) => void): { error?: Error; written: boolean } {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), "ods-synth-"));
  dirs.push(outdir);
  const app = new App({ outdir });
  const stack = new TerraformStack(app, "test");
  new provider.OdsProvider(stack, "ods", {});
  build(stack);
  try {
    app.synth();
    return { written: true };
  } catch (err) {
    return { error: err as Error, written: fs.existsSync(path.join(outdir, "stacks", "test", "cdk.tf.json")) };
  }
}

describe("the typed builder", () => {
  it("writes the same document as the pasted JSON", () => {
    expect(JSON.parse(built().toJson())).toEqual(pasted);
    expect(comparableDocument(built().toJson())).toEqual(comparableDocument(JSON.stringify(pasted)));
  });

  it("lays charts out in rows of 12 columns, in their order", () => {
    const doc = JSON.parse(
      new DashboardBuilder({ name: "grid" })
        .addCharts(
          DashboardChart.pie({ apl: "a", width: 4, height: 3 }),
          DashboardChart.topK({ apl: "b", width: 4, height: 5 }),
          DashboardChart.heatmap({ apl: "c", width: 6 }),
          DashboardChart.scatter({ apl: "d", width: 6 }),
          DashboardChart.logStream({ apl: "e", width: 12, height: 2 }),
          DashboardChart.smartFilter(),
          DashboardChart.spacer({ width: 6 }),
        )
        .toJson(),
    ) as { layout: { x: number; y: number; w: number; h: number }[]; charts: { type: string }[] };
    expect(doc.layout.map(({ x, y }) => [x, y])).toEqual([[0, 0], [4, 0], [0, 5], [6, 5], [0, 9], [0, 11], [6, 11]]);
    expect(doc.charts.map((c) => c.type)).toEqual(["Pie", "TopK", "Heatmap", "Scatter", "LogStream", "SmartFilter", "Spacer"]);
  });

  it("synthesizes an ods_dashboard with the document, charts added after construction included", () => {
    const app = Testing.app();
    const stack = new TerraformStack(app, "t");
    new provider.OdsProvider(stack, "ods", {});
    const d = new OdsDashboard(stack, "checkout", { uid: "checkout", name: "Checkout", description: "Checkout health", timeWindowStart: "qr-now-6h", refreshSeconds: 300 });
    d.addCharts(...charts());
    const json = JSON.parse(Testing.synth(stack)) as { resource: { ods_dashboard: Record<string, { uid: string; dashboard: string }> } };
    const [res] = Object.values(json.resource.ods_dashboard);
    expect(res!.uid).toBe("checkout");
    expect(JSON.parse(res!.dashboard)).toEqual(pasted);
  });

  it("is refused at synth time, naming the construct and the chart, and nothing is written", () => {
    const { error, written } = synthError((s) => {
      new OdsDashboard(s, "bad", { uid: "bad", name: "Bad", refreshSeconds: 30, charts: [DashboardChart.timeSeries({ id: "errors", apl: "x", width: 14 })] });
    });
    expect(error?.message).toMatch(/bad\/Resource/);
    expect(error?.message).toMatch(/layout item "errors": width "w" must be from 1 to 12, got 14/);
    expect(error?.message).toMatch(/refreshTime/);
    expect(written).toBe(false);
  });

  it("gives charts ids from their type and name, so inserting one in front leaves the others' ids alone", () => {
    const ids = (...charts: DashboardChart[]): string[] =>
      (JSON.parse(new DashboardBuilder({ name: "ids" }).addCharts(...charts).toJson()) as { charts: { id: string }[] }).charts.map((c) => c.id);
    const requests = DashboardChart.timeSeries({ name: "Requests", apl: "a" });
    const latency = DashboardChart.statistic({ name: "p95 latency (ms)", apl: "b" });
    expect(ids(requests, latency)).toEqual(["timeseries-requests", "statistic-p95-latency-ms"]);
    expect(ids(DashboardChart.topK({ name: "Top failing paths", apl: "c" }), requests, latency)).toEqual(["topk-top-failing-paths", "timeseries-requests", "statistic-p95-latency-ms"]);
    // Accents dropped, other characters are separators; an explicit id is kept as given.
    expect(ids(DashboardChart.table({ name: "Café · Übersicht", apl: "d" }), DashboardChart.pie({ id: "chart-2", name: "Share", apl: "e" }))).toEqual(["table-cafe-ubersicht", "chart-2"]);
    // Charts without a name take their type, numbered among their kind.
    expect(ids(DashboardChart.spacer(), DashboardChart.note({ text: "a" }), DashboardChart.spacer())).toEqual(["spacer", "note", "spacer-2"]);
  });

  it("keeps derived ids short and distinct for long or letterless names, the same on every synth", () => {
    const long = (suffix: string): DashboardChart => DashboardChart.timeSeries({ name: `Requests per second by region and availability zone ${suffix}`, apl: "a" });
    const doc = (): { id: string }[] =>
      (JSON.parse(new DashboardBuilder({ name: "ids" }).addCharts(long("eu"), long("us"), DashboardChart.pie({ name: "错误率", apl: "b" })).toJson()) as { charts: { id: string }[] }).charts;
    const [eu, us, cjk] = doc().map((c) => c.id);
    expect(eu).toMatch(/^timeseries-requests-per-second-by-[a-z-]*[0-9a-f]{8}$/);
    expect(eu.length).toBeLessThanOrEqual("timeseries-".length + 40);
    expect(us).not.toBe(eu);
    expect(cjk).toMatch(/^pie-[0-9a-f]{8}$/);
    expect(doc().map((c) => c.id)).toEqual([eu, us, cjk]);
  });

  it("refuses two charts with one id at synth, naming the construct, both charts and the id option", () => {
    const { error, written } = synthError((s) => {
      new OdsDashboard(s, "twice", {
        uid: "twice",
        name: "Twice",
        charts: [
          DashboardChart.timeSeries({ name: "Requests", apl: "a" }),
          DashboardChart.note({ text: "n" }),
          DashboardChart.timeSeries({ name: "requests!", apl: "b" }),
        ],
      });
    });
    expect(error?.message).toMatch(/\[test\/twice\] chart 1 \(TimeSeries "Requests"\) and chart 3 \(TimeSeries "requests!"\) both have the chart id "timeseries-requests" \(derived from type and name, derived from type and name\); .*own `id` option/);
    expect(written).toBe(false);
    const explicit = synthError((s) => {
      new OdsDashboard(s, "pinned", { uid: "pinned", name: "Pinned", charts: [DashboardChart.pie({ id: "x", apl: "a" }), DashboardChart.table({ id: "x", apl: "b" })] });
    });
    expect(explicit.error?.message).toMatch(/\[test\/pinned\] chart 1 \(Pie\) and chart 2 \(Table\) both have the chart id "x" \(set explicitly, set explicitly\)/);
    expect(() => new DashboardBuilder({ name: "b" }).addCharts(DashboardChart.spacer({ id: "s" }), DashboardChart.spacer({ id: "s" })).toJson()).toThrow(/DashboardBuilder "b": chart 1 \(Spacer\) and chart 2 \(Spacer\) both have the chart id "s"/);
  });

  it("refuses a pasted document with an unknown chart type through the generated class too", () => {
    const { error } = synthError((s) => {
      new dashboard.Dashboard(s, "pasted", { uid: "p", dashboard: JSON.stringify({ ...pasted, charts: [{ id: "chart-1", type: "Gauge" }] }) });
      new view.View(s, "v", { name: "errors", aplQuery: "['logs'] | where status >= 500" });
    });
    expect(error?.message).toMatch(/pasted.*chart "chart-1": unknown chart type "Gauge"/s);
  });
});
