// Delivering notifications. Webhook and custom webhook notifiers POST to the one URL
// the notifier names; every other channel (e-mail, chat, incident services) lands in
// the outbox, which tests read and which never leaves the machine. Deliveries run on
// their own queue, never inside an API request, and a target that fails is retried
// with bounded backoff and then recorded as failed: an unreachable receiver can
// neither crash the emulator nor slow its API.
import type * as dns from "node:dns";
import * as http from "node:http";
import * as https from "node:https";
import type * as net from "node:net";
import type { ChannelRecord, NotifierRecord } from "../model";
import { CHANNELS } from "../routes/notifiers";
import { own } from "../validate";
import { checkTarget, type DeliverTo, type Resolve } from "./deliver-to";
import { renderTemplate, TemplateError } from "./template";

/** What one alert says; the custom webhook's template sees it with capitalized names. */
export interface Notification {
  action: "Open" | "Closed";
  monitorId: string;
  title: string;
  description: string;
  body: string;
  value: number;
  timestamp: string;
  queryStartTime: string;
  queryEndTime: string;
  matchedEvent: Record<string, unknown> | null;
  groupKeys: string[];
  groupValues: string[];
}

/** "refused": the target is not an allowed delivery host (deliver-to.ts); nothing was sent. */
export type DeliveryStatus = "pending" | "delivered" | "failed" | "skipped" | "refused";

/** One notification to one notifier channel, as GET /_emulator/deliveries shows it. */
export interface DeliveryRecord {
  id: string;
  monitorId: string;
  notifierId: string;
  channel: string;
  action: Notification["action"];
  /** Scheme, host and path of the target: never its credentials or query string. */
  target: string;
  status: DeliveryStatus;
  attempts: number;
  /** HTTP status of the last answer (0: none). */
  lastStatus: number;
  lastError: string;
  createdAt: string;
  finishedAt: string;
}

/** A notification for a channel the emulator does not send anywhere. */
export interface OutboxEntry {
  id: string;
  at: string;
  monitorId: string;
  notifierId: string;
  notifierName: string;
  channel: string;
  /** The channel's configuration, with secrets and URLs shown as "(sensitive)". */
  to: Record<string, unknown>;
  notification: Notification;
  /** For a webhook captured instead of sent: the body it would POST and its headers (secret ones "(sensitive)"). */
  request?: { body: string; headers: Record<string, string> };
  /** For a webhook refused before any connection: why (deliver-to.ts). */
  refused?: string;
}

/** Where a connection is about to be opened (the test hook sees every one, before it opens). */
export interface ConnectTarget {
  host: string;
  address: string;
  port: number;
}

export interface DeliveryOptions {
  /**
   * Webhooks land in the outbox with the request they would send instead of being sent:
   * for alert tests (ods test), whose notifiers name real endpoints.
   */
  captureWebhooks?: boolean;
  /** Attempts per delivery, the first included (default 5). */
  maxAttempts?: number;
  /** Wait before the first retry; doubles per retry (default 1000 ms). */
  baseDelayMs?: number;
  /** Longest wait between two attempts (default 30 s). */
  maxDelayMs?: number;
  /** Per attempt (default 5 s). */
  timeoutMs?: number;
  /** Which hosts webhooks may reach (default: loopback only). */
  deliverTo?: DeliverTo;
  /** Resolves host names (tests give their own: no test resolves a name off the machine). */
  resolve?: Resolve;
  /** Test hook: called right before each connection is opened. */
  beforeConnect?: (target: ConnectTarget) => void;
  /** Told of each refused delivery (the scheduler writes it to the monitor's history). */
  onRefused?: (refusal: { monitorId: string; notifierId: string; reason: string; at: string }) => void;
}

export const SENSITIVE = "(sensitive)";
/** How many delivery records and outbox entries are kept (the oldest go first). */
const KEEP = 10_000;
const MAX_RESPONSE_BYTES = 64 * 1024;

interface Job {
  record: DeliveryRecord;
  url: string;
  headers: Record<string, string>;
  payload: string;
  /** The address the target was checked at and is connected to (set before the first attempt). */
  address?: { address: string; family: 4 | 6 };
  /** What the outbox shows of a refused delivery. */
  refusedEntry: Omit<OutboxEntry, "id" | "refused">;
}

/** The webhook's JSON: an action and the event it is about (the service's default envelope). */
export function defaultPayload(n: Notification): Record<string, unknown> {
  return { action: n.action, event: { ...n } };
}

/** The variables of a custom webhook template. */
export function templateData(n: Notification): Record<string, unknown> {
  return {
    Action: n.action,
    MonitorID: n.monitorId,
    Title: n.title,
    Description: n.description,
    Body: n.body,
    Value: n.value,
    Timestamp: n.timestamp,
    QueryStartTime: n.queryStartTime,
    QueryEndTime: n.queryEndTime,
    MatchedEvent: n.matchedEvent ?? {},
    GroupKeys: n.groupKeys,
    GroupValues: n.groupValues,
  };
}

/** The URL without user, password, query or fragment: safe to show. */
export function describeTarget(raw: string): string {
  try {
    const u = new URL(raw);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return SENSITIVE;
  }
}

function redactedChannel(channel: string, fields: ChannelRecord): Record<string, unknown> {
  const kinds = own(CHANNELS, channel) ?? {};
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(fields)) {
    const kind = own(kinds, field);
    // URLs of chat and incident services embed their credential; shown like secrets.
    if (kind === "secret" || kind === "url") out[field] = value === "" ? "" : SENSITIVE;
    else if (kind === "secretMap") out[field] = Object.fromEntries(Object.keys(value as Record<string, string>).map((k) => [k, SENSITIVE]));
    else out[field] = value;
  }
  return out;
}

function keepLast<T>(list: T[]): void {
  if (list.length > KEEP * 1.1) list.splice(0, list.length - KEEP);
}

export class DeliveryQueue {
  private readonly records: DeliveryRecord[] = [];
  private readonly outbox: OutboxEntry[] = [];
  /** Per target URL, first attempts run one after another, so a receiver sees alerts in order. */
  private readonly lanes = new Map<string, Promise<void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly firstAttempts = new Set<Promise<void>>();
  private seq = 0;
  private closed = false;
  private readonly maxAttempts: number;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly timeoutMs: number;
  private readonly captureWebhooks: boolean;
  private readonly deliverTo: DeliverTo;
  private readonly resolve: Resolve | undefined;
  private readonly beforeConnect: DeliveryOptions["beforeConnect"];
  onRefused: DeliveryOptions["onRefused"];

  constructor(opts: DeliveryOptions = {}) {
    this.deliverTo = opts.deliverTo ?? { kind: "loopback" };
    this.resolve = opts.resolve;
    this.beforeConnect = opts.beforeConnect;
    this.onRefused = opts.onRefused;
    this.captureWebhooks = opts.captureWebhooks === true;
    this.maxAttempts = Math.max(1, Math.floor(opts.maxAttempts ?? 5));
    this.baseDelayMs = Math.max(0, opts.baseDelayMs ?? 1000);
    this.maxDelayMs = Math.max(this.baseDelayMs, opts.maxDelayMs ?? 30_000);
    this.timeoutMs = Math.max(1, opts.timeoutMs ?? 5000);
  }

  deliveries(): DeliveryRecord[] {
    return this.records.map((r) => ({ ...r }));
  }

  outboxEntries(): OutboxEntry[] {
    return this.outbox.slice();
  }

  /** Queues `n` for every channel of `notifier`; `at` is the emulator's time (ISO). */
  send(notifier: NotifierRecord, n: Notification, at: string, nowIso: () => string): void {
    for (const [channel, fields] of Object.entries(notifier.properties)) {
      if (channel === "webhook" || channel === "customWebhook") this.post(notifier, channel, fields, n, at, nowIso);
      else {
        this.outbox.push({
          id: this.nextId("out"),
          at,
          monitorId: n.monitorId,
          notifierId: notifier.id,
          notifierName: notifier.name,
          channel,
          to: redactedChannel(channel, fields),
          notification: n,
        });
        keepLast(this.outbox);
      }
    }
  }

  /** A delivery that is not attempted (notifier missing or disabled), for the record. */
  skip(monitorId: string, notifierId: string, action: Notification["action"], reason: string, at: string): void {
    this.addRecord({ id: this.nextId("dlv"), monitorId, notifierId, channel: "", action, target: "", status: "skipped", attempts: 0, lastStatus: 0, lastError: reason, createdAt: at, finishedAt: at });
  }

  private nextId(prefix: string): string {
    return `${prefix}_${(++this.seq).toString().padStart(8, "0")}`;
  }

  private addRecord(record: DeliveryRecord): void {
    this.records.push(record);
    keepLast(this.records);
  }

  private post(notifier: NotifierRecord, channel: string, fields: ChannelRecord, n: Notification, at: string, nowIso: () => string): void {
    const url = typeof fields.url === "string" ? fields.url : "";
    const record: DeliveryRecord = {
      id: this.nextId("dlv"),
      monitorId: n.monitorId,
      notifierId: notifier.id,
      channel,
      action: n.action,
      target: url === "" ? "" : describeTarget(url),
      status: "pending",
      attempts: 0,
      lastStatus: 0,
      lastError: "",
      createdAt: at,
      finishedAt: "",
    };
    this.addRecord(record);
    const fail = (why: string): void => {
      record.status = "failed";
      record.lastError = why;
      record.finishedAt = nowIso();
    };
    if (url === "") return fail("the notifier has no url");
    const headers: Record<string, string> = {};
    let payload: string;
    if (channel === "customWebhook") {
      for (const map of [fields.headers, fields.secretHeaders]) {
        for (const [k, v] of Object.entries((map ?? {}) as Record<string, string>)) headers[k] = v;
      }
      const template = typeof fields.body === "string" ? fields.body : "";
      try {
        payload = template === "" ? JSON.stringify(defaultPayload(n)) : renderTemplate(template, templateData(n));
      } catch (err) {
        if (err instanceof TemplateError) return fail(`template: ${err.message}`);
        throw err;
      }
    } else {
      payload = JSON.stringify(defaultPayload(n));
    }
    // Set last, so that a header of the notifier cannot change what the body is.
    headers["Content-Type"] = "application/json";
    headers["User-Agent"] = "ods-emulator";
    if (this.captureWebhooks) {
      const secret = new Set(Object.keys((fields.secretHeaders ?? {}) as Record<string, string>));
      const shown = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, secret.has(k) ? SENSITIVE : v]));
      this.outbox.push({
        id: this.nextId("out"), at, monitorId: n.monitorId, notifierId: notifier.id, notifierName: notifier.name, channel,
        to: redactedChannel(channel, fields), notification: n, request: { body: payload, headers: shown },
      });
      keepLast(this.outbox);
      record.status = "delivered";
      record.finishedAt = at;
      return;
    }
    const job: Job = { record, url, headers, payload, refusedEntry: { at, monitorId: n.monitorId, notifierId: notifier.id, notifierName: notifier.name, channel, to: redactedChannel(channel, fields), notification: n } };
    const lane = this.lanes.get(url) ?? Promise.resolve();
    const first = lane.then(() => this.attempt(job, nowIso));
    const settled = first.then(
      () => undefined,
      () => undefined,
    );
    this.lanes.set(url, settled);
    this.track(settled, this.firstAttempts);
    this.track(settled, this.inFlight);
    void settled.then(() => {
      if (this.lanes.get(url) === settled) this.lanes.delete(url);
    });
  }

  private track(p: Promise<void>, set: Set<Promise<void>>): void {
    set.add(p);
    void p.then(() => set.delete(p));
  }

  private async attempt(job: Job, nowIso: () => string): Promise<void> {
    const { record } = job;
    if (this.closed) {
      record.status = "failed";
      record.lastError = "the emulator closed before the delivery was made";
      record.finishedAt = nowIso();
      return;
    }
    if (!job.address) {
      // Checked before the first attempt, before any socket: a refusal is final.
      let target: URL;
      try {
        target = new URL(job.url);
      } catch {
        record.status = "failed";
        record.lastError = "the url is not valid";
        record.finishedAt = nowIso();
        return;
      }
      const check = await checkTarget(target, this.deliverTo, this.resolve);
      if (!check.ok) {
        record.status = "refused";
        record.lastError = check.reason;
        record.finishedAt = nowIso();
        this.outbox.push({ id: this.nextId("out"), ...job.refusedEntry, refused: check.reason });
        keepLast(this.outbox);
        this.onRefused?.({ monitorId: record.monitorId, notifierId: record.notifierId, reason: check.reason, at: job.refusedEntry.at });
        return;
      }
      job.address = { address: check.address, family: check.family };
    }
    record.attempts++;
    const outcome = await postOnce(job, this.timeoutMs, this.beforeConnect);
    record.lastStatus = outcome.status;
    record.lastError = outcome.error;
    if (outcome.status >= 200 && outcome.status < 300) {
      record.status = "delivered";
      record.finishedAt = nowIso();
      return;
    }
    if (record.attempts >= this.maxAttempts || this.closed) {
      record.status = "failed";
      record.finishedAt = nowIso();
      return;
    }
    const delay = Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** (record.attempts - 1));
    const retry = new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.attempt(job, nowIso).then(resolve, resolve);
      }, delay);
      timer.unref();
      this.timers.add(timer);
    });
    this.track(retry, this.inFlight);
  }

  /** Resolves when every queued delivery has had its first attempt (or `timeoutMs` passed). */
  async firstAttemptsDone(timeoutMs: number): Promise<void> {
    await settleWithin([...this.firstAttempts], timeoutMs);
  }

  /** Resolves when no delivery is pending, retries included (or `timeoutMs` passed). */
  async drained(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.inFlight.size > 0 && Date.now() < deadline) await settleWithin([...this.inFlight], deadline - Date.now());
  }

  /** Stops retries; deliveries still waiting for one are recorded as failed. */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const r of this.records) {
      if (r.status === "pending" && r.attempts > 0) {
        r.status = "failed";
        r.lastError = `${r.lastError} (retries stopped: the emulator closed)`.trim();
      }
    }
    await settleWithin([...this.firstAttempts], this.timeoutMs);
  }
}

async function settleWithin(promises: Promise<void>[], timeoutMs: number): Promise<void> {
  if (promises.length === 0) return;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, Math.max(0, timeoutMs));
  });
  await Promise.race([Promise.all(promises), timeout]);
  clearTimeout(timer);
}

/** One POST; answers the status (0 when there was none) and an error text without secrets. */
function postOnce(job: Job, timeoutMs: number, beforeConnect: DeliveryOptions["beforeConnect"]): Promise<{ status: number; error: string }> {
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = new URL(job.url);
    } catch {
      resolve({ status: 0, error: "the url is not valid" });
      return;
    }
    const lib = url.protocol === "https:" ? https : http;
    const body = Buffer.from(job.payload, "utf8");
    let done = false;
    const finish = (status: number, error: string): void => {
      if (done) return;
      done = true;
      resolve({ status, error });
    };
    const pinned = job.address!;
    // The connection goes to the address that was checked, never to a second resolution.
    const lookup: net.LookupFunction = (_host, options, callback) => {
      if ((options as dns.LookupAllOptions).all) (callback as (err: null, all: dns.LookupAddress[]) => void)(null, [{ address: pinned.address, family: pinned.family }]);
      else callback(null, pinned.address, pinned.family);
    };
    let req: http.ClientRequest;
    try {
      const port = Number(url.port) || (url.protocol === "https:" ? 443 : 80);
      beforeConnect?.({ host: url.hostname, address: pinned.address, port });
      req = lib.request(url, { method: "POST", headers: { ...job.headers, "Content-Length": String(body.length) }, timeout: timeoutMs, agent: false, lookup }, onResponse);
    } catch (err) {
      // A header the notifier holds that HTTP cannot carry (a name with a space, a newline in a value).
      finish(0, `the request could not be made (${(err as NodeJS.ErrnoException).code ?? "invalid request"})`);
      return;
    }
    function onResponse(res: http.IncomingMessage): void {
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_RESPONSE_BYTES) res.destroy();
      });
      const status = res.statusCode ?? 0;
      const settle = (): void => finish(status, status >= 200 && status < 300 ? "" : `the target answered ${status}`);
      res.on("end", settle);
      res.on("close", settle);
      res.on("error", settle);
    }
    req.on("timeout", () => {
      req.destroy();
      finish(0, `no answer within ${timeoutMs} ms`);
    });
    // The error's code only (ECONNREFUSED, ENOTFOUND...): its message may quote the URL.
    req.on("error", (err: NodeJS.ErrnoException) => finish(0, `could not reach the target (${err.code ?? "network error"})`));
    req.end(body);
  });
}
