// `ods plan` lists side by side, up to --parallelism: behind a network each list is a
// round trip, and a refresh of many datasets waited for them one after another. Seen from
// a forwarding proxy in front of an emulator that answers after 100 ms: how many requests
// were waiting at once, and that the plan made the same requests either way.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { OdsClient } from "../../src/api";
import { mostAtOnce, startHttpProxy, type HttpProxy } from "../helpers/forward-proxy";
import { removeTempDirs, runOds, stackFlags, tempDir, writeStack } from "../helpers/ods-cli";

let emu: EmulatorHandle;
let proxy: HttpProxy;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, dataDir: tempDir("ods-emu-"), faults: "latency=100ms" });
  proxy = await startHttpProxy();
});
afterAll(async () => {
  await proxy.close();
  await emu.close();
  removeTempDirs();
});

/** Six datasets with a field each: the fields are listed once per dataset. */
function sixDatasets(dir: string): void {
  const names = ["a", "b", "c", "d", "e", "f"];
  writeStack(dir, {
    resource: {
      ods_dataset: Object.fromEntries(names.map((n) => [n, { name: `conc-${n}` }])),
      ods_dataset_field: Object.fromEntries(names.map((n) => [n, { dataset: `conc-${n}`, name: "duration_ms", unit: "ms", depends_on: [`ods_dataset.${n}`] }])),
    },
  });
}

describe("ods plan refresh", () => {
  it("has up to --parallelism list calls in flight, and makes the same requests as one at a time", async () => {
    const dir = tempDir();
    sixDatasets(dir);
    const env = { ODS_URL: emu.url, ODS_TOKEN: emu.adminToken, HTTP_PROXY: proxy.url, NO_PROXY: undefined, no_proxy: undefined };
    const seenWith = async (parallelism: number): Promise<string[]> => {
      proxy.seen.length = 0;
      proxy.spans.length = 0;
      const r = await runOds(["plan", "--parallelism", String(parallelism), ...stackFlags(dir)], { env });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/ods_dataset_field\.f/);
      return [...proxy.seen].sort();
    };
    const serial = await seenWith(1);
    expect(proxy.maxInFlight).toBe(1);
    const fourAtOnce = await seenWith(4);
    expect(proxy.maxInFlight).toBe(4);
    expect(fourAtOnce).toEqual(serial);
    // The organization, the datasets, then the fields of each of the six datasets.
    expect(serial.filter((line) => /\/fields/.test(line)).length).toBe(6);
  });

  it("checks the changed queries side by side, up to --parallelism, and lists the notifiers once for every monitor", async () => {
    const admin = new OdsClient({ url: emu.url, token: emu.adminToken });
    let notifier: string;
    try {
      await admin.createDataset({ name: "conc-checked", description: "" });
      notifier = (await admin.createNotifier({ name: "conc-pager", properties: { email: { emails: ["oncall@example.com"] } } })).id;
    } finally {
      await admin.close();
    }
    const dir = tempDir();
    const monitor = (i: number): Record<string, unknown> => ({
      name: `conc-m${i}`,
      type: "Threshold",
      apl_query: `['conc-checked'] | summarize count() by bin(_time, 1m)`,
      operator: "Above",
      threshold: i,
      interval_minutes: 1,
      range_minutes: 5,
      notifier_ids: [notifier],
    });
    writeStack(dir, {
      resource: {
        ods_virtual_field: Object.fromEntries([1, 2, 3].map((i) => [`v${i}`, { dataset: "conc-checked", name: `conc-v${i}`, expression: `tostring(${i})`, type: "string" }])),
        ods_monitor: Object.fromEntries([1, 2, 3].map((i) => [`m${i}`, monitor(i)])),
      },
    });
    const env = { ODS_URL: emu.url, ODS_TOKEN: emu.adminToken, HTTP_PROXY: proxy.url, NO_PROXY: undefined, no_proxy: undefined };
    proxy.seen.length = 0;
    proxy.spans.length = 0;
    const r = await runOds(["plan", "--no-backtest", "--parallelism", "4", ...stackFlags(dir)], { env });
    expect(r.code, r.stderr).toBe(0);
    const compiles = proxy.spans.filter((s) => /^POST .*\/_apl/.test(s.line));
    // Six objects with a query, each compiled by the service; four at a time.
    expect(compiles.length).toBe(6);
    expect(mostAtOnce(compiles)).toBe(4);
    // One list for the three monitors' notifier ids (the stack declares no notifier, so the refresh lists none).
    expect(proxy.seen.filter((line) => /^GET .*\/v2\/notifiers(\?|$)/.test(line)).length).toBe(1);
  });
});
