// A map key that is a reference (`datasetCapabilities: { [logs.name]: ... }` synthesizes
// the key "${ods_dataset.logs.name}") is resolved like a value by `ods apply`, and the
// dependency graph orders it like a value: the service sees the dataset's real name.
import { describe, expect, it } from "vitest";
import { UNKNOWN, evaluate, referencesIn, substitute } from "../../src/reconcile/expressions";
import { runOds, stackFlags, tempDir, writeStack, type StackSpec } from "../helpers/ods-cli";
import { useRig } from "../lifecycle/helpers";

describe("references in map keys", () => {
  const lookup = (r: { address: string; path: (string | number)[] }): unknown => (r.address === "ods_dataset.logs" ? "logs-1" : UNKNOWN);

  it("are found for the dependency graph", () => {
    expect(referencesIn({ "${ods_dataset.logs.name}": { query: ["read"] } }).map((r) => r.address)).toEqual(["ods_dataset.logs"]);
  });

  it("evaluate to the referenced value, and a key not known yet makes the map unknown", () => {
    expect(evaluate({ "${ods_dataset.logs.name}": { query: ["read"] }, "pre-${ods_dataset.logs.name}": {} }, lookup)).toEqual({
      "logs-1": { query: ["read"] },
      "pre-logs-1": {},
    });
    expect(evaluate({ "${ods_dataset.new.name}": { query: ["read"] } }, lookup)).toBe(UNKNOWN);
  });

  it("take variables like values", () => {
    expect(substitute({ "${var.ds}": 1 }, (inner) => (inner === "var.ds" ? { value: "from-var" } : undefined))).toEqual({ "from-var": 1 });
  });
});

const use = useRig();

function stack(datasetName: string): StackSpec {
  // No depends_on: only the key says that the role and the token need the dataset.
  return {
    resource: {
      ods_dataset: { logs: { name: datasetName, allow_destroy: true } },
      ods_role: { readers: { name: "keyed-readers", dataset_capabilities: { "${ods_dataset.logs.name}": { query: ["read"] } } } },
      ods_api_token: { ci: { name: "keyed-ci", dataset_capabilities: { "${ods_dataset.logs.name}": { ingest: ["create"] } } } },
    },
  };
}

describe("ods apply of capabilities keyed by a dataset the stack creates", () => {
  it("grants on the dataset's name, plans no change after, and follows a rename", async () => {
    const dir = tempDir();
    const env = { ODS_URL: use.rig.emu.url, ODS_TOKEN: use.rig.emu.adminToken };
    writeStack(dir, stack("keyed-logs"));
    const apply = await runOds(["apply", "--auto-approve", ...stackFlags(dir)], { env });
    expect(apply.code, apply.stderr).toBe(0);
    const role = (await use.rig.admin.listRoles()).find((r) => r.name === "keyed-readers");
    expect(role?.datasetCapabilities).toEqual({ "keyed-logs": { query: ["read"] } });
    const token = (await use.rig.admin.listTokens()).find((t) => t.name === "keyed-ci");
    expect(token?.datasetCapabilities).toEqual({ "keyed-logs": { ingest: ["create"] } });
    const again = await runOds(["plan", "--detailed-exitcode", ...stackFlags(dir)], { env });
    expect(again.code, again.stdout + again.stderr).toBe(0);

    writeStack(dir, stack("keyed-logs-2"));
    const plan = await runOds(["plan", ...stackFlags(dir)], { env });
    expect(plan.stdout).toContain("ods_role.readers");
    const rename = await runOds(["apply", "--auto-approve", ...stackFlags(dir)], { env });
    expect(rename.code, rename.stderr).toBe(0);
    expect((await use.rig.admin.listRoles()).find((r) => r.name === "keyed-readers")?.datasetCapabilities).toEqual({ "keyed-logs-2": { query: ["read"] } });
  });
});
