// The benches' generated stacks must fit the emulator they are applied to: a stack the
// service refuses stops `npm run bench` at its largest size.
import { afterAll, describe, expect, it } from "vitest";
import { generateStack, layoutOf, MAX_MONITORS, outputsOf, SPREAD_KINDS } from "../../bench/stack-gen";
import { loadStack } from "../../src/reconcile/stack";
import { removeTempDirs, tempDir, writeStack } from "../helpers/ods-cli";

afterAll(() => removeTempDirs());

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

describe("growth stack outputs", () => {
  it("one output per five resources, each a resource's id, all of which the engine loads", () => {
    const stack = generateStack({ n: 500, prefix: "g" });
    const outputs = outputsOf(stack);
    expect(Object.keys(outputs)).toHaveLength(100);
    const dir = tempDir();
    const loaded = loadStack(writeStack(dir, { resource: stack.resource, output: outputs }));
    expect(loaded.outputs).toHaveLength(100);
    const addresses = new Set(loaded.resources.map((d) => d.address));
    for (const o of loaded.outputs) expect(addresses.has(String(o.value).replace(/^\$\{(.*)\.id\}$/, "$1")), String(o.value)).toBe(true);
  });
});
