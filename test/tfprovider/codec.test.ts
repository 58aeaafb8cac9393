// The protocol codec (protobufjs's generated static code, scripts/generate-protocol.js)
// against protobufjs reading proto/*.proto at run time: the generated files match the
// .proto files, and messages keep the shape the provider reads (defaults, int64 as
// number, enums as names, oneofs).
import * as fs from "node:fs";
import * as path from "node:path";
import * as protobuf from "protobufjs";
import { describe, expect, it } from "vitest";
import { providersSchemaJson, PROVIDER_SOURCE } from "../../src/resources";
import { protocolCodec } from "../../src/tfprovider/protocol/definitions";
import { createProviderRpcs, providerSchemaResponse } from "../../src/tfprovider/provider-service";
import type { ProviderSchemaJson } from "../../src/tfprovider/schema-json";
import { compileSchema } from "../../src/tfprovider/schema-proto";
import { createLogger } from "../../src/tfprovider/protocol/log";
import { PreEncoded } from "../../src/tfprovider/protocol/codec";
import { THING_SCHEMA, thingProvider } from "./fixtures/thing-provider";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { generateAll, OUT_DIR } = require("../../scripts/generate-protocol.js") as { generateAll: (dir?: string) => Promise<Record<string, string>>; OUT_DIR: string };
const ROOT = path.resolve(__dirname, "../..");

function reference(): protobuf.Root {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => {
    const local = path.join(ROOT, "proto", target);
    return require("node:fs").existsSync(local) ? local : path.join(path.dirname(require.resolve("protobufjs/package.json")), target);
  };
  root.loadSync(["tfplugin6.proto", "go-plugin.proto", "grpc-health.proto"], { keepCase: true });
  return root;
}

const ref = reference();
const TO_OBJECT: protobuf.IConversionOptions = { longs: Number, enums: String, bytes: Buffer, defaults: true, oneofs: true };

/** Encodes with protobufjs; decodes with protobufjs, as a plain object. */
function refEncode(type: string, message: Record<string, unknown>): Buffer {
  const t = ref.lookupType(type);
  return Buffer.from(t.encode(t.fromObject(message)).finish());
}
function refDecode(type: string, bytes: Buffer): Record<string, unknown> {
  const t = ref.lookupType(type);
  return withoutSyntheticOneofs(t.toObject(t.decode(bytes), TO_OBJECT)) as Record<string, unknown>;
}

/** protobufjs names the synthetic oneof of a proto3 `optional` field ("_name"); nothing reads it. */
function withoutSyntheticOneofs(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutSyntheticOneofs);
  if (v && typeof v === "object" && !Buffer.isBuffer(v)) {
    return Object.fromEntries(Object.entries(v).filter(([k]) => !k.startsWith("_")).map(([k, x]) => [k, withoutSyntheticOneofs(x)]));
  }
  return v;
}

const ODS_SCHEMA = providersSchemaJson().provider_schemas[PROVIDER_SOURCE] as unknown as ProviderSchemaJson;

describe("protocol codec", () => {
  it("is generated from proto/*.proto as they are now (else run node scripts/generate-protocol.js)", async () => {
    const files = await generateAll(path.join(ROOT, "proto"));
    expect(Object.keys(files).sort()).toEqual(fs.readdirSync(OUT_DIR).sort());
    for (const [file, text] of Object.entries(files)) expect(fs.readFileSync(path.join(OUT_DIR, file), "utf8") === text, `${file} is stale`).toBe(true);
  });

  it("encodes the provider schema answer so that protobufjs reads the same message", () => {
    const message = providerSchemaResponse(compileSchema(ODS_SCHEMA));
    const type = "tfplugin6.GetProviderSchema.Response";
    const ours = protocolCodec.encode(type, message);
    expect(refDecode(type, ours)).toEqual(refDecode(type, refEncode(type, message)));
    expect(protocolCodec.decode(type, ours)).toEqual(refDecode(type, ours));
  });

  it("decodes requests as protobufjs does: defaults, bytes, int64, enums, maps and oneofs", () => {
    const cases: [string, Record<string, unknown>][] = [
      ["tfplugin6.PlanResourceChange.Request", { type_name: "ods_dataset", prior_state: { msgpack: Buffer.from([0xc0]) }, proposed_new_state: { msgpack: Buffer.from([0x81, 0xa1, 0x61, 0x01]) }, config: { json: Buffer.from("{}") }, prior_private: Buffer.from("p"), client_capabilities: { deferral_allowed: true, write_only_attributes_allowed: true } }],
      ["tfplugin6.UpgradeResourceState.Request", { type_name: "ods_role", version: 3, raw_state: { json: Buffer.from('{"a":1}'), flatmap: { "a.%": "1", "a.b": "2" } } }],
      ["tfplugin6.UpgradeResourceState.Request", { type_name: "x", version: -1 }],
      ["tfplugin6.UpgradeResourceState.Request", { type_name: "x", version: 2 ** 40 + 7 }],
      ["tfplugin6.ValidateResourceConfig.Response", { diagnostics: [{ severity: "ERROR", summary: "bad", detail: "d", attribute: { steps: [{ attribute_name: "a" }, { element_key_int: 0 }, { element_key_string: "" }] } }] }],
      ["tfplugin6.CallFunction.Response", { error: { text: "t", function_argument: 0 } }],
      ["tfplugin6.CallFunction.Response", { error: { text: "t" } }],
      ["tfplugin6.ConfigureProvider.Request", {}],
    ];
    for (const [type, message] of cases) {
      const theirs = refEncode(type, message);
      expect(protocolCodec.decode(type, theirs), type).toEqual(refDecode(type, theirs));
      expect(refDecode(type, protocolCodec.encode(type, message)), type).toEqual(refDecode(type, theirs));
    }
  });

  it("skips fields it does not know (a newer Terraform)", () => {
    const known = protocolCodec.encode("tfplugin6.ReadResource.Request", { type_name: "t" });
    const extra = Buffer.concat([known, Buffer.from([(14 << 3) | 2, 2, 0x61, 0x62, (13 << 3) | 0, 0x96, 0x01])]);
    expect(protocolCodec.decode("tfplugin6.ReadResource.Request", extra)).toEqual(protocolCodec.decode("tfplugin6.ReadResource.Request", known));
  });
});

describe("GetProviderSchema answer", () => {
  it("is encoded once per process, and equals a freshly built one", async () => {
    let schemaCalls = 0;
    const base = thingProvider();
    const rpcs = createProviderRpcs(
      {
        ...base,
        schema: () => {
          schemaCalls++;
          return base.schema();
        },
        configure: (r) => base.configure(r),
        readResource: (r) => base.readResource(r),
        planResourceChange: (r) => base.planResourceChange(r),
        applyResourceChange: (r) => base.applyResourceChange(r),
      },
      createLogger("error", () => undefined),
    );
    const first = await rpcs.handlers.GetProviderSchema({});
    const second = await rpcs.handlers.GetProviderSchema({});
    expect(first).toBeInstanceOf(PreEncoded);
    expect(second).toBe(first);
    expect(schemaCalls).toBe(1);
    const type = "tfplugin6.GetProviderSchema.Response";
    const fresh = protocolCodec.encode(type, providerSchemaResponse(compileSchema(THING_SCHEMA)));
    expect((first as unknown as PreEncoded).bytes).toEqual(fresh);
    expect(Object.keys(protocolCodec.decode(type, fresh).resource_schemas as object)).toEqual(["tfp_thing"]);
  });
});
