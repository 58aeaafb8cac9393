// The example stack: one of every resource kind, with references between them.
// In your own project, import from "cdktf-provider-ods" instead of "../../lib".
import { App, TerraformOutput, TerraformStack } from "cdktf";
import type { Construct } from "constructs";
import {
  DashboardChart,
  OdsDashboard,
  apiToken,
  dataOdsDataset,
  dataOdsOrganization,
  dataset,
  datasetField,
  monitor,
  notifier,
  provider,
  role,
  starredQuery,
  user,
  view,
  virtualField,
} from "../../lib";

/** Name of the dataset this stack owns; map keys (capabilities) cannot be references. */
const LOGS = "app-logs";
/** A dataset that already holds data (the demo ingests sample events into it). */
export const SAMPLE_DATASET = "web-requests";
/**
 * Where the checkout alerts are posted. `ods demo` sets ODS_DEMO_ALERT_URL to the receiver
 * it starts on 127.0.0.1; point it at your own endpoint (Alertmanager, a chat bridge).
 */
const ALERT_URL = process.env.ODS_DEMO_ALERT_URL ?? "https://hooks.example.com/checkout-alerts";

export class BasicStack extends TerraformStack {
  constructor(scope: Construct, id: string) {
    super(scope, id);

    // url and token come from ODS_URL / ODS_TOKEN (or `ods --url/--token`), never from code.
    new provider.OdsProvider(this, "ods", {});

    const org = new dataOdsOrganization.DataOdsOrganization(this, "org", {});

    const logs = new dataset.Dataset(this, "logs", {
      name: LOGS,
      description: "Application logs of the checkout service",
    });

    const latency = new virtualField.VirtualField(this, "latency_seconds", {
      dataset: logs.name,
      name: "latency_seconds",
      expression: "duration_ms / 1000",
      description: "Request latency in seconds",
      type: "float",
      unit: "s",
    });

    new starredQuery.StarredQuery(this, "slow_requests", {
      dataset: logs.name,
      name: "Slow requests",
      query: {
        apl: `['${LOGS}'] | where duration_ms > 1000 | sort by _time desc | take 100`,
        startTime: "qr-now-1h",
        endTime: "qr-now",
        queryOptions: { noFill: true },
      },
      metadata: { team: "checkout", uses: latency.name },
    });

    const sample = new dataOdsDataset.DataOdsDataset(this, "web_requests", { name: SAMPLE_DATASET });
    new datasetField.DatasetField(this, "duration_unit", {
      dataset: sample.name,
      name: "duration_ms",
      description: "Time to serve the request",
      unit: "ms",
    });

    const oncall = new notifier.Notifier(this, "oncall", {
      name: "checkout-oncall",
      properties: {
        email: { emails: ["oncall@example.com", "sre@example.com"] },
        customWebhook: {
          url: "https://hooks.example.com/ods",
          body: "{\"action\": \"{{.Action}}\", \"monitor\": {{jsonObject .Title}}}",
          headers: { "X-Team": "checkout" },
          // Secrets come from the environment at synth time and are never printed.
          secretHeaders: { Authorization: process.env.EXAMPLE_WEBHOOK_SECRET ?? "example-secret-change-me" },
        },
      },
    });

    // Alerts go through a custom webhook whose body is a template (Go text/template syntax)
    // over the alert: .Action (Open or Closed), .Title (the monitor's name), .Value, the
    // group of a grouped query, and jsonObject / jsonArray to write values as JSON.
    const alerts = new notifier.Notifier(this, "checkout_alerts", {
      name: "checkout-alerts",
      properties: {
        customWebhook: {
          url: ALERT_URL,
          body:
            '{"status": "{{ if eq .Action "Open" }}firing{{ else }}resolved{{ end }}", "monitor": {{ jsonObject .Title }}, ' +
            '"value": {{ .Value }}, "path": {{ jsonArray .GroupValues }}, "summary": {{ jsonObject .Body }}}',
          headers: { "X-Team": "checkout" },
        },
      },
    });

    // Every 5 minutes: more than 3 server errors in a minute on one path opens an alert;
    // it closes (and says so) when a run finds no minute above the threshold.
    const checkoutErrors = new monitor.Monitor(this, "checkout_errors", {
      name: "Checkout server errors",
      type: "Threshold",
      description: "More than 3 responses with status 5xx in a minute on one path",
      aplQuery: `['${SAMPLE_DATASET}'] | where status >= 500 | summarize errors = count() by bin(_time, 1m), path`,
      operator: "Above",
      threshold: 3,
      intervalMinutes: 5,
      rangeMinutes: 5,
      resolvable: true,
      notifierIds: [alerts.id],
    });

    // A saved view, and a dashboard built from typed charts laid out in order on the grid.
    const serverErrors = new view.View(this, "server_errors", {
      name: "checkout-server-errors",
      aplQuery: `['${SAMPLE_DATASET}'] | where status >= 500`,
      datasets: [SAMPLE_DATASET],
      description: "Responses with status 5xx",
    });
    new OdsDashboard(this, "checkout_health", {
      uid: "checkout-health",
      name: "Checkout health",
      description: "Errors, latency and the monitors that watch them",
      timeWindowStart: "qr-now-6h",
      refreshSeconds: 60,
      charts: [
        DashboardChart.timeSeries({ name: "Server errors", apl: `['${SAMPLE_DATASET}'] | where status >= 500 | summarize count() by bin_auto(_time)`, width: 8 }),
        DashboardChart.statistic({ name: "p95 latency (ms)", apl: `['${SAMPLE_DATASET}'] | summarize percentile(duration_ms, 95)`, width: 4 }),
        DashboardChart.monitorList({ name: "Alerts", monitorIds: [checkoutErrors.id], width: 6 }),
        DashboardChart.note({ text: `Saved view: ${serverErrors.name}`, width: 6 }),
      ],
    });

    const alice = new user.User(this, "alice", {
      email: "alice@example.com",
      name: "Alice Example",
      role: "user",
    });

    new role.Role(this, "checkout_readers", {
      name: "checkout-readers",
      description: "Read the checkout logs and manage their saved queries",
      members: [alice.id],
      orgCapabilities: { datasets: ["read"], notifiers: ["read"], monitors: ["read"] },
      datasetCapabilities: { [LOGS]: { query: ["read"], starredQueries: ["create", "read", "update", "delete"] } },
      dependsOn: [logs],
    });

    const ci = new apiToken.ApiToken(this, "ci_ingest", {
      name: "checkout-ci-ingest",
      description: "CI pipeline ships deploy events",
      datasetCapabilities: { [LOGS]: { ingest: ["create"], query: ["read"] } },
      rotationGracePeriod: "24h",
      dependsOn: [logs],
    });

    new TerraformOutput(this, "ci_token", { value: ci.token, sensitive: true });
    new TerraformOutput(this, "oncall_notifier_id", { value: oncall.id });
    new TerraformOutput(this, "api_rate_limit", { value: org.license.apiRateLimitPerSecond });
  }
}

const app = new App();
new BasicStack(app, "basic");
app.synth();
