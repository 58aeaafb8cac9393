// POST /v1/datasets/{dataset_name}/query, the legacy structured query. The body is
// translated into the same plan the query language builds, then laid out as legacy.
//
// Body fields:
//   startTime, endTime   ISO 8601, `now`, `now-1h` (as for the query language)
//   virtualFields        [{alias, expr}]: expr in the query language, usable by name below
//   filter               see legacy-filter.ts
//   aggregations         [{op: count|distinct|sum|avg|min|max, field, alias}]; `distinct`
//                        counts distinct values; the group's `op` is alias, else op
//   groupBy              field names
//   resolution           bucket width (`1m`, `30s`, Go's `1m0s`) or `auto`: with
//                        aggregations, fills buckets.series; without it, totals only
//   order                [{field, desc}]: fields of the events, or with aggregations
//                        a groupBy field or an aggregation's op/alias
//   project              [{field, alias}]: the fields that matches carry
//   limit                matches to return (default and cap: limits.maxRowsReturned)
//   cursor               a row id: continue after that row (at it with includeCursor)
//   continuationToken    from a previous answer's status: continue where it stopped
// With more matches than returned, status.continuationToken resumes after the last one
// (in the default newest-first order).

import { performance } from "node:perf_hooks";
import { isAggregationName, type AggregationName } from "./aggregations";
import { requestRange } from "./apl";
import { compileExpr } from "./compile-expr";
import { badRequest } from "./errors";
import { execute } from "./execute";
import { binValue } from "./functions";
import { legacyLayout } from "./layout-legacy";
import { compileLegacyFilter, legacyField } from "./legacy-filter";
import { parseExpression } from "./parser";
import { PlanBuilder, TIME_FIELD, type SortKeySpec } from "./plan";
import type { AggregationSpec, GroupKeySpec } from "./summarize";
import type { CompiledExpr, QueryContext } from "./table";
import { parseTimespan } from "./time";
import { QueryError, type QueryDataset, type QueryLimits } from "./types";
import { TimespanValue } from "./values";

type Body = Record<string, unknown>;

function isRecord(v: unknown): v is Body {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function optString(b: Body, key: string): string | undefined {
  const v = b[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") throw badRequest(`${key} must be a string`);
  return v;
}

function records(b: Body, key: string): Body[] {
  const v = b[key];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || !v.every(isRecord)) throw badRequest(`${key} must be an array of objects`);
  return v;
}

function requiredString(r: Body, key: string, path: string): string {
  const v = r[key];
  if (typeof v !== "string" || v === "") throw badRequest(`${path}.${key} must be a non-empty string`);
  return v;
}

function fieldNames(b: Body, key: string): string[] {
  const v = b[key];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || !v.every((x) => typeof x === "string")) throw badRequest(`${key} must be an array of strings`);
  return v;
}

const LEGACY_AGGREGATIONS: Readonly<Record<string, AggregationName>> = { distinct: "dcount" };

/** Row ids are opaque to clients; the token only has to come back unchanged. */
function encodeContinuation(rowId: string): string {
  return Buffer.from(rowId, "utf8").toString("base64url");
}

function decodeContinuation(token: string): string {
  const rowId = Buffer.from(token, "base64url").toString("utf8");
  if (rowId === "" || encodeContinuation(rowId) !== token) throw badRequest("continuationToken is not valid");
  return rowId;
}

function virtualFields(b: Body, builder: PlanBuilder): void {
  records(b, "virtualFields").forEach((vf, i) => {
    const path = `virtualFields[${i}]`;
    const alias = requiredString(vf, "alias", path);
    const text = requiredString(vf, "expr", path);
    try {
      builder.extend(alias, compileExpr(parseExpression(text), builder.scope()));
    } catch (err) {
      if (err instanceof QueryError) throw badRequest(`${path}.expr: ${err.detail?.message ?? err.message}`);
      throw err;
    }
  });
}

function timeBucket(resolution: string | undefined, ctx: QueryContext): GroupKeySpec | null {
  if (resolution === undefined || resolution === "") return null;
  let bucket: number | "auto" = "auto";
  if (resolution !== "auto") {
    const ms = parseTimespan(resolution);
    if (ms === undefined || !(ms > 0)) throw badRequest(`resolution "${resolution}" is not a duration such as 1m or auto`);
    bucket = ms;
  }
  const width = bucket;
  const expr: CompiledExpr = {
    type: "datetime",
    bucket: width,
    nameHint: TIME_FIELD,
    evaluate: (row) => binValue(row.values.get(TIME_FIELD) ?? null, new TimespanValue(width === "auto" ? ctx.autoBinMs : width)),
  };
  return { name: TIME_FIELD, expr };
}

/** The legacy body's aggregations (after LEGACY_AGGREGATIONS maps its spellings). */
const LEGACY_FUNCTIONS: ReadonlySet<string> = new Set(["count", "dcount", "sum", "avg", "min", "max"]);

function aggregations(b: Body, builder: PlanBuilder): AggregationSpec[] {
  const scope = builder.scope();
  return records(b, "aggregations").map((a, i) => {
    const path = `aggregations[${i}]`;
    const op = requiredString(a, "op", path);
    const fn = LEGACY_AGGREGATIONS[op] ?? op;
    if (!isAggregationName(fn) || !LEGACY_FUNCTIONS.has(fn)) throw badRequest(`${path}.op "${op}" is not one of count, distinct, sum, avg, min, max`);
    const rawField = a.field;
    const hasField = typeof rawField === "string" && rawField !== "" && rawField !== "*";
    if (fn !== "count" && !hasField) throw badRequest(`${path}.field is required for "${op}"`);
    const arg = fn === "count" || !hasField ? null : legacyField(rawField, scope, `${path}.field`);
    const alias = a.alias === undefined || a.alias === null || a.alias === "" ? undefined : requiredString(a, "alias", path);
    // Columns need unique names; two unaliased sums still both show `op: "sum"`.
    return { name: `${alias ?? op}#${i}`, label: alias ?? op, fn, args: arg ? [arg] : [], fields: hasField ? [rawField] : [] };
  });
}

function orderKeys(b: Body, builder: PlanBuilder, resolveName: (field: string, path: string) => CompiledExpr): SortKeySpec[] {
  return records(b, "order").map((o, i) => {
    const path = `order[${i}]`;
    const field = requiredString(o, "field", path);
    const desc = o.desc === true;
    return { expr: resolveName(field, `${path}.field`), desc, nullsFirst: !desc };
  });
}

/** `nowMs` is the caller's clock (the emulator's may be a manual one); default the wall clock. */
export function runLegacyQuery(dataset: QueryDataset, body: unknown, limits: QueryLimits, nowMs: number = Date.now()): unknown {
  const startedAt = performance.now();
  if (!isRecord(body)) throw badRequest("the query must be a JSON object");
  const ctx: QueryContext = { nowMs, autoBinMs: 0 };
  const range = requestRange(body.startTime, body.endTime, ctx.nowMs);
  const builder = PlanBuilder.forDataset(dataset, ctx);

  virtualFields(body, builder);
  if (body.filter !== undefined && body.filter !== null) builder.where(compileLegacyFilter(body.filter, builder.scope()));

  const aggs = aggregations(body, builder);
  const grouped = aggs.length > 0;
  if (grouped) {
    const scope = builder.scope();
    const keys: GroupKeySpec[] = fieldNames(body, "groupBy").map((f, i) => ({ name: f, expr: legacyField(f, scope, `groupBy[${i}]`) }));
    const bucket = timeBucket(optString(body, "resolution"), ctx);
    builder.summarize(bucket ? [bucket, ...keys] : keys, aggs);
    const byLabel = new Map(aggs.map((a) => [a.label ?? a.name, a.name]));
    const orderScope = builder.scope();
    const order = orderKeys(body, builder, (field, path) => legacyField(byLabel.get(field) ?? field, orderScope, path));
    if (order.length > 0) builder.sort(order);
  } else {
    const scope = builder.scope();
    const order = orderKeys(body, builder, (field, path) => legacyField(field, scope, path));
    if (order.length > 0) builder.sort(order);
    const projections = records(body, "project").map((p, i) => {
      const field = requiredString(p, "field", `project[${i}]`);
      const alias = typeof p.alias === "string" && p.alias !== "" ? p.alias : field;
      return { name: alias, expr: legacyField(field, scope, `project[${i}].field`) };
    });
    if (projections.length > 0) builder.project(projections);
  }

  const limit = body.limit === undefined || body.limit === null || body.limit === 0 ? limits.maxRowsReturned : body.limit;
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 0) throw badRequest("limit must be a non-negative integer");

  const token = optString(body, "continuationToken");
  const cursorId = optString(body, "cursor");
  const cursor = token ? { rowId: decodeContinuation(token), include: false } : cursorId ? { rowId: cursorId, include: body.includeCursor === true } : undefined;

  const plan = builder.build();
  const out = execute(plan, { ...range, limits, ctx, startedAt, cursor });
  const result = legacyLayout(plan, out);
  if (!grouped) {
    const more = result.matches.length > limit || out.rowsBeforeCut > out.rows.length;
    result.matches = result.matches.slice(0, limit);
    const last = result.matches[result.matches.length - 1];
    if (more && last && last._rowId !== "" && records(body, "order").length === 0) {
      result.status.continuationToken = encodeContinuation(last._rowId);
    }
  }
  return result;
}
