// Two environments from one app: `staging` and `production` are two stacks, each its own
// organization, built from one construct class (observability.ts) with per-environment
// settings. Names carry the environment's prefix (`stg-`, `prod-`), so that
// `ods compare --map 'stg-=prod-'` matches them across organizations.
import { App } from "cdktf";
import { EnvironmentStack } from "./observability";

const app = new App();
new EnvironmentStack(app, "staging", {
  prefix: "stg",
  oncallEmails: ["dev-oncall@example.com"],
  pagerChannel: "#checkout-staging",
  slowMs: 2000,
  errorThreshold: 50,
  tokenGracePeriod: "1h",
});
new EnvironmentStack(app, "production", {
  prefix: "prod",
  oncallEmails: ["oncall@example.com", "sre@example.com"],
  pagerChannel: "#checkout-alerts",
  slowMs: 1000,
  errorThreshold: 10,
  tokenGracePeriod: "24h",
});
app.synth();
