// The order of an apply's changes: each runs once what it waits for is done, PARALLELISM
// at a time. Kept linear in the changes and their dependencies (an apply of 20,000
// changes used to scan every change after each answer).
import type { PlannedChange } from "./plan";

/** What running the changes does and tells: the apply's calls, its summary and events. */
export interface OrderedRun {
  run(change: PlannedChange): Promise<void>;
  started(change: PlannedChange): void;
  done(change: PlannedChange): void;
  failed(change: PlannedChange, message: string): void;
  /** Not run because CAUSE (an address it waits for, directly or not) failed. */
  skipped(change: PlannedChange, cause: string): void;
  /** Changes that could never run (a dependency cycle, which loading rejects). */
  unordered(addresses: string[]): void;
  /** Changes left unstarted because the run was asked to stop (SIGINT or SIGTERM). */
  notStarted?(changes: PlannedChange[]): void;
}

const isRemoval = (c: PlannedChange): boolean => c.action === "delete" || c.action === "forget";

/**
 * Runs the changes: a create or update waits for what it depends on; a delete waits for
 * the deletes of what depends on it. Of the changes ready, the first in plan order goes
 * first. A change waiting on a failed one is skipped, and so is what waits on it. A count
 * of unfinished dependencies per change and a heap of the ready ones.
 */
export async function runInOrder(tasks: readonly PlannedChange[], parallelism: number, how: OrderedRun, stop?: AbortSignal): Promise<void> {
  const index = new Map(tasks.map((c, i) => [c.address, i]));
  const waiting = new Array<number>(tasks.length).fill(0);
  const dependents: number[][] = tasks.map(() => []);
  const edge = (first: number, then: number): void => {
    waiting[then]++;
    dependents[first].push(then);
  };
  for (const [i, c] of tasks.entries()) {
    for (const d of new Set(c.dependsOn)) {
      const j = index.get(d);
      if (j === undefined || j === i) continue;
      if (isRemoval(c) && isRemoval(tasks[j])) edge(i, j);
      else if (!isRemoval(c) && !isRemoval(tasks[j])) edge(j, i);
    }
  }
  const status: ("pending" | "running" | "done" | "failed")[] = tasks.map(() => "pending");
  const ready = new MinHeap();
  for (let i = 0; i < tasks.length; i++) if (waiting[i] === 0) ready.push(i);
  let running = 0;
  let finished = 0;

  await new Promise<void>((resolve) => {
    const skipDependents = (failed: number): void => {
      const stack = [failed];
      while (stack.length > 0) {
        const f = stack.pop()!;
        for (const t of dependents[f]) {
          if (status[t] !== "pending") continue;
          status[t] = "failed";
          finished++;
          how.skipped(tasks[t], tasks[f].address);
          stack.push(t);
        }
      }
    };
    const pump = (): void => {
      // Once asked to stop, nothing new starts: the calls in flight finish and are recorded.
      while (running < parallelism && ready.size > 0 && !stop?.aborted) {
        const i = ready.pop();
        if (status[i] !== "pending") continue;
        const c = tasks[i];
        status[i] = "running";
        running++;
        how.started(c);
        how.run(c).then(
          () => {
            status[i] = "done";
            how.done(c);
            for (const t of dependents[i]) if (--waiting[t] === 0 && status[t] === "pending") ready.push(t);
          },
          (err: unknown) => {
            status[i] = "failed";
            how.failed(c, err instanceof Error ? err.message : String(err));
            skipDependents(i);
          },
        ).finally(() => {
          running--;
          finished++;
          pump();
        });
      }
      if (running > 0) return;
      if (stop?.aborted && finished < tasks.length) {
        const left = tasks.filter((_, i) => status[i] === "pending");
        how.notStarted?.(left);
        resolve();
        return;
      }
      if (finished < tasks.length) {
        const stuck = tasks.filter((_, i) => status[i] === "pending").map((c) => c.address);
        for (const [i] of tasks.entries()) if (status[i] === "pending") status[i] = "failed";
        how.unordered(stuck);
      }
      resolve();
    };
    pump();
  });
}

/** Indexes of ready changes, the lowest (first in plan order) on top. */
class MinHeap {
  private readonly items: number[] = [];

  get size(): number {
    return this.items.length;
  }

  push(v: number): void {
    const a = this.items;
    a.push(v);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (a[p] <= a[i]) break;
      [a[p], a[i]] = [a[i], a[p]];
      i = p;
    }
  }

  pop(): number {
    const a = this.items;
    const top = a[0];
    const last = a.pop()!;
    if (a.length > 0) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && a[l] < a[m]) m = l;
        if (r < a.length && a[r] < a[m]) m = r;
        if (m === i) break;
        [a[m], a[i]] = [a[i], a[m]];
        i = m;
      }
    }
    return top;
  }
}
