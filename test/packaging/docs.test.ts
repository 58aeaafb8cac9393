// The reference docs are generated from the model (scripts/generate-docs.js): the
// committed ones must be what the generator makes today, and every link the generated
// constructs carry must land on one of them, in the sources and in docs/api alike.
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./consumer-harness";

interface DocsGenerator {
  referencePages(): Record<string, string>;
  cdktfTypescriptPages(): Record<string, string>;
  apiPages(): Record<string, string>;
}

// The script reads the compiled model from lib/ and the assembly from .jsii (npm test builds both first).
const generator = (): Promise<DocsGenerator> => import(path.join(ROOT, "scripts/generate-docs.js")) as Promise<DocsGenerator>;

function listFiles(dir: string, base = dir): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? listFiles(p, base) : [path.relative(base, p)];
  });
}

describe("reference docs", () => {
  it("docs/ matches what the generator makes from the model (run npm run docs)", async () => {
    const pages = (await generator()).referencePages();
    // docs/ also holds hand-written pages; the generated ones are index.md and the three folders.
    const generated = listFiles(path.join(ROOT, "docs")).filter((f) => f === "index.md" || /^(resources|data-sources|ephemeral-resources)\//.test(f));
    expect(generated.sort()).toEqual(Object.keys(pages).sort());
    for (const [rel, text] of Object.entries(pages)) {
      expect(fs.readFileSync(path.join(ROOT, "docs", rel), "utf8"), `docs/${rel} is stale: run npm run docs`).toBe(text);
    }
  });

  it("docs/cdktf/typescript matches what the generator makes from the model (run npm run docs)", async () => {
    const pages = (await generator()).cdktfTypescriptPages();
    const generated = listFiles(path.join(ROOT, "docs/cdktf")).map((f) => `cdktf/${f}`);
    expect(generated.sort()).toEqual(Object.keys(pages).sort());
    for (const [rel, text] of Object.entries(pages)) {
      expect(fs.readFileSync(path.join(ROOT, "docs", rel), "utf8"), `docs/${rel} is stale: run npm run docs`).toBe(text);
    }
    // A newcomer in TypeScript finds the construct, its camelCase props and a runnable shape.
    const notifier = pages["cdktf/typescript/resources/notifier.md"]!;
    expect(notifier).toContain("new notifier.Notifier(stack, ");
    expect(notifier).toMatch(/^ +- `chatBToken` \(`string`, required unless `chatBTokenWo` is set, secret, never read back\)/m);
    expect(notifier).toMatch(/^ +- `chatBTokenWo` \(`string`, optional, write-only: never in a plan or state\)/m);
    expect(notifier).not.toContain("example-secret-change-me");
  });

  it("documents every attribute of every resource with its type", async () => {
    const notifier = fs.readFileSync(path.join(ROOT, "docs/resources/notifier.md"), "utf8");
    expect(notifier).toMatch(/^## Example Usage$/m);
    expect(notifier).toMatch(/^- <a id="name"><\/a>`name` \(String\) /m);
    expect(fs.readFileSync(path.join(ROOT, "docs/resources/dataset.md"), "utf8")).toMatch(/- <a id="allow_destroy"><\/a>`allow_destroy` \(Boolean\) .*Defaults to `false`/);
    expect(fs.readFileSync(path.join(ROOT, "docs/resources/api_token.md"), "utf8")).toMatch(/- <a id="name"><\/a>`name` \(String\) .*replaces the object/);
  });

  it("docs/api matches what jsii-docgen makes from the assembly, one page per submodule (run npm run docs)", async () => {
    const pages = (await generator()).apiPages();
    expect(Object.keys(pages)).toContain("README.md");
    expect(Object.keys(pages)).toContain("notifier.md");
    expect(listFiles(path.join(ROOT, "docs/api")).sort()).toEqual(Object.keys(pages).sort());
    for (const [rel, text] of Object.entries(pages)) {
      expect(fs.readFileSync(path.join(ROOT, "docs/api", rel), "utf8") === text, `docs/api/${rel} is stale: run npm run docs`).toBe(true);
    }
  });

  it("JSDoc links of the constructs render as Markdown links in docs/api", () => {
    const notifier = fs.readFileSync(path.join(ROOT, "docs/api/notifier.md"), "utf8");
    expect(notifier).toContain("[ods_notifier](../resources/notifier.md)");
    for (const f of listFiles(path.join(ROOT, "docs/api"))) {
      expect(fs.readFileSync(path.join(ROOT, "docs/api", f), "utf8"), `docs/api/${f}`).not.toContain("{@link");
    }
  });

  it("every link in the generated constructs points at an existing page and anchor", () => {
    const genDir = path.join(ROOT, "src/gen");
    const links = new Set<string>();
    for (const f of listFiles(genDir).filter((f) => f.endsWith(".ts"))) {
      for (const m of fs.readFileSync(path.join(genDir, f), "utf8").matchAll(/\{@link (\.\.\/\.\.\/\.\.\/docs\/[^\s}]+)/g)) links.add(m[1]);
    }
    expect(links.size).toBeGreaterThan(50);
    for (const link of links) {
      const [file, anchor] = link.replace("../../../", "").split("#");
      const text = fs.readFileSync(path.join(ROOT, file), "utf8");
      // An anchor is an attribute (its `<a id>`) or a section heading (## Import).
      if (anchor) expect(text.includes(`<a id="${anchor}"></a>`) || new RegExp(`^## ${anchor}$`, "im").test(text), `${link}: no attribute or section ${anchor}`).toBe(true);
    }
  });
});
