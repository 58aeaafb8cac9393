// ods_starred_query: a saved query-language query on a dataset.
import { bool, listOf, mapOf, num, object, objectList, str } from "./attributes";
import { atLeast, datasetName, durationMillis, integer, nonEmpty, oneOf } from "./checks";
import type { PlanCheck, ResourceKind, Values } from "./kind";
import type { StarredQueryInput } from "../api";
import { scopedApi, wireShape } from "./api-binding";
import { compileQuery } from "./query-check";

/** The query text is compiled by the service at plan time, so a broken query is never saved. */
const queryCompiles: PlanCheck = {
  title: "Invalid query",
  checks: "the service compiles the query",
  needs: ["dataset", "query"],
  answerDependsOnlyOnValues: true,
  async check(client, values) {
    const apl = (values.query as Values | undefined)?.apl;
    if (typeof apl !== "string") return undefined;
    const err = await compileQuery(client, apl);
    if (!err) return undefined;
    return { attribute: "query.apl", line: err.detail?.line, column: err.detail?.column, message: err.detail?.message ?? err.serviceMessage };
  },
};

const queryOptions = object(
  {
    disable_cache: bool("Bypass the result cache.", { optional: true }),
    disable_stats: bool("Do not collect statistics.", { optional: true }),
    disable_trace: bool("Do not trace the run.", { optional: true }),
    no_aggregation: bool("Return events, not aggregations.", { optional: true }),
    no_fill: bool("Do not fill empty time buckets.", { optional: true }),
    no_interpolation: bool("Do not interpolate missing values.", { optional: true }),
    max_data_points: num("Most data points per series.", { optional: true, checks: [integer, atLeast(1)] }),
    max_series: num("Most series.", { optional: true, checks: [integer, atLeast(1)] }),
    priority: str("Scheduling priority, e.g. \"low\".", { optional: true }),
    resolution: str("Time bucket width, e.g. \"1m\" or \"auto\".", { optional: true }),
  },
  "Options of the run.",
  { optional: true },
);

/**
 * A time bound as starred queries and dashboards spell it: `qr-now`, `qr-now-1h` (also
 * without `qr-`), epoch milliseconds or ISO 8601; undefined when unreadable.
 */
function timeBoundMs(text: string, nowMs: number): number | undefined {
  const t = text.trim().replace(/^qr-/, "");
  const rel = /^now(?:-((?:\d+(?:ms|s|m|h|d|w))+))?$/.exec(t);
  if (rel) return nowMs - (rel[1] ? durationMillis(rel[1].replace(/(\d+)w/g, (_, n: string) => `${Number(n) * 7}d`)) : 0);
  if (/^\d{1,15}$/.test(t)) return Number(t);
  const iso = Date.parse(t);
  return Number.isNaN(iso) ? undefined : iso;
}

/** Seconds from the query's start_time to its end_time (now when unset); undefined without a start. */
function starredQueryWindowSeconds(values: Values): number | undefined {
  const query = values.query as Values | undefined;
  const start = typeof query?.start_time === "string" && query.start_time !== "" ? query.start_time : undefined;
  if (start === undefined) return undefined;
  const now = Date.now();
  const startMs = timeBoundMs(start, now);
  const endMs = typeof query?.end_time === "string" && query.end_time !== "" ? timeBoundMs(query.end_time, now) : now;
  if (startMs === undefined || endMs === undefined) return undefined;
  return Math.max(0, (endMs - startMs) / 1000);
}

export const starredQuery: ResourceKind = {
  typeName: "ods_starred_query",
  description: "A starred (saved) query on a dataset.",
  schemaVersion: 0,
  attributes: {
    id: str("Assigned by the service.", { computed: true }),
    dataset: str("Name of the dataset the query belongs to.", {
      required: true,
      checks: [datasetName],
      forcesReplacement: true,
      refersTo: { typeName: "ods_dataset", attribute: "name" },
    }),
    name: str("Name shown in the list of starred queries.", { required: true, checks: [nonEmpty] }),
    kind: str("Kind of query.", { optional: true, default: "apl", serverDefault: "apl", checks: [oneOf(["apl"])] }),
    who: str("Whose query it is: a user id, \"team\" or \"all\"; the caller's when unset.", {
      optional: true,
      computed: true,
      refersTo: { typeName: "ods_user", attribute: "id", except: ["team", "all"] },
    }),
    // The service requires metadata on create: an empty map is sent when none is declared.
    metadata: mapOf("string", "Free-form labels.", { optional: true, serverDefault: {}, default: {} }),
    query: object(
      {
        apl: str("The query text.", { required: true, checks: [nonEmpty] }),
        start_time: str("Start of the time range, e.g. \"qr-now-1h\" or an ISO 8601 time.", { optional: true }),
        end_time: str("End of the time range.", { optional: true }),
        cursor: str("Row cursor to continue from.", { optional: true }),
        include_cursor: bool("Include the cursor row.", { optional: true }),
        include_cursor_field: bool("Return the cursor field.", { optional: true }),
        default_limit: num("Rows returned when the query sets no limit.", { optional: true, checks: [integer, atLeast(1)] }),
        default_order: objectList(
          {
            field: str("Field to order by.", { required: true, checks: [nonEmpty] }),
            desc: bool("Descending.", { optional: true, serverDefault: false }),
          },
          "Order when the query sets none.",
          { optional: true },
        ),
        libraries: listOf("string", "Query libraries to load.", { optional: true }),
        variables: mapOf("string", "Values for the query's variables.", { optional: true }),
        query_options: queryOptions,
      },
      "The query.",
      { required: true },
    ),
  },
  naturalKey: ["dataset", "name"],
  scope: { attribute: "dataset", parentType: "ods_dataset" },
  creation: "create",
  deletion: "delete",
  planCheck: queryCompiles,
  license: { queryWindowSeconds: (values) => starredQueryWindowSeconds(values) },
  warnsOfStrayDatasets: true,
  importIdFormat: "the starred query id",
  api: scopedApi({
    list: (c, dataset) => c.listAllStarredQueries({ dataset, who: "all" }),
    read: (c, id) => c.getStarredQuery(id),
    create: (c, body) => c.createStarredQuery(body),
    update: (c, id, body) => c.updateStarredQuery(id, body),
    remove: (c, id) => c.deleteStarredQuery(id),
  }, { create: wireShape<StarredQueryInput>("starred query", { dataset: true, kind: true, name: true, who: true, metadata: true, query: true }) }),
};
