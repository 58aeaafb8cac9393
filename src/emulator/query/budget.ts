// The memory one query may build: rows it keeps, the lists, sets and groups of its
// aggregations, the strings it makes. Charged as they grow, so a query that would build
// gigabytes stops at its limit with a 400 naming it, long before the worker's heap.
//
// Figures are estimates of the bytes held (V8 does not say what one structure costs),
// on the side of too much; a value the row shares with its stored event (a field read
// as is) costs nothing more, since the event already holds it.
//
// Why a module-wide "current budget" rather than a parameter: a query runs start to end
// synchronously on its worker thread, one at a time, and the places that grow (an
// aggregator's list, a group table, a stage's rows) are built far from the run's
// environment. `withBudget` sets it for one run and always restores it.
import { QueryError } from "./types";
import { DateTimeValue, TimespanValue, type Value } from "./values";
import type { Row } from "./table";

const MIB = 1024 * 1024;

export class MemoryBudget {
  used = 0;
  constructor(readonly limitBytes: number) {}

  charge(bytes: number): void {
    this.used += bytes;
    if (this.used > this.limitBytes) throw memoryLimitError(this.limitBytes);
  }
}

/** The answer to a query that would build more than `limitBytes`. */
export function memoryLimitError(limitBytes: number): QueryError {
  const mib = Math.round((limitBytes / MIB) * 10) / 10;
  return new QueryError(
    400,
    `query stopped: it built more than the ${mib} MiB of memory a query may use (rows it keeps, lists, sets, groups and strings it makes; the emulator's --query-max-memory-mb); narrow its time range, summarize earlier, or cap make_list/make_set`,
  );
}

let active: MemoryBudget | undefined;

/** Runs `fn` with `budget` charged by everything the query builds meanwhile. */
export function withBudget<T>(budget: MemoryBudget, fn: () => T): T {
  const outer = active;
  active = budget;
  try {
    return fn();
  } finally {
    active = outer;
  }
}

/** Charges the running query's budget (no-op outside a run); throws past its limit. */
export function charge(bytes: number): void {
  active?.charge(bytes);
}

/**
 * Bytes a value holds of its own, shallowly: a list or bag counts its slots, not what
 * they point to (what they point to was charged where it was made or kept).
 */
export function valueBytes(v: Value): number {
  if (v === null || typeof v === "number" || typeof v === "boolean") return 8;
  if (typeof v === "string") return 16 + v.length;
  if (v instanceof DateTimeValue || v instanceof TimespanValue) return 32;
  if (Array.isArray(v)) return 16 + 8 * v.length;
  return 16 + 32 * Object.keys(v).length;
}

/** Bytes a kept row holds: its map and the values it does not share with its stored event. */
export function rowBytes(row: Row): number {
  let bytes = 64;
  const stored = row.origin?.data;
  for (const [name, v] of row.values) {
    bytes += 24;
    if (v === null || (typeof v !== "object" && typeof v !== "string")) continue;
    if (stored !== undefined && stored[name] === v) continue;
    bytes += valueBytes(v);
  }
  return bytes;
}

/** Charges one row the running query keeps. */
export function chargeRow(row: Row): void {
  if (active) active.charge(rowBytes(row));
}
