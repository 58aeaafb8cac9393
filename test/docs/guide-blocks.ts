// The shell blocks of a guide, with what the guide says about running them. A guide marks
// each ```sh block with an HTML comment on the line before it, invisible when rendered:
//   <!-- guide-test: run -->              the guide-commands test runs it
//   <!-- guide-test: skip: REASON -->     it does not, and says why (network, a real service)
// An unmarked sh block is an error, so that a block can never drop out of the test silently.

export interface GuideBlock {
  /** 1-based line of the opening fence. */
  line: number;
  run: boolean;
  skipReason?: string;
  code: string;
}

const MARKER = /^<!--\s*guide-test:\s*(run|skip:\s*(.+?))\s*-->$/;

export function shellBlocks(markdown: string, file: string): GuideBlock[] {
  const lines = markdown.split("\n");
  const blocks: GuideBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^```(\w*)/.exec(lines[i]!);
    if (!fence) continue;
    const end = lines.findIndex((l, j) => j > i && l.startsWith("```"));
    if (end === -1) throw new Error(`${file}:${i + 1}: a code block that is never closed`);
    if (fence[1] === "sh" || fence[1] === "bash" || fence[1] === "shell") {
      const marker = MARKER.exec((lines[i - 1] ?? "").trim());
      if (!marker) throw new Error(`${file}:${i + 1}: a shell block without a <!-- guide-test: run --> or <!-- guide-test: skip: REASON --> line before it`);
      blocks.push({
        line: i + 1,
        run: marker[1] === "run",
        skipReason: marker[2],
        code: lines.slice(i + 1, end).join("\n"),
      });
    }
    i = end;
  }
  return blocks;
}

/** The blocks to run, as one bash script: one shell, so `cd` and `export` carry on as they do for a reader. */
export function scriptOf(blocks: readonly GuideBlock[], file: string): string {
  const parts = blocks.filter((b) => b.run).map((b) => `echo "+++ ${file}:${b.line}"\n${b.code}`);
  return [
    "set -euo pipefail",
    // A background process a block starts (the emulator) ends with the script, even when a step fails.
    "trap 'jobs -p | xargs -r kill 2>/dev/null || true' EXIT",
    ...parts,
  ].join("\n\n");
}
