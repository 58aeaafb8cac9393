// The emulator's query engine: the query language (POST /v1/datasets/_apl) and the
// legacy structured query (POST /v1/datasets/{dataset_name}/query). Pure functions of
// (request, datasets): the HTTP layer calls them and answers what they return, or
// `{code: err.status, message: err.message, detail: err.detail}` for a QueryError.

import type { QueryLimits } from "./types";

export { runAplQuery } from "./apl";
export { runLegacyQuery } from "./legacy-query";

/** Bounds for one query when the emulator is not configured otherwise. */
export const DEFAULT_QUERY_LIMITS: QueryLimits = {
  maxRowsExamined: 5_000_000,
  maxRowsReturned: 10_000,
  maxMillis: 10_000,
};

export * from "./types";
