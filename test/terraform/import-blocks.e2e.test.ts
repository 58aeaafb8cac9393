// Imports through `import` blocks, for every resource kind: objects made elsewhere (here by
// a first Terraform workspace) are imported into a fresh one whose configuration says what
// a user would write. The import plan adds and destroys nothing, the apply succeeds, and
// the plan after it is empty (exit code 0). A construct output of an imported token is a
// value, never null (cdktf deploy fails on a null output).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { removeTempDirs, tempDir } from "../helpers/ods-cli";
import { TerraformWorkspace, hasTerraform, installProvider, odsConfig } from "./harness";

let emu: EmulatorHandle;
let admin: OdsClient;
let cliConfig: string;

beforeAll(async () => {
  if (!hasTerraform) return;
  emu = await startEmulator({ port: 0, dataDir: tempDir("ods-emu-") });
  admin = new OdsClient({ url: emu.url, token: emu.adminToken });
  await admin.createDataset({ name: "imp-sample" });
  await admin.ingest("imp-sample", [{ duration_ms: 12, status: 200 }]);
  cliConfig = installProvider();
});
afterAll(async () => {
  await admin?.close();
  await emu?.close();
  removeTempDirs();
});

/** One of every kind, written as a user would: optional attributes left out where they can be. */
const RESOURCES = {
  ods_dataset: { logs: { name: "imp-logs", description: "imported logs", allow_destroy: true } },
  ods_dataset_field: { dur: { dataset: "imp-sample", name: "duration_ms", unit: "ms" } },
  // The dataset by reference, as a user writes it: Terraform then creates it first (a literal
  // name gives Terraform no order, and the two creates race).
  ods_virtual_field: { lat: { dataset: "${ods_dataset.logs.name}", name: "lat_s", expression: "duration_ms / 1000" } },
  ods_starred_query: { q: { dataset: "${ods_dataset.logs.name}", name: "imp query", query: { apl: "['imp-logs'] | take 5" } } },
  ods_notifier: { oncall: { name: "imp-oncall", properties: { email: { emails: ["oncall@example.com"] } } } },
  ods_monitor: {
    errors: {
      name: "imp-errors",
      type: "Threshold",
      apl_query: "['imp-logs'] | summarize count() by bin(_time, 1m)",
      operator: "Above",
      threshold: 3,
      interval_minutes: 1,
      range_minutes: 5,
      notifier_ids: ["${ods_notifier.oncall.id}"],
    },
  },
  ods_user: { bob: { email: "bob@example.com", name: "Bob", role: "user" } },
  ods_role: { readers: { name: "imp-readers", org_capabilities: { datasets: ["read"] } } },
  ods_api_token: { ci: { name: "imp-ci", org_capabilities: { datasets: ["read"] } } },
};

interface ShowJson {
  values?: { root_module?: { resources?: { type: string; name: string; values: Record<string, unknown> }[] } };
}

describe.skipIf(!hasTerraform)("import blocks for every kind", () => {
  it("plan nothing to add or destroy, apply, then plan no changes", async () => {
    const target = { url: emu.url, token: emu.adminToken };
    const maker = new TerraformWorkspace(cliConfig, target);
    maker.writeConfig(odsConfig({ resource: RESOURCES }));
    expect((await maker.run("init")).status).toBe(0);
    const made = await maker.run("apply", "-auto-approve");
    expect(made.status, made.out).toBe(0);
    const shown = JSON.parse((await maker.run("show", "-json")).out) as ShowJson;
    const resources = shown.values?.root_module?.resources ?? [];
    expect(resources).toHaveLength(Object.keys(RESOURCES).length);

    const importer = new TerraformWorkspace(cliConfig, target);
    const imports = resources.map((r) => ({
      to: `${r.type}.${r.name}`,
      id: r.type === "ods_dataset_field" ? `${String(r.values.dataset)}/${String(r.values.name)}` : String(r.values.id),
    }));
    importer.writeConfig({
      ...odsConfig({ resource: RESOURCES }),
      import: imports,
      output: { token: { value: "${ods_api_token.ci.token}", sensitive: true } },
    });
    expect((await importer.run("init")).status).toBe(0);
    const plan = await importer.run("plan");
    expect(plan.status, plan.out).toBe(0);
    expect(plan.out).toMatch(new RegExp(`Plan: ${imports.length} to import, 0 to add, \\d+ to change, 0 to destroy`));
    // Nothing but the provider's own setting (allow_destroy, never sent to the service) may change.
    const changing = [...plan.out.matchAll(/^\s+~ (\w+)\s+=/gm)].map((m) => m[1]).filter((a) => a !== "id");
    expect(changing.every((a) => a === "allow_destroy"), plan.out).toBe(true);

    const apply = await importer.run("apply", "-auto-approve");
    expect(apply.status, apply.out).toBe(0);
    const again = await importer.run("plan", "-detailed-exitcode");
    expect(again.status, again.out).toBe(0);
    const token = await importer.run("output", "-json", "token");
    expect(token.status, token.out).toBe(0);
    expect(JSON.parse(token.out)).not.toBeNull();
  }, 600_000);
});
