// How the engine reports a bad query. Every compile problem names a 1-based line and
// column of the offending token, so a client can underline it in the query text.
//
// errorType is "syntax_error" (the text does not parse) or "semantic_error" (it parses,
// but names an unknown field, function or dataset, or uses one wrongly).
// compileErrorCode is one of the COMPILE_ERROR values below.

import { QueryError } from "./types";

/** A 1-based position in the query text. */
export interface Pos {
  line: number;
  column: number;
}

export const COMPILE_ERROR = {
  syntax: "apl_syntaxerror",
  unknownOperator: "apl_unknownoperator",
  unknownField: "apl_unknownfield",
  unknownFunction: "apl_unknownfunction",
  unknownDataset: "apl_unknowndataset",
  invalidArgument: "apl_invalidargument",
  typeMismatch: "apl_typemismatch",
  duplicateColumn: "apl_duplicatecolumn",
} as const;

export type CompileErrorCode = (typeof COMPILE_ERROR)[keyof typeof COMPILE_ERROR];

function located(status: number, errorType: string, code: CompileErrorCode, pos: Pos, message: string): QueryError {
  return new QueryError(status, `${message} (line ${pos.line}, column ${pos.column})`, {
    line: pos.line,
    column: pos.column,
    message,
    errorType,
    compileErrorCode: code,
  });
}

export function syntaxError(pos: Pos, message: string, code: CompileErrorCode = COMPILE_ERROR.syntax): QueryError {
  return located(400, "syntax_error", code, pos, message);
}

export function semanticError(pos: Pos, message: string, code: CompileErrorCode): QueryError {
  return located(400, "semantic_error", code, pos, message);
}

/** An unknown dataset answers 404 (like any unknown id), still with the position of its name. */
export function unknownDatasetError(pos: Pos, name: string): QueryError {
  return located(404, "semantic_error", COMPILE_ERROR.unknownDataset, pos, `dataset "${name}" not found`);
}

/** A bad request field outside the query text (startTime, the legacy body): plain 400. */
export function badRequest(message: string): QueryError {
  return new QueryError(400, message);
}
