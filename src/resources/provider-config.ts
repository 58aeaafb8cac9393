// The provider block: where the service is and how to authenticate. Each setting falls
// back to the environment so that secrets stay out of configs.
import { type Attributes, num, str } from "./attributes";
import { atLeast, atMost, duration, httpUrl, integer } from "./checks";

export const PROVIDER_ATTRIBUTES: Attributes = {
  url: str("Base URL of the service; falls back to ODS_URL.", { optional: true, checks: [httpUrl] }),
  token: str("API token; falls back to ODS_TOKEN.", { optional: true, sensitive: true }),
  org_id: str("Organization id; falls back to ODS_ORG_ID.", { optional: true }),
  rate_limit_per_second: num("Client-side request rate limit; defaults to the organization's apiRateLimitPerSecond.", {
    optional: true,
    checks: [atLeast(1)],
  }),
  timeout: str("Timeout of one request, e.g. \"30s\".", { optional: true, checks: [duration] }),
  backtest_days: num("terraform plan replays each created or changed monitor over this many past days and shows the result as a warning (unset: no backtest; ods plan backtests 7 days unless --no-backtest).", {
    optional: true,
    checks: [integer, atLeast(1), atMost(30)],
  }),
};

/** Environment variables each provider setting falls back to. */
export const PROVIDER_ENV: Readonly<Record<string, string>> = {
  url: "ODS_URL",
  token: "ODS_TOKEN",
  org_id: "ODS_ORG_ID",
};
