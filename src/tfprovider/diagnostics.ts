// Diagnostics and attribute paths as the provider implementation writes them, and their
// protocol form. Terraform prints a diagnostic's summary and detail and, when the path
// resolves in the configuration, underlines the offending attribute in the user's file.

/**
 * One step into a value: a string is an attribute name, a number is a list/set/tuple
 * index, `{key}` is a map key (a string step cannot be both, hence the wrapper).
 */
export type PathStep = string | number | { readonly key: string };
export type AttributePath = readonly PathStep[];

export interface Diagnostic {
  readonly severity: "error" | "warning";
  readonly summary: string;
  readonly detail?: string;
  readonly attribute?: AttributePath;
}

export function errorDiagnostic(summary: string, detail?: string, attribute?: AttributePath): Diagnostic {
  return { severity: "error", summary, ...(detail !== undefined ? { detail } : {}), ...(attribute ? { attribute } : {}) };
}

export function warningDiagnostic(summary: string, detail?: string, attribute?: AttributePath): Diagnostic {
  return { ...errorDiagnostic(summary, detail, attribute), severity: "warning" };
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === "error");
}

/** `a.b[0]["k"]`: how a path reads in our own messages. */
export function formatPath(path: AttributePath): string {
  let out = "";
  for (const step of path) {
    if (typeof step === "string") out += out === "" ? step : `.${step}`;
    else if (typeof step === "number") out += `[${step}]`;
    else out += `[${JSON.stringify(step.key)}]`;
  }
  return out;
}

// ---- protocol form (field names as in proto/tfplugin6.proto) ----

export interface ProtoPathStep {
  attribute_name?: string;
  element_key_string?: string;
  element_key_int?: number;
}
export interface ProtoAttributePath {
  steps: ProtoPathStep[];
}
export interface ProtoDiagnostic {
  severity: "ERROR" | "WARNING";
  summary: string;
  detail: string;
  attribute?: ProtoAttributePath;
}

export function pathToProto(path: AttributePath): ProtoAttributePath {
  return {
    steps: path.map((step): ProtoPathStep => {
      if (typeof step === "string") return { attribute_name: step };
      if (typeof step === "number") return { element_key_int: step };
      return { element_key_string: step.key };
    }),
  };
}

export function diagnosticToProto(d: Diagnostic): ProtoDiagnostic {
  const out: ProtoDiagnostic = { severity: d.severity === "warning" ? "WARNING" : "ERROR", summary: d.summary, detail: d.detail ?? "" };
  if (d.attribute && d.attribute.length > 0) out.attribute = pathToProto(d.attribute);
  return out;
}
