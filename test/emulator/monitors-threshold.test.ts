// Threshold monitors run by the emulator's scheduler on a manual clock, observed as a
// user would: what a webhook receiver on 127.0.0.1 gets, and the monitor's history.
import { describe, expect, it } from "vitest";
import { customWebhookNotifier, history, ingestAt, min, monitorEnv, webhookNotifier } from "./monitor-helpers";

const env = monitorEnv();

const TEMPLATE = [
  "{",
  '"action": "{{ .Action }}",',
  '"state": "{{ if eq .Action "Open" }}firing{{ else }}resolved{{ end }}",',
  '"monitor": {{ jsonObject .Title }}, "id": "{{ .MonitorID }}", "value": {{ .Value }},',
  '"keys": {{ jsonArray .GroupKeys }}, "groups": {{ jsonArray .GroupValues }},',
  '"from": "{{ .QueryStartTime }}", "to": "{{ .QueryEndTime }}", "at": "{{ .Timestamp }}", "body": {{ jsonObject .Body }}',
  "}",
].join("\n");

const bodies = (): Record<string, unknown>[] => env.rx.received.map((r) => JSON.parse(r.body) as Record<string, unknown>);

async function monitor(body: Record<string, unknown>): Promise<string> {
  return (await env.t.ok("POST", "/v2/monitors", { name: "5xx", type: "Threshold", operator: "Above", intervalMinutes: 5, rangeMinutes: 5, ...body })).id as string;
}

describe("threshold monitors", () => {
  it("opens when a value crosses, renders the custom body, and closes when the values drop", async () => {
    const hook = await customWebhookNotifier(env.t, `${env.rx.url}/alerts?team=sre`, TEMPLATE, { headers: { "X-Team": "sre" }, secretHeaders: { Authorization: "Bearer s3cret" } });
    const id = await monitor({
      aplQuery: `['logs'] | where status >= 500 | summarize count() by bin(_time, 1m), host`,
      threshold: 3,
      resolvable: true,
      notifierIds: [hook],
    });
    await ingestAt(env.t, "logs", [1, 2, 3, 4, 5].map((s) => ({ at: min(1) + s * 1000, status: 503, host: "web-1" })));
    await ingestAt(env.t, "logs", [{ at: min(2), status: 200, host: "web-2" }]);

    await env.t.ok("POST", "/_emulator/clock", { advance: "5m" });
    expect(env.rx.received).toHaveLength(1);
    const got = env.rx.received[0]!;
    expect(got.method).toBe("POST");
    expect(got.path).toBe("/alerts?team=sre");
    expect(got.headers["content-type"]).toBe("application/json");
    expect(got.headers["x-team"]).toBe("sre");
    expect(got.headers.authorization).toBe("Bearer s3cret");
    expect(bodies()[0]).toEqual({
      action: "Open",
      state: "firing",
      monitor: "5xx",
      id,
      value: 5,
      keys: ["host"],
      groups: ["web-1"],
      from: "2026-01-01T00:00:00Z",
      to: "2026-01-01T00:05:00Z",
      at: "2026-01-01T00:05:00Z",
      body: "value 5 is above the threshold 3",
    });
    expect((await history(env.t, id)).map((h) => [h.state, h.timestamp, h.name])).toEqual([["open", "2026-01-01T00:05:00Z", "5xx"]]);

    // Still crossing: no second notification (notifyEveryRun is off).
    await ingestAt(env.t, "logs", [1, 2, 3, 4].map((s) => ({ at: min(7) + s, status: 500, host: "web-1" })));
    await env.t.ok("POST", "/_emulator/clock", { advance: "5m" });
    expect(env.rx.received).toHaveLength(1);

    await ingestAt(env.t, "logs", [{ at: min(11), status: 500, host: "web-1" }]);
    await env.t.ok("POST", "/_emulator/clock", { advance: "5m" });
    expect(env.rx.received).toHaveLength(2);
    expect(bodies()[1]).toMatchObject({ action: "Closed", state: "resolved", value: 1, body: "value 1 is no longer above the threshold 3" });
    const h = await history(env.t, id);
    expect(h.map((x) => [x.state, x.timestamp])).toEqual([
      ["open", "2026-01-01T00:05:00Z"],
      ["closed", "2026-01-01T00:15:00Z"],
    ]);
    expect(h[0]!.checkId).not.toBe(h[1]!.checkId);
    // The history window filters by time.
    const late = await env.t.ok("GET", `/v2/monitors/${id}/history?startTime=2026-01-01T00:10:00Z&endTime=2026-01-01T01:00:00Z`);
    expect(late.map((x: { state: string }) => x.state)).toEqual(["closed"]);
  });

  it("applies every operator, to tables and series, and picks the value column by columnName", async () => {
    const hook = await webhookNotifier(env.t, `${env.rx.url}/ops`);
    await ingestAt(env.t, "logs", [
      { at: min(1), latency: 120, size: 1 },
      { at: min(2), latency: 80, size: 1 },
    ]);
    const table = `['logs'] | summarize lat = max(latency), small = min(size)`;
    const series = `['logs'] | summarize lat = avg(latency) by bin(_time, 1m)`;
    const cases: [string, string, number, string, boolean][] = [
      ["Above", table, 100, "lat", true],
      ["Above", table, 120, "lat", false],
      ["AboveOrEqual", table, 120, "lat", true],
      ["Below", table, 2, "small", true],
      ["BelowOrEqual", table, 0.5, "small", false],
      ["AboveOrBelow", table, 100, "lat", true],
      ["Below", series, 90, "", true],
      ["Below", series, 80, "", false],
      ["BelowOrEqual", series, 80, "", true],
    ];
    const ids: [string, boolean][] = [];
    for (const [operator, aplQuery, threshold, columnName, fires] of cases) {
      ids.push([await monitor({ name: `${operator} ${threshold}`, operator, aplQuery, threshold, columnName, notifierIds: [hook] }), fires]);
    }
    await env.t.ok("POST", "/_emulator/clock", { advance: "5m" });
    const fired = new Set(env.rx.received.map((r) => (JSON.parse(r.body) as { event: { monitorId: string } }).event.monitorId));
    for (const [id, fires] of ids) expect(fired.has(id), cases[ids.findIndex((x) => x[0] === id)]!.join(" ")).toBe(fires);
    // The plain webhook's JSON: an action and the event.
    const above = env.rx.received.map((r) => JSON.parse(r.body)).find((b) => b.event.title === "Above 100");
    expect(above).toMatchObject({ action: "Open", event: { value: 120, timestamp: "2026-01-01T00:05:00Z", groupKeys: [], groupValues: [] } });
  });

  it("alerts each group on its own with notifyByGroup, one notification per group and run", async () => {
    const hook = await customWebhookNotifier(env.t, env.rx.url, TEMPLATE);
    const id = await monitor({ aplQuery: `['logs'] | summarize errors = count() by host, bin(_time, 1m)`, threshold: 2, notifyByGroup: true, resolvable: true, notifierIds: [hook] });
    await ingestAt(env.t, "logs", [
      ...[1, 2, 3].map((s) => ({ at: min(1) + s, host: "a" })),
      ...[1, 2, 3].map((s) => ({ at: min(2) + s, host: "a" })),
      { at: min(1), host: "b" },
    ]);
    await env.t.ok("POST", "/_emulator/clock", { advance: "5m" });
    expect(bodies().map((b) => [b.action, b.groups, b.value])).toEqual([["Open", ["a"], 3]]);

    await ingestAt(env.t, "logs", [...[1, 2, 3].map((s) => ({ at: min(6) + s, host: "a" })), ...[1, 2, 3, 4].map((s) => ({ at: min(7) + s, host: "b" }))]);
    await env.t.ok("POST", "/_emulator/clock", { advance: "5m" });
    expect(bodies().map((b) => [b.action, b.groups])).toEqual([
      ["Open", ["a"]],
      ["Open", ["b"]],
    ]);

    await ingestAt(env.t, "logs", [...[1, 2, 3].map((s) => ({ at: min(11) + s, host: "b" }))]);
    await env.t.ok("POST", "/_emulator/clock", { advance: "5m" });
    // Group a stopped reporting: it closes with value 0.
    expect(bodies().slice(2).map((b) => [b.action, b.groups, b.value])).toEqual([["Closed", ["a"], 0]]);
    expect((await history(env.t, id)).map((h) => h.state)).toEqual(["open", "open", "closed"]);
  });

  it("alerts only when N of the last M runs crossed", async () => {
    const hook = await webhookNotifier(env.t, env.rx.url);
    const id = await monitor({
      aplQuery: `['logs'] | summarize count()`,
      threshold: 0,
      intervalMinutes: 1,
      rangeMinutes: 1,
      triggerAfterNPositiveResults: 2,
      triggerFromNRuns: 3,
      resolvable: true,
      notifierIds: [hook],
    });
    // Crossing in the runs at 00:01 and 00:03 only (2 of the 3 runs 00:01..00:03).
    await ingestAt(env.t, "logs", [{ at: min(0) + 10 }, { at: min(2) + 10 }]);
    await env.t.ok("POST", "/_emulator/clock", { advance: "2m" });
    expect(env.rx.received).toHaveLength(0);
    await env.t.ok("POST", "/_emulator/clock", { advance: "1m" });
    expect(env.rx.received.map((r) => JSON.parse(r.body).action)).toEqual(["Open"]);
    expect((await history(env.t, id)).map((h) => [h.state, h.timestamp])).toEqual([["open", "2026-01-01T00:03:00Z"]]);
    // At 00:04 the last three runs (00:02, 00:03, 00:04) hold one crossing: it closes.
    await env.t.ok("POST", "/_emulator/clock", { advance: "1m" });
    expect(env.rx.received.map((r) => JSON.parse(r.body).action)).toEqual(["Open", "Closed"]);
    expect((await history(env.t, id)).map((h) => [h.state, h.timestamp])).toEqual([
      ["open", "2026-01-01T00:03:00Z"],
      ["closed", "2026-01-01T00:04:00Z"],
    ]);
  });

  it("alerts on no data, and says so when data returns", async () => {
    const hook = await customWebhookNotifier(env.t, env.rx.url, TEMPLATE);
    const id = await monitor({ aplQuery: `['logs'] | summarize count() by bin(_time, 1m)`, threshold: 100, alertOnNoData: true, notifierIds: [hook] });
    await env.t.ok("POST", "/_emulator/clock", { advance: "5m" });
    expect(bodies().map((b) => [b.action, b.body, b.value])).toEqual([["Open", "the query returned no data", 0]]);
    await ingestAt(env.t, "logs", [{ at: min(6) }]);
    await env.t.ok("POST", "/_emulator/clock", { advance: "5m" });
    expect(bodies().map((b) => [b.action, b.body])).toEqual([
      ["Open", "the query returned no data"],
      ["Closed", "the query returns data again"],
    ]);
    expect((await history(env.t, id)).map((h) => h.state)).toEqual(["open", "closed"]);
  });

  it("does not alert on no data unless asked", async () => {
    const hook = await webhookNotifier(env.t, env.rx.url);
    await monitor({ aplQuery: `['logs'] | summarize count()`, threshold: -1, operator: "Below", notifierIds: [hook] });
    await env.t.ok("POST", "/_emulator/clock", { advance: "15m" });
    expect(env.rx.received).toHaveLength(0);
  });

  it("shifts the query window back by secondDelay", async () => {
    const hook = await customWebhookNotifier(env.t, env.rx.url, TEMPLATE);
    await monitor({ aplQuery: `['logs'] | summarize count()`, threshold: 0, secondDelay: 120, notifierIds: [hook] });
    // At 00:04 the event is after the first window's end (00:05 - 120 s = 00:03).
    await ingestAt(env.t, "logs", [{ at: min(4) }]);
    await env.t.ok("POST", "/_emulator/clock", { advance: "5m" });
    expect(env.rx.received).toHaveLength(0);
    await env.t.ok("POST", "/_emulator/clock", { advance: "5m" });
    expect(bodies().map((b) => [b.from, b.to, b.at])).toEqual([["2026-01-01T00:03:00Z", "2026-01-01T00:08:00Z", "2026-01-01T00:10:00Z"]]);
  });

  it("notifies every run while open with notifyEveryRun, and not on close with skipResolved", async () => {
    const hook = await webhookNotifier(env.t, env.rx.url);
    await monitor({ aplQuery: `['logs'] | summarize count()`, threshold: 0, intervalMinutes: 1, rangeMinutes: 1, notifyEveryRun: true, resolvable: true, skipResolved: true, notifierIds: [hook] });
    await ingestAt(env.t, "logs", [0, 1, 2].map((m) => ({ at: min(m) + 1 })));
    await env.t.ok("POST", "/_emulator/clock", { advance: "5m" });
    expect(env.rx.received.map((r) => JSON.parse(r.body).action)).toEqual(["Open", "Open", "Open"]);
  });

  it("runs every check of a long move in order, each at its own time", async () => {
    const hook = await customWebhookNotifier(env.t, env.rx.url, TEMPLATE);
    await monitor({ aplQuery: `['logs'] | summarize count()`, threshold: 0, intervalMinutes: 1, rangeMinutes: 1, resolvable: true, notifierIds: [hook] });
    await ingestAt(env.t, "logs", [{ at: min(2) + 1 }, { at: min(5) + 1 }]);
    const moved = await env.t.ok("POST", "/_emulator/clock", { set: "2026-01-01T00:10:00Z" });
    expect(moved.runs).toBe(10);
    expect(bodies().map((b) => [b.action, b.at])).toEqual([
      ["Open", "2026-01-01T00:03:00Z"],
      ["Closed", "2026-01-01T00:04:00Z"],
      ["Open", "2026-01-01T00:06:00Z"],
      ["Closed", "2026-01-01T00:07:00Z"],
    ]);
  });
});
