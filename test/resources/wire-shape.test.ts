// The request bodies the model builds match the wire types of src/api/types.ts: a body
// with every settable attribute of a kind carries only keys its wire type declares.
import { describe, expect, it } from "vitest";
import { requestBody } from "../../src/lifecycle";
import { RESOURCE_KINDS, isNested, isSettable, type Attribute, type Attributes, type Values } from "../../src/resources";

function sample(attr: Attribute): unknown {
  if (isNested(attr)) {
    const one = everything(attr.attributes);
    return attr.type === "object" ? one : attr.type === "object_list" ? [one] : { key: one };
  }
  const primitive = attr.type === "list" || attr.type === "set" || attr.type === "map" ? attr.element : attr.type;
  const v = primitive === "string" ? "x" : primitive === "number" ? 1 : true;
  return attr.type === "list" || attr.type === "set" ? [v] : attr.type === "map" ? { key: v } : v;
}

function everything(attrs: Attributes): Values {
  const out: Values = {};
  for (const [name, attr] of Object.entries(attrs)) if (isSettable(attr)) out[name] = sample(attr);
  return out;
}

describe("wire shape", () => {
  it.each(RESOURCE_KINDS.map((k) => [k.typeName, k] as const))("%s bodies carry only keys of their wire types", (_name, kind) => {
    const values = everything(kind.attributes);
    expect(Object.keys(requestBody(kind, values, "create")).filter((k) => !kind.api.wireKeys.create.includes(k))).toEqual([]);
    expect(Object.keys(requestBody(kind, values, "update")).filter((k) => !kind.api.wireKeys.update.includes(k))).toEqual([]);
  });
});
