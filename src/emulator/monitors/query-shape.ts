// What a monitor's query may look like, checked when the monitor is written: it must
// parse; a match monitor may only filter and reshape events (no aggregation, so that
// each result row is one event); a threshold or anomaly monitor must aggregate.
import { badRequest } from "../errors";
import type { QueryAst, Stage, TabularExpr } from "../query/ast";
import { parseQuery } from "../query/parser";
import { QueryError } from "../query/types";
import type { MonitorType } from "../model";

/** The stages a match monitor may use (the service documents exactly these). */
export const MATCH_STAGES: readonly string[] = [
  "where",
  "extend",
  "extend-valid",
  "parse",
  "parse-kv",
  "project",
  "project-away",
  "project-keep",
  "project-rename",
  "project-reorder",
];

const AGGREGATING: ReadonlySet<Stage["kind"]> = new Set(["summarize", "count", "make-series"]);

function parseOrExplain(apl: string): QueryAst {
  try {
    return parseQuery(apl);
  } catch (err) {
    if (err instanceof QueryError) throw badRequest(`"aplQuery" does not parse: ${err.message}`);
    throw err;
  }
}

function describeStage(s: Stage): string {
  return `${s.kind} (line ${s.pos.line}, column ${s.pos.column})`;
}

function checkMatchQuery(body: TabularExpr): void {
  if (body.source.kind !== "name") throw badRequest(`"aplQuery" of a MatchEvent monitor must read one dataset (['name'] | where ...)`);
  for (const s of body.stages) {
    if (!MATCH_STAGES.includes(s.kind)) {
      throw badRequest(`"aplQuery" of a MatchEvent monitor may not use ${describeStage(s)}: only ${MATCH_STAGES.join(", ")} are allowed`);
    }
  }
}

/** Parses and checks the query of a monitor of `type`; 400 naming aplQuery otherwise. */
export function checkMonitorQuery(apl: string, type: MonitorType): QueryAst {
  const ast = parseOrExplain(apl);
  if (type === "MatchEvent") {
    if (ast.lets.some((l) => l.kind === "tabular")) throw badRequest(`"aplQuery" of a MatchEvent monitor may not bind tables with let`);
    checkMatchQuery(ast.body);
  } else if (!ast.body.stages.some((s) => AGGREGATING.has(s.kind))) {
    throw badRequest(`"aplQuery" of a ${type} monitor must aggregate (end in summarize), e.g. "['logs'] | summarize count() by bin(_time, 1m)"`);
  }
  return ast;
}
