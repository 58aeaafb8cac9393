import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseVarFileFlag, parseVarFlag, readVarFile, resolveVariables, VariableError } from "../../src/reconcile/variables";

const dirs: string[] = [];
function file(name: string, text: string): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "ods-vars-"));
  dirs.push(d);
  fs.writeFileSync(path.join(d, name), text);
  return path.join(d, name);
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe("variables files", () => {
  it("reads the .tfvars form: strings, numbers, bools, lists, maps and comments", async () => {
    const f = file(
      "prod.tfvars",
      ['# production', 'team = "sre" // owner', "limit = 25", "ratio = 0.5", "enabled = true", 'emails = ["a@example.com", "b@example.com"]', "/* block */", "tags = {", '  env = "prod"', '  "cost center" = 42', "}"].join("\n"),
    );
    const values = Object.fromEntries((await readVarFile(f)).map((a) => [a.name, "value" in a ? a.value : undefined]));
    expect(values).toEqual({ team: "sre", limit: 25, ratio: 0.5, enabled: true, emails: ["a@example.com", "b@example.com"], tags: { env: "prod", "cost center": 42 } });
  });

  it("reads JSON files", async () => {
    const f = file("prod.tfvars.json", JSON.stringify({ team: "sre", limit: 3 }));
    expect((await readVarFile(f)).map((a) => a.name)).toEqual(["team", "limit"]);
  });

  it("names the file of a syntax error without showing its contents", async () => {
    const f = file("bad.tfvars", 'token = "hunter2-secret"\nbroken = \n');
    const err = await readVarFile(f).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VariableError);
    expect((err as Error).message).toContain(f);
    expect((err as Error).message).not.toContain("hunter2-secret");
  });

  it("refuses expressions, which Terraform does not evaluate in variables files", async () => {
    await expect(readVarFile(file("x.tfvars", 'a = "${b}"\n'))).rejects.toThrow(/literal values only/);
  });
});

describe("resolving", () => {
  it("--var splits at the first =, and checks the name", () => {
    expect(parseVarFlag("url=http://x/?a=b")).toEqual({ name: "url", raw: "http://x/?a=b", source: "--var" });
    expect(() => parseVarFlag("=x")).toThrow(/NAME=VALUE/);
  });

  it("--var STACK:NAME=VALUE is for that stack; a value may hold colons", () => {
    expect(parseVarFlag("production:ods_url=http://x:8080/a=b")).toEqual({ name: "ods_url", raw: "http://x:8080/a=b", source: "--var production:ods_url", stack: "production" });
    expect(parseVarFlag("ods_url=http://x:8080")).toEqual({ name: "ods_url", raw: "http://x:8080", source: "--var" });
    expect(() => parseVarFlag(":ods_url=x")).toThrow(/STACK:NAME=VALUE with STACK a stack name/);
    expect(() => parseVarFlag("production:=x")).toThrow(/with NAME a variable name/);
  });

  it("--var-file STACK=FILE names a known stack; a file whose name holds = is a file when it exists", () => {
    const stacks = ["staging", "production"];
    const exists = (f: string): boolean => f === "odd=name.json";
    expect(parseVarFileFlag("production=vars/prod.json", exists, stacks)).toEqual({ file: "vars/prod.json", stack: "production" });
    expect(parseVarFileFlag("shared.json", exists, stacks)).toEqual({ file: "shared.json" });
    expect(parseVarFileFlag("odd=name.json", exists, stacks)).toEqual({ file: "odd=name.json" });
    expect(parseVarFileFlag("./a=b.json", exists, stacks)).toEqual({ file: "./a=b.json" });
    expect(() => parseVarFileFlag("prodution=vars/prod.json", exists, stacks)).toThrow(`--var-file prodution=vars/prod.json: no stack "prodution"; stacks: staging, production`);
  });

  it("a value remembers where it came from, for messages", () => {
    const decls = [{ name: "t", type: "string", hasDefault: false, sensitive: true }, { name: "d", type: "string", hasDefault: true, default: "x", sensitive: false }];
    const v = resolveVariables(decls, { env: { TF_VAR_t: "a" }, assignments: [{ name: "t", value: "b", source: "prod.json (for stack production)", stack: "production" }] });
    expect(v.get("t")).toEqual({ value: "b", sensitive: true, source: "prod.json (for stack production)" });
    expect(v.get("d")?.source).toBe('the default of variable "d"');
  });

  it("converts by declared type and checks typed values", () => {
    const decls = [
      { name: "n", type: "number", hasDefault: false, sensitive: false },
      { name: "b", type: "bool", hasDefault: false, sensitive: false },
      { name: "l", type: "list(string)", hasDefault: false, sensitive: false },
    ];
    const v = resolveVariables(decls, { env: { TF_VAR_n: "7", TF_VAR_b: "false", TF_VAR_l: '["x","y"]' }, assignments: [] });
    expect([...v.values()].map((x) => x.value)).toEqual([7, false, ["x", "y"]]);
    expect(() => resolveVariables(decls, { env: { TF_VAR_n: "7", TF_VAR_b: "yes", TF_VAR_l: "[]" }, assignments: [] })).toThrow('variable "b" (from TF_VAR_b): expected true or false');
    expect(() => resolveVariables(decls.slice(2), { env: {}, assignments: [{ name: "l", value: "x", source: "f.tfvars" }] })).toThrow('variable "l" (from f.tfvars): expected a list(string)');
  });
});
