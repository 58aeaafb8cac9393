// Write-only twins of credentials: derived from the model's sensitive flags, served as
// Terraform 1.11 write_only attributes, refused beside their plain form, sent under the
// plain name, and sent again only when their version changes.
import { TerraformStack, Testing } from "cdktf";
import { describe, expect, it } from "vitest";
import { notifier, provider } from "../../src";
import { changedSinceLastApply, plannedValues } from "../../src/lifecycle";
import {
  type Attributes,
  credentialsWithoutTwins,
  providersSchemaJson,
  PROVIDER_SOURCE,
  resourceKind,
  RESOURCE_KINDS,
  str,
  toWire,
  validateDeclaration,
  withheldWriteOnly,
  withWriteOnlyTwins,
} from "../../src/resources";

const NOTIFIER = resourceKind("ods_notifier")!;

/** Every settable sensitive attribute of the model, by path: what the issue lists today. */
function suppliedCredentials(attrs: Attributes, prefix = ""): string[] {
  const out: string[] = [];
  for (const [name, a] of Object.entries(attrs)) {
    const path = prefix ? `${prefix}.${name}` : name;
    if (a.type === "object") out.push(...suppliedCredentials(a.attributes, path));
    else if ((a.required || a.optional) && (a.sensitive || a.secret) && !a.writeOnly) out.push(path);
  }
  return out;
}

describe("every credential a user supplies has a write-only twin", () => {
  it("no kind holds a sensitive settable attribute without <name>_wo and <name>_wo_version", () => {
    for (const kind of RESOURCE_KINDS) expect(credentialsWithoutTwins(kind.attributes), kind.typeName).toEqual([]);
  });

  it("covers the notifier's ten credentials", () => {
    expect(suppliedCredentials(NOTIFIER.attributes).sort()).toEqual([
      "properties.chat_a.chat_a_url",
      "properties.chat_b.chat_b_token",
      "properties.chat_b_webhook.chat_b_webhook_url",
      "properties.chat_c.chat_c_url",
      "properties.custom_webhook.secret_headers",
      "properties.custom_webhook.url",
      "properties.incident_a.api_key",
      "properties.incident_b.routing_key",
      "properties.incident_b.token",
      "properties.webhook.url",
    ]);
  });

  it("reports a credential declared without its twins", () => {
    const bare: Attributes = { key: str("A key.", { optional: true, sensitive: true }) };
    expect(credentialsWithoutTwins(bare)).toEqual(["key"]);
    expect(credentialsWithoutTwins(withWriteOnlyTwins(bare))).toEqual([]);
  });

  it("serves <name>_wo as write_only and sensitive, <name>_wo_version as a number, and the plain form as optional", () => {
    const schema = providersSchemaJson().provider_schemas[PROVIDER_SOURCE].resource_schemas.ods_notifier;
    const chatB = schema.block.attributes.properties.nested_type!.attributes.chat_b.nested_type!.attributes;
    expect(chatB.chat_b_token_wo).toMatchObject({ type: "string", optional: true, sensitive: true, write_only: true });
    expect(chatB.chat_b_token_wo.computed).toBeUndefined();
    expect(chatB.chat_b_token_wo_version).toMatchObject({ type: "number", optional: true });
    expect(chatB.chat_b_token_wo_version.write_only).toBeUndefined();
    expect(chatB.chat_b_token).toMatchObject({ optional: true, sensitive: true });
    expect(chatB.chat_b_token.required).toBeUndefined();
  });

  it("keeps write-only attributes out of the data sources", () => {
    const data = providersSchemaJson().provider_schemas[PROVIDER_SOURCE].data_source_schemas.ods_notifier;
    expect(JSON.stringify(data)).not.toContain("_wo");
  });
});

describe("validation", () => {
  const declare = (webhook: Record<string, unknown>) => ({ name: "n", properties: { webhook } });

  it("refuses <name> and <name>_wo together, naming the path", () => {
    const issues = validateDeclaration(NOTIFIER, declare({ url: "https://a.example/x", url_wo: "https://b.example/y" }));
    expect(issues).toEqual([{ path: ["properties", "webhook", "url"], message: expect.stringMatching(/and url_wo are both set; set exactly one/) }]);
  });

  it("requires one of them where <name> is required", () => {
    expect(validateDeclaration(NOTIFIER, declare({}))).toEqual([{ path: ["properties", "webhook", "url"], message: "is required: set url or its write-only form url_wo" }]);
    expect(validateDeclaration(NOTIFIER, declare({ url_wo: "https://b.example/y", url_wo_version: 1 }))).toEqual([]);
    expect(validateDeclaration(NOTIFIER, declare({ url: "https://a.example/x" }))).toEqual([]);
  });

  it("checks the write-only value like the plain one, never showing it", () => {
    const issues = validateDeclaration(NOTIFIER, declare({ url_wo: "ftp://secret-marker" }));
    expect(issues).toHaveLength(1);
    expect(issues[0].path).toEqual(["properties", "webhook", "url_wo"]);
    expect(issues[0].message).not.toContain("secret-marker");
  });

  it("is refused at synth, naming the construct's attribute", () => {
    const app = Testing.app();
    const stack = new TerraformStack(app, "s");
    new provider.OdsProvider(stack, "ods", {});
    new notifier.Notifier(stack, "both", { name: "both", properties: { chatB: { chatBChannel: "c", chatBToken: "t", chatBTokenWo: "w", chatBTokenWoVersion: 1 } } });
    expect(() => Testing.synth(stack, true)).toThrow(/attribute "properties\.chat_b\.chat_b_token" and chat_b_token_wo are both set/);
  });

  it("synthesizes the generated constructs' write-only properties under their schema names", () => {
    const app = Testing.app();
    const stack = new TerraformStack(app, "s");
    new provider.OdsProvider(stack, "ods", {});
    new notifier.Notifier(stack, "wo", { name: "wo", properties: { chatB: { chatBChannel: "c", chatBTokenWo: "w", chatBTokenWoVersion: 2 } } });
    const json = JSON.parse(Testing.synth(stack)) as { resource: { ods_notifier: Record<string, { properties: { chat_b: Record<string, unknown> } }> } };
    expect(json.resource.ods_notifier.wo.properties.chat_b).toMatchObject({ chat_b_channel: "c", chat_b_token_wo: "w", chat_b_token_wo_version: 2 });
  });
});

describe("what is sent, planned and compared", () => {
  const declared = { name: "n", properties: { chat_b: { chat_b_channel: "c", chat_b_token_wo: "tok-2", chat_b_token_wo_version: 1 } } };

  it("sends the write-only value under the plain name, and never the twin or its version", () => {
    expect(toWire(NOTIFIER.attributes, declared)).toEqual({ name: "n", properties: { chatB: { chatBChannel: "c", chatBToken: "tok-2" } } });
  });

  it("plans null for the write-only value, keeping its version", () => {
    const planned = plannedValues(NOTIFIER, { declared, prior: undefined, objectIsNew: true, anyChange: true, everyAttribute: false });
    expect(planned.properties).toEqual({ chat_b: { chat_b_channel: "c", chat_b_token_wo: null, chat_b_token_wo_version: 1 } });
  });

  const stored = { name: "n", properties: { chat_b: { chat_b_channel: "c", chat_b_token: null, chat_b_token_wo: null, chat_b_token_wo_version: 1 } } };

  it("plans no change for a changed value with the same version, and an update for a bumped one", () => {
    expect(changedSinceLastApply(NOTIFIER, declared, stored)).toEqual([]);
    const bumped = { ...declared, properties: { chat_b: { ...declared.properties.chat_b, chat_b_token_wo_version: 2 } } };
    expect(changedSinceLastApply(NOTIFIER, bumped, stored)).toEqual(["properties"]);
  });

  it("withholds the value on an update with the same version, and sends it when the version changed", () => {
    const same = withheldWriteOnly(NOTIFIER.attributes, declared, stored);
    expect((same.properties as { chat_b: Record<string, unknown> }).chat_b.chat_b_token_wo).toBeNull();
    const bumped = { ...declared, properties: { chat_b: { ...declared.properties.chat_b, chat_b_token_wo_version: 2 } } };
    expect(withheldWriteOnly(NOTIFIER.attributes, bumped, stored)).toBe(bumped);
  });

  it("plans an in-place update when a stack moves from the plain form to the write-only one", () => {
    const plain = { name: "n", properties: { chat_b: { chat_b_channel: "c", chat_b_token: "tok-1", chat_b_token_wo: null, chat_b_token_wo_version: null } } };
    expect(changedSinceLastApply(NOTIFIER, declared, plain)).toEqual(["properties"]);
    // The switch sends the write-only value once, whatever its version.
    expect(withheldWriteOnly(NOTIFIER.attributes, declared, plain)).toBe(declared);
  });
});
