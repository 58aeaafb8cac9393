import { describe, expect, it } from "vitest";
import type { ProviderSchemaJson, SchemaJson, TypeJson } from "../../src/tfprovider/schema-json";
import { compileSchema, SchemaError, schemaToProto } from "../../src/tfprovider/schema-proto";
import { THING_SCHEMA } from "./fixtures/thing-provider";

function withResource(resource: SchemaJson): ProviderSchemaJson {
  return { provider: { block: {} }, resource_schemas: { r: resource }, data_source_schemas: {} };
}

describe("schema JSON to protocol Schema", () => {
  const compiled = compileSchema(THING_SCHEMA);
  const thing = compiled.proto.resource_schemas.tfp_thing;
  const attr = (name: string) => thing.block.attributes.find((a) => a.name === name);

  it("carries the schema version into the Schema and its block", () => {
    expect(thing.version).toBe(1);
    expect(thing.block.version).toBe(1);
    expect(compiled.resources.get("tfp_thing")?.version).toBe(1);
  });

  it("encodes attribute types as their JSON bytes", () => {
    expect(attr("name")?.type.toString()).toBe('"string"');
    expect(JSON.parse(attr("tags")?.type.toString() ?? "")).toEqual(["map", "string"]);
    expect(JSON.parse(attr("ports")?.type.toString() ?? "")).toEqual(["set", "number"]);
  });

  it("copies the flags Terraform plans with", () => {
    expect(attr("id")).toMatchObject({ computed: true, optional: false, required: false });
    expect(attr("name")).toMatchObject({ required: true, optional: false, computed: false });
    expect(attr("secret")).toMatchObject({ optional: true, sensitive: true });
    expect(attr("name")?.description).toBe("Name of the thing.");
  });

  it("turns nested attributes into a nested Object with an empty type", () => {
    const settings = attr("settings");
    expect(settings?.type.length).toBe(0);
    expect(settings?.nested_type?.nesting).toBe("SINGLE");
    expect(settings?.nested_type?.attributes.map((a) => a.name)).toEqual(["mode"]);
  });

  it("turns block_types into NestedBlocks with their nesting mode", () => {
    expect(thing.block.block_types).toEqual([
      expect.objectContaining({ type_name: "rule", nesting: "LIST", min_items: 0, max_items: 0 }),
    ]);
    expect(thing.block.block_types[0].block.attributes[0]).toMatchObject({ name: "action", required: true });
  });

  it("derives the value type from attributes and blocks together", () => {
    const t = compiled.resources.get("tfp_thing")?.type;
    expect(t?.attributes.get("rule")).toEqual({ kind: "list", element: { kind: "object", attributes: new Map([["action", { kind: "string" }]]) } });
    expect(t?.attributes.get("settings")?.kind).toBe("object");
    expect(compiled.dataSources.get("tfp_thing_lookup")?.type.attributes.has("zone")).toBe(true);
  });

  it("passes write_only, deprecation and markdown descriptions through", () => {
    const s = schemaToProto("r", {
      block: {
        description: "**bold**",
        description_kind: "markdown",
        attributes: { key: { type: "string", optional: true, write_only: true, deprecated: true } },
      },
    });
    expect(s.block.description_kind).toBe("MARKDOWN");
    expect(s.block.attributes[0]).toMatchObject({ write_only: true, deprecated: true, description_kind: "PLAIN" });
  });
});

describe("schema mistakes are reported with their location", () => {
  const cases: [string, SchemaJson, RegExp][] = [
    ["no type", { block: { attributes: { a: { optional: true } } } }, /r\.a: exactly one of type and nested_type/],
    ["no flag", { block: { attributes: { a: { type: "string" } } } }, /r\.a: one of required, optional or computed/],
    ["required and computed", { block: { attributes: { a: { type: "string", required: true, computed: true } } } }, /r\.a: required excludes/],
    ["write-only computed", { block: { attributes: { a: { type: "string", optional: true, computed: true, write_only: true } } } }, /r\.a: a write-only attribute cannot be computed/],
    ["bad type", { block: { attributes: { a: { type: ["list"] as unknown as TypeJson, optional: true } } } }, /a: invalid type constraint/],
    ["bad primitive", { block: { attributes: { a: { type: "text", optional: true } } } }, /unknown primitive type "text"/],
    ["bad block nesting", { block: { block_types: { b: { nesting_mode: "bag", block: {} } } } }, /r\.b: unknown nesting_mode "bag"/],
  ];
  for (const [name, schema, message] of cases) {
    it(name, () => {
      expect(() => compileSchema(withResource(schema))).toThrow(SchemaError);
      expect(() => compileSchema(withResource(schema))).toThrow(message);
    });
  }

  it("requires a provider block", () => {
    expect(() => compileSchema({ provider: {} as SchemaJson, resource_schemas: {}, data_source_schemas: {} })).toThrow(/provider: a block is required/);
  });
});
