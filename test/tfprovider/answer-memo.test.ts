import { describe, expect, it } from "vitest";
import { AnswerMemo, requestKey } from "../../src/tfprovider/answer-memo";
import { PreEncoded } from "../../src/tfprovider/protocol/codec";
import { protocolCodec } from "../../src/tfprovider/protocol/definitions";
import { createLogger } from "../../src/tfprovider/protocol/log";
import type { ProviderImpl, RepeatableAnswers } from "../../src/tfprovider/provider-impl";
import { createProviderRpcs, type Message } from "../../src/tfprovider/provider-service";
import { compileSchema } from "../../src/tfprovider/schema-proto";
import { encodeDynamicValue, type TfObject } from "../../src/tfprovider/values";
import { THING_SCHEMA, thingProvider } from "./fixtures/thing-provider";

describe("AnswerMemo", () => {
  it("evicts the least recently used answers once their sizes pass the bound", () => {
    const memo = new AnswerMemo<string>(10);
    memo.set("a", "A", 4);
    memo.set("b", "B", 4);
    expect(memo.get("a")).toBe("A"); // a is now the most recently used
    memo.set("c", "C", 4);
    expect(memo.get("b")).toBeUndefined();
    expect(memo.get("a")).toBe("A");
    expect(memo.get("c")).toBe("C");
    expect(memo.bytes).toBe(8);
  });

  it("counts a replaced answer once and keeps nothing larger than the whole bound", () => {
    const memo = new AnswerMemo<string>(10);
    memo.set("a", "A", 6);
    memo.set("a", "A2", 3);
    expect(memo.bytes).toBe(3);
    expect(memo.get("a")).toBe("A2");
    memo.set("huge", "H", 11);
    expect(memo.get("huge")).toBeUndefined();
    expect(memo.get("a")).toBe("A2");
  });

  it("keys a request by its parts in the clear and a digest of its bytes, never the bytes", () => {
    const secret = Buffer.from("password=hunter2-very-secret");
    const key = requestKey("ValidateResourceConfig\0tfp_thing", secret);
    expect(key.startsWith("ValidateResourceConfig\0tfp_thing\0")).toBe(true);
    expect(key).not.toContain("hunter2");
    expect(requestKey("ValidateResourceConfig\0tfp_thing", Buffer.from(secret))).toBe(key);
    expect(requestKey("ValidateResourceConfig\0tfp_thing", Buffer.from("password=hunter3-very-secret"))).not.toBe(key);
  });
});

const THING_TYPE = compileSchema(THING_SCHEMA).resources.get("tfp_thing")!.type;
const quiet = createLogger("error", () => undefined);

/** A thing provider counting its validate and upgrade calls, with the given repeatable methods. */
function countingThings(repeatable?: RepeatableAnswers): { impl: () => ProviderImpl; calls: { validate: number; upgrade: number } } {
  const calls = { validate: 0, upgrade: 0 };
  const base = thingProvider();
  // One schema object per counter, shared by its instances as a process's are; a fresh one
  // per test, so that no test answers from another's memo.
  const schema = structuredClone(base.schema());
  const impl = (): ProviderImpl => ({
    ...base,
    schema: () => schema,
    repeatable,
    configure: (r) => base.configure(r),
    readResource: (r) => base.readResource(r),
    planResourceChange: (r) => base.planResourceChange(r),
    applyResourceChange: (r) => base.applyResourceChange(r),
    validateResourceConfig(typeName, config) {
      calls.validate++;
      return base.validateResourceConfig!(typeName, config);
    },
    upgradeResourceState({ rawState }) {
      calls.upgrade++;
      if (rawState.name === "explode") throw new Error("cannot upgrade this one");
      return { upgradedState: { ...emptyThing(), ...(rawState as TfObject) } };
    },
  });
  return { impl, calls };
}

function emptyThing(): TfObject {
  return { id: null, name: null, secret: null, zone: null, size: null, tags: null, ports: null, revision: null, settings: null, rule: [] };
}

function config(values: Partial<TfObject>): Message {
  return { type_name: "tfp_thing", config: encodeDynamicValue({ ...emptyThing(), ...values } as TfObject, THING_TYPE) };
}

function upgrade(version: number, state: Record<string, unknown>): Message {
  return { type_name: "tfp_thing", version, raw_state: { json: Buffer.from(JSON.stringify(state)) } };
}

/** An answer as Terraform reads it off the wire. */
function decoded(rpc: string, answer: Message): Record<string, unknown> {
  return protocolCodec.decode(`tfplugin6.${rpc}.Response`, protocolCodec.encode(`tfplugin6.${rpc}.Response`, answer as never));
}

describe("repeatable answers (ProviderImpl.repeatable)", () => {
  it("validates a configuration once per process, across instances, and answers a repeat with the same bytes", async () => {
    const { impl, calls } = countingThings({ validateResourceConfig: true });
    const first = createProviderRpcs(impl, quiet);
    const second = createProviderRpcs(impl, quiet); // another instance in the same process
    const a = await first.handlers.ValidateResourceConfig(config({ name: "web", secret: "s3cret" }));
    const b = await second.handlers.ValidateResourceConfig(config({ name: "web", secret: "s3cret" }));
    expect(calls.validate).toBe(1);
    expect(b).toBeInstanceOf(PreEncoded);
    expect(b).toBe(a);
    await first.handlers.ValidateResourceConfig(config({ name: "web", secret: "other" }));
    expect(calls.validate).toBe(2);
  });

  it("answers a repeated invalid configuration with its diagnostic again", async () => {
    const { impl, calls } = countingThings({ validateResourceConfig: true });
    const rpcs = createProviderRpcs(impl, quiet);
    for (let i = 0; i < 2; i++) {
      const answer = decoded("ValidateResourceConfig", await rpcs.handlers.ValidateResourceConfig(config({ name: " " })));
      expect(answer.diagnostics).toEqual([expect.objectContaining({ severity: "ERROR", summary: "name must not be blank" })]);
    }
    expect(calls.validate).toBe(1);
  });

  it("calls the method every time when the implementation does not declare it repeatable", async () => {
    const { impl, calls } = countingThings({ upgradeResourceState: true });
    const rpcs = createProviderRpcs(impl, quiet);
    await rpcs.handlers.ValidateResourceConfig(config({ name: "web" }));
    await rpcs.handlers.ValidateResourceConfig(config({ name: "web" }));
    expect(calls.validate).toBe(2);
    const plain = countingThings(undefined);
    const other = createProviderRpcs(plain.impl, quiet);
    await other.handlers.UpgradeResourceState(upgrade(1, { name: "web" }));
    await other.handlers.UpgradeResourceState(upgrade(1, { name: "web" }));
    expect(plain.calls.upgrade).toBe(2);
  });

  it("upgrades a stored state once per version and bytes, and never remembers a failure", async () => {
    const { impl, calls } = countingThings({ upgradeResourceState: true });
    const rpcs = createProviderRpcs(impl, quiet);
    const a = decoded("UpgradeResourceState", await rpcs.handlers.UpgradeResourceState(upgrade(1, { id: "t-1", name: "web" })));
    const b = decoded("UpgradeResourceState", await rpcs.handlers.UpgradeResourceState(upgrade(1, { id: "t-1", name: "web" })));
    expect(calls.upgrade).toBe(1);
    expect(b).toEqual(a);
    expect((a.upgraded_state as { msgpack: Buffer }).msgpack.length).toBeGreaterThan(0);
    await rpcs.handlers.UpgradeResourceState(upgrade(0, { id: "t-1", name: "web" })); // another version: another answer
    expect(calls.upgrade).toBe(2);
    for (let i = 0; i < 2; i++) {
      const failed = decoded("UpgradeResourceState", await rpcs.handlers.UpgradeResourceState(upgrade(1, { id: "t-2", name: "explode" })));
      expect(failed.diagnostics).toEqual([expect.objectContaining({ severity: "ERROR", detail: "cannot upgrade this one" })]);
    }
    expect(calls.upgrade).toBe(4);
  });
});
