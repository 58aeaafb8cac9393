// The emulator's query engine: the query language (POST /v1/datasets/_apl) and the
// legacy structured query (POST /v1/datasets/{dataset_name}/query). Pure functions of
// (request, datasets): the HTTP layer calls them and answers what they return, or
// `{code: err.status, message: err.message, detail: err.detail}` for a QueryError.
//
// The query language, in brief (Kusto-like, as the service speaks it):
//   source      ['dataset-name'] or a bare name, then `| operator` stages
//   operators   where/filter, project, project-away, extend, summarize ... by ...,
//               sort/order by (asc|desc, nulls first|last; default desc), take/limit,
//               top N by, count, distinct
//   operators in expressions: == != < <= > >= =~ !~ and or not() + - * / %
//               contains has startswith endswith (and _cs, and ! forms), in, !in,
//               between (a .. b), matches regex
//   literals    'str' "str" @'verbatim', 12 1.5 1e3, true false null, 5m 1h 30s 1d 100ms,
//               datetime(2024-01-01T00:00:00Z), field names as name, a.b or ['odd name']
//   functions   strlen tolower toupper trim strcat substring indexof tostring toint
//               tolong todouble toreal tobool todatetime iff iif isnull isnotnull isempty
//               isnotempty coalesce abs round bin floor bin_auto now ago
//   aggregates  count countif sum avg min max dcount
// Errors: 400 with detail {line, column, message, errorType, compileErrorCode} for a
// bad query; 404 (with detail) for an unknown dataset; plain 400 for a bad time or body.

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
