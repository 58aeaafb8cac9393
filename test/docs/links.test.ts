// The repository's Markdown, as a reader meets it: every relative link lands on a file
// (and, for a heading or anchor, on that place in it), the README stays a short page, and
// no page is too large to open on a code host (generated ones included).
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");
const README_MAX_LINES = 300;
const MARKDOWN_MAX_BYTES = 200 * 1000;

/** Markdown files a clone holds: tracked and new ones, not ignored ones, that exist in the working tree. */
function markdownFiles(): string[] {
  const r = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", "*.md"], { cwd: ROOT, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`git ls-files failed: ${r.stderr}`);
  return r.stdout.split("\0").filter((f) => f && fs.existsSync(path.join(ROOT, f)));
}

/** The text a renderer reads links from: fenced blocks and inline code hold none. */
function withoutCode(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").replace(/`[^`\n]*`/g, "");
}

/** Link targets of `[text](target)` and `<a href="target">`. */
export function linkTargets(text: string): string[] {
  const prose = withoutCode(text);
  const out: string[] = [];
  for (const m of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) out.push(m[1]!);
  for (const m of prose.matchAll(/<a\s[^>]*href="([^"]+)"/g)) out.push(m[1]!);
  return out;
}

/** The anchors a page offers: GitHub's heading slugs, and explicit `id`/`name` attributes. */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const fencedOut = text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
  for (const m of fencedOut.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = m[1]!
      .replace(/<[^>]+>/g, "")
      .replace(/`/g, "")
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .trim()
      .replace(/\s/g, "-");
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  for (const m of text.matchAll(/<a\s[^>]*\b(?:id|name)="([^"]+)"/g)) anchors.add(m[1]!);
  return anchors;
}

function isRelative(target: string): boolean {
  return !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith("//");
}

describe("the repository's Markdown", () => {
  const files = markdownFiles();

  it("finds the pages to check", () => {
    for (const f of ["README.md", "docs/guides/README.md", "contributing/README.md", "docs/cli.md", "docs/performance.md"]) expect(files).toContain(f);
  });

  it("every relative link resolves to a file, and every anchor to a heading or id in it", () => {
    const broken: string[] = [];
    const anchorCache = new Map<string, Set<string>>();
    const anchorsIn = (file: string): Set<string> => {
      let a = anchorCache.get(file);
      if (!a) anchorCache.set(file, (a = anchorsOf(fs.readFileSync(file, "utf8"))));
      return a;
    };
    for (const file of files) {
      const abs = path.join(ROOT, file);
      for (const target of linkTargets(fs.readFileSync(abs, "utf8"))) {
        if (!isRelative(target)) continue;
        const [rawPath, anchor] = target.split("#", 2) as [string, string | undefined];
        const dest = rawPath === "" ? abs : path.resolve(path.dirname(abs), decodeURIComponent(rawPath.split("?")[0]!));
        if (!dest.startsWith(ROOT + path.sep) && dest !== ROOT) {
          broken.push(`${file}: ${target} points outside the repository`);
          continue;
        }
        if (!fs.existsSync(dest)) {
          broken.push(`${file}: ${target} (no ${path.relative(ROOT, dest)})`);
          continue;
        }
        if (anchor && dest.endsWith(".md") && !anchorsIn(dest).has(decodeURIComponent(anchor))) {
          broken.push(`${file}: ${target} (no heading or id "${anchor}" in ${path.relative(ROOT, dest)})`);
        }
      }
    }
    expect(broken, broken.join("\n")).toEqual([]);
  });

  it(`README.md is a short page: at most ${README_MAX_LINES} lines`, () => {
    const lines = fs.readFileSync(path.join(ROOT, "README.md"), "utf8").split("\n").length;
    expect(lines, `README.md has ${lines} lines; move detail into docs/guides or contributing/`).toBeLessThanOrEqual(README_MAX_LINES);
  });

  it(`no Markdown file is over ${MARKDOWN_MAX_BYTES / 1000} KB, generated ones included`, () => {
    const large = files.map((f) => ({ f, size: fs.statSync(path.join(ROOT, f)).size })).filter((x) => x.size > MARKDOWN_MAX_BYTES);
    expect(large.map((x) => `${x.f}: ${x.size} bytes`)).toEqual([]);
  });

  it("cites nothing outside the repository", () => {
    const outside = files.filter((f) => /\.\.\/shared\/|`seed\/`/.test(fs.readFileSync(path.join(ROOT, f), "utf8")));
    expect(outside).toEqual([]);
  });
});

describe("the link checker itself", () => {
  it("reads links outside code only, and GitHub's heading slugs", () => {
    expect(linkTargets("see [a](a.md) and `[b](b.md)`\n```\n[c](c.md)\n```\n<a href=\"d.md\">d</a>")).toEqual(["a.md", "d.md"]);
    const anchors = anchorsOf("## 4. Deploy a stack with Terraform\n## Large stacks: a served provider (`ods terraform serve`)\n## Notes\n## Notes\n- <a id=\"name\"></a>`name`");
    for (const a of ["4-deploy-a-stack-with-terraform", "large-stacks-a-served-provider-ods-terraform-serve", "notes", "notes-1", "name"]) expect(anchors).toContain(a);
  });
});
