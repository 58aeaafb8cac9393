// The two query endpoints. The emulator owns their HTTP side (auth, body, 404, query
// history); the engine in ./query is a pure function of (request, datasets).
import { requireDatasetGrant } from "./auth";
import { newId } from "./core";
import { badRequest, HttpError, notFound } from "./errors";
import type { MonitorType, QueryHistoryRecord } from "./model";
import type { JobAnswer } from "./query-host/jobs";
import type { AplRequest } from "./query/types";
import { chargeQuery, requireQueryAllowance, requireQueryWindow, windowSeconds } from "./license";
import { JsonText, ok, type RequestContext, type Route } from "./routing";
import { nowIso } from "./time";
import { bodyObject, optionalIntegerIn, optionalString, requiredString, type JsonObject } from "./validate";

/** Query history kept per dataset; older runs are dropped. */
const HISTORY_PER_DATASET = 1000;

async function recordHistory(ctx: RequestContext, dataset: string, kind: string, req: AplRequest): Promise<void> {
  const { core } = ctx;
  const run: QueryHistoryRecord = {
    id: newId("qh"),
    dataset,
    kind,
    apl: req.apl,
    startTime: req.startTime ?? "",
    endTime: req.endTime ?? "",
    who: ctx.caller.user.id,
    at: nowIso(ctx.now),
  };
  const tx = core.store.tx().put("queryHistory", run.id, run);
  // The new run counts too: it lands in memory with the commit.
  const runs = [...core.state.queryHistory.values()].filter((r) => r.dataset === dataset);
  for (const old of runs.slice(0, Math.max(0, runs.length + 1 - HISTORY_PER_DATASET))) tx.delete("queryHistory", old.id);
  await tx.commit();
}

/** The request's own time limit (`maxMillis`, ms), which may only lower the emulator's. */
function maxMillisOf(body: JsonObject): number | undefined {
  return optionalIntegerIn(body, "maxMillis", 1, Number.MAX_SAFE_INTEGER);
}

/** A worker's answer as the route answers it. */
export function answerOf(answer: JobAnswer): unknown {
  if (!answer.ok) throw new HttpError(answer.error.status, answer.error.message, answer.error.detail);
  return "json" in answer ? new JsonText(answer.json) : answer.value;
}

/**
 * 403 (naming the capability and the dataset) unless the caller may query every dataset
 * `apl` names. For what stores a query to be run later (monitors, views, starred
 * queries); it runs before anything looks at data, so a refused caller learns nothing.
 * With `monitorType`, also the monitor's checks of syntax and shape (400 naming
 * aplQuery). All of it runs on the query pool: no query text is parsed on this thread.
 */
export async function requireQueryReadable(ctx: RequestContext, apl: string, monitorType?: MonitorType): Promise<void> {
  answerOf(await ctx.core.runQuery({ kind: "access", apl, reader: ctx.core.readerOf(ctx.caller), nowMs: ctx.now, ...(monitorType !== undefined ? { monitorType } : {}) }));
}

export const queryRoutes: readonly Route[] = [
  {
    method: "POST",
    pattern: "/v1/datasets/_apl",
    handle: async (ctx) => {
      const format = ctx.query.get("format") ?? "legacy";
      if (format !== "legacy" && format !== "tabular") throw badRequest(`query parameter "format" must be "legacy" or "tabular", got ${JSON.stringify(format)}`);
      const saveAsKind = ctx.query.get("saveAsKind") ?? "";
      const historyDataset = ctx.query.get("dataset_name") ?? "";
      if (saveAsKind !== "" && historyDataset === "") throw badRequest(`query parameter "dataset_name" is required with "saveAsKind"`);
      const body = bodyObject(ctx.json());
      const req: AplRequest = { apl: requiredString(body, "apl") };
      const startTime = optionalString(body, "startTime");
      const endTime = optionalString(body, "endTime");
      if (startTime) req.startTime = startTime;
      if (endTime) req.endTime = endTime;
      requireQueryAllowance(ctx.core);
      requireQueryWindow(ctx.core, windowSeconds(startTime, endTime, ctx.now), "the query's time range");
      if (saveAsKind !== "") {
        requireDatasetGrant(ctx.caller, historyDataset, "query", "read");
        ctx.core.dataset(historyDataset);
      }
      // Every dataset the query names needs the caller's query|read grant: checked in the
      // worker after parsing, before the query is compiled against any dataset.
      const began = Date.now();
      const answer = await ctx.core.runQuery({ kind: "apl", request: req, format, reader: ctx.core.readerOf(ctx.caller), nowMs: ctx.now }, maxMillisOf(body));
      chargeQuery(ctx.core, Date.now() - began);
      const result = answerOf(answer);
      if (saveAsKind !== "") await recordHistory(ctx, historyDataset, saveAsKind, req);
      return ok(result);
    },
  },
  {
    method: "POST",
    pattern: "/v1/datasets/:name/query",
    handle: async (ctx) => {
      const name = ctx.params.name!;
      requireDatasetGrant(ctx.caller, name, "query", "read");
      if (!ctx.core.state.datasets.has(name)) throw notFound("dataset", name);
      const body = bodyObject(ctx.json());
      requireQueryAllowance(ctx.core);
      requireQueryWindow(ctx.core, windowSeconds(optionalString(body, "startTime"), optionalString(body, "endTime"), ctx.now), "the query's time range");
      const began = Date.now();
      const answer = await ctx.core.runQuery({ kind: "legacy", dataset: name, body, reader: ctx.core.readerOf(ctx.caller), nowMs: ctx.now }, maxMillisOf(body));
      chargeQuery(ctx.core, Date.now() - began);
      return ok(answerOf(answer));
    },
  },
];
