// A query plan: the stages to run and the result schema they produce. Both front ends
// (the query language and the legacy structured query) build plans through PlanBuilder,
// so they share one executor and one pair of layouts.
//
// Stages that look at one row at a time (where, extend, project) are `rowWise`; the
// executor runs the leading ones during the scan, so that the time limit stops the
// expensive part. The others (summarize, sort, take, ...) transform the whole table.

import { aggregationResultType } from "./aggregations";
import type { Scope } from "./compile-expr";
import type { RunEnv } from "./execute";
import { Summarizer, summarizeOrder, type AggregationSpec, type ComputedSpec, type GroupKeySpec } from "./summarize";
import { setColumn, type ColumnSpec, type CompiledExpr, type OrderSpec, type QueryContext, type Row } from "./table";
import type { QueryDataset } from "./types";
import { compareForSort, valueKey, valueTypeOfMeta, type Value } from "./values";
import { VirtualFields } from "./virtual-fields";

/** What the last summarize produced, as long as later stages kept its shape. */
export interface SummaryShape {
  keys: string[];
  /** The key that buckets `_time`, if any: then the result is a time series. */
  timeKey: string | null;
  bucket: number | "auto" | null;
  aggregations: string[];
  /** The legacy layout's `op` per aggregation (the legacy alias, or the column name). */
  labels: string[];
  /** Columns of the per-group totals over the whole range (time-series only). */
  totalsColumns: ColumnSpec[] | null;
}

export interface TableData {
  rows: Row[];
  totals: Row[] | null;
  numGroups: number;
}

/** A stage that can take its input a row at a time, while the source is read. */
export interface Sink {
  push(row: Row): void;
  finish(): TableData;
}

export interface Stage {
  rowWise?: (row: Row) => Row | null;
  table?: (data: TableData, env: RunEnv) => TableData;
  sink?: (env: RunEnv) => Sink;
  /** What the vectorized path (vectorized.ts) needs to run this stage over columns. */
  vector?: StageVector;
}

export type StageVector =
  | { kind: "where"; predicate: CompiledExpr }
  /** `| count`: the table of `n` rows counted. */
  | { kind: "count"; result: (n: number) => TableData }
  | { kind: "summarize"; keys: GroupKeySpec[]; aggs: AggregationSpec[]; make: () => Summarizer; finish: (s: Summarizer) => TableData }
  | {
      kind: "make-series";
      axis: CompiledExpr;
      step: number;
      fromMs: number | null;
      toMs: number | null;
      keys: GroupKeySpec[];
      aggs: AggregationSpec[];
      /** Lays out the series over [lo, hi) once `fill` has fed a summarizer (keys, then the step index). */
      seriesOf: (lo: number, hi: number, env: RunEnv, fill: (summarizer: Summarizer, start: number, bins: number) => void) => TableData;
      empty: TableData;
    };

/** Where a plan's rows come from: a dataset scanned over the request's range, or rows made at run time. */
export type PlanSource = { kind: "dataset"; dataset: QueryDataset } | { kind: "rows"; produce: (env: RunEnv) => Iterable<Row> };

export interface Plan {
  source: PlanSource;
  /** Every dataset the result draws on (for `datasetNames`, `sources`, field metadata). */
  datasets: QueryDataset[];
  /** The dataset's columns as rows are read from storage. */
  baseColumns: ColumnSpec[];
  stages: Stage[];
  columns: ColumnSpec[];
  order: OrderSpec[];
  groups: string[];
  summary: SummaryShape | null;
}

export interface SortKeySpec {
  expr: CompiledExpr;
  desc: boolean;
  nullsFirst: boolean;
}

export const TIME_FIELD = "_time";
export const SYS_TIME_FIELD = "_sysTime";

/**
 * `_time` and `_sysTime` first, then the dataset's fields by name. Types and the
 * metadata type string come from the field metadata.
 */
function datasetColumns(dataset: QueryDataset): ColumnSpec[] {
  const fields = dataset.fields
    .filter((f) => f.name !== TIME_FIELD && f.name !== SYS_TIME_FIELD)
    .slice()
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return [
    { name: TIME_FIELD, type: "datetime", metaType: "datetime" },
    { name: SYS_TIME_FIELD, type: "datetime", metaType: "datetime" },
    ...fields.map((f): ColumnSpec => ({ name: f.name, type: valueTypeOfMeta(f.type), metaType: f.type })),
  ];
}

/** The schema of a column that an expression computes (metadata passes through plain references). */
function columnFor(name: string, expr: CompiledExpr): ColumnSpec {
  const spec: ColumnSpec = { name, type: expr.type };
  if (expr.column !== undefined && expr.metaType !== undefined) spec.metaType = expr.metaType;
  return spec;
}

/** Values bound by `let` that expressions may name. */
export type ScalarBindings = ReadonlyMap<string, CompiledExpr>;

const NO_BINDINGS: ScalarBindings = new Map();

export class PlanBuilder {
  readonly baseColumns: ColumnSpec[];
  private columns: ColumnSpec[];
  private order: OrderSpec[];
  private groups: string[] = [];
  private summary: SummaryShape | null = null;
  private readonly stages: Stage[] = [];
  private readonly virtuals: VirtualFields | null;
  /** Virtual fields stay usable until a stage replaces the dataset's columns. */
  private virtualsUsable = true;
  private datasets: QueryDataset[];

  private constructor(
    private readonly source: PlanSource,
    columns: ColumnSpec[],
    readonly ctx: QueryContext,
    datasets: QueryDataset[],
    private readonly bindings: ScalarBindings,
  ) {
    this.baseColumns = columns;
    this.columns = columns.slice();
    this.datasets = datasets;
    const dataset = source.kind === "dataset" ? source.dataset : null;
    this.order = dataset ? [{ field: TIME_FIELD, desc: true }] : [];
    this.virtuals = dataset ? new VirtualFields(dataset.virtualFields, new Map(columns.map((c) => [c.name, c])), ctx) : null;
  }

  static forDataset(dataset: QueryDataset, ctx: QueryContext, bindings: ScalarBindings = NO_BINDINGS): PlanBuilder {
    return new PlanBuilder({ kind: "dataset", dataset }, datasetColumns(dataset), ctx, [dataset], bindings);
  }

  /** Rows made at run time (datatable, print, union, a sub-query), with their schema. */
  static forRows(
    produce: (env: RunEnv) => Iterable<Row>,
    columns: ColumnSpec[],
    ctx: QueryContext,
    datasets: QueryDataset[],
    bindings: ScalarBindings = NO_BINDINGS,
    order: OrderSpec[] = [],
  ): PlanBuilder {
    const b = new PlanBuilder({ kind: "rows", produce }, columns, ctx, datasets, bindings);
    b.order = order;
    return b;
  }

  scope(allowBinAuto = false): Scope {
    const columns = new Map(this.columns.map((c) => [c.name, c]));
    return {
      column: (name) => columns.get(name),
      virtual: (name, pos) => (this.virtualsUsable && this.virtuals ? this.virtuals.resolve(name, pos) : undefined),
      binding: (name) => this.bindings.get(name),
      ctx: this.ctx,
      allowBinAuto,
    };
  }

  currentColumns(): readonly ColumnSpec[] {
    return this.columns;
  }

  currentOrder(): readonly OrderSpec[] {
    return this.order;
  }

  addDatasets(more: readonly QueryDataset[]): void {
    for (const d of more) if (!this.datasets.includes(d)) this.datasets.push(d);
  }

  hasColumn(name: string): boolean {
    return this.columns.some((c) => c.name === name);
  }

  where(predicate: CompiledExpr): void {
    this.stages.push({ rowWise: (row) => (predicate.evaluate(row) === true ? row : null), vector: { kind: "where", predicate } });
  }

  extend(name: string, expr: CompiledExpr): void {
    setColumn(this.columns, columnFor(name, expr));
    this.summary = null;
    this.stages.push({
      rowWise: (row) => {
        const values = new Map(row.values);
        values.set(name, expr.evaluate(row));
        return { values, origin: row.origin };
      },
    });
  }

  project(items: { name: string; expr: CompiledExpr }[]): void {
    this.replaceColumns(items.map((i) => columnFor(i.name, i.expr)));
    this.stages.push({
      rowWise: (row) => ({ values: new Map(items.map((i) => [i.name, i.expr.evaluate(row)])), origin: row.origin }),
    });
  }

  projectAway(names: string[]): void {
    const drop = new Set(names);
    const virtualsUsable = this.virtualsUsable;
    this.replaceColumns(this.columns.filter((c) => !drop.has(c.name)));
    this.virtualsUsable = virtualsUsable;
    this.stages.push({
      rowWise: (row) => {
        const values = new Map(row.values);
        for (const n of drop) values.delete(n);
        return { values, origin: row.origin };
      },
    });
  }

  /**
   * `aggs` are computed per group; `outputs` (when given) says which columns the result
   * shows, in order: an aggregation's own name, or a computed column over hidden ones.
   */
  summarize(keys: GroupKeySpec[], aggs: AggregationSpec[], computed: ComputedSpec[] = [], outputs?: string[]): void {
    const time = keys.find((k) => k.expr.bucket !== undefined);
    const timeKey = time ? time.name : null;
    const keyColumns = keys.map((k) => columnFor(k.name, k.expr));
    const byName = new Map<string, ColumnSpec>();
    for (const a of aggs) {
      const type = aggregationResultType(a.fn, a.args[0] ? a.args[0].type : "dynamic");
      if (a.spread) a.spread.forEach((col, i) => byName.set(col, { name: col, type: i === 0 ? type : (a.args[i]?.type ?? "dynamic") }));
      else byName.set(a.name, { name: a.name, type, agg: { name: a.fn, fields: a.fields } });
    }
    for (const c of computed) byName.set(c.name, { name: c.name, type: c.expr.type });
    const shown = outputs ?? aggs.flatMap((a) => a.spread ?? [a.name]);
    const aggColumns = shown.map((n) => byName.get(n) ?? { name: n, type: "dynamic" as const });
    const otherKeys = keys.map((k) => k.name).filter((k) => k !== timeKey);
    this.columns = [...keyColumns, ...aggColumns];
    this.order = summarizeOrder(timeKey, otherKeys, shown);
    this.groups = keys.map((k) => k.name);
    const labels = new Map(aggs.map((a) => [a.name, a.label ?? a.name]));
    this.summary = {
      keys: keys.map((k) => k.name),
      timeKey,
      bucket: time?.expr.bucket ?? null,
      aggregations: shown,
      labels: shown.map((n) => labels.get(n) ?? n),
      totalsColumns: timeKey === null ? null : [...keyColumns.filter((c) => c.name !== timeKey), ...aggColumns],
    };
    this.virtualsUsable = false;
    const make = (): Summarizer => new Summarizer(keys, aggs, timeKey, computed, shown);
    const finish = (s: Summarizer): TableData => {
      const out = s.finish();
      return { rows: out.rows, totals: out.totals, numGroups: (out.totals ?? out.rows).length };
    };
    this.stages.push({
      vector: { kind: "summarize", keys, aggs, make, finish },
      sink: () => {
        const s = make();
        return { push: (row) => s.add(row), finish: () => finish(s) };
      },
      table: (data) => {
        const s = make();
        for (const row of data.rows) s.add(row);
        return finish(s);
      },
    });
  }

  sort(keys: SortKeySpec[]): void {
    const order: OrderSpec[] = [];
    for (const k of keys) {
      if (k.expr.column === undefined) break;
      order.push({ field: k.expr.column, desc: k.desc });
    }
    this.order = order;
    this.stages.push({
      table: (data) => {
        const decorated = data.rows.map((row, index) => ({ row, index, keys: keys.map((k) => k.expr.evaluate(row)) }));
        decorated.sort((a, b) => {
          for (let i = 0; i < keys.length; i++) {
            const c = compareForSort(a.keys[i], b.keys[i], keys[i].desc, keys[i].nullsFirst);
            if (c !== 0) return c;
          }
          return a.index - b.index;
        });
        return { ...data, rows: decorated.map((d) => d.row) };
      },
    });
  }

  take(count: number): void {
    this.stages.push({ table: (data) => ({ ...data, rows: data.rows.slice(0, count) }) });
  }

  /** `| count`: one row, one column named `count` (as the service names it). */
  count(): void {
    const name = "count";
    this.replaceColumns([{ name, type: "integer" }]);
    this.order = [];
    const result = (n: number): TableData => ({ rows: [{ values: new Map<string, Value>([[name, n]]), origin: null }], totals: null, numGroups: 0 });
    this.stages.push({
      vector: { kind: "count", result },
      sink: () => {
        let n = 0;
        return { push: () => void n++, finish: () => result(n) };
      },
      table: (data) => result(data.rows.length),
    });
  }

  /** A stage that works on the whole table and sets a new schema (join, mv-expand, ...). */
  tableStage(columns: ColumnSpec[], table: (data: TableData, env: RunEnv) => TableData, keepOrder = false, vector?: StageVector): void {
    const order = this.order;
    this.replaceColumns(columns);
    if (keepOrder) this.order = order.filter((o) => columns.some((c) => c.name === o.field));
    else this.order = [];
    this.stages.push(vector ? { table, vector } : { table });
  }

  /** A row-wise stage that sets a new schema (project-rename, project-keep, parse, ...). */
  rowStage(columns: ColumnSpec[], rowWise: (row: Row) => Row | null, keepVirtuals = false): void {
    const virtualsUsable = this.virtualsUsable;
    const order = this.order;
    this.replaceColumns(columns);
    this.order = order.filter((o) => columns.some((c) => c.name === o.field));
    if (keepVirtuals) this.virtualsUsable = virtualsUsable;
    this.stages.push({ rowWise });
  }

  distinct(items: { name: string; expr: CompiledExpr }[]): void {
    this.replaceColumns(items.map((i) => columnFor(i.name, i.expr)));
    this.order = [];
    this.stages.push({
      table: (data) => {
        const seen = new Map<string, Row>();
        for (const row of data.rows) {
          const values = items.map((i): [string, Value] => [i.name, i.expr.evaluate(row)]);
          const key = values.map(([, v]) => valueKey(v)).join("\u0000");
          if (!seen.has(key)) seen.set(key, { values: new Map(values), origin: null });
        }
        return { rows: [...seen.values()], totals: null, numGroups: seen.size };
      },
    });
  }

  build(): Plan {
    return {
      source: this.source,
      datasets: this.datasets,
      baseColumns: this.baseColumns,
      stages: this.stages,
      columns: this.columns,
      order: this.order,
      groups: this.groups,
      summary: this.summary,
    };
  }

  /** A stage that replaces the column set keeps only the metadata that still applies. */
  private replaceColumns(columns: ColumnSpec[]): void {
    const names = new Set(columns.map((c) => c.name));
    this.columns = columns;
    this.order = this.order.filter((o) => names.has(o.field));
    this.groups = this.groups.filter((g) => names.has(g));
    this.summary = null;
    this.virtualsUsable = false;
  }
}
