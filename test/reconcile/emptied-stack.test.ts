// A commit that empties a stack whose state holds a guarded dataset is refused as what it
// is (an emptied stack, most often a failed synth), not with advice to `ods state rm` the
// dataset; removing the dataset alone still says how to keep it out of the state.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { removeTempDirs, runOds, stackFlags, tempDir, writeStack } from "../helpers/ods-cli";

let emu: EmulatorHandle;
let env: Record<string, string>;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, dataDir: tempDir("ods-emu-") });
  env = { ODS_URL: emu.url, ODS_TOKEN: emu.adminToken };
});
afterAll(async () => {
  await emu.close();
  removeTempDirs();
});

const dataset = { name: "emptied-logs" };
const notifier = { name: "emptied-n", properties: { email: { emails: ["oncall@example.com"] } } };

describe("a stack emptied while its state holds a guarded dataset", () => {
  it("is refused as an emptied stack, naming the guarded objects and no state rm", async () => {
    const dir = tempDir();
    writeStack(dir, { resource: { ods_dataset: { logs: dataset }, ods_notifier: { n: notifier } } });
    expect((await runOds(["apply", "--auto-approve", ...stackFlags(dir)], { env })).code).toBe(0);
    writeStack(dir, {});
    emu.resetRequests();
    for (const command of [["plan"], ["apply", "--auto-approve"], ["apply", "--auto-approve", "--allow-empty"]]) {
      const r = await runOds([...command, ...stackFlags(dir)], { env });
      expect(r.code, command.join(" ")).toBe(1);
      expect(r.stderr).toContain(
        "stack main declares no ods resources, but its state manages 2: applying would delete all of them, and ods_dataset.logs is guarded (deleting it deletes data). If this commit emptied the stack by mistake (a synth that failed, another app or --stack), restore its declarations",
      );
      expect(r.stderr).not.toContain("state rm");
    }
    expect(emu.requests().filter((r) => r.method !== "GET")).toEqual([]);

    // The dataset alone removed: the advice to keep it out of the state stands.
    writeStack(dir, { resource: { ods_notifier: { n: notifier } } });
    const plan = await runOds(["plan", ...stackFlags(dir)], { env });
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('ods_dataset.logs: deleting ods_dataset "emptied-logs" deletes all of its data; set allow_destroy = true and apply before removing it, or stop managing it with "ods state rm --stack main ods_dataset.logs"');
  });

  it("in a stack with several provider configurations, names the configuration that became empty, not the stack", async () => {
    const dir = tempDir();
    // Both configurations reach the one emulator: ods holds the notifier, ods.b the dataset.
    const writeTwo = (resource: Record<string, Record<string, Record<string, unknown>>>): void => {
      const file = path.join(dir, "cdktf.out", "stacks", "main", "cdk.tf.json");
      fs.mkdirSync(path.dirname(file), { recursive: true });
      const providers = [{ url: emu.url, token: emu.adminToken }, { alias: "b", url: emu.url, token: emu.adminToken }];
      fs.writeFileSync(file, JSON.stringify({ provider: { ods: providers }, resource }));
    };
    const meta = (name: string) => ({ "//": { metadata: { path: `main/${name}`, uniqueId: name } } });
    writeTwo({ ods_dataset: { logs: { ...meta("logs"), ...dataset, name: "emptied-part-logs", provider: "ods.b" } }, ods_notifier: { n: { ...meta("n"), ...notifier, name: "emptied-part-n" } } });
    const first = await runOds(["apply", "--auto-approve", ...stackFlags(dir)]);
    expect(first.code, first.stderr).toBe(0);
    writeTwo({ ods_notifier: { n: { ...meta("n"), ...notifier, name: "emptied-part-n" } } });
    emu.resetRequests();
    const r = await runOds(["plan", ...stackFlags(dir)]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'provider configuration ods.b of stack main declares no ods resources (the stack\'s other configurations declare 1), but its state manages 1: applying would delete all of them, and ods_dataset.logs is guarded (deleting it deletes data). If this commit dropped its declarations or their provider = "ods.b" by mistake, restore them',
    );
    expect(r.stderr).not.toMatch(/: stack main declares no ods resources/);
    expect(emu.requests().filter((q) => q.method !== "GET")).toEqual([]);
  });
});
