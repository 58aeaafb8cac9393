// POST /v1/datasets/_apl: parse, resolve the dataset, compile, run, lay out.

import { performance } from "node:perf_hooks";
import type { NameRef } from "./ast";
import { compileQuery } from "./compile-query";
import { datasetsReadBy } from "./datasets-read";
import { badRequest } from "./errors";
import { execute } from "./execute";
import { aplLegacyLayout } from "./layout-legacy";
import { tabularLayout } from "./layout-tabular";
import { parseQuery } from "./parser";
import type { QueryContext } from "./table";
import { parseTimeBound } from "./time";
import type { AplFormat, AplRequest, DatasetLookup, QueryLimits } from "./types";

export interface RequestRange {
  startMs?: number;
  endMs: number;
}

/**
 * The request's startTime/endTime (ISO 8601, `now`, `now-1h`). A missing startTime
 * leaves the range open towards the past. A missing endTime is now, inclusive: an
 * event ingested (with the default `_time`) in the same millisecond is still found.
 */
export function requestRange(startTime: unknown, endTime: unknown, nowMs: number): RequestRange {
  const bound = (name: string, v: unknown): number | undefined => {
    if (v === undefined || v === null || v === "") return undefined;
    if (typeof v !== "string") throw badRequest(`${name} must be a string`);
    const ms = parseTimeBound(v, nowMs);
    if (ms === undefined) throw badRequest(`${name} "${v}" is not a time (ISO 8601, "now" or "now-1h")`);
    return ms;
  };
  const startMs = bound("startTime", startTime);
  const endMs = bound("endTime", endTime) ?? nowMs + 1;
  if (startMs !== undefined && startMs > endMs) throw badRequest("startTime must not be after endTime");
  return { startMs, endMs };
}

/**
 * Checks the datasets a query names before it is compiled against any of them (throws
 * to refuse): a refused caller learns nothing from field errors or results.
 */
export type ReadCheck = (datasets: readonly NameRef[]) => void;

/**
 * `nowMs` is the caller's clock (the emulator's may be a manual one); default the wall
 * clock. `checkReads` sees every dataset the query names before anything reads one.
 */
export function runAplQuery(req: AplRequest, format: AplFormat, lookup: DatasetLookup, limits: QueryLimits, nowMs: number = Date.now(), checkReads?: ReadCheck): unknown {
  const startedAt = performance.now();
  if (typeof req.apl !== "string" || req.apl.trim() === "") throw badRequest("apl must be a non-empty string");
  const ctx: QueryContext = { nowMs, autoBinMs: 0 };
  const range = requestRange(req.startTime, req.endTime, ctx.nowMs);
  const ast = parseQuery(req.apl);
  checkReads?.(datasetsReadBy(ast));
  const plan = compileQuery(ast, lookup, ctx);
  const out = execute(plan, { ...range, limits, ctx, startedAt });
  return format === "tabular" ? tabularLayout(plan, out) : aplLegacyLayout(plan, out);
}
