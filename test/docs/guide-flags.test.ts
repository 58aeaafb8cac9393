// Every `ods` command line the README and the guides show names a command and flags the
// program really has: a renamed flag or command fails here instead of misleading a reader.
import * as fs from "node:fs";
import * as path from "node:path";
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { buildProgram } from "../../src/cli/main";

const ROOT = path.resolve(__dirname, "../..");
const PAGES = ["README.md", ...fs.readdirSync(path.join(ROOT, "docs/guides")).filter((f) => f.endsWith(".md")).map((f) => `docs/guides/${f}`)];

/** `ods ...` invocations in code: fenced blocks line by line, and inline code spans. */
export function odsInvocations(markdown: string): string[] {
  const code: string[] = [];
  for (const m of markdown.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)) code.push(...m[1]!.split("\n"));
  for (const m of markdown.replace(/^```[^\n]*\n[\s\S]*?^```/gm, "").matchAll(/`([^`\n]+)`/g)) code.push(m[1]!);
  const out: string[] = [];
  for (const line of code) {
    // A command line ends at a comment, a pipe, a redirection or the next command.
    for (const m of line.matchAll(/(?:^|[\s"'(])(?:npx |node bin\/ods\.js |bin\/ods\.js )?\bods ((?:[a-z][a-z-]*)(?:[^#|;&>"')`]*))/g)) {
      out.push(m[1]!.trim());
    }
  }
  return out;
}

function findCommand(program: Command, words: string[]): { cmd: Command; rest: string[] } | undefined {
  let cmd = program;
  let i = 0;
  for (; i < words.length; i++) {
    const sub = cmd.commands.find((c) => c.name() === words[i]);
    if (!sub) break;
    cmd = sub;
  }
  return cmd === program ? undefined : { cmd, rest: words.slice(i) };
}

describe("ods command lines in the README and the guides", () => {
  const program = buildProgram(() => undefined);

  it("name commands and flags the program has", () => {
    const problems: string[] = [];
    let checked = 0;
    for (const page of PAGES) {
      for (const line of odsInvocations(fs.readFileSync(path.join(ROOT, page), "utf8"))) {
        const words = line.split(/\s+/).filter(Boolean);
        // Prose such as "ods plan/apply" or "ods engine" is not a command line.
        if (!/^[a-z][a-z-]*$/.test(words[0]!) || !program.commands.some((c) => c.name() === words[0])) continue;
        const found = findCommand(program, words);
        if (!found) continue;
        checked++;
        const flags = new Set(found.cmd.options.flatMap((o) => [o.long, o.short].filter((f): f is string => Boolean(f))));
        flags.add("--help");
        for (const word of found.rest) {
          if (word === "--") break; // what follows is another program's command line (ods terraform serve -- ...)
          const flag = /^(--?[a-z][a-z-]*)(?:=.*)?$/.exec(word)?.[1];
          if (flag && !flags.has(flag)) problems.push(`${page}: \`ods ${line}\`: ${found.cmd.name()} has no ${flag}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(30);
    expect(problems, problems.join("\n")).toEqual([]);
  });

  it("a renamed flag would be caught", () => {
    expect(odsInvocations("```sh\nnpx ods plan --detailed-exitcode --out plan.json   # note\n```\nand `ods apply --auto-approve`")).toEqual([
      "plan --detailed-exitcode --out plan.json",
      "apply --auto-approve",
    ]);
  });
});
