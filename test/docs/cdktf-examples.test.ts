// The TypeScript examples of docs/cdktf/typescript (and the whole programs of the README
// and the getting-started guide) are code a user copies: each one must
// type-check against the package's own declarations (lib/, built by npm test first), so
// a renamed prop or a wrong nesting in the generator fails here, not in a user's editor.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");
const PAGES = path.join(ROOT, "docs/cdktf/typescript");

/** Whole programs in hand-written pages: TypeScript blocks that import the package. */
const HAND_WRITTEN = ["README.md", "docs/guides/getting-started.md", "docs/guides/slos.md"];

function examples(): { page: string; code: string }[] {
  const out: { page: string; code: string }[] = [];
  for (const page of HAND_WRITTEN) {
    for (const m of fs.readFileSync(path.join(ROOT, page), "utf8").matchAll(/```ts\n([\s\S]*?)\n```/g)) {
      if (m[1]!.includes('from "cdktf-provider-ods";')) out.push({ page, code: m[1]! });
    }
  }
  for (const folder of ["resources", "data-sources"]) {
    for (const file of fs.readdirSync(path.join(PAGES, folder)).sort()) {
      const text = fs.readFileSync(path.join(PAGES, folder, file), "utf8");
      const m = /## Example Usage\n\n```typescript\n([\s\S]*?)\n```/.exec(text);
      if (!m) throw new Error(`docs/cdktf/typescript/${folder}/${file}: no TypeScript example`);
      out.push({ page: `${folder}/${file}`, code: m[1]! });
    }
  }
  return out;
}

describe("the TypeScript examples of the docs", () => {
  it("every example, and the README's and getting-started's programs, type-check against the package", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ods-cdktf-examples-"));
    try {
      const all = examples();
      expect(all.length).toBeGreaterThan(20);
      for (const page of HAND_WRITTEN) expect(all.some((e) => e.page === page), `${page} has no program to check`).toBe(true);
      all.forEach(({ page, code }, i) => {
        // Each example is a module of its own: its declarations must not meet another's.
        fs.writeFileSync(path.join(dir, `example${i}.ts`), `// ${page}\n${code}\nexport {};\n`);
      });
      fs.writeFileSync(
        path.join(dir, "tsconfig.json"),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            noEmit: true,
            target: "ES2022",
            module: "commonjs",
            moduleResolution: "node",
            skipLibCheck: true,
            baseUrl: ".",
            paths: { "cdktf-provider-ods": [path.join(ROOT, "lib/index.d.ts")], cdktf: [path.join(ROOT, "node_modules/cdktf")] },
            typeRoots: [path.join(ROOT, "node_modules/@types")],
            types: ["node"],
          },
          include: ["*.ts"],
        }),
      );
      const r = spawnSync(process.execPath, [path.join(ROOT, "node_modules/typescript/bin/tsc"), "-p", dir], { encoding: "utf8", timeout: 240_000 });
      const errors = `${r.stdout}${r.stderr}`.replace(/example(\d+)\.ts/g, (_m, i: string) => all[Number(i)]!.page);
      expect(r.status, errors).toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
