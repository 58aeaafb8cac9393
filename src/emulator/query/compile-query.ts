// Turns a parsed query into a plan, stage by stage, checking every name against the
// columns that exist at that point (dataset fields, virtual fields, earlier stages,
// `let` bindings).
//
// Columns without an explicit name are named as the language does: a plain field keeps
// its name, bin(x, ...) is named x, count() is count_, sum(x) is sum_x,
// percentile(x, 95) is percentile_x_95, and anything else is Column1, Column2, ...

import type { Expr, LetStatement, NamedExpr, QueryAst, SortKey, Source, Stage, TabularExpr } from "./ast";
import { compileExpr } from "./compile-expr";
import { compileSummarize, compileMakeSeries } from "./compile-summarize";
import { COMPILE_ERROR, semanticError, unknownDatasetError, type Pos } from "./errors";
import { PlanBuilder, type Plan, type SortKeySpec } from "./plan";
import { datatableBuilder, printBuilder, unionBuilder } from "./sources";
import { extendValidStage, parseKvStage } from "./parse-kv";
import {
  getschemaStage,
  joinStage,
  mvExpandStage,
  parseStage,
  projectKeepStage,
  projectRenameStage,
  projectReorderStage,
  sampleFractionStage,
  sampleStage,
  unionStage,
} from "./stages";
import type { CompiledExpr, QueryContext, Row } from "./table";
import { QueryError, type DatasetLookup } from "./types";

/**
 * Tabular expressions one query may expand to. A tabular `let` is compiled again where
 * it is named, so `let t1 = union t0, t0; let t2 = union t1, t1; ...` doubles at each
 * line: 22 lines are 4 million expansions, seconds of compiling and gigabytes before a
 * single row is read. No query written by hand comes near this.
 */
export const MAX_EXPANSIONS = 10_000;

/** What a tabular expression can name: datasets, and what `let` bound before it. */
export interface CompileEnv {
  lookup: DatasetLookup;
  ctx: QueryContext;
  scalars: Map<string, CompiledExpr>;
  tables: Map<string, TabularExpr>;
  /** Tabular expressions compiled so far, shared by every part of the query. */
  expanded: { count: number };
}

export function compileQuery(ast: QueryAst, lookup: DatasetLookup, ctx: QueryContext): Plan {
  const env: CompileEnv = { lookup, ctx, scalars: new Map(), tables: new Map(), expanded: { count: 0 } };
  for (const st of ast.lets) bindLet(st, env);
  return compileTabular(ast.body, env).build();
}

const EMPTY_ROW: Row = { values: new Map(), origin: null };

function bindLet(st: LetStatement, env: CompileEnv): void {
  if (st.kind === "tabular") {
    env.scalars.delete(st.name);
    env.tables.set(st.name, st.query);
    return;
  }
  // A scalar is computed once: it reads no row (a column name here is an error).
  const expr = compileExpr(st.expr, {
    column: () => undefined,
    virtual: () => undefined,
    binding: (n) => env.scalars.get(n),
    ctx: env.ctx,
    allowBinAuto: false,
  });
  let value: ReturnType<CompiledExpr["evaluate"]> | undefined;
  env.tables.delete(st.name);
  // now()/ago() read the query's clock, fixed per run: evaluate on first use.
  env.scalars.set(st.name, {
    type: expr.type,
    evaluate: () => {
      if (value === undefined) value = expr.evaluate(EMPTY_ROW);
      return value;
    },
  });
}

/** Builds the plan of one tabular expression; callers may add stages before `build()`. */
export function compileTabular(t: TabularExpr, env: CompileEnv): PlanBuilder {
  if (++env.expanded.count > MAX_EXPANSIONS) {
    throw new QueryError(
      400,
      `query refused: it expands to more than ${MAX_EXPANSIONS} tabular expressions (the limit of a query's expansion; a tabular let is expanded again each time it is named, so a chain of unions of the previous let doubles at each step)`,
    );
  }
  const b = sourceBuilder(t.source, env);
  for (const stage of t.stages) compileStage(stage, b, env);
  return b;
}

function sourceBuilder(source: Source, env: CompileEnv): PlanBuilder {
  switch (source.kind) {
    case "name": {
      const { name, pos } = source.ref;
      const bound = env.tables.get(name);
      if (bound) return compileTabular(bound, { ...env, tables: tablesBefore(env.tables, name) });
      const dataset = env.lookup(name);
      if (!dataset) throw unknownDatasetError(pos, name);
      return PlanBuilder.forDataset(dataset, env.ctx, env.scalars);
    }
    case "paren":
      return compileTabular(source.query, env);
    case "datatable":
      return datatableBuilder(source, env.ctx, env.scalars);
    case "print":
      return printBuilder(source.items, env.ctx, env.scalars);
    case "union":
      return unionBuilder(
        source.tables.map((t) => compileTabular(t, env).build()),
        env.ctx,
        env.scalars,
      );
    case "search": {
      if (source.tables.length === 0) {
        throw semanticError(source.pos, "search needs its datasets: `search in (['dataset']) ...` or `['dataset'] | search ...`", COMPILE_ERROR.invalidArgument);
      }
      const plans = source.tables.map((ref) => sourceBuilder({ kind: "name", ref }, env));
      const b = plans.length === 1 ? plans[0] : unionBuilder(plans.map((p) => p.build()), env.ctx, env.scalars);
      compileStage({ kind: "where", pos: source.pos, predicate: source.predicate }, b, env);
      return b;
    }
  }
}

/** A tabular `let` may use the ones bound before it, not itself. */
function tablesBefore(tables: Map<string, TabularExpr>, name: string): Map<string, TabularExpr> {
  const out = new Map<string, TabularExpr>();
  for (const [k, v] of tables) {
    if (k === name) break;
    out.set(k, v);
  }
  return out;
}

/** Hands out names for one stage's output and rejects an explicit name used twice. */
export class StageNames {
  private readonly used = new Set<string>();
  private generated = 0;

  /** An explicit or derived name; a derived one that is taken gets a number appended. */
  take(item: { pos: Pos; name?: string }, derived: string | undefined): string {
    if (item.name !== undefined) {
      if (this.used.has(item.name)) {
        throw semanticError(item.pos, `column "${item.name}" is defined more than once`, COMPILE_ERROR.duplicateColumn);
      }
      this.used.add(item.name);
      return item.name;
    }
    let name = derived;
    if (name === undefined) {
      do name = `Column${++this.generated}`;
      while (this.used.has(name));
    } else if (this.used.has(name)) {
      let n = 1;
      while (this.used.has(`${derived}${n}`)) n++;
      name = `${derived}${n}`;
    }
    this.used.add(name);
    return name;
  }
}

export const derivedName = (e: CompiledExpr): string | undefined => e.column ?? e.nameHint;

function compileStage(stage: Stage, b: PlanBuilder, env: CompileEnv): void {
  switch (stage.kind) {
    case "where":
    case "search": {
      const predicate = compileExpr(stage.predicate, b.scope());
      if (predicate.type !== "boolean" && predicate.type !== "dynamic") {
        throw semanticError(exprPos(stage.predicate), `where needs a boolean condition, got ${predicate.type}`, COMPILE_ERROR.typeMismatch);
      }
      b.where(predicate);
      return;
    }
    case "extend": {
      const names = new StageNames();
      for (const item of stage.items) {
        const expr = compileExpr(item.expr, b.scope());
        b.extend(names.take(item, derivedName(expr)), expr);
      }
      return;
    }
    case "extend-valid":
      extendValidStage(stage, b);
      return;
    case "parse-kv":
      parseKvStage(stage, b);
      return;
    case "project":
      b.project(namedItems(stage.items, b));
      return;
    case "distinct":
      b.distinct(namedItems(stage.items, b));
      return;
    case "project-away":
      for (const n of stage.names) {
        if (!b.hasColumn(n.name)) throw semanticError(n.pos, `unknown field "${n.name}"`, COMPILE_ERROR.unknownField);
      }
      b.projectAway(stage.names.map((n) => n.name));
      return;
    case "project-rename":
      projectRenameStage(stage, b);
      return;
    case "project-reorder":
      projectReorderStage(stage, b);
      return;
    case "project-keep":
      projectKeepStage(stage, b);
      return;
    case "summarize":
      compileSummarize(stage.aggregations, stage.by, b);
      return;
    case "make-series":
      compileMakeSeries(stage, b);
      return;
    case "sort":
      b.sort(stage.keys.map((k) => sortKey(k, b)));
      return;
    case "top":
      b.sort([sortKey(stage.key, b)]);
      b.take(stage.count);
      return;
    case "take":
      b.take(stage.count);
      return;
    case "count":
      b.count();
      return;
    case "mv-expand":
      mvExpandStage(stage, b);
      return;
    case "join":
      joinStage(stage, b, compileTabular(stage.right, env).build());
      return;
    case "union":
      unionStage(
        b,
        stage.tables.map((t) => compileTabular(t, env).build()),
      );
      return;
    case "sample":
      if (stage.fraction !== undefined) sampleFractionStage(stage.fraction, b);
      else sampleStage(stage.count, b);
      return;
    case "getschema":
      getschemaStage(b);
      return;
    case "parse":
      parseStage(stage, b);
      return;
  }
}

export function namedItems(items: NamedExpr[], b: PlanBuilder): { name: string; expr: CompiledExpr }[] {
  const scope = b.scope();
  const names = new StageNames();
  return items.map((item) => {
    const expr = compileExpr(item.expr, scope);
    return { name: names.take(item, derivedName(expr)), expr };
  });
}

function sortKey(k: SortKey, b: PlanBuilder): SortKeySpec {
  return { expr: compileExpr(k.expr, b.scope()), desc: k.desc, nullsFirst: k.nullsFirst };
}

export function exprPos(e: Expr): Pos {
  if (e.kind === "binary") return exprPos(e.left);
  if (e.kind === "in" || e.kind === "between") return exprPos(e.operand);
  if (e.kind === "index") return exprPos(e.target);
  return e.pos;
}

