// The time index of a dataset's events: a range answers exactly the events a full scan
// would, in the same order, however the events arrived (out of order, in batches).
import { describe, expect, it } from "vitest";
import { EventTimeIndex } from "../../src/emulator/event-index";
import type { StoredEvent } from "../../src/emulator/query/types";

function event(i: number, ms: number): StoredEvent {
  const time = new Date(ms).toISOString();
  return { _rowId: i.toString(36).padStart(10, "0"), _sysTime: time, _time: time, data: { i } };
}

/** What a full scan answers: events in [start, end), newest first, ties newest row first. */
function scan(events: StoredEvent[], start: number | undefined, end: number): number[] {
  return events
    .map((e, i) => ({ i, ms: Date.parse(e._time) }))
    .filter((x) => x.ms < end && (start === undefined || x.ms >= start))
    .sort((a, b) => b.ms - a.ms || b.i - a.i)
    .map((x) => x.i);
}

describe("event time index", () => {
  it("answers ranges as a full scan does, across batches that arrive out of order", () => {
    let seed = 7;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const events: StoredEvent[] = [];
    const index = new EventTimeIndex(events);
    const base = Date.UTC(2026, 0, 1);
    for (let batch = 0; batch < 30; batch++) {
      // Mostly recent times, some in the past, many ties.
      for (let k = 0; k < 50; k++) events.push(event(events.length, base + random(batch % 3 === 0 ? 600 : 6000) * 1000));
      for (let q = 0; q < 5; q++) {
        const a = base + random(6000) * 1000;
        const b = a + random(1200) * 1000;
        const start = q === 0 ? undefined : a;
        expect(index.range(start, b).map((x) => x.event.data.i)).toEqual(scan(events, start, b));
      }
    }
    const all = index.range(undefined, base + 10_000_000);
    expect(all).toHaveLength(events.length);
    expect(all[0]!.ms).toBe(Math.max(...events.map((e) => Date.parse(e._time))));
  });

  it("answers nothing for an empty range or no events", () => {
    const events: StoredEvent[] = [];
    const index = new EventTimeIndex(events);
    expect(index.range(undefined, Date.now())).toEqual([]);
    events.push(event(0, 1000));
    expect(index.range(1000, 1000)).toEqual([]);
    expect(index.range(1000, 1001).map((x) => x.ms)).toEqual([1000]);
  });
});
