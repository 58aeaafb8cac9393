// The nesting check run on every request body before it is parsed (src/emulator/routing.ts):
// brackets inside strings do not count, however the strings escape their quotes.
import { describe, expect, it } from "vitest";
import { checkJsonDepth, MAX_JSON_DEPTH } from "../../src/emulator/routing";

const nested = (levels: number): string => "[".repeat(levels) + "]".repeat(levels);

describe("checkJsonDepth", () => {
  it("refuses one level past the limit and accepts the limit", () => {
    expect(() => checkJsonDepth(nested(MAX_JSON_DEPTH))).not.toThrow();
    expect(() => checkJsonDepth(nested(MAX_JSON_DEPTH + 1))).toThrow(/deeper than 100 levels/);
  });

  it("does not count brackets inside strings, past escaped quotes and backslashes", () => {
    const deepText = "[{".repeat(200);
    expect(() => checkJsonDepth(JSON.stringify([{ a: deepText }]))).not.toThrow();
    expect(() => checkJsonDepth(JSON.stringify([{ a: `x"${deepText}` }]))).not.toThrow();
    expect(() => checkJsonDepth(JSON.stringify([{ a: `x\\"${deepText}\\` }]))).not.toThrow();
    // A string ending in an escaped backslash closes there: what follows counts again.
    expect(() => checkJsonDepth(`[${JSON.stringify("x\\")},${nested(MAX_JSON_DEPTH)}]`)).toThrow(/deeper/);
    expect(() => checkJsonDepth(`[${JSON.stringify('x\\"')},${nested(MAX_JSON_DEPTH - 1)}]`)).not.toThrow();
  });

  it("leaves an unterminated string to the parser", () => {
    expect(() => checkJsonDepth('["abc')).not.toThrow();
  });
});
