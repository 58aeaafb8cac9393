// Queries change nothing: a query-language query is retried on 5xx like a read, while a
// create (also a POST) is not.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { OdsApiError, OdsClient } from "../../src/api";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";

let emu: EmulatorHandle;
let dir: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "ods-qretry-"));
  emu = await startEmulator({ port: 0, dataDir: dir, rateLimitPerSecond: 100_000 });
});
afterAll(async () => {
  await emu.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("retrying queries", () => {
  it("retries a query answered 503 until it succeeds, and never a create", async () => {
    const client = new OdsClient({ url: emu.url, token: emu.adminToken, maxRetries: 10 });
    try {
      await client.createDataset({ name: "qretry" });
      emu.setFaults("error5xx=0.5,seed=3");
      for (let i = 0; i < 5; i++) {
        const r = await client.queryAplTabular({ apl: "['qretry'] | take 1", startTime: "2000-01-01T00:00:00Z", endTime: "2000-01-01T00:00:00Z" });
        expect(r.tables.length).toBeGreaterThan(0);
      }
      // A create whose answer was lost after the write is not sent again.
      emu.setFaults("dropAfterWrite=1");
      emu.resetRequests();
      await expect(client.createRole({ name: "never-twice" })).rejects.toBeInstanceOf(OdsApiError);
      expect(emu.requests().filter((r) => r.method === "POST")).toHaveLength(1);
    } finally {
      emu.setFaults(undefined);
      await client.close();
    }
  });
});
