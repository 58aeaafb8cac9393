// Hand-edited state entries: an entry that cannot name its object is a clear error naming
// it; missing or null parts are read as empty, and a plan works from them.
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { parseState, StateError } from "../../src/reconcile/state";
import { makePlan } from "../../src/reconcile/plan";
import { loadStack } from "../../src/reconcile/stack";
import { OdsClient } from "../../src/api";
import { tempDir } from "../emulator/helpers";
import { writeStack } from "../helpers/ods-cli";
import { useRig } from "../lifecycle/helpers";

const use = useRig();

// Entries as the previous ods format kept them (a hand-edited file is read, then converted).
function stateWith(resources: Record<string, unknown>): string {
  const file = path.join(tempDir(), "state.json");
  fs.writeFileSync(file, JSON.stringify({ formatVersion: 1, lineage: "l", serial: 1, fingerprintSalt: "s", resources, outputs: {} }));
  return file;
}

const readState = (file: string) => parseState(fs.readFileSync(file, "utf8"), file);

describe("hand-edited state entries", () => {
  it("a null entry or one without an id is an error naming it", () => {
    expect(() => readState(stateWith({ "ods_role.r": null }))).toThrow(StateError);
    expect(() => readState(stateWith({ "ods_role.r": null }))).toThrow(/the entry ods_role\.r is null/);
    expect(() => readState(stateWith({ "ods_role.r": { typeName: "ods_role", values: {} } }))).toThrow(/the entry ods_role\.r has no id/);
  });

  it("values: null, no engineValues, no fingerprints: a plan still works from the live object", async () => {
    const role = await use.rig.admin.createRole({ name: "hand-edited", description: "", members: [] } as never);
    const token = await use.rig.admin.createToken({ name: "hand-edited-token", description: "" } as never);
    const state = readState(stateWith({
      "ods_role.r": { typeName: "ods_role", id: role.id, values: null },
      "ods_api_token.t": { typeName: "ods_api_token", id: token.id, values: {}, sensitive: { token: "x" } },
    }));
    const dir = tempDir();
    const stack = loadStack(writeStack(dir, { resource: { ods_role: { r: { name: "hand-edited" } }, ods_api_token: { t: { name: "hand-edited-token" } } } }));
    const client = new OdsClient({ url: use.rig.emu.url, token: use.rig.emu.adminToken });
    try {
      const plan = await makePlan({ client, stack, state });
      expect(Object.fromEntries(plan.changes.map((c) => [c.address, c.action]))).toMatchObject({ "ods_role.r": "noop" });
      expect(plan.changes.find((c) => c.address === "ods_api_token.t")?.id).toBe(token.id);
    } finally {
      await client.close();
    }
  });
});
