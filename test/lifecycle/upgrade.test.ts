// State upgraders keyed by schema version, run in order from the stored version.
import { describe, expect, it } from "vitest";
import { StateUpgradeError, upgradeValues } from "../../src/lifecycle";
import { role } from "../../src/resources/role";
import type { ResourceKind } from "../../src/resources";

const renamed: ResourceKind = {
  ...role,
  schemaVersion: 2,
  stateUpgraders: {
    0: (v) => ({ ...v, description: v.desc ?? null, desc: undefined }),
    1: (v) => ({ ...v, members: v.members ?? [] }),
  },
};

describe("state upgrades", () => {
  it("applies every upgrader from the stored version to the current one", () => {
    expect(upgradeValues(renamed, { name: "r", desc: "d" }, 0)).toMatchObject({ name: "r", description: "d", members: [] });
    expect(upgradeValues(renamed, { name: "r", members: ["u"] }, 1)).toMatchObject({ members: ["u"] });
    expect(upgradeValues(renamed, { name: "r" }, 2)).toEqual({ name: "r" });
  });

  it("refuses a state from a newer version and a missing step, by name", () => {
    expect(() => upgradeValues(renamed, {}, 3)).toThrow(StateUpgradeError);
    expect(() => upgradeValues({ ...renamed, stateUpgraders: {} }, {}, 0)).toThrow(/no state upgrader from schema version 0/);
  });
});
