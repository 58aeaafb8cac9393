// The ingest's reading of `_time` (src/emulator/time.ts): toISOString text is read by
// arithmetic instead of Date.parse; it must agree with Date on every date it accepts and
// refuse what toISOString would never write (those go to the general RFC 3339 reader).
import { describe, expect, it } from "vitest";
import { canonicalIsoMillis, eventTimeFromValue } from "../../src/emulator/time";

/** What the reader replaced: Date.parse, kept only when toISOString writes the text back. */
function oracle(text: string): number | undefined {
  const ms = Date.parse(text);
  return !Number.isNaN(ms) && new Date(ms).toISOString() === text ? ms : undefined;
}

describe("canonicalIsoMillis", () => {
  it("agrees with Date on dates from year 0 to 9999, leap days and the ends of months included", () => {
    const min = new Date("0000-01-01T00:00:00.000Z").getTime();
    const max = new Date("9999-12-31T23:59:59.999Z").getTime();
    let seed = 12345;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const samples = [min, max, 0, -1, Date.UTC(2000, 1, 29, 12), Date.UTC(1900, 1, 28, 23, 59, 59, 999), Date.UTC(2024, 11, 31, 23, 59, 59, 999)];
    for (let i = 0; i < 20_000; i++) samples.push(Math.floor(min + next() * (max - min)));
    for (const ms of samples) {
      const text = new Date(ms).toISOString();
      expect(canonicalIsoMillis(text), text).toBe(ms);
    }
  });

  it("refuses what toISOString would not write, as the Date check did", () => {
    const bad = [
      "2023-02-29T00:00:00.000Z",
      "2100-02-29T00:00:00.000Z",
      "2024-04-31T00:00:00.000Z",
      "2024-13-01T00:00:00.000Z",
      "2024-00-01T00:00:00.000Z",
      "2024-01-00T00:00:00.000Z",
      "2024-01-01T24:00:00.000Z",
      "2024-01-01T23:60:00.000Z",
      "2024-01-01T23:59:60.000Z",
      "2024-01-01t00:00:00.000Z",
      "2024-01-01T00:00:00.0000",
      "2024-01-01T00:00:00,000Z",
      "2024-01-01T0a:00:00.000Z",
      "+02024-01-01T00:00:00.00Z",
      "2024-01-01T00:00:00Z",
    ];
    for (const text of bad) {
      expect(oracle(text), text).toBeUndefined();
      expect(canonicalIsoMillis(text), text).toBeUndefined();
    }
    expect(canonicalIsoMillis("2024-02-29T23:59:59.999Z")).toBe(oracle("2024-02-29T23:59:59.999Z"));
  });

  it("leaves other RFC 3339 forms to the general reader, which still normalizes them", () => {
    expect(eventTimeFromValue("2024-01-01T01:00:00+01:00")).toEqual({ text: "2024-01-01T00:00:00.000Z", ms: Date.UTC(2024, 0, 1) });
    expect(eventTimeFromValue("2024-02-30T00:00:00.000Z")).toBeUndefined();
    expect(eventTimeFromValue("2024-03-01T00:00:00.123Z")).toEqual({ text: "2024-03-01T00:00:00.123Z", ms: Date.UTC(2024, 2, 1, 0, 0, 0, 123) });
  });
});
