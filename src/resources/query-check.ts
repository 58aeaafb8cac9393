// Plan-time query checks, used by the starred-query and virtual-field kinds: the query
// text is sent to the service over a zero-width time range, so a broken query is
// reported with its line and column before anything is applied.
import { OdsApiError, type OdsClient } from "../api";
import type { PlanCheckProblem } from "./kind";

/** A zero-width time range: nothing is scanned, the query is only compiled. */
const INSTANT = "2000-01-01T00:00:00Z";

/** Statuses that mean "this service does not answer queries": checks are skipped. */
const NOT_SUPPORTED = new Set([404, 405, 501]);

/** The service answers no queries: the check is skipped (with a warning), not failed. */
export class PlanCheckUnsupported extends Error {}

/**
 * Queries are often declared before any event has arrived (or before the dataset
 * exists): a field or dataset the service does not know yet is not an error here. Syntax
 * errors, unknown functions and type errors are.
 */
function onlyMissingData(err: OdsApiError): boolean {
  return err.status === 404 || /unknown(field|dataset)$/.test(String(err.detail?.compileErrorCode ?? ""));
}

/** Compiles a query on the service; answers the error when it does not compile. */
export async function compileQuery(client: OdsClient, apl: string): Promise<OdsApiError | undefined> {
  try {
    await client.queryAplTabular({ apl, startTime: INSTANT, endTime: INSTANT });
    return undefined;
  } catch (err) {
    if (!(err instanceof OdsApiError)) throw err;
    // A 404 with a query error detail is an unknown dataset; without one, no query endpoint.
    if (NOT_SUPPORTED.has(err.status) && !err.detail) throw new PlanCheckUnsupported(err.serviceMessage);
    if (err.status !== 400 && err.status !== 404) throw err;
    return onlyMissingData(err) ? undefined : err;
  }
}

export function describeProblem(p: PlanCheckProblem): string {
  const where = p.line !== undefined ? ` (line ${p.line}, column ${p.column ?? "?"})` : "";
  return `attribute "${p.attribute}"${where}: ${p.message}`;
}
