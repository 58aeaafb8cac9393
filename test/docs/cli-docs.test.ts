// docs/cli.md is generated from the commander program (scripts/generate-cli-docs.js): a
// command or flag added to src/cli reaches the page with `npm run docs`, and this test
// fails until it has.
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { buildProgram } from "../../src/cli/main";

const ROOT = path.resolve(__dirname, "../..");

interface CliDocsGenerator {
  cliMarkdown(): string;
}

// The script reads the compiled program from lib/ (npm test builds it first).
const generator = (): Promise<CliDocsGenerator> => import(path.join(ROOT, "scripts/generate-cli-docs.js")) as Promise<CliDocsGenerator>;

describe("docs/cli.md", () => {
  it("is what the generator makes from the commander program (run npm run docs)", async () => {
    const fresh = (await generator()).cliMarkdown();
    expect(fs.readFileSync(path.join(ROOT, "docs/cli.md"), "utf8") === fresh, "docs/cli.md is stale: run npm run docs:cli (or npm run docs)").toBe(true);
  });

  it("has a section for every command and a row for every flag of the program in src/", () => {
    // Read from the sources, not lib/: a flag added without a rebuild still fails here.
    const text = fs.readFileSync(path.join(ROOT, "docs/cli.md"), "utf8");
    const walk = (cmd: ReturnType<typeof buildProgram>, prefix: string): void => {
      for (const sub of cmd.commands) {
        if (sub.name() === "help") continue;
        const title = `${prefix} ${sub.name()}`;
        expect(text, `no section for ${title}`).toMatch(new RegExp(`^## ${title}$`, "m"));
        const section = text.split(new RegExp(`^## ${title}$`, "m"))[1]!.split(/^## /m)[0]!;
        for (const option of sub.options) {
          if (option.hidden || option.long === "--help") continue;
          expect(section, `${title}: no row for ${option.flags}`).toContain(`| \`${option.flags}\``);
        }
        walk(sub, title);
      }
    };
    walk(buildProgram(() => undefined), "ods");
    expect(text).toContain("| `--detailed-exitcode` |");
  });
});
