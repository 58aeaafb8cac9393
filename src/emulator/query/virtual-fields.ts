// A dataset's virtual fields, usable by name in a query. Each one's `expression` is an
// expression of the query language over the dataset's own fields (the right-hand side
// of an `extend`), compiled the first time a query names it and evaluated per row.

import { COMPILE_ERROR, semanticError, type Pos } from "./errors";
import { compileExpr, type Scope } from "./compile-expr";
import { parseExpression } from "./parser";
import type { ColumnSpec, CompiledExpr, QueryContext } from "./table";
import { QueryError, type QueryVirtualField } from "./types";
import { valueTypeOfMeta } from "./values";

export class VirtualFields {
  private readonly byName = new Map<string, QueryVirtualField>();
  private readonly compiled = new Map<string, CompiledExpr>();
  /** Names being compiled right now, to catch a virtual field that uses itself. */
  private readonly compiling = new Set<string>();

  constructor(
    fields: readonly QueryVirtualField[],
    private readonly baseColumns: ReadonlyMap<string, ColumnSpec>,
    private readonly ctx: QueryContext,
  ) {
    for (const f of fields) this.byName.set(f.name, f);
  }

  /** The compiled virtual field, or undefined when the dataset has none of that name. */
  resolve(name: string, pos: Pos): CompiledExpr | undefined {
    const field = this.byName.get(name);
    if (!field) return undefined;
    const done = this.compiled.get(name);
    if (done) return done;
    if (this.compiling.has(name)) {
      throw semanticError(pos, `virtual field "${name}" refers to itself`, COMPILE_ERROR.invalidArgument);
    }
    this.compiling.add(name);
    try {
      const expr = compileExpr(parseExpression(field.expression), this.baseScope());
      const declared = valueTypeOfMeta(field.type);
      const compiled: CompiledExpr = {
        type: expr.type === "dynamic" ? declared : expr.type,
        evaluate: expr.evaluate,
        column: name,
        metaType: field.type === "" ? undefined : field.type,
      };
      this.compiled.set(name, compiled);
      return compiled;
    } catch (err) {
      if (!(err instanceof QueryError)) throw err;
      // Point at where the query names the field: that is the text the user can see.
      const reason = err.detail?.message ?? err.message;
      throw semanticError(pos, `virtual field "${name}" cannot be used: ${reason}`, COMPILE_ERROR.invalidArgument);
    } finally {
      this.compiling.delete(name);
    }
  }

  private baseScope(): Scope {
    return {
      column: (n) => this.baseColumns.get(n),
      virtual: (n, p) => this.resolve(n, p),
      ctx: this.ctx,
      allowBinAuto: false,
    };
  }
}
