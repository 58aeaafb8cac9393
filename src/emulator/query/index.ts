// The emulator's query engine: the query language (POST /v1/datasets/_apl) and the
// legacy structured query (POST /v1/datasets/{dataset_name}/query). Pure functions of
// (request, datasets): the HTTP layer calls them and answers what they return, or
// `{code: err.status, message: err.message, detail: err.detail}` for a QueryError.
//
// The query language (Kusto-like, as the service speaks it): `let` statements, then a
// tabular expression: a source (a dataset, datatable, print, union, search) and
// `| operator` stages. What it supports, and what it does not, is listed in docs/guides/queries-and-emulator.md
// ("What the emulator's query language runs"); parser.ts holds the grammar.
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
  maxMemoryBytes: 256 * 1024 * 1024,
  maxAnswerBytes: 64 * 1024 * 1024,
};

export * from "./types";
