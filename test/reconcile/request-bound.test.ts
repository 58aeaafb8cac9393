// `ods apply` makes exactly the writes, the plan's lower-bound reads (one list per kind,
// one per dataset for per-dataset kinds, and one read of the organization per provider
// configuration: the plan names its target and checks the state belongs to it) and one
// check per query it writes: no list repeated for adoption or for the convergence check
// (the writes' answers are compared), no read before a dataset field's write.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { removeTempDirs, runOds, stackFlags, tempDir, writeStack, type StackSpec } from "../helpers/ods-cli";

let emu: EmulatorHandle;
let admin: OdsClient;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, dataDir: tempDir("ods-emu-") });
  admin = new OdsClient({ url: emu.url, token: emu.adminToken });
  // A dataset holding data (adopted by the stack), whose fields ingest created.
  await admin.createDataset({ name: "bound-logs", description: "made outside" });
  await admin.ingest("bound-logs", [{ duration_ms: 12, route: "/a" }, { duration_ms: 30, route: "/b" }]);
});
afterAll(async () => {
  await admin.close();
  await emu.close();
  removeTempDirs();
});

function stack(revision: string): StackSpec {
  return {
    resource: {
      ods_dataset: { logs: { name: "bound-logs", description: `logs ${revision}`, allow_destroy: true } },
      ods_dataset_field: {
        duration: { dataset: "bound-logs", name: "duration_ms", description: `request time ${revision}`, unit: "ms", depends_on: ["ods_dataset.logs"] },
      },
      ods_virtual_field: { secs: { dataset: "${ods_dataset.logs.name}", name: "secs", expression: "duration_ms / 1000", description: revision, type: "float" } },
      ods_starred_query: { slow: { dataset: "${ods_dataset.logs.name}", name: "slow", query: { apl: `['bound-logs'] | where duration_ms > 20 | count` }, metadata: { rev: revision } } },
      ods_role: { readers: { name: "bound-readers", description: `readers ${revision}`, depends_on: ["ods_dataset.logs"] } },
    },
  };
}

const isQuery = (r: { method: string; path: string }) => r.method === "POST" && r.path === "/v1/datasets/_apl";

describe("ods apply request bound", () => {
  it("makes only the writes, the lower-bound lists and the query checks, from empty and for a change", async () => {
    const dir = tempDir();
    const env = { ODS_URL: emu.url, ODS_TOKEN: emu.adminToken };
    // Lower bound: the organization (the target's identity); datasets, roles
    // (organization-wide); dataset fields, virtual fields, starred queries in the one dataset.
    const lists = 6;
    for (const revision of ["one", "two"]) {
      writeStack(dir, stack(revision));
      emu.resetRequests();
      const r = await runOds(["apply", "--auto-approve", ...stackFlags(dir)], { env });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).not.toMatch(/did not converge|not found after apply/);
      const requests = emu.requests();
      const reads = requests.filter((q) => q.method === "GET");
      const writes = requests.filter((q) => q.method !== "GET" && !isQuery(q));
      const checks = requests.filter(isQuery);
      // The starred query and the virtual field are written both times: one check each.
      expect(checks).toHaveLength(2);
      // Only lists and the target's organization: no single-object read.
      expect(reads.map((q) => q.path).sort()).toEqual(["/v2/apl-starred-queries", "/v2/datasets", "/v2/datasets/bound-logs/fields", "/v2/orgs", "/v2/rbac/roles", "/v2/vfields"]);
      expect(requests).toHaveLength(writes.length + lists + checks.length);
      // Every declared object was written (adopted dataset updated, field claimed, the rest created, then changed).
      expect(writes.length).toBe(5);
      expect(requests.every((q) => q.status < 300)).toBe(true);
    }
    // The claimed field kept what the service inferred and took the declared metadata.
    const field = (await admin.listDatasetFields("bound-logs")).find((f) => f.name === "duration_ms");
    expect(field).toMatchObject({ description: "request time two", unit: "ms" });
    expect(field?.type).not.toBe("");
    const plan = await runOds(["plan", "--detailed-exitcode", ...stackFlags(dir)], { env });
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });
});
