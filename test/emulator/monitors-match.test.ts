// Match and anomaly monitors on a manual clock: one notification per matching event
// (capped per minute and per day), and deviation from earlier days.
import { describe, expect, it } from "vitest";
import { customWebhookNotifier, history, ingestAt, min, monitorEnv, T0, webhookNotifier } from "./monitor-helpers";

const env = monitorEnv();

describe("match monitors", () => {
  it("sends one notification per matching event, in event order, with the event", async () => {
    const hook = await customWebhookNotifier(env.t, env.rx.url, '{"a": "{{ .Action }}", "event": {{ jsonObject .MatchedEvent }}, "body": {{ jsonObject .Body }}}');
    const id = (await env.t.ok("POST", "/v2/monitors", { name: "fatal", type: "MatchEvent", aplQuery: "['logs'] | where level == 'fatal' | project-away noise", notifierIds: [hook] })).id;
    await ingestAt(env.t, "logs", [
      { at: min(0) + 3000, level: "fatal", msg: "third", noise: 1 },
      { at: min(0) + 1000, level: "fatal", msg: "first", noise: 1 },
      { at: min(0) + 2000, level: "info", msg: "skip" },
      { at: min(0) + 2500, level: "fatal", msg: "second", noise: 1 },
    ]);
    await env.t.ok("POST", "/_emulator/clock", { advance: "1m" });
    const got = env.rx.received.map((r) => JSON.parse(r.body));
    expect(got.map((g) => g.event.msg)).toEqual(["first", "second", "third"]);
    expect(got[0]).toMatchObject({ a: "Open", event: { level: "fatal", msg: "first", _time: "2026-01-01T00:00:01Z" } });
    expect(got[0].event).not.toHaveProperty("noise");
    expect(JSON.parse(got[0].body)).toEqual(got[0].event);
    expect((await history(env.t, id)).map((h) => h.state)).toEqual(["open", "open", "open"]);
    // The next run does not match the same events again.
    await env.t.ok("POST", "/_emulator/clock", { advance: "1m" });
    expect(env.rx.received).toHaveLength(3);
  });

  it("runs parse-kv and extend-valid in a match query: the event carries the extracted keys", async () => {
    const hook = await customWebhookNotifier(env.t, env.rx.url, '{"event": {{ jsonObject .MatchedEvent }}}');
    await env.t.ok("POST", "/v2/monitors", {
      name: "kv",
      type: "MatchEvent",
      aplQuery: "['logs'] | parse-kv line as (user:string, code:long) with (pair_delimiter=' ', kv_delimiter='=') | where code >= 500 | extend-valid who = user | project who, code",
      notifierIds: [hook],
    });
    await ingestAt(env.t, "logs", [
      { at: min(0) + 1000, line: "user=ann code=503" },
      { at: min(0) + 2000, line: "user=bo code=200" },
      { at: min(0) + 3000, line: "code=500" },
    ]);
    await env.t.ok("POST", "/_emulator/clock", { advance: "1m" });
    const got = env.rx.received.map((r) => JSON.parse(r.body).event);
    expect(got.map((e) => [e.who ?? null, e.code])).toEqual([["ann", 503], [null, 500]]);
  });

  it("sends at most 10 a minute", async () => {
    const hook = await webhookNotifier(env.t, env.rx.url);
    await env.t.ok("POST", "/v2/monitors", { name: "all", type: "MatchEvent", aplQuery: "['logs'] | where level == 'error'", notifierIds: [hook] });
    await ingestAt(env.t, "logs", Array.from({ length: 15 }, (_, i) => ({ at: min(0) + i * 1000, level: "error", n: i })));
    await env.t.ok("POST", "/_emulator/clock", { advance: "1m" });
    expect(env.rx.received.map((r) => JSON.parse(r.body).event.matchedEvent.n)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // The five over the cap are counted where a test (or a puzzled user) can see them.
    const [state] = await env.t.ok("GET", "/_emulator/monitor-states");
    expect(state).toMatchObject({ suppressed: 5, minute: { count: 10 }, lastError: "" });
  });

  it("sends at most 500 a day, and starts again the next day", async () => {
    // The outbox channel (e-mail) keeps this test free of 500 HTTP round trips.
    const mail = (await env.t.ok("POST", "/v2/notifiers", { name: "mail", properties: { email: { emails: ["oncall@example.com"] } } })).id;
    await env.t.ok("POST", "/v2/monitors", { name: "errors", type: "MatchEvent", aplQuery: "['logs'] | where level == 'error'", notifierIds: [mail] });
    const events = [];
    for (let m = 0; m < 55; m++) for (let i = 0; i < 10; i++) events.push({ at: min(m) + i * 1000, level: "error" });
    await ingestAt(env.t, "logs", events);
    await env.t.ok("POST", "/_emulator/clock", { advance: "60m" });
    expect((await env.t.ok("GET", "/_emulator/outbox")).length).toBe(500);
    await ingestAt(env.t, "logs", [{ at: T0 + 86_400_000 + 1000, level: "error" }]);
    await env.t.ok("POST", "/_emulator/clock", { set: "2026-01-02T00:02:00Z" });
    const outbox = await env.t.ok("GET", "/_emulator/outbox");
    expect(outbox.length).toBe(501);
    expect(outbox[500]).toMatchObject({ channel: "email", to: { emails: ["oncall@example.com"] }, notification: { action: "Open", timestamp: "2026-01-02T00:01:00Z" } });
  });
});

describe("anomaly monitors", () => {
  it("alerts when the value deviates from the mean of the same window on earlier days by more than the tolerance", async () => {
    const hook = await customWebhookNotifier(env.t, env.rx.url, '{"a": "{{ .Action }}", "v": {{ .Value }}, "body": {{ jsonObject .Body }}}');
    const day = 86_400_000;
    const id = (
      await env.t.ok("POST", "/v2/monitors", {
        name: "traffic",
        type: "AnomalyDetection",
        aplQuery: "['logs'] | summarize count()",
        compareDays: 2,
        tolerance: 50,
        intervalMinutes: 10,
        rangeMinutes: 10,
        resolvable: true,
        notifierIds: [hook],
      })
    ).id;
    // Window 00:00-00:10: 8 events two days ago, 12 one day ago (expected 10), 16 today (+60%).
    const at = (offsetDays: number, n: number): { at: number }[] => Array.from({ length: n }, (_, i) => ({ at: T0 + offsetDays * day + i * 1000 }));
    await ingestAt(env.t, "logs", [...at(-2, 8), ...at(-1, 12), ...at(0, 16)]);
    // 00:10-00:20: 14 events today (+40%: within the tolerance) against 10 on each earlier day.
    const later = (offsetDays: number, n: number): { at: number }[] => Array.from({ length: n }, (_, i) => ({ at: T0 + offsetDays * day + 600_000 + i * 1000 }));
    await ingestAt(env.t, "logs", [...later(-2, 10), ...later(-1, 10), ...later(0, 14)]);
    await env.t.ok("POST", "/_emulator/clock", { advance: "10m" });
    const got = env.rx.received.map((r) => JSON.parse(r.body));
    expect(got).toEqual([{ a: "Open", v: 16, body: "value 16 deviates 60% from the expected 10 (mean of the same window on 2 earlier day(s); tolerance 50%)" }]);
    await env.t.ok("POST", "/_emulator/clock", { advance: "10m" });
    expect(env.rx.received.map((r) => JSON.parse(r.body).a)).toEqual(["Open", "Closed"]);
    expect((await history(env.t, id)).map((h) => h.state)).toEqual(["open", "closed"]);
  });

  it("compares only in the operator's direction", async () => {
    const hook = await webhookNotifier(env.t, env.rx.url);
    await env.t.ok("POST", "/v2/monitors", { name: "drop", type: "AnomalyDetection", operator: "Below", aplQuery: "['logs'] | summarize count()", compareDays: 1, tolerance: 10, intervalMinutes: 10, rangeMinutes: 10, notifierIds: [hook] });
    // Twice yesterday's count: an anomaly, but not below.
    await ingestAt(env.t, "logs", [{ at: T0 - 86_400_000 + 5 }, { at: T0 + 5 }, { at: T0 + 6 }]);
    await env.t.ok("POST", "/_emulator/clock", { advance: "10m" });
    expect(env.rx.received).toHaveLength(0);
  });
});
