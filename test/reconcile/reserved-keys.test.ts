// Keys named __proto__, constructor or prototype are refused where a document is loaded,
// naming where they sit: a synthesized stack, a variables file (JSON and .tfvars), a
// variable given as text, an alert-test file, an OpenSLO file, and the provider's
// validation of a configuration decoded from Terraform's msgpack. Before, a copy of the
// values dropped a "__proto__" entry silently and the next plan said "No changes".
import * as fs from "node:fs";
import * as path from "node:path";
import { encode } from "@msgpack/msgpack";
import { afterAll, describe, expect, it } from "vitest";
import { loadStack, StackError } from "../../src/reconcile/stack";
import { readVarFile, VariableError } from "../../src/reconcile/variables";
import { readAlertTestFile } from "../../src/automation/alert-tests/test-file";
import { importOpenSlo } from "../../src/cli/slo-import";
import { reservedKeyPath, jsonPath } from "../../src/resources";
import { OdsTerraformProvider } from "../../src/tfprovider/ods-provider";
import { decodeDynamicValue } from "../../src/tfprovider/values";
import { compileSchema } from "../../src/tfprovider/schema-proto";
import { removeTempDirs, tempDir, writeStack } from "../helpers/ods-cli";

afterAll(removeTempDirs);

const RESERVED = ["__proto__", "constructor", "prototype"];

/** A role's dataset capabilities with one more entry keyed KEY, as JSON text (JSON.stringify drops a __proto__ key). */
function roleStackText(key: string): string {
  const dir = tempDir();
  const file = writeStack(dir, { resource: { ods_role: { readers: { name: "readers", dataset_capabilities: { logs: { query: ["read"] } } } } } });
  const text = fs.readFileSync(file, "utf8").replace('"logs": {', `${JSON.stringify(key)}: { "query": ["read"] },\n"logs": {`);
  fs.writeFileSync(file, text);
  return file;
}

describe("reserved keys", () => {
  it("finds a key kept as an own property at any depth, in document order", () => {
    const parsed = JSON.parse('{"a": [{"b": 1}, {"c": {"__proto__": {"x": 1}}}], "prototype": 2}');
    expect(reservedKeyPath(parsed)).toEqual(["prototype"]);
    expect(jsonPath(reservedKeyPath(parsed.a)!)).toBe('$[1].c["__proto__"]');
    expect(reservedKeyPath(JSON.parse('{"a": {"proto": 1, "constructors": [1]}}'))).toBeUndefined();
    let deep: unknown = { constructor: 1 };
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(reservedKeyPath(deep)?.length).toBe(100_001);
  });

  it.each(RESERVED)("a synthesized stack with a %s key is refused naming the file, the construct and the JSON path", (key) => {
    const file = roleStackText(key);
    expect(JSON.parse(fs.readFileSync(file, "utf8")).resource.ods_role.readers.dataset_capabilities).toHaveProperty([key]);
    let error: unknown;
    try {
      loadStack(file);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(StackError);
    expect((error as StackError).problems).toEqual([
      `${file}: [main/readers] ods_role.readers: at $.resource.ods_role.readers.dataset_capabilities["${key}"]: a key named "${key}" is refused (__proto__, constructor and prototype are reserved: JavaScript would drop or misread the entry)`,
    ]);
  });

  it("a reserved key outside any resource (a variable's default) is refused with its JSON path", () => {
    const file = writeStack(tempDir(), { resource: { ods_role: { r: { name: "r" } } } });
    const json = JSON.parse(fs.readFileSync(file, "utf8"));
    fs.writeFileSync(file, JSON.stringify({ ...json, variable: { caps: { default: { x: 1 } } } }).replace('"default":{"x":1}', '"default":{"__proto__":{"x":1}}'));
    expect(() => loadStack(file)).toThrow(`${file}: at $.variable.caps.default["__proto__"]: a key named "__proto__" is refused`);
  });

  it("a variables file (JSON or .tfvars) and a variable given as text with a reserved key are refused naming the file and path", async () => {
    const dir = tempDir();
    const json = path.join(dir, "prod.tfvars.json");
    fs.writeFileSync(json, '{"caps": {"logs": ["read"], "__proto__": ["read"]}}');
    await expect(readVarFile(json)).rejects.toThrow(VariableError);
    await expect(readVarFile(json)).rejects.toThrow(`the variables file ${json}: at $.caps["__proto__"]: a key named "__proto__" is refused`);
    const tfvars = path.join(dir, "prod.tfvars");
    fs.writeFileSync(tfvars, 'caps = {\n  logs = ["read"]\n  constructor = ["read"]\n}\n');
    await expect(readVarFile(tfvars)).rejects.toThrow(`the variables file ${tfvars}: at $.caps["constructor"]: a key named "constructor" is refused`);
    fs.writeFileSync(tfvars, 'prototype = "x"\n');
    await expect(readVarFile(tfvars)).rejects.toThrow(`the variables file ${tfvars}: at $["prototype"]`);

    // TF_VAR_caps as JSON text, for a map variable.
    const file = writeStack(tempDir(), { resource: { ods_role: { r: { name: "r" } } } });
    const stack = JSON.parse(fs.readFileSync(file, "utf8"));
    fs.writeFileSync(file, JSON.stringify({ ...stack, variable: { caps: { type: "map(list(string))" } } }));
    expect(() => loadStack(file, { variables: { env: { TF_VAR_caps: '{"__proto__": ["read"]}' }, assignments: [] } })).toThrow(
      /variable "caps" \(from TF_VAR_caps\): at \$\["__proto__"\]: a key named "__proto__" is refused/,
    );
  });

  it("an alert-test file with a reserved key is refused naming its line and path", () => {
    const file = path.join(tempDir(), "api.alerts.yaml");
    fs.writeFileSync(file, "tests:\n  - name: t\n    duration: 1h\n    events:\n      - dataset: web\n        at: 2m\n        fields:\n          status: 500\n          __proto__: { x: 1 }\n    expect: []\n");
    expect(() => readAlertTestFile(file)).toThrow(`${file}:9: tests.0.events.0.fields.__proto__: a key named "__proto__" is refused`);
  });

  it("an OpenSLO file with a reserved key is refused naming its line and path", () => {
    const source = fs.readFileSync(path.join(__dirname, "../../examples/slo/checkout.openslo.yaml"), "utf8");
    const text = source.replace(/^metadata:\n/m, "metadata:\n  prototype: x\n");
    expect(text).not.toBe(source);
    expect(() => importOpenSlo("slo.yaml", text)).toThrow(/^slo\.yaml:\d+: metadata\.prototype: a key named "prototype" is refused/);
  });

  it.each(RESERVED)("the provider's ValidateResourceConfig refuses a %s map key decoded from Terraform's msgpack, naming the attribute path", (key) => {
    const provider = new OdsTerraformProvider();
    const type = compileSchema(provider.schema()).resources.get("ods_role")!.type;
    const config: Record<string, unknown> = { name: "readers", dataset_capabilities: { logs: { query: ["read"] } } };
    Object.defineProperty(config.dataset_capabilities, key, { value: { query: ["read"] }, enumerable: true });
    const decoded = decodeDynamicValue({ msgpack: encode(config) }, type) as Record<string, unknown>;
    const diags = provider.validateResourceConfig("ods_role", decoded as never);
    expect(diags).toHaveLength(1);
    expect(diags[0].severity).toBe("error");
    expect(diags[0].detail).toContain(`attribute "dataset_capabilities["${key}"]": a key named "${key}" is refused`);
    expect(diags[0].attribute).toEqual(["dataset_capabilities", { key }]);
    // Without it, the same configuration is valid.
    const valid = decodeDynamicValue({ msgpack: encode({ name: "readers", dataset_capabilities: { logs: { query: ["read"] } } }) }, type) as Record<string, unknown>;
    expect(provider.validateResourceConfig("ods_role", valid as never)).toEqual([]);
  });
});
