// The list data sources (ods_notifiers, ods_roles, ods_virtual_fields,
// ods_starred_queries, ods_monitors) with their filters, and ods_monitor by name, read by
// both engines from one emulator.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { removeTempDirs, runOds, stackFlags, tempDir, writeStack } from "../helpers/ods-cli";
import { TerraformWorkspace, hasTerraform, installProvider, odsConfig } from "../terraform/harness";

let emu: EmulatorHandle;
let admin: OdsClient;
let otherId: string;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, dataDir: tempDir("ods-emu-") });
  admin = new OdsClient({ url: emu.url, token: emu.adminToken });
  await admin.createDataset({ name: "shop-logs", description: "" });
  await admin.createNotifier({ name: "shop-pager", properties: { webhook: { url: "https://hooks.example.com/a" } } });
  await admin.createNotifier({ name: "shop-mail", properties: { email: { emails: ["a@example.com"] } } });
  const other = await admin.createNotifier({ name: "other", properties: { webhook: { url: "https://hooks.example.com/b" } } });
  const monitor = { type: "Threshold", aplQuery: "['shop-logs'] | summarize count()", operator: "Above", threshold: 5, intervalMinutes: 5, rangeMinutes: 5 } as const;
  otherId = other.id;
  await admin.createMonitor({ ...monitor, name: "shop-errors", notifierIds: [other.id] });
  await admin.createMonitor({ ...monitor, name: "shop-latency", threshold: 250 });
  await admin.createMonitor({ ...monitor, name: "ops-disk" });
  await admin.createRole({ name: "shop-readers", description: "reads", orgCapabilities: { datasets: ["read"] } });
  await admin.createRole({ name: "ops", description: "", orgCapabilities: {} });
  await admin.createVirtualField({ dataset: "shop-logs", name: "lat_s", expression: "duration_ms / 1000", description: "", type: "", unit: "s" });
  await admin.createVirtualField({ dataset: "shop-logs", name: "size_kb", expression: "bytes / 1024", description: "", type: "", unit: "" });
  await admin.createStarredQuery({ dataset: "shop-logs", name: "errors", kind: "apl", who: "all", metadata: {}, query: { apl: "['shop-logs'] | take 1" } });
});
afterAll(async () => {
  await admin?.close();
  await emu?.close();
  removeTempDirs();
});

const data = {
  ods_notifiers: { shop: { name_prefix: "shop-" } },
  ods_roles: { exact: { name: "shop-readers" } },
  ods_virtual_fields: { shop: { dataset: "shop-logs" } },
  ods_starred_queries: { shop: { dataset: "shop-logs", name: "errors" } },
  ods_monitors: { shop: { name_prefix: "shop-" } },
  ods_monitor: { errors: { name: "shop-errors" } },
};
const output = {
  notifier_names: { value: "${data.ods_notifiers.shop.notifiers[*].name}" },
  first_notifier: { value: "${data.ods_notifiers.shop.notifiers[0].name}" },
  role_description: { value: "${data.ods_roles.exact.roles[0].description}" },
  second_field_expression: { value: "${data.ods_virtual_fields.shop.virtual_fields[1].expression}" },
  query_text: { value: "${data.ods_starred_queries.shop.starred_queries[0].query.apl}" },
  second_monitor_threshold: { value: "${data.ods_monitors.shop.monitors[1].threshold}" },
  monitor_notifier: { value: "${data.ods_monitor.errors.notifier_ids[0]}" },
};

describe("list data sources", () => {
  it("the ods engine reads them with their filters, sorted by name", async () => {
    const dir = tempDir("ods-lists-");
    const { notifier_names: _splat, ...plainOutputs } = output; // splat expressions are Terraform's
    writeStack(dir, { data, output: plainOutputs });
    const env = { ODS_URL: emu.url, ODS_TOKEN: emu.adminToken };
    const apply = await runOds(["apply", "--auto-approve", ...stackFlags(dir)], { env });
    expect(apply.code, apply.stderr).toBe(0);
    const shown = await runOds(["output", "--json", ...stackFlags(dir)], { env });
    expect(JSON.parse(shown.stdout)).toEqual({
      first_notifier: "shop-mail",
      role_description: "reads",
      second_field_expression: "bytes / 1024",
      query_text: "['shop-logs'] | take 1",
      second_monitor_threshold: 250,
      monitor_notifier: otherId,
    });
  });

  it.skipIf(!hasTerraform)("terraform reads the same through terraform-provider-ods", async () => {
    const tf = new TerraformWorkspace(installProvider(), { url: emu.url, token: emu.adminToken });
    tf.writeConfig(odsConfig({ data, output }));
    expect((await tf.run("init")).status).toBe(0);
    const apply = await tf.run("apply", "-auto-approve");
    expect(apply.status, apply.out).toBe(0);
    const out = await tf.run("output", "-json");
    const values = Object.fromEntries(Object.entries(JSON.parse(out.out) as Record<string, { value: unknown }>).map(([k, v]) => [k, v.value]));
    expect(values).toEqual({
      notifier_names: ["shop-mail", "shop-pager"],
      first_notifier: "shop-mail",
      role_description: "reads",
      second_field_expression: "bytes / 1024",
      query_text: "['shop-logs'] | take 1",
      second_monitor_threshold: 250,
      monitor_notifier: otherId,
    });
  });
});
