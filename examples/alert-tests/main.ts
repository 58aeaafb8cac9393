// The alerting of a checkout service, tested before it pages anyone: `ods test` runs
// checkout.alerts.yaml against this app (see docs/guides/monitors-and-backtests.md).
// In your own project, import from "cdktf-provider-ods" instead of "../../lib".
import { App, TerraformStack, TerraformVariable } from "cdktf";
import type { Construct } from "constructs";
import { dataset, monitor, notifier, provider } from "../../lib";

export class CheckoutAlerting extends TerraformStack {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    new provider.OdsProvider(this, "ods", {});

    const logs = new dataset.Dataset(this, "logs", { name: "checkout-logs", description: "Checkout service logs" });

    // The pager's webhook carries its credential in the header: a sensitive variable.
    const pagerKey = new TerraformVariable(this, "pager_key", { type: "string", sensitive: true });
    const pager = new notifier.Notifier(this, "pager", {
      name: "checkout-pager",
      properties: {
        customWebhook: {
          url: "https://pager.example.com/v1/alerts",
          body: '{"what":"{{.Title}}","action":"{{.Action}}","value":{{.Value}},"groups":{{jsonArray .GroupValues}}}',
          secretHeaders: { Authorization: pagerKey.stringValue },
        },
      },
    });

    // More than 5 server errors in 5 minutes, per endpoint; closes when it calms down.
    new monitor.Monitor(this, "errors", {
      name: "checkout 5xx",
      type: "Threshold",
      aplQuery: `['${logs.name}'] | where status >= 500 | summarize count() by path`,
      operator: "Above",
      threshold: 5,
      intervalMinutes: 5,
      rangeMinutes: 5,
      notifyByGroup: true,
      resolvable: true,
      notifierIds: [pager.id],
    });

    // Every payment refusal, as it happens.
    new monitor.Monitor(this, "refusals", {
      name: "payment refused",
      type: "MatchEvent",
      aplQuery: `['${logs.name}'] | where event == "payment_refused"`,
      intervalMinutes: 1,
      rangeMinutes: 1,
      notifierIds: [pager.id],
    });
  }
}

const app = new App();
new CheckoutAlerting(app, "checkout");
app.synth();
