// The benches' generated stacks must fit the emulator they are applied to: a stack the
// service refuses stops `npm run bench` at its largest size.
import { describe, expect, it } from "vitest";
import { generateStack, layoutOf, MAX_MONITORS, SPREAD_KINDS } from "../../bench/stack-gen";

describe("bench stack layout", () => {
  it.each([10, 1000, 5000])("N=%i: N resources, every kind, monitors within the license shared by two stacks", (n) => {
    const layout = layoutOf(n);
    const total = Object.values(layout.perKind).reduce((a, b) => a + b, 0);
    expect(total).toBe(n);
    expect(layout.perKind.ods_monitor).toBeLessThanOrEqual(MAX_MONITORS);
    for (const k of SPREAD_KINDS) expect(layout.perKind[k], k).toBeGreaterThan(0);
    const stack = generateStack({ n, prefix: "b" });
    const count = Object.values(stack.resource).reduce((a, byName) => a + Object.keys(byName).length, 0);
    expect(count).toBe(n);
  });
});
