// Checks hold when parts are unknown: a dashboard document naming a monitor created in the
// same plan (the docs' pattern, what the export writes) is checked with a placeholder for
// the monitor's id. A layout item 14 columns wide is refused by `ods plan` and by the real
// `terraform plan` alike, naming the construct, the chart and the attribute; the same
// document 12 columns wide plans in both.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { removeTempDirs, runOds, stackFlags, tempDir } from "../helpers/ods-cli";
import { TerraformWorkspace, hasTerraform, installProvider, odsConfig } from "./harness";

let emu: EmulatorHandle;
let cliConfig: string | undefined;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, dataDir: tempDir("ods-emu-") });
  if (hasTerraform) cliConfig = installProvider();
}, 120_000);
afterAll(async () => {
  await emu?.close();
  removeTempDirs();
});

/** The resources as cdktf synthesizes them: the document names the monitor by reference. */
function resources(width: number): Record<string, unknown> {
  const doc = {
    name: "Checkout health",
    owner: "X-AXIOM-EVERYONE",
    charts: [
      { id: "errors", type: "TimeSeries", name: "errors", query: { apl: "['up-logs'] | summarize count() by bin(_time, 1m)" } },
      { id: "alerts", type: "MonitorList", monitors: ["${ods_monitor.errors.id}"] },
    ],
    layout: [
      { i: "errors", x: 0, y: 0, w: 6, h: 4 },
      { i: "alerts", x: 0, y: 4, w: width, h: 3 },
    ],
    refreshTime: 60,
    schemaVersion: 2,
    timeWindowStart: "qr-now-1h",
    timeWindowEnd: "qr-now",
  };
  return {
    ods_monitor: {
      errors: {
        "//": { metadata: { path: "prod/errors" } },
        name: "up-errors",
        type: "Threshold",
        apl_query: "['up-logs'] | summarize count() by bin(_time, 1m)",
        operator: "Above",
        threshold: 10,
        interval_minutes: 5,
        range_minutes: 5,
      },
    },
    ods_dashboard: { health: { "//": { metadata: { path: "prod/health" } }, uid: "up-health", dashboard: JSON.stringify(doc, null, 2) } },
  };
}

function odsPlan(width: number): ReturnType<typeof runOds> {
  const dir = tempDir();
  const file = path.join(dir, "cdktf.out", "stacks", "prod", "cdk.tf.json");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ provider: { ods: [{}] }, resource: resources(width) }, null, 2));
  return runOds(["plan", "--no-backtest", ...stackFlags(dir)], { env: { ODS_URL: emu.url, ODS_TOKEN: emu.adminToken } });
}

describe("a document with parts unknown at plan is checked with placeholders", () => {
  it("ods plan refuses a 14-column layout item, naming construct, chart and attribute", async () => {
    const r = await odsPlan(14);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toContain(`[prod/health] ods_dashboard.health: attribute "dashboard" layout item "alerts": width "w" must be from 1 to 12, got 14`);
    const fine = await odsPlan(12);
    expect(fine.code, fine.stdout + fine.stderr).toBe(0);
    expect(fine.stdout).toContain("ods_dashboard.health will be created");
    // Still reviewable by path: the monitor's id is the one part known only after apply.
    expect(fine.stdout).toContain("+ charts[alerts].monitors[0]: (known after apply)");
    expect(fine.stdout).toContain("+ layout[alerts].w: 12");
  });

  it.skipIf(!hasTerraform)("terraform plan refuses it alike, through the provider's check", async () => {
    const ws = new TerraformWorkspace(cliConfig!, { url: emu.url, token: emu.adminToken });
    ws.writeConfig(odsConfig({ resource: resources(14) }));
    expect((await ws.run("init")).status).toBe(0);
    const refused = await ws.run("plan");
    expect(refused.status, refused.out).toBe(1);
    const said = refused.out.replace(/\s+/g, " ");
    expect(said).toContain("Invalid ods_dashboard configuration");
    expect(said).toContain(`[prod/health] attribute "dashboard" layout item "alerts": width "w" must be from 1 to 12, got 14`);
    ws.writeConfig(odsConfig({ resource: resources(12) }));
    const fine = await ws.run("plan");
    expect(fine.status, fine.out).toBe(0);
    expect(fine.out).toContain("Plan: 2 to add");
  }, 240_000);
});
