// A stack as a user writes it with the constructs: a dataset, two views and a dashboard
// built with the typed builder (charts naming the dataset), synthesized by cdktf.
import { Testing, TerraformStack } from "cdktf";
import { DashboardChart, OdsDashboard, dataset, provider, view } from "../../src";

export interface DashboardStackOptions {
  dataset: string;
  uid: string;
  overwrite?: boolean;
  /** Title of the first chart: change it to change the dashboard. */
  errorsTitle?: string;
  /** A chart placed in front of the others. */
  firstChart?: DashboardChart;
}

/** The synthesized Terraform JSON (as cdk.tf.json holds it). */
export function dashboardStack(o: DashboardStackOptions): Record<string, unknown> {
  const app = Testing.app();
  const stack = new TerraformStack(app, "main");
  new provider.OdsProvider(stack, "ods", {});
  const logs = new dataset.Dataset(stack, "logs", { name: o.dataset, allowDestroy: true });
  new view.View(stack, "errors", { name: `${o.dataset}-errors`, aplQuery: `['${o.dataset}'] | where status >= 500`, datasets: [logs.name], description: "server errors" });
  new view.View(stack, "slow", { name: `${o.dataset}-slow`, aplQuery: `['${o.dataset}'] | where duration_ms > 1000`, datasets: [logs.name] });
  new OdsDashboard(stack, "health", {
    uid: o.uid,
    name: "Service health",
    description: "Errors and latency",
    timeWindowStart: "qr-now-6h",
    refreshSeconds: 60,
    overwrite: o.overwrite,
    charts: [
      ...(o.firstChart ? [o.firstChart] : []),
      DashboardChart.timeSeries({ name: o.errorsTitle ?? "Errors", apl: `['${o.dataset}'] | where status >= 500 | summarize count() by bin_auto(_time)`, width: 8 }),
      DashboardChart.statistic({ name: "p95 latency", apl: `['${o.dataset}'] | summarize percentile(duration_ms, 95)`, width: 4 }),
      DashboardChart.note({ text: "Runbook: https://wiki.example.com/health", width: 12, height: 2 }),
    ],
  });
  return JSON.parse(Testing.synth(stack)) as Record<string, unknown>;
}
