// The monitor routes over HTTP: what a client reads back, every field's validation (a
// 400 naming the attribute, nothing stored), history parameters, the capability, and
// the refusal of a match monitor that would have flooded its notifiers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, tokenWith, type TestEmulator } from "./helpers";
import { thresholdMonitor as threshold } from "./monitor-helpers";

let t: TestEmulator;
let notifierId: string;
beforeAll(async () => {
  t = await startTestEmulator({ clock: "manual", clockStart: "2026-01-01T00:00:00Z" });
  await t.ok("POST", "/v2/datasets", { name: "logs" });
  notifierId = (await t.ok("POST", "/v2/notifiers", { name: "hook", properties: { webhook: { url: "http://127.0.0.1:9/x" } } })).id;
});
afterAll(() => t.close());


describe("monitor lifecycle", () => {
  it("creates with server fields and defaults, reads, lists, replaces and deletes", async () => {
    const me = await t.ok("GET", "/v2/user");
    const created = await t.ok("POST", "/v2/monitors", threshold({ notifierIds: [notifierId, notifierId] }));
    expect(created.id).toMatch(/^mon_/);
    expect(created).toMatchObject({
      name: "errors",
      type: "Threshold",
      operator: "Above",
      threshold: 10,
      intervalMinutes: 5,
      rangeMinutes: 5,
      secondDelay: 0,
      alertOnNoData: false,
      notifyByGroup: false,
      resolvable: false,
      disabled: false,
      disabledUntil: "",
      notifierIds: [notifierId],
      triggerAfterNPositiveResults: 1,
      triggerFromNRuns: 1,
      createdBy: me.id,
      createdAt: "2026-01-01T00:00:00Z",
      updatedAt: "2026-01-01T00:00:00Z",
    });
    expect(await t.ok("GET", `/v2/monitors/${created.id}`)).toEqual(created);
    expect((await t.ok("GET", "/v2/monitors")).map((m: { id: string }) => m.id)).toContain(created.id);

    await t.ok("POST", "/_emulator/clock", { advance: "1m" });
    const replaced = await t.ok("PUT", `/v2/monitors/${created.id}`, threshold({ name: "errors-2", operator: "Below", threshold: 1 }));
    expect(replaced).toMatchObject({ id: created.id, name: "errors-2", operator: "Below", notifierIds: [], createdAt: created.createdAt, updatedAt: "2026-01-01T00:01:00Z" });

    expect((await t.call("DELETE", `/v2/monitors/${created.id}`)).status).toBe(204);
    expect((await t.call("GET", `/v2/monitors/${created.id}`)).status).toBe(404);
  });
});

describe("monitor validation", () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ["unknown operator", threshold({ operator: "Sideways" }), /"operator" must be one of Below, BelowOrEqual, Above, AboveOrEqual, AboveOrBelow/],
    ["zero interval", threshold({ intervalMinutes: 0 }), /"intervalMinutes" must be an integer from 1/],
    ["fractional range", threshold({ rangeMinutes: 1.5 }), /"rangeMinutes" must be an integer/],
    ["missing name", threshold({ name: undefined }), /"name" is required/],
    ["unknown type", threshold({ type: "Heartbeat" }), /"type" must be one of Threshold, MatchEvent, AnomalyDetection/],
    ["missing threshold", threshold({ threshold: undefined }), /"threshold" is required/],
    ["secondDelay over a day", threshold({ secondDelay: 86_401 }), /"secondDelay" must be an integer from 0 to 86400/],
    ["compareDays over 7", { ...threshold({ type: "AnomalyDetection", compareDays: 8, tolerance: 10 }) }, /"compareDays" must be an integer from 0 to 7/],
    ["anomaly comparing no day", { ...threshold({ type: "AnomalyDetection", compareDays: 0, tolerance: 10 }) }, /"compareDays" must be from 1 to 7 for an AnomalyDetection monitor, got 0/],
    ["tolerance over 100", { ...threshold({ type: "AnomalyDetection", compareDays: 1, tolerance: 101 }) }, /"tolerance" must be from 0 to 100/],
    ["anomaly without tolerance", { ...threshold({ type: "AnomalyDetection", compareDays: 1 }) }, /"tolerance" .* is required/],
    ["N above M", threshold({ triggerAfterNPositiveResults: 3, triggerFromNRuns: 2 }), /"triggerAfterNPositiveResults" \(3\) must not exceed "triggerFromNRuns" \(2\)/],
    ["unknown notifier", threshold({ notifierIds: ["ntf_nope"] }), /"notifierIds\[0\]": no notifier "ntf_nope" that this token may read/],
    ["bad disabledUntil", threshold({ disabledUntil: "tomorrow" }), /"disabledUntil" must be an ISO 8601 timestamp/],
    ["query that does not parse", threshold({ aplQuery: "['logs'] | where (" }), /"aplQuery" does not parse/],
    ["threshold query without aggregation", threshold({ aplQuery: "['logs'] | where status >= 500" }), /"aplQuery" of a Threshold monitor must aggregate/],
    [
      "match query with summarize",
      { name: "m", type: "MatchEvent", aplQuery: "['logs'] | where status >= 500 | summarize count()" },
      /"aplQuery" of a MatchEvent monitor may not use summarize \(line 1, column \d+\): only where, extend/,
    ],
    ["match query with take", { name: "m", type: "MatchEvent", aplQuery: "['logs'] | take 5" }, /may not use take/],
  ];
  for (const [what, body, message] of cases) {
    it(`refuses ${what} with a 400 naming the attribute, and stores nothing`, async () => {
      const before = (await t.ok("GET", "/v2/monitors")).length;
      const reply = await t.call("POST", "/v2/monitors", { body });
      expect(reply.status).toBe(400);
      expect(reply.body.message).toMatch(message);
      expect((await t.ok("GET", "/v2/monitors")).length).toBe(before);
    });
  }

  it("validates a replace the same way and keeps the stored monitor", async () => {
    const created = await t.ok("POST", "/v2/monitors", threshold());
    const reply = await t.call("PUT", `/v2/monitors/${created.id}`, { body: threshold({ intervalMinutes: 0 }) });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toMatch(/"intervalMinutes"/);
    expect(await t.ok("GET", `/v2/monitors/${created.id}`)).toEqual(created);
  });

  it("accepts a match monitor using only the allowed operators", async () => {
    const created = await t.ok("POST", "/v2/monitors", {
      name: "5xx",
      type: "MatchEvent",
      aplQuery: "['logs'] | where status >= 500 | extend s = tostring(status) | project-away s",
      operator: "Above",
    });
    // A match monitor compares nothing, but what the client sent reads back.
    expect(created).toMatchObject({ type: "MatchEvent", operator: "Above", threshold: 0, intervalMinutes: 1, rangeMinutes: 1 });
  });
});

describe("match monitors and the last 24 hours", () => {
  it("refuses one that matched more than 500 events in the last 24 hours, and accepts a narrower one", async () => {
    await t.ok("POST", "/v2/datasets", { name: "flood" });
    const now = Date.parse((await t.ok("GET", "/_emulator/clock")).now);
    const events = Array.from({ length: 501 }, (_, i) => ({ _time: new Date(now - 3600_000 + i * 1000).toISOString(), level: i < 10 ? "fatal" : "error" }));
    await t.ok("POST", "/v1/datasets/flood/ingest", events);
    const reply = await t.call("POST", "/v2/monitors", { body: { name: "all", type: "MatchEvent", aplQuery: "['flood'] | where level != 'x'" } });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toMatch(/"aplQuery" matched 501 events in the last 24 hours; a MatchEvent monitor may match at most 500/);
    await t.ok("POST", "/v2/monitors", { name: "fatal", type: "MatchEvent", aplQuery: "['flood'] | where level == 'fatal'" });
  });
});

describe("history route", () => {
  it("requires both times as RFC 3339 and answers an array", async () => {
    const created = await t.ok("POST", "/v2/monitors", threshold());
    const missing = await t.call("GET", `/v2/monitors/${created.id}/history?startTime=2026-01-01T00:00:00Z`);
    expect(missing.status).toBe(400);
    expect(missing.body.message).toMatch(/"endTime" is required/);
    const bad = await t.call("GET", `/v2/monitors/${created.id}/history?startTime=yesterday&endTime=2026-01-02T00:00:00Z`);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/"startTime"/);
    expect(await t.ok("GET", `/v2/monitors/${created.id}/history?startTime=2026-01-01T00:00:00Z&endTime=2026-01-02T00:00:00Z`)).toEqual([]);
    expect((await t.call("GET", `/v2/monitors/mon_nope/history?startTime=2026-01-01T00:00:00Z&endTime=2026-01-02T00:00:00Z`)).status).toBe(404);
  });
});

describe("capability monitors", () => {
  it("refuses every route to a token without it, and allows exactly the granted actions", async () => {
    const created = await t.ok("POST", "/v2/monitors", threshold());
    const none = await tokenWith(t, { orgCapabilities: { notifiers: ["read"] } });
    const readOnly = await tokenWith(t, { orgCapabilities: { monitors: ["read"] } });
    const history = `/v2/monitors/${created.id}/history?startTime=2026-01-01T00:00:00Z&endTime=2026-01-02T00:00:00Z`;
    for (const [method, path, body] of [
      ["GET", "/v2/monitors", undefined],
      ["GET", `/v2/monitors/${created.id}`, undefined],
      ["GET", history, undefined],
      ["POST", "/v2/monitors", threshold()],
      ["PUT", `/v2/monitors/${created.id}`, threshold()],
      ["DELETE", `/v2/monitors/${created.id}`, undefined],
    ] as const) {
      const reply = await t.call(method, path, { body, token: none });
      expect(reply.status, `${method} ${path}`).toBe(403);
      expect(reply.body.message).toMatch(/monitors\|/);
    }
    expect((await t.call("GET", history, { token: readOnly })).status).toBe(200);
    expect((await t.call("GET", `/v2/monitors/${created.id}`, { token: readOnly })).status).toBe(200);
    expect((await t.call("POST", "/v2/monitors", { body: threshold(), token: readOnly })).status).toBe(403);
    expect((await t.call("DELETE", `/v2/monitors/${created.id}`, { token: readOnly })).status).toBe(403);
  });
});

describe("the manual clock", () => {
  it("moves only forward, by a duration or to a time", async () => {
    const now = Date.parse((await t.ok("GET", "/_emulator/clock")).now);
    expect((await t.ok("POST", "/_emulator/clock", { advance: "90s" })).now).toBe(new Date(now + 90_000).toISOString());
    expect((await t.ok("POST", "/_emulator/clock", { set: "2026-01-10T00:00:00+01:00" })).now).toBe("2026-01-09T23:00:00.000Z");
    // One move is bounded, and so is the number of monitor runs it causes.
    expect((await t.call("POST", "/_emulator/clock", { body: { advance: "32d" } })).body.message).toMatch(/at most 31 days/);
    expect((await t.call("POST", "/_emulator/clock", { body: { set: "2026-01-01T00:00:00Z" } })).status).toBe(400);
    expect((await t.call("POST", "/_emulator/clock", { body: { advance: "soon" } })).status).toBe(400);
    // The nine-day move runs every monitor the file made, each run a round trip to a query thread.
  }, 120_000);

  it("refuses a move that would make more than 200,000 monitor runs, running none of them", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await t.ok("POST", "/v2/monitors", threshold({ name: `every minute ${i}`, intervalMinutes: 1 }))).id);
    const before = (await t.ok("GET", "/_emulator/clock")).now;
    const reply = await t.call("POST", "/_emulator/clock", { body: { advance: "31d" } });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toMatch(/would make \d+ monitor runs \(at most 200000 per move\); move it in smaller steps/);
    expect((await t.ok("GET", "/_emulator/clock")).now).toBe(before);
    for (const id of ids) await t.ok("DELETE", `/v2/monitors/${id}`);
  });

  it("is the now of ingest defaults and of queries", async () => {
    await t.ok("POST", "/v2/datasets", { name: "clocked" });
    const now = (await t.ok("GET", "/_emulator/clock")).now as string;
    await t.ok("POST", "/v1/datasets/clocked/ingest", [
      { n: 1 },
      { n: 2, _time: new Date(Date.parse(now) - 3_600_000).toISOString() },
      // After the emulator's now (though before the wall clock's): no default range reaches it.
      { n: 3, _time: new Date(Date.parse(now) + 3_600_000).toISOString() },
    ]);
    const recent = await t.ok("POST", "/v1/datasets/_apl?format=tabular", { apl: "['clocked'] | where _time > ago(5m) | project _time" });
    expect(recent.tables[0].columns[0].map((x: string) => Date.parse(x))).toEqual([Date.parse(now)]);
    const legacy = await t.ok("POST", "/v1/datasets/clocked/query", { startTime: new Date(Date.parse(now) - 300_000).toISOString() });
    expect(legacy.matches.map((m: { _time: string }) => Date.parse(m._time))).toEqual([Date.parse(now)]);
  });
});
