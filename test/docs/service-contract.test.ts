// docs/service-contract.md is the contract the emulator is written from: every route the
// emulator serves has its row (method and path) in one of the contract's endpoint tables,
// so a kind added to the emulator without its contract section fails here.
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import type { Route } from "../../src/emulator/routing";

const ROOT = path.resolve(__dirname, "../..");
const ROUTES_DIR = path.join(ROOT, "src/emulator/routes");

/** `/v2/datasets/{dataset_id}/fields` and `/v2/datasets/:id/fields` read alike. */
const normalize = (p: string): string => p.split("?")[0]!.replace(/\{[^}]*\}|:[A-Za-z_]+/g, "{}");

/** "GET /v2/views/{}" for each method of each endpoint row of the contract's tables. */
function documented(): Set<string> {
  const text = fs.readFileSync(path.join(ROOT, "docs/service-contract.md"), "utf8");
  const out = new Set<string>();
  for (const m of text.matchAll(/^\| ([A-Z, ]+) \| `([^`]+)`/gm)) {
    for (const method of m[1]!.split(",").map((x) => x.trim())) out.add(`${method} ${normalize(m[2]!)}`);
  }
  return out;
}

async function servedRoutes(): Promise<{ route: string; file: string }[]> {
  const files = [...fs.readdirSync(ROUTES_DIR).map((f) => path.join(ROUTES_DIR, f)), path.join(ROOT, "src/emulator/query-routes.ts")];
  const out: { route: string; file: string }[] = [];
  for (const file of files.filter((f) => f.endsWith(".ts"))) {
    const mod = (await import(file)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(mod)) {
      if (!name.endsWith("Routes") || !Array.isArray(value)) continue;
      for (const r of value as Route[]) out.push({ route: `${r.method} ${normalize(r.pattern)}`, file: path.relative(ROOT, file) });
    }
  }
  return out;
}

describe("docs/service-contract.md", () => {
  it("has a row for every route the emulator serves", async () => {
    const rows = documented();
    const routes = await servedRoutes();
    expect(routes.length).toBeGreaterThan(40);
    const missing = routes.filter((r) => !rows.has(r.route)).map((r) => `${r.route} (${r.file})`);
    expect(missing, "routes with no row in docs/service-contract.md").toEqual([]);
  });

  it("has a section for monitors, views, dashboards and annotations", () => {
    const text = fs.readFileSync(path.join(ROOT, "docs/service-contract.md"), "utf8");
    for (const heading of ["### Monitors", "### Views", "### Dashboards", "### Annotations"]) expect(text).toContain(`\n${heading}\n`);
  });
});
