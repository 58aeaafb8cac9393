// The reference docs are generated from the model (scripts/generate-docs.js): the
// committed ones must be what the generator makes today, and every link the generated
// constructs carry must land on one of them.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./consumer-harness";

interface DocsGenerator {
  referencePages(): Record<string, string>;
  writeApiDoc(file: string): void;
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
    // docs/ also holds hand-written pages; the generated ones are index.md and the two folders.
    const generated = listFiles(path.join(ROOT, "docs")).filter((f) => f === "index.md" || /^(resources|data-sources)\//.test(f));
    expect(generated.sort()).toEqual(Object.keys(pages).sort());
    for (const [rel, text] of Object.entries(pages)) {
      expect(fs.readFileSync(path.join(ROOT, "docs", rel), "utf8"), `docs/${rel} is stale: run npm run docs`).toBe(text);
    }
  });

  it("documents every attribute of every resource with its type", async () => {
    const notifier = fs.readFileSync(path.join(ROOT, "docs/resources/notifier.md"), "utf8");
    expect(notifier).toMatch(/^## Example Usage$/m);
    expect(notifier).toMatch(/^- `name` \(String\) /m);
    expect(fs.readFileSync(path.join(ROOT, "docs/resources/dataset.md"), "utf8")).toMatch(/- `allow_destroy` \(Boolean\) .*Defaults to `false`/);
    expect(fs.readFileSync(path.join(ROOT, "docs/resources/api_token.md"), "utf8")).toMatch(/- `name` \(String\) .*replaces the object/);
  });

  it("API.md matches what jsii-docgen makes from the assembly (run npm run docs)", async () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "ods-apimd-"));
    try {
      (await generator()).writeApiDoc(path.join(tmp, "API.md"));
      const fresh = fs.readFileSync(path.join(tmp, "API.md"), "utf8");
      expect(fresh).toContain("OdsProvider");
      expect(fs.readFileSync(path.join(ROOT, "API.md"), "utf8") === fresh, "API.md is stale: run npm run docs").toBe(true);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
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
      // An anchor is an attribute (listed as `name`) or a section heading (## Import).
      if (anchor) expect(text.includes(`\`${anchor}\``) || new RegExp(`^## ${anchor}$`, "im").test(text), `${link}: no attribute or section ${anchor}`).toBe(true);
    }
  });
});
