// Tabular operators beyond the basic ones: join (a hash join), union, mv-expand, parse,
// project-rename/-reorder/-keep, sample and getschema. Each sets the schema its output
// has, and every loop that makes rows draws on the run's shared bounds (RunEnv), so a
// join or an expansion cannot outgrow the limits that bound a scan.

import type { NamePattern, Stage } from "./ast";
import { compileExpr } from "./compile-expr";
import { derivedName, exprPos } from "./compile-query";
import { COMPILE_ERROR, semanticError } from "./errors";
import { runPlan } from "./execute";
import type { Plan, PlanBuilder } from "./plan";
import { datasetsOf, mergedColumns, typeOfName } from "./sources";
import { compileLinearRegex, escapeRegex, RegexRefusal, type LinearRegex } from "./regex";
import { setColumn, type ColumnSpec, type Row } from "./table";
import { parseIsoTime } from "./time";
import { DateTimeValue, isBag, toText, valueKey, type Value, type ValueType } from "./values";

type StageOf<K extends Stage["kind"]> = Extract<Stage, { kind: K }>;

function copyRow(row: Row, columns: readonly ColumnSpec[], rename?: ReadonlyMap<string, string>): Map<string, Value> {
  const values = new Map<string, Value>();
  for (const c of columns) values.set(rename?.get(c.name) ?? c.name, row.values.get(c.name) ?? null);
  return values;
}

/** `name`, then `name1`, `name2`, ... : the first that `taken` does not hold. */
function freeName(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name)) return name;
  let n = 1;
  while (taken.has(`${name}${n}`)) n++;
  return `${name}${n}`;
}

/**
 * join: the right side runs first and is indexed by its key (a hash join); the left
 * rows then stream past the index. Null keys match nothing. Output columns are the
 * left's, then the right's with a clashing name suffixed (`id` becomes `id1`); semi and
 * anti joins keep one side's columns only.
 */
export function joinStage(stage: StageOf<"join">, b: PlanBuilder, right: Plan): void {
  const leftColumns = b.currentColumns().slice();
  const rightColumns = right.columns;
  for (const k of stage.on) {
    if (!leftColumns.some((c) => c.name === k.left)) throw semanticError(k.pos, `unknown field "${k.left}" on the left side of the join`, COMPILE_ERROR.unknownField);
    if (!rightColumns.some((c) => c.name === k.right)) throw semanticError(k.pos, `unknown field "${k.right}" on the right side of the join`, COMPILE_ERROR.unknownField);
  }
  const kind = stage.joinKind;
  const taken = new Set(leftColumns.map((c) => c.name));
  const rename = new Map<string, string>();
  for (const c of rightColumns) {
    const n = freeName(c.name, taken);
    taken.add(n);
    rename.set(c.name, n);
  }
  const leftOnly = kind === "leftsemi" || kind === "leftanti";
  const rightOnly = kind === "rightsemi" || kind === "rightanti";
  const columns: ColumnSpec[] = leftOnly
    ? leftColumns
    : rightOnly
      ? rightColumns.slice()
      : [...leftColumns, ...rightColumns.map((c): ColumnSpec => ({ ...c, name: rename.get(c.name) ?? c.name }))];
  const keyOf = (row: Row, side: "left" | "right"): string | null => {
    let key = "";
    for (const k of stage.on) {
      const v = row.values.get(side === "left" ? k.left : k.right) ?? null;
      if (v === null) return null;
      key += `${valueKey(v)}\u0000`;
    }
    return key;
  };
  b.addDatasets(right.datasets);
  b.tableStage(columns, (data, env) => {
    const rightRows = runPlan(right, env).rows;
    const index = new Map<string, number[]>();
    rightRows.forEach((row, i) => {
      const key = keyOf(row, "right");
      if (key === null) return;
      const list = index.get(key);
      if (list) list.push(i);
      else index.set(key, [i]);
    });
    const matchedRight = new Uint8Array(rightRows.length);
    const out: Row[] = [];
    const both = (l: Row | null, r: Row | null): Row => {
      const values = l ? copyRow(l, leftColumns) : new Map<string, Value>(leftColumns.map((c) => [c.name, null]));
      for (const c of rightColumns) values.set(rename.get(c.name) ?? c.name, r ? (r.values.get(c.name) ?? null) : null);
      return { values, origin: l?.origin ?? r?.origin ?? null };
    };
    // Each row the join makes counts against the run's row budget and its memory.
    const push = (row: Row): void => {
      if (env.produce(row)) out.push(row);
    };
    for (const l of data.rows) {
      if (!env.mayProduce()) break;
      const key = keyOf(l, "left");
      const matches = key === null ? undefined : index.get(key);
      if (matches) for (const i of matches) matchedRight[i] = 1;
      switch (kind) {
        case "leftsemi":
          if (matches) push({ values: copyRow(l, leftColumns), origin: l.origin });
          break;
        case "leftanti":
          if (!matches) push({ values: copyRow(l, leftColumns), origin: l.origin });
          break;
        case "rightsemi":
        case "rightanti":
          break;
        case "innerunique":
          if (matches) push(both(l, rightRows[matches[0]]));
          break;
        default:
          if (matches) {
            for (const i of matches) {
              if (!env.mayProduce()) break;
              push(both(l, rightRows[i]));
            }
          } else if (kind === "leftouter" || kind === "fullouter") {
            push(both(l, null));
          }
      }
    }
    if (kind === "rightouter" || kind === "fullouter" || kind === "rightsemi" || kind === "rightanti") {
      const wantMatched = kind === "rightsemi";
      rightRows.forEach((r, i) => {
        if (kind === "rightouter" || kind === "fullouter") {
          if (!matchedRight[i] && env.mayProduce()) push(both(null, r));
        } else if (Boolean(matchedRight[i]) === wantMatched && env.mayProduce()) {
          push({ values: copyRow(r, rightColumns), origin: r.origin });
        }
      });
    }
    return { rows: out, totals: null, numGroups: 0 };
  });
}

/** `| union B, C`: the input's rows, then each table's. */
export function unionStage(b: PlanBuilder, plans: Plan[]): void {
  const columns = mergedColumns([b.currentColumns(), ...plans.map((p) => p.columns)]);
  b.addDatasets(datasetsOf(plans));
  b.tableStage(columns, (data, env) => {
    const rows = data.rows.slice();
    for (const p of plans) {
      for (const r of runPlan(p, env).rows) {
        // Already kept (and charged) by the table's own run.
        if (!env.countMade()) break;
        rows.push(r);
      }
    }
    return { rows, totals: null, numGroups: 0 };
  });
}

/**
 * mv-expand: one row per item of an array (or per property of a bag, as a one-property
 * bag); several columns expand side by side, the shorter padded with null. An empty
 * array or a null makes no row; any other value stays as it is, in one row.
 */
export function mvExpandStage(stage: StageOf<"mv-expand">, b: PlanBuilder): void {
  const scope = b.scope();
  const items = stage.items.map((item) => {
    const expr = compileExpr(item.expr, scope);
    const name = item.name ?? derivedName(expr);
    if (name === undefined) throw semanticError(exprPos(item.expr), "mv-expand needs a column, or `name = expression`", COMPILE_ERROR.invalidArgument);
    return { name, expr };
  });
  const columns = b.currentColumns().map((c): ColumnSpec => (items.some((i) => i.name === c.name) ? { name: c.name, type: "dynamic" } : c));
  for (const i of items) if (!columns.some((c) => c.name === i.name)) columns.push({ name: i.name, type: "dynamic" });
  const limit = stage.limit ?? Number.MAX_SAFE_INTEGER;
  const itemsOf = (v: Value): Value[] => {
    if (v === null) return [];
    if (Array.isArray(v)) return v as Value[];
    if (isBag(v)) return Object.entries(v).map(([k, x]) => ({ [k]: x }));
    return [v];
  };
  b.tableStage(columns, (data, env) => {
    const out: Row[] = [];
    for (const row of data.rows) {
      const lists = items.map((i) => itemsOf(i.expr.evaluate(row)));
      const n = Math.min(limit, Math.max(0, ...lists.map((l) => l.length)));
      for (let k = 0; k < n; k++) {
        const values = new Map(row.values);
        items.forEach((item, j) => values.set(item.name, lists[j][k] ?? null));
        const made = { values, origin: row.origin };
        if (!env.produce(made)) return { rows: out, totals: null, numGroups: 0 };
        out.push(made);
      }
    }
    return { rows: out, totals: null, numGroups: 0 };
  });
}


function captureFor(type: ValueType, last: boolean): string {
  if (type === "integer") return "(-?\\d+)";
  if (type === "float") return "(-?\\d+(?:\\.\\d+)?(?:[eE][-+]?\\d+)?)";
  return last ? "(.*)" : "(.*?)";
}

export function typedValue(text: string | undefined, type: ValueType): Value {
  if (text === undefined) return null;
  switch (type) {
    case "integer":
    case "float": {
      const n = Number(text);
      return text.trim() === "" || !Number.isFinite(n) ? null : n;
    }
    case "datetime": {
      const ms = parseIsoTime(text);
      return ms === undefined ? null : new DateTimeValue(ms);
    }
    case "boolean":
      return text.toLowerCase() === "true" ? true : text.toLowerCase() === "false" ? false : null;
    default:
      return text;
  }
}

/**
 * parse: the pattern's strings must appear in order (from the start of the value, to its
 * end unless the pattern ends with `*`); the columns between them take what lies there,
 * as their type (a number column takes digits only). No match: the columns are null.
 * With kind=regex the strings are regular expressions and the match may start anywhere.
 */
export function parseStage(stage: StageOf<"parse">, b: PlanBuilder): void {
  const source = compileExpr(stage.source, b.scope());
  const captures: { name: string; type: ValueType }[] = [];
  let pattern = "";
  stage.parts.forEach((p, i) => {
    if (p.kind === "text") pattern += stage.regex ? p.text : escapeRegex(p.text);
    else if (p.kind === "any") pattern += ".*?";
    else {
      const type = p.type === null ? "string" : typeOfName(p.type);
      if (type === undefined) throw semanticError(p.pos, `unknown type "${p.type}" for column "${p.name}"`, COMPILE_ERROR.invalidArgument);
      captures.push({ name: p.name, type });
      pattern += captureFor(type, i === stage.parts.length - 1);
    }
  });
  let re: LinearRegex;
  try {
    re = compileLinearRegex(stage.regex ? pattern : `^${pattern}$`, { dotAll: true });
  } catch (err) {
    if (err instanceof RegexRefusal) throw semanticError(stage.pos, `invalid parse pattern: ${err.message}`, COMPILE_ERROR.invalidArgument);
    throw err;
  }
  const columns = b.currentColumns().slice();
  for (const c of captures) setColumn(columns, { name: c.name, type: c.type });
  b.rowStage(
    columns,
    (row) => {
      const v = source.evaluate(row);
      const m = v === null ? null : re.exec(toText(v));
      const values = new Map(row.values);
      captures.forEach((c, i) => values.set(c.name, m ? typedValue(m[i + 1], c.type) : null));
      return { values, origin: row.origin };
    },
    true,
  );
}

export function projectRenameStage(stage: StageOf<"project-rename">, b: PlanBuilder): void {
  const columns = b.currentColumns();
  const rename = new Map<string, string>();
  for (const item of stage.items) {
    if (!columns.some((c) => c.name === item.from.name)) throw semanticError(item.from.pos, `unknown field "${item.from.name}"`, COMPILE_ERROR.unknownField);
    rename.set(item.from.name, item.name);
  }
  const renamed = columns.map((c): ColumnSpec => ({ ...c, name: rename.get(c.name) ?? c.name }));
  const seen = new Set<string>();
  for (const c of renamed) {
    if (seen.has(c.name)) {
      const item = stage.items.find((i) => i.name === c.name) ?? stage.items[0];
      throw semanticError(item.pos, `column "${c.name}" is defined more than once`, COMPILE_ERROR.duplicateColumn);
    }
    seen.add(c.name);
  }
  const before = columns.slice();
  b.rowStage(renamed, (row) => ({ values: copyRow(row, before, rename), origin: row.origin }));
}

function patternRegex(p: NamePattern): LinearRegex {
  return compileLinearRegex(`^${p.pattern.split("*").map(escapeRegex).join(".*")}$`, { dotAll: true });
}

/** The columns one pattern names; a plain name that is not a column is an error. */
function matching(p: NamePattern, columns: readonly ColumnSpec[]): ColumnSpec[] {
  const re = patternRegex(p);
  const found = columns.filter((c) => re.test(c.name));
  if (found.length === 0 && !p.pattern.includes("*")) throw semanticError(p.pos, `unknown field "${p.pattern}"`, COMPILE_ERROR.unknownField);
  return found;
}

export function projectReorderStage(stage: StageOf<"project-reorder">, b: PlanBuilder): void {
  const columns = b.currentColumns();
  const placed: ColumnSpec[] = [];
  for (const p of stage.patterns) {
    let found = matching(p, columns).filter((c) => !placed.includes(c));
    if (p.order) found = found.slice().sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0) * (p.order === "desc" ? -1 : 1));
    placed.push(...found);
  }
  const reordered = [...placed, ...columns.filter((c) => !placed.includes(c))];
  b.rowStage(reordered, (row) => row, true);
}

export function projectKeepStage(stage: StageOf<"project-keep">, b: PlanBuilder): void {
  const columns = b.currentColumns();
  const keep = new Set<ColumnSpec>();
  for (const p of stage.patterns) for (const c of matching(p, columns)) keep.add(c);
  const kept = columns.filter((c) => keep.has(c));
  b.rowStage(kept, (row) => ({ values: copyRow(row, kept), origin: row.origin }));
}

/** sample N: N rows picked uniformly at random (reservoir sampling), in their input order. */
export function sampleStage(count: number, b: PlanBuilder): void {
  b.tableStage(b.currentColumns().slice(), (data) => {
    const picked: number[] = [];
    data.rows.forEach((_, i) => {
      if (picked.length < count) picked.push(i);
      else {
        const j = Math.floor(Math.random() * (i + 1));
        if (j < count) picked[j] = i;
      }
    });
    picked.sort((x, y) => x - y);
    return { rows: picked.map((i) => data.rows[i]), totals: null, numGroups: 0 };
  });
}

/** sample 0.1: each row kept with that probability, independently, in input order. */
export function sampleFractionStage(fraction: number, b: PlanBuilder): void {
  b.tableStage(b.currentColumns().slice(), (data) => ({ rows: data.rows.filter(() => Math.random() < fraction), totals: null, numGroups: 0 }));
}

/** The language's names for the engine's types, as getschema and gettype() spell them. */
export const LANGUAGE_TYPE: Readonly<Record<ValueType, string>> = {
  integer: "long",
  float: "real",
  string: "string",
  boolean: "bool",
  datetime: "datetime",
  timespan: "timespan",
  dynamic: "dynamic",
};

const CLR_TYPE: Readonly<Record<ValueType, string>> = {
  integer: "System.Int64",
  float: "System.Double",
  string: "System.String",
  boolean: "System.SByte",
  datetime: "System.DateTime",
  timespan: "System.TimeSpan",
  dynamic: "System.Object",
};

/** getschema: one row per column of the input: ColumnName, ColumnOrdinal, DataType, ColumnType. */
export function getschemaStage(b: PlanBuilder): void {
  const schema = b.currentColumns().slice();
  const columns: ColumnSpec[] = [
    { name: "ColumnName", type: "string" },
    { name: "ColumnOrdinal", type: "integer" },
    { name: "DataType", type: "string" },
    { name: "ColumnType", type: "string" },
  ];
  b.tableStage(columns, () => ({
    rows: schema.map((c, i) => ({
      values: new Map<string, Value>([
        ["ColumnName", c.name],
        ["ColumnOrdinal", i],
        ["DataType", CLR_TYPE[c.type]],
        ["ColumnType", LANGUAGE_TYPE[c.type]],
      ]),
      origin: null,
    })),
    totals: null,
    numGroups: 0,
  }));
}

