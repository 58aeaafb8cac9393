import { describe, expect, it } from "vitest";
import { PassedChecks } from "../../src/tfprovider/passed-checks";

describe("the passed checks a served provider remembers", () => {
  it("answers a pass until its time is up, then asks again", () => {
    let now = 1_000;
    const memo = new PassedChecks(() => now, 60_000);
    expect(memo.passed("q")).toBe(false);
    memo.remember("q");
    now += 59_999;
    expect(memo.passed("q")).toBe(true);
    now += 1;
    expect(memo.passed("q")).toBe(false);
    expect(memo.size).toBe(0);
  });

  it("keeps at most its bound, forgetting the oldest pass first; a renewed pass counts as new", () => {
    const memo = new PassedChecks(() => 0, 60_000, 2);
    memo.remember("a");
    memo.remember("b");
    memo.remember("a");
    memo.remember("c");
    expect(["a", "b", "c"].filter((k) => memo.passed(k))).toEqual(["a", "c"]);
  });
});
