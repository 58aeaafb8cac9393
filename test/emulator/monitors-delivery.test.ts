// Delivery of monitor notifications: retries with bounded backoff to a target that
// fails or cannot be reached (recorded, never a crash, never holding up the API), the
// outbox for other channels (secrets never shown), and disabled monitors and notifiers.
import { describe, expect, it } from "vitest";
import { startTestEmulator } from "./helpers";
import { closedPort, history, ingestAt, min, monitorEnv, webhookNotifier } from "./monitor-helpers";

const env = monitorEnv({ delivery: { maxAttempts: 3, baseDelayMs: 20, timeoutMs: 2000 } });

async function alertingMonitor(notifierIds: string[], extra: Record<string, unknown> = {}): Promise<string> {
  await ingestAt(env.t, "logs", [{ at: min(0) + 1, level: "error" }]);
  return (await env.t.ok("POST", "/v2/monitors", { name: "any", type: "Threshold", operator: "Above", threshold: 0, aplQuery: "['logs'] | summarize count()", intervalMinutes: 1, rangeMinutes: 1, notifierIds, ...extra })).id;
}

describe("webhook delivery", () => {
  it("retries a target that answers 5xx and records the delivery", async () => {
    env.rx.answers.push(503, 500);
    const hook = await webhookNotifier(env.t, `${env.rx.url}/flaky`);
    const id = await alertingMonitor([hook]);
    await env.t.ok("POST", "/_emulator/clock", { advance: "1m" });
    const records = await env.t.ok("POST", "/_emulator/deliveries/flush", { timeoutMs: 10_000 });
    expect(env.rx.received).toHaveLength(3);
    expect(records).toEqual([
      expect.objectContaining({ monitorId: id, notifierId: hook, channel: "webhook", action: "Open", target: `${env.rx.url}/flaky`, status: "delivered", attempts: 3, lastStatus: 200 }),
    ]);
  });

  it("records an unreachable target as failed after bounded retries, and keeps serving", async () => {
    const port = await closedPort();
    const hook = await webhookNotifier(env.t, `http://user:pw-SECRET@127.0.0.1:${port}/hook?token=q-SECRET`);
    await alertingMonitor([hook]);
    const moved = await env.t.call("POST", "/_emulator/clock", { body: { advance: "1m" } });
    expect(moved.status).toBe(200);
    // The API answers while retries are pending.
    expect((await env.t.call("GET", "/v2/monitors")).status).toBe(200);
    const records = await env.t.ok("POST", "/_emulator/deliveries/flush", { timeoutMs: 10_000 });
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ status: "failed", attempts: 3, lastStatus: 0, target: `http://127.0.0.1:${port}/hook` });
    expect(records[0].lastError).toMatch(/could not reach the target \(ECONNREFUSED\)/);
    expect(JSON.stringify(records)).not.toContain("SECRET");
    // Still alive: more runs, more deliveries.
    await env.t.ok("POST", "/_emulator/clock", { advance: "1m" });
    expect((await env.t.ok("GET", "/v2/user")).id).toBeTruthy();
  });

  it("records a template that fails while rendering, without sending", async () => {
    const hook = (await env.t.ok("POST", "/v2/notifiers", { name: "bad", properties: { customWebhook: { url: env.rx.url, body: '{{ index .GroupValues "x" }}' } } })).id;
    await alertingMonitor([hook]);
    await env.t.ok("POST", "/_emulator/clock", { advance: "1m" });
    const records = await env.t.ok("GET", "/_emulator/deliveries");
    expect(records[0]).toMatchObject({ status: "failed", attempts: 0 });
    expect(records[0].lastError).toMatch(/^template: index of/);
    expect(env.rx.received).toHaveLength(0);
  });

  it("refuses a custom body that is not a valid template when the notifier is written", async () => {
    const reply = await env.t.call("POST", "/v2/notifiers", { body: { name: "bad", properties: { customWebhook: { url: env.rx.url, body: "{{ if .Action }}open" } } } });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toMatch(/"properties.customWebhook.body" is not a valid template: unclosed "if" at line 1/);
  });

  it("sends a custom webhook without a body as the default JSON envelope", async () => {
    const hook = (await env.t.ok("POST", "/v2/notifiers", { name: "plain", properties: { customWebhook: { url: env.rx.url } } })).id;
    const id = await alertingMonitor([hook]);
    await env.t.ok("POST", "/_emulator/clock", { advance: "1m" });
    expect(JSON.parse(env.rx.received[0]!.body)).toMatchObject({ action: "Open", event: { monitorId: id, title: "any", value: 1 } });
  });
});

describe("the outbox", () => {
  it("holds notifications for other channels, with secrets and their URLs shown as (sensitive)", async () => {
    const ntf = (
      await env.t.ok("POST", "/v2/notifiers", {
        name: "everywhere",
        properties: {
          email: { emails: ["a@example.com"] },
          chatB: { chatBChannel: "#ops", chatBToken: "tok-SECRET" },
          chatA: { chatAUrl: "https://chat.example.com/hooks/url-SECRET" },
          incidentA: { apiKey: "key-SECRET", isEU: true },
        },
      })
    ).id;
    const id = await alertingMonitor([ntf]);
    await env.t.ok("POST", "/_emulator/clock", { advance: "1m" });
    const outbox = await env.t.ok("GET", "/_emulator/outbox");
    expect(outbox.map((o: { channel: string }) => o.channel).sort()).toEqual(["chatA", "chatB", "email", "incidentA"]);
    const by = (c: string): Record<string, unknown> => outbox.find((o: { channel: string }) => o.channel === c);
    expect(by("email")).toMatchObject({ monitorId: id, notifierId: ntf, notifierName: "everywhere", to: { emails: ["a@example.com"] }, notification: { action: "Open", title: "any" } });
    expect(by("chatB")!.to).toEqual({ chatBChannel: "#ops", chatBToken: "(sensitive)" });
    expect(by("chatA")!.to).toEqual({ chatAUrl: "(sensitive)" });
    expect(by("incidentA")!.to).toEqual({ apiKey: "(sensitive)", isEU: true });
    expect(JSON.stringify(outbox)).not.toContain("SECRET");
  });
});

describe("disabled monitors and notifiers", () => {
  it("does not run a disabled monitor, nor one disabled until a later time", async () => {
    const hook = await webhookNotifier(env.t, env.rx.url);
    const off = await alertingMonitor([hook], { name: "off", disabled: true });
    const later = await alertingMonitor([hook], { name: "later", disabledUntil: "2026-01-01T00:03:00Z" });
    await ingestAt(env.t, "logs", [{ at: min(1) + 1 }, { at: min(2) + 1 }, { at: min(3) + 1 }]);
    await env.t.ok("POST", "/_emulator/clock", { advance: "2m" });
    expect(env.rx.received).toHaveLength(0);
    await env.t.ok("POST", "/_emulator/clock", { advance: "2m" });
    // The run at 00:03 is the first after disabledUntil.
    expect(env.rx.received.map((r) => [JSON.parse(r.body).event.title, JSON.parse(r.body).event.timestamp])).toEqual([["later", "2026-01-01T00:03:00Z"]]);
    expect(await history(env.t, off)).toEqual([]);
    expect((await history(env.t, later)).map((h) => h.timestamp)).toEqual(["2026-01-01T00:03:00Z"]);
  });

  it("delivers nothing through a notifier disabled until a later time, and records why", async () => {
    const muted = await webhookNotifier(env.t, env.rx.url, { disabledUntil: "2026-01-01T01:00:00Z" });
    const id = await alertingMonitor([muted], { resolvable: true });
    await env.t.ok("POST", "/_emulator/clock", { advance: "1m" });
    expect(env.rx.received).toHaveLength(0);
    expect(await env.t.ok("GET", "/_emulator/deliveries")).toEqual([
      expect.objectContaining({ monitorId: id, notifierId: muted, status: "skipped", lastError: "the notifier is disabled until 2026-01-01T01:00:00Z" }),
    ]);
    // The monitor itself still ran and opened.
    expect((await history(env.t, id)).map((h) => h.state)).toEqual(["open"]);
  });
});

describe("the real clock", () => {
  it("cannot be moved", async () => {
    const real = await startTestEmulator();
    try {
      const reply = await real.call("POST", "/_emulator/clock", { body: { advance: "1m" } });
      expect(reply.status).toBe(409);
      expect((await real.ok("GET", "/_emulator/clock")).mode).toBe("real");
    } finally {
      await real.close();
    }
  });
});
