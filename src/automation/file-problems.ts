// Checking a hand-written file (alert tests, OpenSLO) reports every problem with its line,
// not only the first: a check records its problem and throws Skipped, which `attempt`
// catches around each independent part (a test, an event, a key), so the rest is checked.

/** Thrown after a problem was recorded: the part being checked is abandoned, the file is not. */
export class Skipped extends Error {
  constructor() {
    super("skipped after a recorded problem");
    this.name = "Skipped";
  }
}

export interface FileProblem {
  line: number;
  problem: string;
}

/** Runs one independent part of a check; answers FALLBACK when it recorded a problem. */
export function attempt<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof Skipped) return fallback;
    throw err;
  }
}

/** `FILE:LINE: PROBLEM`, one line per problem, in the order of the file. */
export function problemLines(file: string, problems: readonly FileProblem[]): string {
  return [...problems]
    .sort((a, b) => a.line - b.line)
    .map((p) => `${file}:${p.line}: ${p.problem}`)
    .join("\n");
}
