// Values the service refuses are refused at plan, with zero writes, by both engines: the
// model's checks for what is known from the value alone, a live lookup for what only the
// service knows (a custom role id, an existing dataset field).
import { describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { makePlan, PlanError } from "../../src/reconcile/plan";
import { emptyState } from "../../src/reconcile/state";
import { loadStack } from "../../src/reconcile/stack";
import { writeStack } from "../helpers/ods-cli";
import { tempDir } from "../emulator/helpers";
import { odsApply, provider, tfState, useRig } from "./helpers";

const use = useRig();
const writes = (): number => use.rig.emu.requests().filter((r) => r.method !== "GET").length;
// A role first: it would be written before the refused value if the plan let it through.
const before = { ods_role: { first: { name: "sr-first" } } };

// The last element, where present: Terraform cannot refuse this at plan (it plans one
// resource at a time; the dataset may be created by another resource of the same apply).
const cases: [string, string, Record<string, unknown>, RegExp, "terraform plans it"?][] = [
  ["a dataset named ..", "ods_dataset", { name: ".." }, /not "\." or "\.\."/],
  ["a dataset name longer than the service allows", "ods_dataset", { name: "d".repeat(129) }, /at most 128 characters/],
  ["a float default_limit", "ods_starred_query", { dataset: "sr-logs", name: "q", query: { apl: "['sr-logs']", default_limit: 2.5 } }, /whole number, got 2.5/],
  ["an unknown user role", "ods_user", { email: "sr@example.com", name: "Sr", role: "superuser" }, /built-in role .* got "superuser"/],
  ["a field of a missing dataset", "ods_dataset_field", { dataset: "sr-missing", name: "status" }, /no dataset "sr-missing"/, "terraform plans it"],
  ["a missing field of a dataset", "ods_dataset_field", { dataset: "sr-logs", name: "nope" }, /field "nope" does not exist in dataset "sr-logs"/],
];

describe("values the service refuses", () => {
  for (const [what, type, values, message, terraformPlans] of cases) {
    it(`ods plan refuses ${what}, with zero writes`, async () => {
      if (!(await use.rig.admin.listDatasets()).some((d) => d.name === "sr-logs")) await use.rig.admin.createDataset({ name: "sr-logs", description: "" });
      const client = new OdsClient({ url: use.rig.emu.url, token: use.rig.emu.adminToken });
      const start = writes();
      try {
        const err = await odsApply(client, tempDir(), { resource: { ...before, [type]: { x: values } } }).then(() => undefined, (e: unknown) => e);
        expect(err).toBeInstanceOf(Error);
        expect((err as Error).message).toMatch(message);
        expect((err as Error).message).toContain(`${type}.x`);
        expect(writes()).toBe(start);
      } finally {
        await client.close();
      }
    });

    it(`terraform ${terraformPlans ? "plans" : "refuses"} ${what} before apply`, async () => {
      const p = provider(use.rig.emu.url, use.rig.emu.adminToken);
      const config = tfState(type, values);
      const start = writes();
      const invalid = p.validateResourceConfig(type, config);
      const planned = invalid.length > 0 ? { diagnostics: invalid } : await p.planResourceChange({ typeName: type, priorState: null, proposedNewState: config, config });
      const text = (planned.diagnostics ?? []).map((d) => `${d.summary}: ${d.detail ?? ""}`).join("\n");
      if (terraformPlans) expect(text).toBe("");
      else expect(text).toMatch(message);
      expect(writes()).toBe(start);
    });
  }

  it("a role given by a custom role's id passes", async () => {
    const role = await use.rig.admin.createRole({ name: "sr-custom", description: "", members: [] } as never);
    const p = provider(use.rig.emu.url, use.rig.emu.adminToken);
    const config = tfState("ods_user", { email: "sr2@example.com", name: "Sr", role: role.id });
    const planned = await p.planResourceChange({ typeName: "ods_user", priorState: null, proposedNewState: config, config });
    expect(planned.diagnostics ?? []).toEqual([]);
  });

  it("ods plan says before any write that a field claimed in a dataset the same plan creates will fail", async () => {
    const client = new OdsClient({ url: use.rig.emu.url, token: use.rig.emu.adminToken });
    const start = writes();
    try {
      const stack = loadStack(writeStack(tempDir(), {
        resource: { ods_dataset: { fresh: { name: "sr-fresh" } }, ods_dataset_field: { status: { dataset: "sr-fresh", name: "status", unit: "none" } } },
      }));
      const plan = await makePlan({ client, stack, state: emptyState() });
      expect(plan.changes.map((c) => c.action)).toEqual(["create", "create"]);
      expect(plan.warnings.join("\n")).toMatch(/ods_dataset_field\.status: its dataset "sr-fresh" is created by this plan \(ods_dataset\.fresh\).*will fail/);
      expect(writes()).toBe(start);
    } finally {
      await client.close();
    }
  });
});
