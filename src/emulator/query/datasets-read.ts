// Which datasets a query reads, from its syntax alone: so that permission to read them
// can be checked before the query compiles against any dataset's fields or touches an
// event (a compile error or a count must tell nothing to a caller who may not read).

import type { Source, Stage, TabularExpr, QueryAst, NameRef } from "./ast";

/**
 * Every dataset name the query may read, in the order written, once each. A name bound
 * by a tabular `let` before its use is that binding, not a dataset (as the compiler
 * resolves it); whatever the binding reads is listed where the binding is written.
 */
export function datasetsReadBy(ast: QueryAst): NameRef[] {
  const out: NameRef[] = [];
  const seen = new Set<string>();
  const add = (ref: NameRef): void => {
    if (seen.has(ref.name)) return;
    seen.add(ref.name);
    out.push(ref);
  };
  const bound = new Set<string>();
  for (const st of ast.lets) {
    // A scalar `let` hides a table bound earlier under its name, as in the compiler.
    if (st.kind !== "tabular") {
      bound.delete(st.name);
      continue;
    }
    tabular(st.query, new Set(bound), add);
    bound.add(st.name);
  }
  tabular(ast.body, bound, add);
  return out;
}

function tabular(t: TabularExpr, bound: ReadonlySet<string>, add: (ref: NameRef) => void): void {
  source(t.source, bound, add);
  for (const stage of t.stages) stageTables(stage, bound, add);
}

function source(s: Source, bound: ReadonlySet<string>, add: (ref: NameRef) => void): void {
  switch (s.kind) {
    case "name":
      if (!bound.has(s.ref.name)) add(s.ref);
      return;
    case "search":
      for (const ref of s.tables) if (!bound.has(ref.name)) add(ref);
      return;
    case "union":
      for (const t of s.tables) tabular(t, bound, add);
      return;
    case "paren":
      tabular(s.query, bound, add);
      return;
    case "datatable":
    case "print":
      return;
  }
}

function stageTables(stage: Stage, bound: ReadonlySet<string>, add: (ref: NameRef) => void): void {
  if (stage.kind === "join") tabular(stage.right, bound, add);
  else if (stage.kind === "union") for (const t of stage.tables) tabular(t, bound, add);
}
