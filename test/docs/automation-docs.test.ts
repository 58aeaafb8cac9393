// docs/automation.md is generated from the automation API's declarations
// (scripts/generate-automation-docs.js over lib/automation/*.d.ts): a type, member or doc
// comment changed in src/automation reaches the page with `npm run docs:automation`, and
// this test fails until it has.
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");

interface AutomationDocsGenerator {
  automationMarkdown(): string;
}

// The script reads the compiled declarations from lib/ (npm test builds it first).
const generator = (): Promise<AutomationDocsGenerator> => import(path.join(ROOT, "scripts/generate-automation-docs.js")) as Promise<AutomationDocsGenerator>;

describe("docs/automation.md", () => {
  it("is what the generator makes from lib/automation's declarations (run npm run docs:automation)", async () => {
    const fresh = (await generator()).automationMarkdown();
    expect(fs.readFileSync(path.join(ROOT, "docs/automation.md"), "utf8") === fresh, "docs/automation.md is stale: run npm run docs:automation").toBe(true);
  });

  it("has a section for every name src/automation/index.ts exports", () => {
    // Read from the sources, not lib/: an export added without a rebuild still fails here.
    const index = fs.readFileSync(path.join(ROOT, "src/automation/index.ts"), "utf8");
    const names = [...index.matchAll(/export (?:type )?\{([^}]*)\}/g)].flatMap((m) => m[1]!.split(",").map((n) => n.replace(/^\s*type\s+/, "").trim()).filter(Boolean));
    expect(names.length).toBeGreaterThan(10);
    const text = fs.readFileSync(path.join(ROOT, "docs/automation.md"), "utf8");
    for (const name of names) expect(text, `no section for ${name}`).toMatch(new RegExp(`^### ${name}$`, "m"));
  });
});
