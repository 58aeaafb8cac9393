// slo.Slo as a user writes it: the generated Threshold monitors (one per window pair, the
// default table scaled to the window, notifiers by severity), the dashboard, the marker a
// plan reads back, and bad input refused at synth naming the construct path and attribute.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { App, TerraformStack, Testing } from "cdktf";
import { afterEach, describe, expect, it } from "vitest";
import { dataset, notifier, provider, slo } from "../../src";
import { readMarker } from "../../src/resources/backtest/slo-model";

type Monitors = Record<string, { name: string; threshold: number; range_minutes: number; interval_minutes: number; notifier_ids?: string[]; description: string; apl_query: string; column_name: string }>;

function synth(build: (stack: TerraformStack) => void): { ods_monitor: Monitors; ods_dashboard?: Record<string, { uid: string; dashboard: string }> } {
  const app = Testing.app();
  const stack = new TerraformStack(app, "main");
  new provider.OdsProvider(stack, "ods", {});
  build(stack);
  return (JSON.parse(Testing.synth(stack)) as { resource: ReturnType<typeof synth> }).resource;
}

function checkout(stack: TerraformStack, more: Partial<slo.SloProps> = {}): slo.Slo {
  const logs = new dataset.Dataset(stack, "logs", { name: "logs", allowDestroy: true });
  const pager = new notifier.Notifier(stack, "pager", { name: "pager", properties: { webhook: { url: "https://hooks.example.com/pager" } } });
  const mail = new notifier.Notifier(stack, "mail", { name: "mail", properties: { email: { emails: ["sre@example.com"] } } });
  return new slo.Slo(stack, "checkout", {
    name: "checkout availability",
    dataset: logs.name,
    badFilter: "status >= 500",
    totalFilter: "path startswith '/pay'",
    objectivePercent: 99.9,
    windowDays: 28,
    alerting: { pageNotifierIds: [pager.id], ticketNotifierIds: [mail.id] },
    ...more,
  });
}

describe("slo.Slo", () => {
  it("generates one Threshold monitor per window pair, the default table scaled to 28 days", () => {
    const out = synth((s) => checkout(s, { description: "Payments must work", labels: { team: "payments" } }));
    const monitors = Object.values(out.ods_monitor);
    expect(monitors.map((m) => [m.name, m.threshold, m.range_minutes])).toEqual([
      ["SLO checkout availability: page 1h/5m", 13.44, 60],
      ["SLO checkout availability: page 6h/30m", 5.6, 360],
      ["SLO checkout availability: ticket 1d/2h", 2.8, 1440],
      ["SLO checkout availability: ticket 3d/6h", 0.9333, 4320],
    ]);
    // Pages go to the pager, tickets to the mail notifier.
    expect(monitors.map((m) => m.notifier_ids)).toEqual([["${ods_notifier.pager.id}"], ["${ods_notifier.pager.id}"], ["${ods_notifier.mail.id}"], ["${ods_notifier.mail.id}"]]);
    // Both windows in one query: the value is the smaller burn rate.
    expect(monitors[0].apl_query).toContain("_time >= ago(5m)");
    expect(monitors[0].apl_query).toContain("| where path startswith '/pay'");
    expect(monitors[0].column_name).toBe("burn_rate");
    // The description names the SLO, the pair and the factor, begins with the user's, and carries the marker.
    expect(monitors[0].description.startsWith("Payments must work\n\nSLO \"checkout availability\"")).toBe(true);
    expect(monitors[0].description).toContain("over 1h and over 5m both exceed 13.44×");
    const marker = readMarker(monitors[3].description);
    expect(marker?.slo).toMatchObject({ name: "checkout availability", path: "main/checkout", dataset: "${ods_dataset.logs.name}", objectivePercent: 99.9, windowDays: 28, labels: { team: "payments" } });
    expect(marker?.pair).toBe(3);
  });

  it("scales the factors for 30 days to the workbook's 14.4, 6, 3 and 1", () => {
    const out = synth((s) => checkout(s, { windowDays: 30 }));
    expect(Object.values(out.ods_monitor).map((m) => m.threshold)).toEqual([14.4, 6, 3, 1]);
  });

  it("takes a table of its own, and a minimum of events in the short window", () => {
    const out = synth((s) =>
      checkout(s, {
        alerting: {
          minEvents: 20,
          windows: [
            { severity: slo.SloSeverity.PAGE, longWindow: "30m", shortWindow: "3m", factor: 20 },
            { severity: slo.SloSeverity.TICKET, longWindow: "2d", shortWindow: "4h", budgetPercent: 20 },
          ],
        },
      }),
    );
    const monitors = Object.values(out.ods_monitor);
    expect(monitors.map((m) => [m.name, m.threshold, m.notifier_ids])).toEqual([
      ["SLO checkout availability: page 30m/3m", 20, undefined],
      ["SLO checkout availability: ticket 2d/4h", 2.8, undefined],
    ]);
    expect(monitors[0].apl_query).toContain("iff(short_total < 20, 0.0");
  });

  it("generates a dashboard by default: SLI, budget remaining, burn rate per pair, bad events by a breakdown", () => {
    const out = synth((s) => checkout(s));
    const doc = JSON.parse(Object.values(out.ods_dashboard!)[0].dashboard) as { name: string; timeWindowStart: string; charts: { name: string }[] };
    expect(doc.timeWindowStart).toBe("qr-now-28d");
    expect(doc.charts.map((c) => c.name)).toEqual([
      "SLI (% good events)",
      "Error budget remaining over 28d (%)",
      "Bad events by status",
      "Burn rate per 5m (page 1h/5m alerts above 13.44×)",
      "Burn rate per 30m (page 6h/30m alerts above 5.6×)",
      "Burn rate per 2h (ticket 1d/2h alerts above 2.8×)",
      "Burn rate per 6h (ticket 3d/6h alerts above 0.9333×)",
    ]);
    expect(synth((s) => checkout(s, { dashboard: false })).ods_dashboard).toBeUndefined();
  });
});

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function synthError(props: Partial<slo.SloProps>): { message: string; written: boolean } {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), "ods-slo-"));
  dirs.push(outdir);
  const app = new App({ outdir });
  const stack = new TerraformStack(app, "main");
  new provider.OdsProvider(stack, "ods", {});
  checkout(stack, props);
  try {
    app.synth();
    return { message: "", written: true };
  } catch (err) {
    return { message: (err as Error).message, written: fs.existsSync(path.join(outdir, "stacks", "main", "cdk.tf.json")) };
  }
}

describe("bad input is refused at synth, naming the construct path and the attribute", () => {
  it.each<[string, Partial<slo.SloProps>, RegExp]>([
    ["an objective of 100", { objectivePercent: 100 }, /main\/checkout[\s\S]*objectivePercent: expected a percentage above 0 and below 100/],
    ["an objective of 0", { objectivePercent: 0 }, /main\/checkout[\s\S]*objectivePercent/],
    ["a window of 91 days", { windowDays: 91 }, /main\/checkout[\s\S]*windowDays: expected a whole number of days from 1 to 90, got 91/],
    [
      "a short window not shorter than its long one",
      { alerting: { windows: [{ severity: slo.SloSeverity.PAGE, longWindow: "1h", shortWindow: "1h" }] } },
      /main\/checkout[\s\S]*alerting\.windows\[0\]\.shortWindow: expected a window shorter than the long window 1h/,
    ],
    ["a long window that does not read", { alerting: { windows: [{ severity: slo.SloSeverity.TICKET, longWindow: "a day", shortWindow: "2h" }] } }, /alerting\.windows\[0\]\.longWindow/],
    ["a bad filter that does not parse", { badFilter: "status >= (500" }, /main\/checkout[\s\S]*badFilter: does not parse: "\(" is not closed/],
    ["a total filter that does not parse", { totalFilter: "path == '/pay" }, /main\/checkout[\s\S]*totalFilter: does not parse: the quote at column 9 is not closed/],
    ["a filter that is a query", { badFilter: "status >= 500 | count" }, /badFilter: does not parse/],
  ])("%s", (_name, props, message) => {
    const { message: got, written } = synthError(props);
    expect(got).toMatch(message);
    expect(written).toBe(false);
  });
});
