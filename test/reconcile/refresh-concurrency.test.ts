// `ods plan` lists side by side, up to --parallelism: behind a network each list is a
// round trip, and a refresh of many datasets waited for them one after another. Seen from
// a forwarding proxy in front of an emulator that answers after 100 ms: how many requests
// were waiting at once, and that the plan made the same requests either way.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { startHttpProxy, type HttpProxy } from "../helpers/forward-proxy";
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
      proxy.maxInFlight = 0;
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
});
