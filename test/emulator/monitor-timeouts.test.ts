// A monitor whose query keeps running past its time limit: each stop is written to its
// history, the monitor backs off (skipping runs for twice as long after each stop), and
// the scheduler and the API go on.
import { describe, expect, it } from "vitest";
import { stuckQuery } from "../hostile/queries";
import { history, ingestAt, min, monitorEnv } from "./monitor-helpers";

const env = monitorEnv({ queryMaxMillis: 150 });

describe("a monitor whose query times out", () => {
  it("is recorded in its history, backs off, and holds up neither other monitors nor the API", async () => {
    await ingestAt(env.t, "logs", [{ at: min(0) + 1, level: "error" }]);
    const stuck = (await env.t.ok("POST", "/v2/monitors", { name: "stuck", type: "Threshold", operator: "Above", threshold: 0, aplQuery: stuckQuery("summarize count()"), intervalMinutes: 1, rangeMinutes: 1 })).id;
    const fine = (await env.t.ok("POST", "/v2/monitors", { name: "fine", type: "Threshold", operator: "Above", threshold: 0, aplQuery: "['logs'] | summarize count()", intervalMinutes: 1, rangeMinutes: 1 })).id;
    const moved = env.t.ok("POST", "/_emulator/clock", { advance: "8m" });
    // The API answers while the scheduler waits on the stuck query.
    expect((await env.t.call("GET", "/v2/monitors")).status).toBe(200);
    expect((await moved).runs).toBe(16);
    const all = await history(env.t, stuck);
    const errors = all.filter((h) => h.state === "error") as { timestamp: string; message?: string }[];
    // Runs at minutes 1, 2, 4 and 8: after each stop the next run waits 1, 2, then 4 intervals.
    expect(errors.map((e) => e.timestamp)).toEqual([1, 2, 4, 8].map((m) => new Date(min(m)).toISOString().replace(".000Z", "Z")));
    expect(errors[0]!.message).toMatch(/query stopped: it ran past its time limit of 150 ms.*runs skipped until 2026-01-01T00:02:00Z \(1 stop\(s\) in a row\)/);
    const states = (await env.t.ok("GET", "/_emulator/monitor-states")) as { id: string; timeouts?: number; lastError: string }[];
    expect(states.find((s) => s.id === stuck)).toMatchObject({ timeouts: 4, lastError: expect.stringMatching(/time limit/) });
    // The other monitor ran every minute and opened its alert.
    expect((await history(env.t, fine)).filter((h) => h.state === "open")).toHaveLength(1);
  });
});
