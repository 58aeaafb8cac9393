// Runs a monitor's query over one window, as the monitor's organization (no caller's
// grants apply: the service runs monitors on the organization's behalf).
import { performance } from "node:perf_hooks";
import type { EmulatorCore } from "../core";
import { DEFAULT_QUERY_LIMITS } from "../query";
import { compileQuery } from "../query/compile-query";
import { execute, type Outcome } from "../query/execute";
import { parseQuery } from "../query/parser";
import type { Plan } from "../query/plan";
import { QueryError } from "../query/types";

export interface Window {
  startMs: number;
  endMs: number;
}

export type QueryRun = { ok: true; plan: Plan; outcome: Outcome } | { ok: false; error: string };

/**
 * The query's result over [startMs, endMs), or why it could not run. A query that names
 * a dataset or field no event has brought yet cannot compile; to a monitor that is "no
 * data", not a failure of the emulator.
 */
export function runMonitorQuery(core: EmulatorCore, apl: string, window: Window, nowMs: number): QueryRun {
  const startedAt = performance.now();
  try {
    const ctx = { nowMs, autoBinMs: 0 };
    const plan = compileQuery(parseQuery(apl), (name) => core.queryDataset(name), ctx);
    const outcome = execute(plan, { startMs: window.startMs, endMs: window.endMs, limits: DEFAULT_QUERY_LIMITS, ctx, startedAt });
    return { ok: true, plan, outcome };
  } catch (err) {
    if (err instanceof QueryError) return { ok: false, error: err.message };
    throw err;
  }
}
