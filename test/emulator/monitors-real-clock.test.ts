// The scheduler on the real clock, as a unit: a one-second timer runs the monitors that
// are due, makes only the latest due run after a gap (runs are not replayed), never
// keeps the process alive, and stops with the engine. Timers are faked and the clock is
// a stand-in that reports itself as the real one; storage is real (a temp dir).
import { afterEach, describe, expect, it, vi } from "vitest";
import { EmulatorCore } from "../../src/emulator/core";
import { EventStore } from "../../src/emulator/event-store";
import { emptyState, type MonitorRecord } from "../../src/emulator/model";
import type { Clock } from "../../src/emulator/monitors/clock";
import { DeliveryQueue } from "../../src/emulator/monitors/delivery";
import { MonitorEngine } from "../../src/emulator/monitors/engine";
import { Store } from "../../src/emulator/store";
import { tempDir } from "./helpers";

const T0 = Date.parse("2026-01-01T00:00:00Z");

class SteppedClock implements Clock {
  readonly mode = "real";
  constructor(public at: number) {}
  now(): number {
    return this.at;
  }
}

function monitor(id: string, intervalMinutes: number): MonitorRecord {
  return {
    id, name: id, type: "Threshold", description: "", aplQuery: "['logs'] | summarize count()", operator: "Above", threshold: 0,
    intervalMinutes, rangeMinutes: intervalMinutes, secondDelay: 0, alertOnNoData: false, notifyByGroup: false, notifyEveryRun: true,
    resolvable: false, skipResolved: false, disabled: false, disabledUntil: "", notifierIds: [], triggerAfterNPositiveResults: 1,
    triggerFromNRuns: 1, compareDays: 0, tolerance: 0, columnName: "", createdAt: "2026-01-01T00:00:00Z", createdBy: "u", updatedAt: "2026-01-01T00:00:00Z",
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe("the scheduler on the real clock", () => {
  it("runs what is due each second, only the latest missed run, and stops on close", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const dir = tempDir();
    const store = await Store.open(dir, emptyState);
    const events = EventStore.load(dir, new Set(["k"]));
    const clock = new SteppedClock(T0);
    const core = new EmulatorCore(store, events, "org", clock);
    await store.tx().put("datasets", "logs", { name: "logs", description: "", created: "", who: "", storageKey: "k" }).put("monitors", "m1", monitor("m1", 1)).put("monitors", "m5", monitor("m5", 5)).commit();
    await events.append("k", [{ _sysTime: new Date(T0).toISOString(), _time: new Date(T0 + 1000).toISOString(), data: {} }]);
    const delivery = new DeliveryQueue();
    const engine = new MonitorEngine(core, delivery);
    engine.start();
    const tick = async (): Promise<void> => {
      vi.advanceTimersByTime(1000);
      // Let the run's journal write settle (real I/O, not faked).
      await engine.idle();
    };
    const lastRun = (id: string): string => new Date(store.state.monitorStates.get(id)?.lastRunMs ?? 0).toISOString();

    clock.at = T0 + 30_000;
    await tick();
    expect(store.state.monitorStates.size).toBe(0);

    clock.at = T0 + 60_000;
    await tick();
    expect(lastRun("m1")).toBe("2026-01-01T00:01:00.000Z");
    expect(store.state.monitorStates.has("m5")).toBe(false);
    // The run at 00:01 saw the event of 00:00:01 and opened.
    expect([...store.state.monitorHistory.values()].map((h) => [h.monitorId, h.state, h.timestamp])).toEqual([["m1", "open", "2026-01-01T00:01:00Z"]]);

    // A gap of 17 minutes: one run each, at the latest due time.
    clock.at = T0 + 18 * 60_000 + 5_000;
    await tick();
    expect(lastRun("m1")).toBe("2026-01-01T00:18:00.000Z");
    expect(lastRun("m5")).toBe("2026-01-01T00:15:00.000Z");
    expect([...store.state.monitorHistory.values()].map((h) => [h.monitorId, h.state, h.timestamp])).toEqual([
      ["m1", "open", "2026-01-01T00:01:00Z"],
      ["m1", "closed", "2026-01-01T00:18:00Z"],
    ]);

    await engine.close();
    clock.at = T0 + 60 * 60_000;
    vi.advanceTimersByTime(5000);
    expect(lastRun("m1")).toBe("2026-01-01T00:18:00.000Z");
    expect(vi.getTimerCount()).toBe(0);
    await delivery.close();
    await store.close();
    await events.close();
  });
});
