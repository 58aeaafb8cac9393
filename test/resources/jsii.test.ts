// `npm test` runs jsii before vitest; the assembly it writes is what other languages'
// bindings would be built from. Every kind must be in it, under its namespace.
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { RESOURCE_KINDS, DATA_SOURCE_KINDS } from "../../src/resources";

const assemblyFile = path.resolve(__dirname, "../../.jsii");

function className(typeName: string, data: boolean): string {
  const base = typeName.replace(/^ods_/, "").replace(/(^|_)([a-z])/g, (_m, _u: string, c: string) => c.toUpperCase());
  return data ? `DataOds${base}` : base;
}

describe("the jsii assembly (written by `npm run jsii`, which `npm test` runs first)", () => {
  it("holds every resource and data source class and the provider", () => {
    const assembly = JSON.parse(fs.readFileSync(assemblyFile, "utf8")) as { name: string; types: Record<string, unknown> };
    expect(assembly.name).toBe("cdktf-provider-ods");
    const fqns = Object.keys(assembly.types);
    for (const k of RESOURCE_KINDS) expect(fqns.some((f) => f.endsWith(`.${className(k.typeName, false)}`)), k.typeName).toBe(true);
    for (const k of DATA_SOURCE_KINDS) expect(fqns.some((f) => f.endsWith(`.${className(k.typeName, true)}`)), k.typeName).toBe(true);
    expect(fqns).toContain("cdktf-provider-ods.provider.OdsProvider");
  });
});
