// Notifiers: channel configurations with write-only secrets. Secrets are stored (the
// service needs them to deliver alerts) but every answer, including the one to the
// write that set them, shows them as "" (keys of secretHeaders kept).
import { badRequest } from "../errors";
import type { ChannelRecord, NotifierRecord } from "../model";
import { parseTemplate, TemplateError } from "../monitors/template";
import type { Route } from "../routing";
import { nowIso } from "../time";
import {
  bodyObject,
  checkEmail,
  checkHttpUrl,
  isObject,
  optionalBoolean,
  own,
  setOwn,
  optionalString,
  optionalStringArray,
  optionalStringMap,
  optionalTimestamp,
  requiredObject,
  requiredString,
  type JsonObject,
} from "../validate";
import { createRoute, deleteRoute, getRoute, listRoute, replaceRoute, type KindSpec } from "./crud";

export type FieldKind = "string" | "url" | "secret" | "map" | "secretMap" | "emails" | "boolean";

export const CHANNELS: Readonly<Record<string, Readonly<Record<string, FieldKind>>>> = {
  customWebhook: { url: "url", body: "string", headers: "map", secretHeaders: "secretMap" },
  webhook: { url: "url" },
  email: { emails: "emails" },
  chatA: { chatAUrl: "url" },
  chatB: { chatBChannel: "string", chatBToken: "secret" },
  chatBWebhook: { chatBWebhookUrl: "url" },
  chatC: { chatCUrl: "url" },
  incidentA: { apiKey: "secret", isEU: "boolean" },
  incidentB: { routingKey: "secret", token: "secret" },
};

function parseChannel(channel: string, value: JsonObject): ChannelRecord {
  const parent = `properties.${channel}`;
  const out: ChannelRecord = {};
  for (const [field, kind] of Object.entries(CHANNELS[channel]!)) {
    const path = `${parent}.${field}`;
    switch (kind) {
      case "string":
      case "secret":
        out[field] = optionalString(value, field, parent);
        break;
      case "url":
        out[field] = checkHttpUrl(optionalString(value, field, parent), path);
        break;
      case "map":
      case "secretMap":
        out[field] = optionalStringMap(value, field, parent);
        break;
      case "emails": {
        const emails = optionalStringArray(value, field, parent);
        emails.forEach((e, i) => checkEmail(e, `${path}[${i}]`));
        // A set: answered sorted and without repeats, so order never shows as a change.
        out[field] = [...new Set(emails)].sort();
        break;
      }
      case "boolean": {
        const flag = optionalBoolean(value, field, parent);
        if (flag !== undefined) out[field] = flag;
        break;
      }
    }
  }
  if (channel === "customWebhook" && typeof out.body === "string" && out.body !== "") {
    // Refused at write time: a template error found only when an alert fires is found too late.
    try {
      parseTemplate(out.body);
    } catch (err) {
      if (err instanceof TemplateError) throw badRequest(`"${parent}.body" is not a valid template: ${err.message}`);
      throw err;
    }
  }
  return out;
}

function parseProperties(body: JsonObject): Record<string, ChannelRecord> {
  const properties = requiredObject(body, "properties");
  const out: Record<string, ChannelRecord> = {};
  for (const [channel, value] of Object.entries(properties)) {
    if (!own(CHANNELS, channel)) {
      throw badRequest(`"properties.${channel}" is not a notifier channel (known: ${Object.keys(CHANNELS).join(", ")})`);
    }
    if (value === null || value === undefined) continue;
    if (!isObject(value)) throw badRequest(`"properties.${channel}" must be an object`);
    setOwn(out, channel, parseChannel(channel, value));
  }
  if (Object.keys(out).length === 0) throw badRequest(`"properties" must configure at least one channel (${Object.keys(CHANNELS).join(", ")})`);
  return out;
}

/**
 * On update, a secret sent as "" (or left out) keeps its stored value: clients only
 * ever read "" back, so a read-modify-write must not wipe the secret.
 */
function keepSecrets(next: Record<string, ChannelRecord>, previous: Record<string, ChannelRecord>): void {
  for (const [channel, fields] of Object.entries(next)) {
    const old = own(previous, channel);
    if (!old) continue;
    for (const [field, kind] of Object.entries(CHANNELS[channel]!)) {
      if (kind === "secret" && fields[field] === "") fields[field] = old[field] ?? "";
      if (kind === "secretMap") {
        const values = fields[field] as Record<string, string>;
        const oldValues = (old[field] ?? {}) as Record<string, string>;
        for (const key of Object.keys(values)) {
          const kept = own(oldValues, key);
          if (values[key] === "" && kept !== undefined) setOwn(values, key, kept);
        }
      }
    }
  }
}

function redact(properties: Record<string, ChannelRecord>): Record<string, ChannelRecord> {
  const out: Record<string, ChannelRecord> = {};
  for (const [channel, fields] of Object.entries(properties)) {
    const shown: ChannelRecord = { ...fields };
    for (const [field, kind] of Object.entries(CHANNELS[channel]!)) {
      if (kind === "secret") shown[field] = "";
      if (kind === "secretMap") shown[field] = Object.fromEntries(Object.keys(fields[field] as Record<string, string>).map((k) => [k, ""]));
    }
    setOwn(out, channel, shown);
  }
  return out;
}

function toWire(n: NotifierRecord): JsonObject {
  return {
    id: n.id,
    name: n.name,
    disabledUntil: n.disabledUntil,
    createdAt: n.createdAt,
    createdBy: n.createdBy,
    properties: redact(n.properties),
  };
}

const NOTIFIERS: KindSpec<"notifiers"> = {
  collection: "notifiers",
  kind: "notifier",
  path: "/v2/notifiers",
  idPrefix: "ntf",
  capability: "notifiers",
  toWire,
};

export const notifierRoutes: readonly Route[] = [
  listRoute(NOTIFIERS),
  getRoute(NOTIFIERS),
  createRoute(NOTIFIERS, (ctx, id) => {
    const body = bodyObject(ctx.json());
    return {
      id,
      name: requiredString(body, "name"),
      disabledUntil: optionalTimestamp(body, "disabledUntil"),
      createdAt: nowIso(ctx.now),
      createdBy: ctx.caller.user.id,
      properties: parseProperties(body),
    };
  }),
  replaceRoute(NOTIFIERS, "update", (ctx, previous) => {
    const body = bodyObject(ctx.json());
    const properties = parseProperties(body);
    keepSecrets(properties, previous.properties);
    return { ...previous, name: requiredString(body, "name"), disabledUntil: optionalTimestamp(body, "disabledUntil"), properties };
  }),
  deleteRoute(NOTIFIERS),
];
