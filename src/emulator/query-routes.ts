// The two query endpoints. The emulator owns their HTTP side (auth, body, 404, query
// history); the engine in ./query is a pure function of (request, datasets).
import { requireDatasetGrant } from "./auth";
import { newId } from "./core";
import { badRequest, notFound } from "./errors";
import type { QueryHistoryRecord } from "./model";
import { DEFAULT_QUERY_LIMITS, runAplQuery, runLegacyQuery } from "./query";
import type { AplRequest, DatasetLookup } from "./query/types";
import { ok, type RequestContext, type Route } from "./routing";
import { nowIso } from "./time";
import { bodyObject, optionalString, requiredString } from "./validate";

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
      if (saveAsKind !== "") {
        requireDatasetGrant(ctx.caller, historyDataset, "query", "read");
        ctx.core.dataset(historyDataset);
      }
      // Every dataset the query reads needs the caller's query|read grant.
      const lookup: DatasetLookup = (name) => {
        const dataset = ctx.core.queryDataset(name);
        if (dataset) requireDatasetGrant(ctx.caller, name, "query", "read");
        return dataset;
      };
      const result = runAplQuery(req, format, lookup, DEFAULT_QUERY_LIMITS, ctx.now);
      if (saveAsKind !== "") await recordHistory(ctx, historyDataset, saveAsKind, req);
      return ok(result);
    },
  },
  {
    method: "POST",
    pattern: "/v1/datasets/:name/query",
    handle: (ctx) => {
      const name = ctx.params.name!;
      requireDatasetGrant(ctx.caller, name, "query", "read");
      const dataset = ctx.core.queryDataset(name);
      if (!dataset) throw notFound("dataset", name);
      const body = bodyObject(ctx.json());
      return ok(runLegacyQuery(dataset, body, DEFAULT_QUERY_LIMITS));
    },
  },
];
