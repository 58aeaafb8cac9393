// Synthesizing apps that use the generated constructs: names, sensitivity, references
// and the model's validation at synth time.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { App, TerraformStack, Testing } from "cdktf";
import { afterEach, describe, expect, it } from "vitest";
import {
  apiToken,
  dataOdsOrganization,
  dataset,
  datasetField,
  monitor,
  notifier,
  provider,
  role,
  starredQuery,
  user,
  virtualField,
} from "../../src";
import { providersSchemaJson, PROVIDER_SOURCE } from "../../src/resources";

type Json = Record<string, Record<string, Record<string, Record<string, unknown>>>>;

function synthJson(build: (stack: TerraformStack) => void): Json {
  const app = Testing.app();
  const stack = new TerraformStack(app, "test");
  new provider.OdsProvider(stack, "ods", {});
  build(stack);
  return JSON.parse(Testing.synth(stack)) as Json;
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A full app.synth() into a temp dir: answers the error, and what was written. */
function synthToDisk(build: (stack: TerraformStack) => void): { error?: Error; files: string[] } {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), "ods-synth-"));
  dirs.push(outdir);
  const app = new App({ outdir });
  const stack = new TerraformStack(app, "test");
  new provider.OdsProvider(stack, "ods", {});
  build(stack);
  let error: Error | undefined;
  try {
    app.synth();
  } catch (err) {
    error = err as Error;
  }
  const files = fs.existsSync(path.join(outdir, "stacks", "test")) ? fs.readdirSync(path.join(outdir, "stacks", "test")) : [];
  return { error, files };
}

describe("generated constructs synthesize every kind with the model's names", () => {
  it("writes every attribute in snake_case, with references as references", () => {
    const json = synthJson((s) => {
      const logs = new dataset.Dataset(s, "logs", { name: "logs", description: "d", allowDestroy: true });
      new virtualField.VirtualField(s, "vf", { dataset: logs.name, name: "lat", expression: "a / 1000", type: "float", unit: "s" });
      new starredQuery.StarredQuery(s, "sq", {
        dataset: logs.name,
        name: "slow",
        who: "team",
        metadata: { k: "v" },
        query: {
          apl: "['logs'] | take 1",
          startTime: "qr-now-1h",
          endTime: "qr-now",
          cursor: "c",
          includeCursor: true,
          includeCursorField: false,
          defaultLimit: 10,
          defaultOrder: [{ field: "_time", desc: true }],
          libraries: ["lib"],
          variables: { x: "1" },
          queryOptions: { disableCache: true, maxDataPoints: 5, priority: "low", resolution: "auto", noFill: true },
        },
      });
      new datasetField.DatasetField(s, "f", { dataset: logs.name, name: "duration_ms", unit: "ms", hidden: false, description: "x" });
      const n = new notifier.Notifier(s, "n", {
        name: "n",
        disabledUntil: "2027-01-01T00:00:00Z",
        properties: {
          customWebhook: { url: "https://h.example.com", body: "{{.AlertName}}", headers: { a: "b" }, secretHeaders: { s: "x" } },
          webhook: { url: "https://w.example.com" },
          email: { emails: ["a@example.com"] },
          chatA: { chatAUrl: "https://a.example.com" },
          chatB: { chatBChannel: "#c", chatBToken: "t" },
          chatBWebhook: { chatBWebhookUrl: "https://b.example.com" },
          chatC: { chatCUrl: "https://c.example.com" },
          incidentA: { apiKey: "k", isEu: true },
          incidentB: { routingKey: "r", token: "t2" },
        },
      });
      new monitor.Monitor(s, "m", {
        name: "errors",
        type: "Threshold",
        description: "5xx",
        aplQuery: "['logs'] | summarize count() by bin(_time, 1m)",
        operator: "AboveOrEqual",
        threshold: 3,
        intervalMinutes: 1,
        rangeMinutes: 5,
        secondDelay: 60,
        alertOnNoData: true,
        notifyByGroup: true,
        notifyEveryRun: false,
        resolvable: true,
        skipResolved: false,
        disabled: false,
        disabledUntil: "2027-01-01T00:00:00Z",
        notifierIds: [n.id],
        triggerAfterNPositiveResults: 2,
        triggerFromNRuns: 3,
        compareDays: 1,
        tolerance: 10,
        columnName: "count_",
      });
      const alice = new user.User(s, "u", { email: "a@example.com", name: "A", role: "user" });
      const r = new role.Role(s, "r", {
        name: "r",
        members: [alice.id],
        orgCapabilities: { apiTokens: ["read"], auditLog: ["read"], sharedAccessKeys: ["read"] },
        datasetCapabilities: { logs: { starredQueries: ["read"], virtualFields: ["create"] } },
        viewCapabilities: { v: { query: ["read"] } },
      });
      new apiToken.ApiToken(s, "t", { name: "t", expiresAt: "2027-01-01T00:00:00Z", description: r.id, rotationGracePeriod: "1h" });
      new dataOdsOrganization.DataOdsOrganization(s, "org", {});
    });
    const res = json.resource;
    expect(res.ods_virtual_field.vf).toMatchObject({ dataset: "${ods_dataset.logs.name}", expression: "a / 1000", type: "float", unit: "s" });
    expect(res.ods_dataset.logs).toMatchObject({ name: "logs", allow_destroy: true });
    expect(res.ods_starred_query.sq.query).toMatchObject({
      apl: "['logs'] | take 1",
      start_time: "qr-now-1h",
      include_cursor_field: false,
      default_limit: 10,
      default_order: [{ field: "_time", desc: true }],
      query_options: { disable_cache: true, max_data_points: 5, priority: "low", no_fill: true },
    });
    expect(res.ods_notifier.n.properties).toMatchObject({
      custom_webhook: { secret_headers: { s: "x" } },
      chat_a: { chat_a_url: "https://a.example.com" },
      chat_b: { chat_b_channel: "#c", chat_b_token: "t" },
      chat_b_webhook: { chat_b_webhook_url: "https://b.example.com" },
      incident_a: { api_key: "k", is_eu: true },
      incident_b: { routing_key: "r", token: "t2" },
    });
    expect(res.ods_role.r).toMatchObject({
      members: ["${ods_user.u.id}"],
      org_capabilities: { api_tokens: ["read"], audit_log: ["read"], shared_access_keys: ["read"] },
      dataset_capabilities: { logs: { starred_queries: ["read"], virtual_fields: ["create"] } },
    });
    expect(res.ods_monitor.m).toEqual({
      name: "errors", type: "Threshold", description: "5xx", apl_query: "['logs'] | summarize count() by bin(_time, 1m)",
      operator: "AboveOrEqual", threshold: 3, interval_minutes: 1, range_minutes: 5, second_delay: 60, alert_on_no_data: true,
      notify_by_group: true, notify_every_run: false, resolvable: true, skip_resolved: false, disabled: false,
      disabled_until: "2027-01-01T00:00:00Z", notifier_ids: ["${ods_notifier.n.id}"], trigger_after_n_positive_results: 2,
      trigger_from_n_runs: 3, compare_days: 1, tolerance: 10, column_name: "count_",
    });
    expect(res.ods_api_token.t).toMatchObject({ description: "${ods_role.r.id}", rotation_grace_period: "1h" });
    expect(json.data.ods_organization.org).toBeDefined();
  });

  it("marks every secret sensitive in the provider schema", () => {
    const schema = providersSchemaJson().provider_schemas[PROVIDER_SOURCE];
    const props = schema.resource_schemas.ods_notifier.block.attributes.properties.nested_type!.attributes;
    expect(props.chat_b.nested_type!.attributes.chat_b_token.sensitive).toBe(true);
    expect(props.incident_a.nested_type!.attributes.api_key.sensitive).toBe(true);
    expect(props.incident_b.nested_type!.attributes.routing_key.sensitive).toBe(true);
    expect(props.incident_b.nested_type!.attributes.token.sensitive).toBe(true);
    expect(props.custom_webhook.nested_type!.attributes.secret_headers.sensitive).toBe(true);
    expect(schema.resource_schemas.ods_api_token.block.attributes.token).toMatchObject({ computed: true, sensitive: true });
    expect(schema.provider.block.attributes.token.sensitive).toBe(true);
  });
});

const thresholdMonitor: monitor.MonitorConfig = {
  name: "m", type: "Threshold", aplQuery: "['logs'] | summarize count()", operator: "Above", threshold: 1, intervalMinutes: 1, rangeMinutes: 1,
};

describe("validation at synth time names the construct, the attribute and what was expected", () => {
  const cases: [string, (s: TerraformStack) => void, string][] = [
    ["an e-mail address", (s) => new notifier.Notifier(s, "n", { name: "n", properties: { email: { emails: ["nope"] } } }), '[test/n] ods_notifier: attribute "properties.email.emails[0]" expected an e-mail address like "oncall@example.com", got "nope"'],
    ["an http(s) URL", (s) => new notifier.Notifier(s, "n", { name: "n", properties: { webhook: { url: "ftp://x" } } }), 'attribute "properties.webhook.url" expected an http(s) URL'],
    ["a timestamp", (s) => new apiToken.ApiToken(s, "t", { name: "t", expiresAt: "tomorrow" }), '[test/t] ods_api_token: attribute "expires_at" expected an ISO 8601 timestamp'],
    ["a capability key", (s) => new role.Role(s, "r", { name: "r", datasetCapabilities: { logs: { query: ["write"] } } }), 'attribute "dataset_capabilities.logs.query[0]" expected one of "read", got "write"'],
    ["a capability action", (s) => new role.Role(s, "r", { name: "r", orgCapabilities: { billing: ["delete"] } }), 'attribute "org_capabilities.billing[0]" expected one of "read", "update", got "delete"'],
    ["a dataset name", (s) => new dataset.Dataset(s, "d", { name: "bad name!" }), '[test/d] ods_dataset: attribute "name" expected a dataset name of letters, digits'],
    ["a non-empty name", (s) => new role.Role(s, "r", { name: "  " }), '[test/r] ods_role: attribute "name" expected a non-empty string'],
    ["monitor operator", (s) => new monitor.Monitor(s, "m", { ...thresholdMonitor, operator: "Over" }), '[test/m] ods_monitor: attribute "operator" expected one of "Below", "BelowOrEqual", "Above", "AboveOrEqual", "AboveOrBelow", got "Over"'],
    ["monitor interval", (s) => new monitor.Monitor(s, "m", { ...thresholdMonitor, intervalMinutes: 0 }), '[test/m] ods_monitor: attribute "interval_minutes" expected a number >= 1, got 0'],
    ["match monitor query", (s) => new monitor.Monitor(s, "m", { ...thresholdMonitor, type: "MatchEvent", aplQuery: "['logs'] | summarize count()" }), '[test/m] ods_monitor: attribute "apl_query" a MatchEvent monitor sends each matching event, so its query may use only where, extend'],
    ["a channel", (s) => new notifier.Notifier(s, "n", { name: "n", properties: {} }), '[test/n] ods_notifier: attribute "properties" expected at least one channel'],
  ];
  for (const [what, build, message] of cases) {
    it(`rejects a bad ${what} and writes nothing`, () => {
      const { error, files } = synthToDisk(build);
      expect(error?.message).toContain(message);
      expect(files).not.toContain("cdk.tf.json");
    });
  }

  it("lets references through unvalidated", () => {
    const { error, files } = synthToDisk((s) => {
      const logs = new dataset.Dataset(s, "logs", { name: "logs" });
      new virtualField.VirtualField(s, "vf", { dataset: logs.name, name: "v", expression: "a" });
      const u = new user.User(s, "u", { email: "a@example.com", name: "A", role: "user" });
      new notifier.Notifier(s, "n", { name: "n", properties: { email: { emails: [u.email] } } });
    });
    expect(error).toBeUndefined();
    expect(files).toContain("cdk.tf.json");
  });
});
