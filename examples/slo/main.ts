// An SLO as code: checkout must serve 99% of its requests without a server error over 7
// days. slo.Slo generates the burn-rate monitors (pages to the pager, tickets to the team's
// mail) and a dashboard; `ods plan` tells what the SLO would have spent and how often it
// would have paged; `ods test` runs slo.alerts.yaml against it (docs/guides/slos.md).
// In your own project, import from "cdktf-provider-ods" instead of "../../lib".
import { App, TerraformStack } from "cdktf";
import type { Construct } from "constructs";
import { dataset, notifier, provider, slo } from "../../lib";

export class CheckoutSlo extends TerraformStack {
  constructor(scope: Construct, id: string) {
    super(scope, id);
    new provider.OdsProvider(this, "ods", {});
    const logs = new dataset.Dataset(this, "logs", { name: "checkout-logs", description: "Checkout service logs" });
    const pager = new notifier.Notifier(this, "pager", { name: "checkout-oncall", properties: { email: { emails: ["oncall@example.com"] } } });
    const mail = new notifier.Notifier(this, "mail", { name: "checkout-team", properties: { email: { emails: ["checkout-team@example.com"] } } });

    new slo.Slo(this, "availability", {
      name: "checkout availability",
      dataset: logs.name,
      badFilter: "status >= 500",
      objectivePercent: 99,
      windowDays: 7,
      description: "Requests to checkout answered without a server error.",
      labels: { team: "checkout" },
      alerting: { pageNotifierIds: [pager.id], ticketNotifierIds: [mail.id] },
    });
  }
}

const app = new App();
new CheckoutSlo(app, "checkout-slo");
app.synth();
