// ods_notifier: where alerts are delivered. Every channel of the seed; secrets are
// write-only on the service, so the engines compare fingerprints for them.
import { bool, listOf, mapOf, object, str } from "./attributes";
import { email, httpUrl, nonEmpty, timestamp } from "./checks";
import type { ResourceKind, ValidationIssue, Values } from "./kind";
import type { NotifierInput } from "../api";
import { organizationApi, wireShape } from "./api-binding";
import { withWriteOnlyTwins } from "./write-only";

const secret = { optional: true, sensitive: true, secret: true } as const;
// Webhook and chat URLs carry their credential in the URL itself
// (https://hooks.chat.example/services/T0/B0/XXXX): hidden wherever values are shown,
// yet read back by the service, so still compared (sensitive, not secret).
const credentialUrl = { required: true, sensitive: true, checks: [httpUrl] };

// Each credential gets its write-only twins (`url_wo`, `url_wo_version`): write-only.ts.
export const NOTIFIER_CHANNELS = withWriteOnlyTwins({
  custom_webhook: object(
    {
      url: str("Where the request is sent (a credential: shown as sensitive).", credentialUrl),
      body: str("Request body template (Go text/template syntax) over the alert: {{.Action}} (Open or Closed), {{.Title}} (the monitor's name), {{.Value}}, {{.Body}}, {{.GroupValues}} and more; jsonObject and jsonArray write a value as JSON.", { optional: true }),
      headers: mapOf("string", "Request headers.", { optional: true }),
      secret_headers: mapOf("string", "Request headers whose values are secret (never read back).", secret),
    },
    "A webhook with a custom body and headers.",
    { optional: true },
  ),
  webhook: object({ url: str("Where the alert is posted; it carries a credential.", credentialUrl) }, "A plain webhook.", { optional: true }),
  email: object(
    { emails: listOf("string", "Recipients.", { required: true, unordered: true, checks: [email] }) },
    "E-mail delivery.",
    { optional: true },
  ),
  chat_a: object({ chat_a_url: str("Incoming-webhook URL of the chat A workspace; it carries a credential.", credentialUrl) }, "Chat A channel.", { optional: true }),
  chat_b: object(
    {
      chat_b_channel: str("Channel name.", { required: true, checks: [nonEmpty] }),
      chat_b_token: str("Bot token (secret).", { ...secret, required: true, optional: false }),
    },
    "Chat B channel posted through its API.",
    { optional: true },
  ),
  chat_b_webhook: object(
    { chat_b_webhook_url: str("Incoming-webhook URL; it carries a credential.", credentialUrl) },
    "Chat B channel through an incoming webhook.",
    { optional: true },
  ),
  chat_c: object({ chat_c_url: str("Webhook URL; it carries a credential.", credentialUrl) }, "Chat C channel.", { optional: true }),
  incident_a: object(
    {
      api_key: str("Integration API key (secret).", { ...secret, required: true, optional: false }),
      is_eu: bool("Whether the account is in the EU region.", { optional: true, wire: "isEU", serverDefault: false }),
    },
    "Incident management A.",
    { optional: true },
  ),
  incident_b: object(
    {
      routing_key: str("Routing key (secret).", { ...secret, required: true, optional: false }),
      token: str("API token (secret).", { ...secret }),
    },
    "Incident management B.",
    { optional: true },
  ),
});

function atLeastOneChannel(values: Values): ValidationIssue[] {
  const props = values.properties;
  if (props === undefined || props === null || typeof props !== "object") return [];
  const declared = Object.keys(NOTIFIER_CHANNELS).filter((c) => (props as Values)[c] !== undefined && (props as Values)[c] !== null);
  return declared.length > 0
    ? []
    : [{ path: ["properties"], message: `expected at least one channel (${Object.keys(NOTIFIER_CHANNELS).join(", ")})` }];
}

export const notifier: ResourceKind = {
  typeName: "ods_notifier",
  description: "A notifier: delivers alerts through one or more channels.",
  schemaVersion: 0,
  attributes: {
    id: str("Assigned by the service.", { computed: true }),
    name: str("Unique name of the notifier.", { required: true, checks: [nonEmpty] }),
    disabled_until: str("Alerts are not delivered before this time (ISO 8601).", { optional: true, timestamp: true, checks: [timestamp] }),
    properties: object(NOTIFIER_CHANNELS, "Channel configurations; at least one.", { required: true }),
    created_at: str("When the notifier was created.", { computed: true, timestamp: true }),
    created_by: str("The user who created it.", { computed: true }),
  },
  naturalKey: ["name"],
  creation: "create",
  deletion: "delete",
  validate: atLeastOneChannel,
  importIdFormat: "the notifier id",
  api: organizationApi({
    list: (c) => c.listNotifiers(),
    read: (c, id) => c.getNotifier(id),
    create: (c, body) => c.createNotifier(body),
    update: (c, id, body) => c.updateNotifier(id, body),
    remove: (c, id) => c.deleteNotifier(id),
  }, { create: wireShape<NotifierInput>("notifier", { name: true, disabledUntil: true, properties: true }) }),
};
