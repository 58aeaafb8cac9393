// Monitors across restarts and from the command line: a monitor, its history and its
// alert state survive a restart (an open alert does not open again), and
// `ods emulator --clock manual` serves a clock that tests move over HTTP.
import { afterEach, describe, expect, it } from "vitest";
import { call, killSpawnedEmulators, spawnEmulator, startTestEmulator, tempDir } from "./helpers";
import { history, ingestAt, min, startReceiver, webhookNotifier } from "./monitor-helpers";

afterEach(killSpawnedEmulators);

describe("monitors across a restart", () => {
  it("keep their history and alert state: an open alert stays open, and closes later", async () => {
    const rx = await startReceiver();
    const dir = tempDir();
    try {
      const first = await startTestEmulator({ dataDir: dir, clock: "manual", clockStart: "2026-01-01T00:00:00Z" });
      await first.ok("POST", "/v2/datasets", { name: "logs" });
      const hook = await webhookNotifier(first, rx.url);
      const id = (await first.ok("POST", "/v2/monitors", { name: "any", type: "Threshold", operator: "Above", threshold: 0, aplQuery: "['logs'] | summarize count()", intervalMinutes: 1, rangeMinutes: 1, resolvable: true, notifierIds: [hook] })).id;
      await ingestAt(first, "logs", [{ at: min(0) + 1 }, { at: min(1) + 1 }]);
      await first.ok("POST", "/_emulator/clock", { advance: "1m" });
      const monitor = await first.ok("GET", `/v2/monitors/${id}`);
      await first.close();

      const second = await startTestEmulator({ dataDir: dir, clock: "manual", clockStart: "2026-01-01T00:01:00Z" });
      try {
        expect(await second.ok("GET", `/v2/monitors/${id}`)).toEqual(monitor);
        expect((await history(second, id)).map((h) => h.state)).toEqual(["open"]);
        // 00:02 still crosses: no second Open. 00:03 does not: Closed.
        await second.ok("POST", "/_emulator/clock", { advance: "2m" });
        expect(rx.received.map((r) => JSON.parse(r.body).action)).toEqual(["Open", "Closed"]);
        expect((await history(second, id)).map((h) => [h.state, h.timestamp])).toEqual([
          ["open", "2026-01-01T00:01:00Z"],
          ["closed", "2026-01-01T00:03:00Z"],
        ]);
      } finally {
        await second.close();
      }
    } finally {
      await rx.close();
    }
  });
});

describe("ods emulator --clock manual", () => {
  it("starts a manual clock at --clock-start that POST /_emulator/clock moves", async () => {
    const proc = await spawnEmulator(tempDir(), ["--clock", "manual", "--clock-start", "2026-01-01T00:00:00Z"]);
    expect((await call(proc.url, proc.token, "GET", "/_emulator/clock")).body).toEqual({ mode: "manual", now: "2026-01-01T00:00:00.000Z" });
    const moved = await call(proc.url, proc.token, "POST", "/_emulator/clock", { body: { advance: "15m" } });
    expect(moved.body).toEqual({ mode: "manual", now: "2026-01-01T00:15:00.000Z", runs: 0 });
    // Server timestamps follow it.
    const created = await call(proc.url, proc.token, "POST", "/v2/notifiers", { body: { name: "n", properties: { webhook: { url: "http://127.0.0.1:9/" } } } });
    expect(created.body.createdAt).toBe("2026-01-01T00:15:00Z");
    proc.child.kill("SIGTERM");
    expect(await proc.exited).toEqual({ code: 0, signal: null });
  });

  it("refuses an unknown clock mode on the command line", async () => {
    await expect(spawnEmulator(tempDir(), ["--clock", "sometimes"])).rejects.toThrow(/expected "real" or "manual", got "sometimes"/);
  });
});
