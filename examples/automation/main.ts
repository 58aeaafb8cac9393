// The alerting of a payments service, with a test suite of its own (alerting.test.ts) that
// applies it to an emulator started from code, sends it events and moves the clock: a 5xx
// monitor posting to the on-call webhook, and an availability SLO paging through a second
// webhook (its tickets go by e-mail, to the emulator's outbox). The webhook URLs are
// variables, so the tests can point them at the emulator's receiver. In your own project,
// import from "cdktf-provider-ods" instead of "../../lib".
import { App, TerraformStack, TerraformVariable } from "cdktf";
import type { Construct } from "constructs";
import { dataset, monitor, notifier, provider, slo } from "../../lib";

export class PaymentsAlerting extends TerraformStack {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    new provider.OdsProvider(this, "ods", {});

    const logs = new dataset.Dataset(this, "logs", { name: "payments-logs", description: "Payments service logs" });

    const oncallUrl = new TerraformVariable(this, "oncall_webhook_url", { type: "string", description: "Where the on-call alerts are posted" });
    const pagerUrl = new TerraformVariable(this, "pager_webhook_url", { type: "string", description: "Where the SLO's pages are posted" });
    const oncall = new notifier.Notifier(this, "oncall", { name: "payments-oncall", properties: { webhook: { url: oncallUrl.stringValue } } });
    const pager = new notifier.Notifier(this, "pager", {
      name: "payments-pager",
      properties: {
        customWebhook: {
          url: pagerUrl.stringValue,
          body: '{"page":"{{.Title}}","action":"{{.Action}}","burnRate":{{.Value}}}',
        },
      },
    });

    const team = new notifier.Notifier(this, "team", { name: "payments-team", properties: { email: { emails: ["payments-team@example.com"] } } });

    // More than 10 server errors in 5 minutes.
    new monitor.Monitor(this, "errors", {
      name: "payments 5xx",
      type: "Threshold",
      aplQuery: `['${logs.name}'] | where status >= 500 | count`,
      operator: "Above",
      threshold: 10,
      intervalMinutes: 5,
      rangeMinutes: 5,
      resolvable: true,
      notifierIds: [oncall.id],
    });

    // 99% of requests without a server error over 7 days; pages when the budget burns fast.
    new slo.Slo(this, "availability", {
      name: "payments availability",
      dataset: logs.name,
      badFilter: "status >= 500",
      objectivePercent: 99,
      windowDays: 7,
      alerting: { pageNotifierIds: [pager.id], ticketNotifierIds: [team.id], minEvents: 20 },
    });
  }
}

const app = new App();
new PaymentsAlerting(app, "payments");
app.synth();
