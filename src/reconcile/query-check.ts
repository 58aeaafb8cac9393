// Plan-time query checks: every starred query's text and every virtual field's
// expression is sent to the service over a zero-width time range, so a broken query
// is reported with its line and column before anything is applied.
import { OdsApiError, type OdsClient } from "../api";
import type { Values } from "../resources";

export interface QueryProblem {
  /** Attribute path of the query text, e.g. "query.apl" or "expression". */
  attribute: string;
  line?: number;
  column?: number;
  message: string;
}

/** A zero-width time range: nothing is scanned, the query is only compiled. */
const INSTANT = "2000-01-01T00:00:00Z";

/** Statuses that mean "this service does not answer queries": checks are skipped. */
const NOT_SUPPORTED = new Set([404, 405, 501]);

export class QueryCheckUnsupported extends Error {}

/**
 * Queries are often declared before any event has arrived (or before the dataset
 * exists): a field or dataset the service does not know yet is not an error here. Syntax
 * errors, unknown functions and type errors are.
 */
function onlyMissingData(err: OdsApiError): boolean {
  return err.status === 404 || /unknown(field|dataset)$/.test(String(err.detail?.compileErrorCode ?? ""));
}

async function compile(client: OdsClient, apl: string): Promise<OdsApiError | undefined> {
  try {
    await client.queryAplTabular({ apl, startTime: INSTANT, endTime: INSTANT });
    return undefined;
  } catch (err) {
    if (!(err instanceof OdsApiError)) throw err;
    // A 404 with a query error detail is an unknown dataset; without one, no query endpoint.
    if (NOT_SUPPORTED.has(err.status) && !err.detail) throw new QueryCheckUnsupported(err.serviceMessage);
    if (err.status !== 400 && err.status !== 404) throw err;
    return onlyMissingData(err) ? undefined : err;
  }
}

/** Checks a starred query's text; undefined when it compiles. */
export async function checkStarredQuery(client: OdsClient, values: Values): Promise<QueryProblem | undefined> {
  const apl = (values.query as Values | undefined)?.apl;
  if (typeof apl !== "string") return undefined;
  const err = await compile(client, apl);
  if (!err) return undefined;
  return { attribute: "query.apl", line: err.detail?.line, column: err.detail?.column, message: err.detail?.message ?? err.serviceMessage };
}

/**
 * Checks a virtual field's expression in the context of its dataset. The expression is
 * wrapped in a query on one line; positions are mapped back into the expression.
 */
export async function checkVirtualField(client: OdsClient, values: Values): Promise<QueryProblem | undefined> {
  const { dataset, expression } = values;
  if (typeof dataset !== "string" || typeof expression !== "string" || expression.includes("\n")) return undefined;
  const prefix = `['${dataset.replace(/'/g, "\\'")}'] | extend __ods_check = `;
  const err = await compile(client, `${prefix}${expression} | take 0`);
  if (!err) return undefined;
  const column = err.detail?.column !== undefined ? Math.max(1, err.detail.column - prefix.length) : undefined;
  return { attribute: "expression", line: err.detail?.line !== undefined ? 1 : undefined, column, message: err.detail?.message ?? err.serviceMessage };
}

export function describeProblem(p: QueryProblem): string {
  const where = p.line !== undefined ? ` (line ${p.line}, column ${p.column ?? "?"})` : "";
  return `attribute "${p.attribute}"${where}: ${p.message}`;
}
