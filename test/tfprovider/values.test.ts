import { decode, encode, ExtData } from "@msgpack/msgpack";
import { describe, expect, it } from "vitest";
import type { BlockJson } from "../../src/tfprovider/schema-json";
import { blockType } from "../../src/tfprovider/tf-types";
import {
  conformRawState,
  decodeDynamicValue,
  encodeDynamicValue,
  findUnknown,
  isUnknown,
  type TfObject,
  UNKNOWN,
  Unknown,
  ValueError,
} from "../../src/tfprovider/values";

const BLOCK: BlockJson = {
  attributes: {
    id: { type: "string", computed: true },
    name: { type: "string", required: true },
    count: { type: "number", optional: true },
    enabled: { type: "bool", optional: true },
    emails: { type: ["set", "string"], optional: true },
    headers: { type: ["map", "string"], optional: true },
    matrix: { type: ["list", ["list", "number"]], optional: true },
    point: { type: ["object", { x: "number", y: "number" }], optional: true },
    extra: { type: "dynamic", optional: true },
    token: { type: "string", optional: true, write_only: true },
    chat: {
      optional: true,
      nested_type: { nesting_mode: "single", attributes: { url: { type: "string", optional: true }, token: { type: "string", optional: true } } },
    },
  },
  block_types: {
    rule: { nesting_mode: "list", block: { attributes: { action: { type: "string", required: true } } } },
    limits: { nesting_mode: "single", block: { attributes: { max: { type: "number", optional: true } } } },
  },
};
const TYPE = blockType(BLOCK);

const nulls = (): Record<string, unknown> => Object.fromEntries([...TYPE.attributes.keys()].map((k) => [k, null]));

/** What Terraform would send: a msgpack map of every attribute. */
function wire(values: Record<string, unknown>): { msgpack: Uint8Array } {
  return { msgpack: encode({ ...nulls(), ...values }, { useBigInt64: true }) };
}

function roundTrip(value: TfObject): Record<string, unknown> {
  return decode(encodeDynamicValue(value, TYPE).msgpack, { useBigInt64: true }) as Record<string, unknown>;
}

describe("decoding Terraform values", () => {
  it("turns a msgpack object into plain values with every attribute present", () => {
    const v = decodeDynamicValue(
      wire({
        name: "alpha",
        count: 3,
        enabled: true,
        emails: ["a@x.io", "b@x.io"],
        headers: { "X-Team": "sre" },
        matrix: [[1, 2], [3]],
        point: { x: 1.5, y: -2 },
        chat: { url: "https://chat", token: null },
        rule: [{ action: "allow" }, { action: "deny" }],
      }),
      TYPE,
    ) as TfObject;
    expect(v).toEqual({
      ...nulls(),
      name: "alpha",
      count: 3,
      enabled: true,
      emails: ["a@x.io", "b@x.io"],
      headers: { "X-Team": "sre" },
      matrix: [[1, 2], [3]],
      point: { x: 1.5, y: -2 },
      chat: { url: "https://chat", token: null },
      rule: [{ action: "allow" }, { action: "deny" }],
    });
  });

  it("reads extension 0 as the plain unknown marker", () => {
    const v = decodeDynamicValue(wire({ name: "n", id: new ExtData(0, new Uint8Array([0])) }), TYPE) as TfObject;
    expect(isUnknown(v.id)).toBe(true);
    expect(v.id).toBe(UNKNOWN);
    expect(findUnknown(v)).toEqual(["id"]);
  });

  it("reads extension 12 (refined unknown) with its refinements, and sends it back unchanged", () => {
    const refinements = encode({ 1: false, 2: "beta-" });
    const v = decodeDynamicValue(wire({ name: new ExtData(12, refinements) }), TYPE) as TfObject;
    expect(isUnknown(v.name)).toBe(true);
    expect((v.name as Unknown).refinements).toEqual({ notNull: true, prefix: "beta-" });
    const out = roundTrip(v);
    expect(out.name).toBeInstanceOf(ExtData);
    expect((out.name as ExtData).type).toBe(12);
    expect(Buffer.from((out.name as ExtData).data as Uint8Array)).toEqual(Buffer.from(refinements));
  });

  it("treats any other extension type as unknown too", () => {
    const v = decodeDynamicValue(wire({ name: "n", count: new ExtData(7, new Uint8Array([1, 2, 3])) }), TYPE) as TfObject;
    expect(isUnknown(v.count)).toBe(true);
    expect(findUnknown(v)).toEqual(["count"]);
  });

  it("finds unknowns nested inside collections and blocks", () => {
    const v = decodeDynamicValue(wire({ name: "n", rule: [{ action: "allow" }, { action: new ExtData(0, new Uint8Array([0])) }] }), TYPE) as TfObject;
    expect(findUnknown(v)).toEqual(["rule", 1, "action"]);
  });

  it("keeps numbers exact: big integers become bigint, numeric strings are parsed", () => {
    const big = 2n ** 60n + 1n;
    const v = decodeDynamicValue(wire({ name: "n", count: big, point: { x: "123456789012345678901234567890", y: "0.25" } }), TYPE) as TfObject;
    expect(v.count).toBe(big);
    expect(v.point).toEqual({ x: 123456789012345678901234567890n, y: 0.25 });
    expect(decodeDynamicValue(wire({ name: "n", count: 2n ** 40n }), TYPE)).toMatchObject({ count: 2 ** 40 });
  });

  it("decodes the JSON form when msgpack is absent, and an empty DynamicValue as null", () => {
    const json = Buffer.from(JSON.stringify({ ...nulls(), name: "from-json", extra: { type: ["list", "string"], value: ["a"] } }));
    expect(decodeDynamicValue({ json }, TYPE)).toMatchObject({ name: "from-json", extra: ["a"] });
    expect(decodeDynamicValue({ msgpack: new Uint8Array(0), json: new Uint8Array(0) }, TYPE)).toBeNull();
    expect(decodeDynamicValue({ msgpack: encode(null) }, TYPE)).toBeNull();
  });

  it("decodes a dynamic value by the type Terraform sends beside it", () => {
    const v = decodeDynamicValue(wire({ name: "n", extra: [Buffer.from(JSON.stringify(["map", "number"])), { a: 1, b: 2.5 }] }), TYPE) as TfObject;
    expect(v.extra).toEqual({ a: 1, b: 2.5 });
  });

  it("names the attribute when Terraform's value does not fit the schema", () => {
    expect(() => decodeDynamicValue(wire({ name: "n", point: { x: "not-a-number", y: 1 } }), TYPE)).toThrow(/point\.x: expected a number/);
  });
});

describe("encoding values for Terraform", () => {
  it("writes every schema attribute, null when the implementation left it out", () => {
    const out = roundTrip({ name: "alpha" });
    expect(Object.keys(out).sort()).toEqual([...TYPE.attributes.keys()].sort());
    expect(out.name).toBe("alpha");
    expect(out.count).toBeNull();
    expect(out.rule).toBeNull();
  });

  it("writes integers as msgpack ints and fractions as floats", () => {
    const intBytes = encodeDynamicValue({ name: "n", count: 5 }, TYPE).msgpack;
    const floatBytes = encodeDynamicValue({ name: "n", count: 2.5 }, TYPE).msgpack;
    // count is the only number: 5 is positive fixint 0x05; 2.5 needs float64 (0xcb).
    expect(Buffer.from(intBytes).includes(Buffer.from([0xa5, ...Buffer.from("count"), 0x05]))).toBe(true);
    expect(Buffer.from(floatBytes).includes(Buffer.from([0xa5, ...Buffer.from("count"), 0xcb]))).toBe(true);
  });

  it("writes numbers beyond 64 bits as decimal strings, which Terraform accepts", () => {
    const huge = 2n ** 70n;
    expect(roundTrip({ name: "n", count: huge }).count).toBe(huge.toString());
    expect(roundTrip({ name: "n", count: 2n ** 62n }).count).toBe(2n ** 62n);
  });

  it("writes unknown as extension 0", () => {
    const out = roundTrip({ name: "n", id: UNKNOWN });
    expect(out.id).toBeInstanceOf(ExtData);
    expect((out.id as ExtData).type).toBe(0);
  });

  it("writes sets and lists as arrays and maps as maps", () => {
    const out = roundTrip({ name: "n", emails: new Set(["a", "b"]) as never, headers: { k: "v" }, matrix: [[1], [2, 3]] });
    expect(out.emails).toEqual(["a", "b"]);
    expect(out.headers).toEqual({ k: "v" });
    expect(out.matrix).toEqual([[1], [2, 3]]);
  });

  it("fills nested objects and blocks with every attribute too", () => {
    const out = roundTrip({ name: "n", chat: { url: "u" }, rule: [{ action: "allow" }], limits: {} });
    expect(out.chat).toEqual({ url: "u", token: null });
    expect(out.rule).toEqual([{ action: "allow" }]);
    expect(out.limits).toEqual({ max: null });
  });

  it("never sends a write-only value back", () => {
    expect(roundTrip({ name: "n", token: "s3cret" }).token).toBeNull();
  });

  it("converts primitives the way Terraform would, and rejects what it cannot convert", () => {
    expect(roundTrip({ name: 42 as never, enabled: "true" as never }).name).toBe("42");
    expect(roundTrip({ name: "n", enabled: "false" as never }).enabled).toBe(false);
    expect(() => encodeDynamicValue({ name: "n", count: "ten" }, TYPE)).toThrow(/count: expected a number/);
    expect(() => encodeDynamicValue({ name: "n", headers: ["x"] }, TYPE)).toThrow(/headers: expected map/);
  });

  it("rejects attributes the schema does not declare, naming the path", () => {
    let caught: unknown;
    try {
      encodeDynamicValue({ name: "n", chat: { url: "u", colour: "red" } }, TYPE);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ValueError);
    expect((caught as ValueError).path).toEqual(["chat", "colour"]);
  });

  it("infers the type of a dynamic attribute from the value", () => {
    const out = roundTrip({ name: "n", extra: { a: "x", b: [1, true] } });
    const [typeBytes, value] = out.extra as [Uint8Array, unknown];
    expect(JSON.parse(Buffer.from(typeBytes).toString())).toEqual(["object", { a: "string", b: ["tuple", ["number", "bool"]] }]);
    expect(value).toEqual({ a: "x", b: [1, true] });
  });

  it("keeps a map key named __proto__ as an ordinary key", () => {
    const headers = JSON.parse('{"__proto__":"p","k":"v"}') as TfObject;
    const bytes = Buffer.from(encodeDynamicValue({ name: "n", headers }, TYPE).msgpack);
    expect(bytes.includes(Buffer.from("__proto__"))).toBe(true);
  });
});

describe("reading stored state under the current schema", () => {
  it("drops removed attributes, nulls new ones and converts old primitive types", () => {
    const v = conformRawState({ id: "t-1", name: "alpha", count: "7", enabled: "true", gone: "x", extra: { type: "string", value: "s" } }, TYPE) as TfObject;
    expect(v).toEqual({ ...nulls(), id: "t-1", name: "alpha", count: 7, enabled: true, extra: "s" });
  });

  it("still rejects a value that cannot be converted", () => {
    expect(() => conformRawState({ name: "n", emails: "not-a-list" }, TYPE)).toThrow(/emails: expected set/);
  });
});
