// Turns a parsed query into a plan, stage by stage, checking every name against the
// columns that exist at that point (dataset fields, virtual fields, earlier stages).
//
// Columns without an explicit name are named as the language does: a plain field keeps
// its name, bin(x, ...) is named x, count() is count_, sum(x) is sum_x, and anything
// else is Column1, Column2, ...

import {
  aggregationArgCount,
  isAggregationName,
  type AggregationName,
} from "./aggregations";
import type { Expr, NamedExpr, QueryAst, SortKey, Stage } from "./ast";
import { compileExpr } from "./compile-expr";
import { COMPILE_ERROR, semanticError, type Pos } from "./errors";
import { PlanBuilder, type Plan, type SortKeySpec } from "./plan";
import type { AggregationSpec, GroupKeySpec } from "./summarize";
import type { CompiledExpr, QueryContext } from "./table";
import type { QueryDataset } from "./types";

export function compileQuery(ast: QueryAst, dataset: QueryDataset, ctx: QueryContext): Plan {
  const builder = new PlanBuilder(dataset, ctx);
  for (const stage of ast.stages) compileStage(stage, builder);
  return builder.build();
}

/** Hands out names for one stage's output and rejects an explicit name used twice. */
class StageNames {
  private readonly used = new Set<string>();
  private generated = 0;

  /** An explicit or derived name; a derived one that is taken gets a number appended. */
  take(item: NamedExpr, derived: string | undefined): string {
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

const derivedName = (e: CompiledExpr): string | undefined => e.column ?? e.nameHint;

function compileStage(stage: Stage, b: PlanBuilder): void {
  switch (stage.kind) {
    case "where": {
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
    case "summarize":
      compileSummarize(stage.aggregations, stage.by, b);
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
  }
}

function namedItems(items: NamedExpr[], b: PlanBuilder): { name: string; expr: CompiledExpr }[] {
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

function exprPos(e: Expr): Pos {
  if (e.kind === "binary") return exprPos(e.left);
  if (e.kind === "in" || e.kind === "between") return exprPos(e.operand);
  return e.pos;
}

const NUMERIC_ARG: ReadonlySet<AggregationName> = new Set(["sum", "avg"]);

function compileSummarize(aggItems: NamedExpr[], byItems: NamedExpr[], b: PlanBuilder): void {
  const names = new StageNames();
  const keyScope = b.scope(true);
  const keys: GroupKeySpec[] = byItems.map((item) => {
    const expr = compileExpr(item.expr, keyScope);
    return { name: names.take(item, derivedName(expr)), expr };
  });
  const scope = b.scope();
  const aggs: AggregationSpec[] = aggItems.map((item) => {
    const call = item.expr;
    if (call.kind !== "call") {
      throw semanticError(exprPos(call), "summarize expects an aggregation function such as count() or sum(x)", COMPILE_ERROR.invalidArgument);
    }
    if (!isAggregationName(call.name)) {
      throw semanticError(call.pos, `unknown aggregation function "${call.name}"`, COMPILE_ERROR.unknownFunction);
    }
    const fn = call.name;
    const want = aggregationArgCount(fn);
    // dcount(x, accuracy) takes an optional accuracy that an exact count can ignore.
    const max = fn === "dcount" ? 2 : want;
    if (call.args.length < want || call.args.length > max) {
      throw semanticError(call.pos, `function "${fn}" expects ${want} argument(s), got ${call.args.length}`, COMPILE_ERROR.invalidArgument);
    }
    const arg = want === 0 ? null : compileExpr(call.args[0], scope);
    if (arg && NUMERIC_ARG.has(fn) && arg.type !== "integer" && arg.type !== "float" && arg.type !== "dynamic") {
      throw semanticError(exprPos(call.args[0]), `function "${fn}" needs a number, got ${arg.type}`, COMPILE_ERROR.typeMismatch);
    }
    const column = arg ? derivedName(arg) : undefined;
    const derived = `${fn}_${column === undefined ? "" : column.replace(/[^A-Za-z0-9_]/g, "_")}`;
    return { name: names.take(item, derived), fn, arg, fields: column === undefined ? [] : [column] };
  });
  b.summarize(keys, aggs);
}
