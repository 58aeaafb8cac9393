// The tabular operators of a query, read without the service: the text is split on the
// pipes that separate stages (not those inside strings, brackets or comments), and each
// stage's leading word is its operator. Enough to tell which operators a monitor's query
// uses; the service compiles the query itself at plan time.

/** One stage after the source: its operator word (`project-away`) and where it starts. */
export interface AplStage {
  operator: string;
  /** 1-based line and column of the operator word in the query text. */
  line: number;
  column: number;
}

const OPERATOR_WORD = /^[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*/;

/** Offsets of the pipes that separate stages (outside strings, brackets and `//` comments). */
function stagePipes(apl: string): number[] {
  const pipes: number[] = [];
  let depth = 0;
  for (let i = 0; i < apl.length; i++) {
    const ch = apl[i];
    if (ch === "/" && apl[i + 1] === "/") {
      while (i < apl.length && apl[i] !== "\n") i++;
    } else if (ch === "'" || ch === '"' || ch === "`") {
      i++;
      while (i < apl.length && apl[i] !== ch) i += apl[i] === "\\" ? 2 : 1;
    } else if (ch === "(" || ch === "[" || ch === "{") depth++;
    else if ((ch === ")" || ch === "]" || ch === "}") && depth > 0) depth--;
    else if (ch === "|" && depth === 0) pipes.push(i);
  }
  return pipes;
}

function position(apl: string, offset: number): { line: number; column: number } {
  const before = apl.slice(0, offset);
  const line = before.split("\n").length;
  return { line, column: offset - before.lastIndexOf("\n") };
}

/** The stages after the source (`['logs'] | where … | summarize …` → where, summarize). */
export function aplStages(apl: string): AplStage[] {
  return stagePipes(apl).map((pipe) => {
    const rest = apl.slice(pipe + 1);
    const lead = rest.length - rest.trimStart().length;
    const word = OPERATOR_WORD.exec(rest.slice(lead))?.[0] ?? "";
    return { operator: word.toLowerCase(), ...position(apl, pipe + 1 + lead) };
  });
}

/** Whether a function is called anywhere outside strings and comments (`bin_auto(`). */
export function callsFunction(apl: string, name: string): { line: number; column: number } | undefined {
  const code = apl.replace(/\/\/[^\n]*|'(?:\\.|[^'\\])*'|"(?:\\.|[^"\\])*"/g, (m) => m.replace(/[^\n]/g, " "));
  const m = new RegExp(`\\b${name}\\s*\\(`).exec(code);
  return m ? position(apl, m.index) : undefined;
}
