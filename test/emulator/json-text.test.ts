// The scan that lets JSON lines (NDJSON ingest, the append-only files on restart) be
// parsed as one array (src/emulator/json-text.ts): it must vouch for ordinary lines, or
// the fast path is never taken, and never for lines that only parse when joined.
import { describe, expect, it } from "vitest";
import { linesJoinable, parseJoinedLines } from "../../src/emulator/json-text";

const stored = JSON.stringify({ _rowId: "0000000001", _sysTime: "2026-11-27T21:19:59.123Z", _time: "2024-01-01T00:00:00.000Z", data: { service: "api", tags: [1, { k: "}" }], s: 'a "quoted" },{ \\' } });

describe("linesJoinable and parseJoinedLines", () => {
  it("vouch for lines of one value each, with or without a depth listener, blank lines and CRLF included", () => {
    const text = [stored, '{"a":1}', "", "  ", '"just a string"', "[1,[2,{}]]\r", "3"].join("\n");
    expect(linesJoinable(text)).toBe(true);
    const depths: number[] = [];
    expect(linesJoinable(text, (d) => depths.push(d))).toBe(true);
    expect(Math.max(...depths)).toBe(4); // the stored line: event, data, tags, {k}
    expect(parseJoinedLines(text)).toEqual([JSON.parse(stored), { a: 1 }, "just a string", [1, [2, {}]], 3]);
  });

  it("refuse lines that only parse joined, and text that does not parse", () => {
    for (const text of ['{"a":[1\n2]}\n{"b":1},{"c":2}', '{"a":1}\n1,2', '{"a":1}\n]\n[', '{"s":"x\n"}', '{"a":1}{"b":2}', '{"a":']) {
      expect(parseJoinedLines(text), JSON.stringify(text)).toBeUndefined();
    }
    expect(linesJoinable('{"a":[1\n2]}')).toBe(false);
    expect(linesJoinable("1,2")).toBe(false);
  });
});
