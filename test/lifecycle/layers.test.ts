// The engines and the lifecycle name no kind: every kind rule lives in the kind's own
// file under src/resources, reached through the hooks of src/resources/kind.ts.
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");
const ENGINE_DIRS = ["src/reconcile", "src/tfprovider", "src/lifecycle"];

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(rel));
    else if (entry.name.endsWith(".ts")) out.push(rel);
  }
  return out;
}

describe("layers", () => {
  it("no engine file and no lifecycle file names a resource kind by its type name", () => {
    const offenders: string[] = [];
    for (const file of ENGINE_DIRS.flatMap(sourceFiles)) {
      const lines = fs.readFileSync(path.join(ROOT, file), "utf8").split("\n");
      lines.forEach((line, i) => {
        if (/"ods_[a-z_]+/.test(line)) offenders.push(`${file}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(offenders).toEqual([]);
  });

  it("the lifecycle depends only on the layers below it (resources, api)", () => {
    const upward: string[] = [];
    for (const file of sourceFiles("src/lifecycle")) {
      const text = fs.readFileSync(path.join(ROOT, file), "utf8");
      for (const m of text.matchAll(/from "(\.\.\/[^"]+)"/g)) {
        if (!/^\.\.\/(resources|api)(\/|$)/.test(m[1])) upward.push(`${file} imports ${m[1]}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it("the resource model depends on nothing above it", () => {
    const upward: string[] = [];
    for (const file of sourceFiles("src/resources")) {
      const text = fs.readFileSync(path.join(ROOT, file), "utf8");
      for (const m of text.matchAll(/from "(\.\.\/[^"]+)"/g)) {
        // Resolved, so that a module in a folder of its own (resources/backtest) may reach its siblings.
        const target = path.relative(path.join(ROOT, "src"), path.resolve(path.dirname(path.join(ROOT, file)), m[1]));
        if (!/^(resources|api)(\/|$)/.test(target)) upward.push(`${file} imports ${m[1]}`);
      }
    }
    expect(upward).toEqual([]);
  });
});
