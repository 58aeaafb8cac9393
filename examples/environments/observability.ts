// One environment's observability setup as a construct class, and the stack that holds
// it with its own provider block. Nothing secret is in the code or in the synthesized
// JSON: the target and the notifier secret come from variables, given per stack
// (`ods plan --all-stacks --var-file staging=staging.json --var-file production=prod.json`).
// In your own project, import from "cdktf-provider-ods" instead of "../../lib".
import { TerraformStack, TerraformVariable } from "cdktf";
import { Construct } from "constructs";
import { apiToken, dataset, monitor, notifier, provider, role, starredQuery, virtualField } from "../../lib";

/** What differs between environments; everything else is the same code. */
export interface EnvironmentSettings {
  /** Prefix of object names, so that a person can tell the organizations apart. */
  readonly prefix: string;
  readonly oncallEmails: string[];
  readonly pagerChannel: string;
  /** Slow-request threshold of the saved query, in milliseconds. */
  readonly slowMs: number;
  /** Server errors per 5 minutes above which the on-call channel is alerted. */
  readonly errorThreshold: number;
  /** How long a rotated CI token's old secret keeps working. */
  readonly tokenGracePeriod: string;
}

export interface ObservabilitySecrets {
  readonly pagerChatBToken: string;
}

/** The observability setup of one environment: a dataset and what hangs off it. */
export class Observability extends Construct {
  constructor(scope: Construct, id: string, settings: EnvironmentSettings, secrets: ObservabilitySecrets) {
    super(scope, id);
    const logsName = `${settings.prefix}-checkout-logs`;
    const logs = new dataset.Dataset(this, "logs", { name: logsName, description: "Checkout requests" });

    new virtualField.VirtualField(this, "latency_seconds", {
      dataset: logs.name,
      name: "latency_seconds",
      expression: "duration_ms / 1000",
      unit: "s",
    });

    new starredQuery.StarredQuery(this, "slow_requests", {
      dataset: logs.name,
      name: "Slow requests",
      query: { apl: `['${logsName}'] | where duration_ms > ${settings.slowMs} | take 100`, startTime: "qr-now-1h", endTime: "qr-now" },
    });

    const oncall = new notifier.Notifier(this, "oncall", {
      name: `${settings.prefix}-oncall`,
      properties: {
        email: { emails: settings.oncallEmails },
        chatB: { chatBChannel: settings.pagerChannel, chatBToken: secrets.pagerChatBToken },
      },
    });

    new monitor.Monitor(this, "errors", {
      name: `${settings.prefix}-checkout-errors`,
      description: "Server errors of the checkout",
      type: "Threshold",
      aplQuery: `['${logsName}'] | where status >= 500 | summarize count() by bin(_time, 5m)`,
      operator: "Above",
      threshold: settings.errorThreshold,
      intervalMinutes: 5,
      rangeMinutes: 5,
      notifierIds: [oncall.id],
      // The query names the dataset by its name: create the dataset first.
      dependsOn: [logs],
    });

    // Capabilities are keyed by dataset name (a map key cannot be a reference): depend on it.
    new role.Role(this, "readers", {
      name: `${settings.prefix}-checkout-readers`,
      description: "Read the checkout logs",
      datasetCapabilities: { [logsName]: { query: ["read"], starredQueries: ["read"] } },
      dependsOn: [logs],
    });

    new apiToken.ApiToken(this, "ci", {
      name: `${settings.prefix}-checkout-ci`,
      description: "CI ships deploy events",
      datasetCapabilities: { [logsName]: { ingest: ["create"] } },
      rotationGracePeriod: settings.tokenGracePeriod,
      dependsOn: [logs],
    });
  }
}

/** One environment: its own provider block (target from variables) and the shared construct. */
export class EnvironmentStack extends TerraformStack {
  constructor(scope: Construct, id: string, settings: EnvironmentSettings) {
    super(scope, id);
    const url = new TerraformVariable(this, "ods_url", { type: "string", description: `URL of the ${id} service` });
    const token = new TerraformVariable(this, "ods_token", { type: "string", sensitive: true, description: `API token for ${id}` });
    new provider.OdsProvider(this, "ods", { url: url.stringValue, token: token.stringValue });
    const pager = new TerraformVariable(this, "pager_chat_b_token", { type: "string", sensitive: true, description: "Bot token of the pager channel" });
    new Observability(this, "observability", settings, { pagerChatBToken: pager.stringValue });
  }
}
