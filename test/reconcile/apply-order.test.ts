// The order of an apply's changes (src/reconcile/apply-order.ts), with a fake run.
import { describe, expect, it } from "vitest";
import { runInOrder } from "../../src/reconcile/apply-order";
import type { PlannedChange } from "../../src/reconcile/plan";

function change(address: string, action: PlannedChange["action"], dependsOn: string[] = []): PlannedChange {
  return { address, action, dependsOn } as unknown as PlannedChange;
}

async function order(tasks: PlannedChange[], parallelism: number, fail: string[] = []): Promise<{ log: string[]; skipped: string[]; maxRunning: number; unordered: string[] }> {
  const log: string[] = [];
  const skipped: string[] = [];
  const unordered: string[] = [];
  let running = 0;
  let maxRunning = 0;
  await runInOrder(tasks, parallelism, {
    run: async (c) => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      await new Promise((r) => setTimeout(r, 1));
      running--;
      log.push(c.address);
      if (fail.includes(c.address)) throw new Error("refused");
    },
    started: () => undefined,
    done: () => undefined,
    failed: () => undefined,
    skipped: (c, cause) => skipped.push(`${c.address} <- ${cause}`),
    unordered: (a) => unordered.push(...a),
  });
  return { log, skipped, maxRunning, unordered };
}

describe("apply order", () => {
  it("creates after what they depend on; deletes before what they depended on", async () => {
    const { log } = await order(
      [change("b", "create", ["a"]), change("a", "create"), change("c", "create", ["b"]), change("x", "delete"), change("y", "delete", ["x"])],
      1,
    );
    expect(log.indexOf("a")).toBeLessThan(log.indexOf("b"));
    expect(log.indexOf("b")).toBeLessThan(log.indexOf("c"));
    expect(log.indexOf("y")).toBeLessThan(log.indexOf("x"));
    // Of the ready ones, the first in plan order goes first.
    expect(log[0]).toBe("a");
  });

  it("keeps to the parallelism and runs everything once", async () => {
    const tasks = Array.from({ length: 200 }, (_, i) => change(`r${i}`, "create", i >= 100 ? [`r${i - 100}`] : []));
    const { log, maxRunning } = await order(tasks, 7);
    expect(maxRunning).toBe(7);
    expect([...log].sort()).toEqual(tasks.map((t) => t.address).sort());
  });

  it("skips what waits on a failed change, transitively, and runs the rest", async () => {
    const { log, skipped } = await order([change("a", "create"), change("b", "create", ["a"]), change("c", "create", ["b"]), change("d", "create")], 2, ["a"]);
    expect(log.sort()).toEqual(["a", "d"]);
    expect(skipped.sort()).toEqual(["b <- a", "c <- b"]);
  });

  it("reports a cycle instead of waiting forever", async () => {
    const { log, unordered } = await order([change("a", "create", ["b"]), change("b", "create", ["a"]), change("c", "create")], 3);
    expect(log).toEqual(["c"]);
    expect(unordered.sort()).toEqual(["a", "b"]);
  });
});
