// The time order of a dataset's columns (src/emulator/query/columns.ts): a range
// answers exactly the events a full scan would, in the same order, however the events
// arrived (out of order, in batches), and a view taken earlier keeps answering what it
// held then while the writer goes on.
import { describe, expect, it } from "vitest";
import { Columns, ColumnsTimeIndex, ColumnWriter, newDictionaryCache } from "../../src/emulator/query/columns";
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

function indexOf(writer: ColumnWriter, events: StoredEvent[]): ColumnsTimeIndex {
  return new ColumnsTimeIndex(new Columns(writer.view(), newDictionaryCache(), (i) => events[i]!._rowId), () => events);
}

describe("the columns' time order", () => {
  it("answers ranges as a full scan does, across batches that arrive out of order; earlier views are unchanged", () => {
    let seed = 7;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const events: StoredEvent[] = [];
    // Blocks of 32 rows, so that batches cross blocks.
    const writer = new ColumnWriter(5);
    const base = Date.UTC(2026, 0, 1);
    const earlier: { index: ColumnsTimeIndex; events: StoredEvent[] }[] = [];
    for (let batch = 0; batch < 30; batch++) {
      // In order at first, then mostly recent times, some in the past, many ties.
      const fresh: StoredEvent[] = [];
      for (let k = 0; k < 50; k++) fresh.push(event(events.length + k, batch < 3 ? base + (events.length + k) * 1000 : base + random(batch % 3 === 0 ? 600 : 6000) * 1000));
      events.push(...fresh);
      writer.append(fresh);
      const index = indexOf(writer, events);
      earlier.push({ index, events: events.slice() });
      for (let q = 0; q < 5; q++) {
        const a = base + random(6000) * 1000;
        const b = a + random(1200) * 1000;
        const start = q === 0 ? undefined : a;
        expect(index.range(start, b).map((x) => x.event.data.i)).toEqual(scan(events, start, b));
      }
    }
    for (const { index, events: then } of earlier) expect(index.range(undefined, base + 10_000_000).map((x) => x.event.data.i)).toEqual(scan(then, undefined, base + 10_000_000));
    const all = indexOf(writer, events).range(undefined, base + 10_000_000);
    expect(all).toHaveLength(events.length);
    expect(all[0]!.ms).toBe(Math.max(...events.map((e) => Date.parse(e._time))));
  });

  it("answers nothing for an empty range or no events", () => {
    const events: StoredEvent[] = [];
    const writer = new ColumnWriter();
    expect(indexOf(writer, events).range(undefined, Date.now())).toEqual([]);
    events.push(event(0, 1000));
    writer.append(events.slice(0, 1));
    expect(indexOf(writer, events).range(1000, 1000)).toEqual([]);
    expect(indexOf(writer, events).range(1000, 1001).map((x) => x.ms)).toEqual([1000]);
    // Times in other RFC 3339 spellings are read too.
    events.push({ ...event(1, 0), _time: "1970-01-01T01:00:00.5+01:00" });
    writer.append(events.slice(1));
    expect(indexOf(writer, events).range(0, 1001).map((x) => x.ms)).toEqual([1000, 500]);
  });
});
