// Stray datasets: a monitor, view or virtual field whose query names a dataset that is
// neither in the target organization nor created by the stack plans with a warning in both
// engines (`ods plan`, and a warning diagnostic of the real `terraform plan`), naming the
// dataset and the existing datasets with the most similar names. A dataset the stack
// creates draws none.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { removeTempDirs, runOds, stackFlags, tempDir } from "../helpers/ods-cli";
import { TerraformWorkspace, hasTerraform, installProvider, odsConfig } from "./harness";

let emu: EmulatorHandle;
let cliConfig: string | undefined;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, dataDir: tempDir("ods-emu-") });
  const c = new OdsClient({ url: emu.url, token: emu.adminToken });
  for (const name of ["prod-checkout-logs", "prod-payments-logs", "audit"]) await c.createDataset({ name, description: "" });
  await c.close();
  if (hasTerraform) cliConfig = installProvider();
}, 120_000);
afterAll(async () => {
  await emu?.close();
  removeTempDirs();
});

const RESOURCES = {
  ods_dataset: { fresh: { "//": { metadata: { path: "prod/fresh" } }, name: "new-checkout-logs" } },
  ods_monitor: {
    errors: {
      "//": { metadata: { path: "prod/errors" } },
      name: "checkout-errors",
      type: "Threshold",
      apl_query: "['stg-checkout-logs'] | where status >= 500 | summarize count() by bin(_time, 1m)",
      operator: "Above",
      threshold: 10,
      interval_minutes: 5,
      range_minutes: 5,
    },
  },
  ods_view: {
    fresh: { "//": { metadata: { path: "prod/fresh-view" } }, name: "fresh-errors", apl_query: "['new-checkout-logs'] | where status >= 500" },
  },
  ods_virtual_field: {
    latency: { "//": { metadata: { path: "prod/latency" } }, dataset: "stg-payments-logs", name: "latency_s", expression: "duration_ms / 1000" },
  },
};

describe("stray datasets warn in both engines", () => {
  it("ods plan warns, naming the dataset and the most similar existing ones", async () => {
    const dir = tempDir();
    const file = path.join(dir, "cdktf.out", "stacks", "prod", "cdk.tf.json");
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ provider: { ods: [{}] }, resource: RESOURCES }, null, 2));
    const r = await runOds(["plan", "--no-backtest", ...stackFlags(dir)], { env: { ODS_URL: emu.url, ODS_TOKEN: emu.adminToken } });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const said = r.stdout + r.stderr;
    expect(said).toContain(
      `[prod/errors] ods_monitor.errors: attribute "apl_query": names the dataset "stg-checkout-logs", which is neither in the target organization nor created by this configuration, so it never sees an event; datasets with similar names: "prod-checkout-logs"`,
    );
    expect(said).toMatch(/\[prod\/latency\] ods_virtual_field\.latency: attribute "dataset": names the dataset "stg-payments-logs".*similar names: "prod-payments-logs"/);
    // The view reads a dataset the stack creates: no warning.
    expect(said).not.toMatch(/names the dataset "new-checkout-logs"/);
  });

  it.skipIf(!hasTerraform)("terraform plan warns alike (a warning diagnostic), and still plans", async () => {
    const ws = new TerraformWorkspace(cliConfig!, { url: emu.url, token: emu.adminToken });
    ws.writeConfig(odsConfig({ resource: RESOURCES }));
    expect((await ws.run("init")).status).toBe(0);
    const r = await ws.run("plan");
    expect(r.status, r.out).toBe(0);
    const said = r.out.replace(/\s+/g, " ");
    expect(said).toContain(`Warning: Dataset not found for ods_monitor "checkout-errors"`);
    expect(said).toContain(`names the dataset "stg-checkout-logs", which is neither in the target organization nor created by this configuration, so it never sees an event; datasets with similar names: "prod-checkout-logs"`);
    expect(said).toMatch(/names the dataset "stg-payments-logs".*"prod-payments-logs"/);
    expect(said).not.toContain(`names the dataset "new-checkout-logs"`);
    expect(said).toContain("Plan: 4 to add");
  }, 240_000);
});
