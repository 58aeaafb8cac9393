// The emulator and the resource model each carry the capability tables of
// docs/service-contract.md (section 3), as separate code on purpose: the emulator must
// not borrow from the model, or a mistake in one would cancel out in every test. This
// test is where the two meet: it fails when they disagree on a part, a key (as the
// model puts it on the wire) or an action.
import { describe, expect, it } from "vitest";
import { DATASET_ACTIONS, ORG_ACTIONS, VIEW_ACTIONS } from "../../src/emulator/capabilities";
import { wireName, type Attribute } from "../../src/resources/attributes";
import {
  capabilityAttributes,
  DATASET_CAPABILITY_ACTIONS,
  ORG_CAPABILITY_ACTIONS,
  VIEW_CAPABILITY_ACTIONS,
} from "../../src/resources/capabilities";

type Table = Readonly<Record<string, readonly string[]>>;

const EMULATOR: Readonly<Record<string, Table>> = {
  orgCapabilities: ORG_ACTIONS,
  datasetCapabilities: DATASET_ACTIONS,
  viewCapabilities: VIEW_ACTIONS,
};

/** The model's action table for each of its capability attributes. */
const MODEL_ACTIONS: Readonly<Record<string, Table>> = {
  org_capabilities: ORG_CAPABILITY_ACTIONS,
  dataset_capabilities: DATASET_CAPABILITY_ACTIONS,
  view_capabilities: VIEW_CAPABILITY_ACTIONS,
};

function sorted(table: Table): Record<string, string[]> {
  return Object.fromEntries(Object.entries(table).map(([key, actions]) => [key, [...actions].sort()]));
}

/** Wire part name -> wire key -> sorted actions, as the model declares and sends them. */
function modelTables(): Record<string, Record<string, string[]>> {
  const out: Record<string, Record<string, string[]>> = {};
  for (const [name, attr] of Object.entries(capabilityAttributes()) as [string, Attribute][]) {
    expect(attr.type === "object" || attr.type === "object_map", `${name} is a nested attribute`).toBe(true);
    if (!("attributes" in attr)) continue;
    const actions = MODEL_ACTIONS[name];
    expect(actions, `an action table for ${name}`).toBeDefined();
    expect(Object.keys(attr.attributes).sort()).toEqual(Object.keys(actions!).sort());
    out[wireName(name, attr)] = Object.fromEntries(
      Object.entries(attr.attributes).map(([key, inner]) => [wireName(key, inner), [...actions![key]!].sort()]),
    );
  }
  return out;
}

describe("capability tables of the emulator and the model", () => {
  it("name the same three parts on the wire", () => {
    expect(Object.keys(modelTables()).sort()).toEqual(Object.keys(EMULATOR).sort());
  });

  it.each(Object.keys(EMULATOR))("%s: the same keys with the same actions", (part) => {
    expect(modelTables()[part]).toEqual(sorted(EMULATOR[part]!));
  });
});
