// An unset optional attribute that the service does not fill in itself means "none", as
// Terraform reads it: a privilege granted by hand to a role that declares no
// org_capabilities is drift for `ods drift`, a change for `ods plan` and `ods compare`,
// and `ods apply` removes it. What the service fills in (computed attributes) stays its own.
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { runOds, stackFlags, tempDir, writeStack } from "../helpers/ods-cli";
import { useRig } from "../lifecycle/helpers";

const use = useRig();

describe("an unset optional attribute", () => {
  it("compares as empty: a hand-made grant shows as drift and apply removes it", async () => {
    const dir = tempDir();
    const env = { ODS_URL: use.rig.emu.url, ODS_TOKEN: use.rig.emu.adminToken };
    const ods = (args: string[]): ReturnType<typeof runOds> => runOds([...args, ...stackFlags(dir)], { env });
    writeStack(dir, {
      resource: {
        ods_dataset: { logs: { name: "unset-logs", allow_destroy: true } },
        ods_role: { readers: { name: "unset-readers", dataset_capabilities: { "unset-logs": { query: ["read"] } }, depends_on: ["ods_dataset.logs"] } },
        // who is filled in by the service (the caller): unset, it stays the service's.
        ods_starred_query: { q: { dataset: "${ods_dataset.logs.name}", name: "unset-q", query: { apl: "['unset-logs']" } } },
      },
    });
    const first = await ods(["apply", "--auto-approve"]);
    expect(first.code, first.stderr).toBe(0);
    expect((await ods(["plan", "--detailed-exitcode"])).code).toBe(0);

    const role = (await use.rig.admin.listRoles()).find((r) => r.name === "unset-readers")!;
    await use.rig.admin.updateRole(role.id, { ...role, orgCapabilities: { datasets: ["read", "delete"], apiTokens: ["create"] } });

    const drift = await ods(["drift"]);
    expect(drift.code, drift.stdout + drift.stderr).toBe(2);
    expect(drift.stdout).toContain("ods_role.readers.org_capabilities");
    const plan = await ods(["plan", "--detailed-exitcode", "--json"]);
    expect(plan.code).toBe(2);
    const changes = (JSON.parse(plan.stdout) as { resource_changes: { address: string; action: string; changed_attributes: string[] }[] }).resource_changes.filter((c) => c.action !== "noop");
    expect(changes.map((c) => [c.address, c.action, c.changed_attributes])).toEqual([["ods_role.readers", "update", ["org_capabilities"]]]);
    const compare = await runOds(["compare", "--from", path.join(dir, "cdktf.out/stacks/main"), "--to", use.rig.emu.url, "--to-token-env", "DST_TOKEN"], {
      env: { ...env, DST_TOKEN: use.rig.emu.adminToken },
    });
    expect(compare.stdout).toMatch(/ods_role "unset-readers"[\s\S]*org_capabilities/);

    const fix = await ods(["apply", "--auto-approve"]);
    expect(fix.code, fix.stderr).toBe(0);
    expect(fix.stdout).toMatch(/1 updated/);
    const after = (await use.rig.admin.listRoles()).find((r) => r.name === "unset-readers")!;
    expect(after.orgCapabilities ?? {}).toEqual({});
    expect(after.datasetCapabilities).toEqual({ "unset-logs": { query: ["read"] } });
    expect((await ods(["drift"])).code).toBe(0);
    expect((await ods(["plan", "--detailed-exitcode"])).code).toBe(0);
  });
});
