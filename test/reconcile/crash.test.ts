// A killed apply and two concurrent applies: nothing is duplicated, no token secret is
// lost, and the state stays readable.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OdsClient } from "../../src/api";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { startForwardProxy, twoAtOnce } from "../helpers/forward-proxy";
import { removeTempDirs, runOds, stackFlags, tempDir, writeStack, type StackSpec } from "../helpers/ods-cli";

let emu: EmulatorHandle;
let admin: OdsClient;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, dataDir: tempDir("ods-emu-"), faults: "latency=25ms" });
  admin = new OdsClient({ url: emu.url, token: emu.adminToken });
});
afterAll(async () => {
  await admin.close();
  await emu.close();
  removeTempDirs();
});

function bigStack(prefix: string, n: number): StackSpec {
  const notifiers: Record<string, Record<string, unknown>> = {};
  const tokens: Record<string, Record<string, unknown>> = {};
  for (let i = 0; i < n; i++) {
    notifiers[`n${i}`] = { name: `${prefix}-n${i}`, properties: { webhook: { url: `https://h.example.com/${i}` } } };
    tokens[`t${i}`] = { name: `${prefix}-t${i}`, org_capabilities: { datasets: ["read"] } };
  }
  return { resource: { ods_notifier: notifiers, ods_api_token: tokens } };
}

const env = (): Record<string, string> => ({ ODS_URL: emu.url, ODS_TOKEN: emu.adminToken });

describe("crash safety", () => {
  it("an apply killed with SIGKILL part-way is completed by the next apply, without duplicates or lost secrets", async () => {
    const dir = tempDir();
    const n = 30;
    writeStack(dir, bigStack("crash", n));
    let done = 0;
    const killed = await runOds(["apply", "--auto-approve", ...stackFlags(dir)], {
      env: env(),
      onStdout: (chunk, child) => {
        done += (chunk.match(/ complete/g) ?? []).length;
        if (done >= 12) child.kill("SIGKILL");
      },
    });
    expect(killed.signal).toBe("SIGKILL");

    const again = await runOds(["apply", "--auto-approve", ...stackFlags(dir)], { env: env() });
    expect(again.code, again.stderr).toBe(0);
    const names = [...(await admin.listNotifiers()).map((x) => x.name), ...(await admin.listTokens()).map((x) => x.name)].filter((x) => x.startsWith("crash-"));
    expect(names).toHaveLength(2 * n);
    expect(new Set(names).size).toBe(2 * n);

    const state = JSON.parse(fs.readFileSync(path.join(dir, "state.json"), "utf8")) as { resources: Record<string, { typeName: string; sensitive?: { token?: string } }> };
    const tokenEntries = Object.values(state.resources).filter((r) => r.typeName === "ods_api_token");
    expect(tokenEntries).toHaveLength(n);
    for (const t of tokenEntries) expect(t.sensitive?.token).toBeTruthy();
    expect((await runOds(["plan", "--detailed-exitcode", ...stackFlags(dir)], { env: env() })).code).toBe(0);
  });

  it("of two applies at once, one fails at once on the lock, and the state is intact", async () => {
    const dir = tempDir();
    writeStack(dir, bigStack("lock", 20));
    // The second apply starts while the first is part-way and held there by the proxy.
    const proxy = await startForwardProxy(emu.url);
    const { first: a, second: b } = await twoAtOnce(
      proxy,
      (onStdout) => runOds(["apply", "--auto-approve", ...stackFlags(dir)], { env: { ...env(), ODS_URL: proxy.url }, onStdout: (chunk) => onStdout(chunk) }),
      () => runOds(["apply", "--auto-approve", ...stackFlags(dir)], { env: env() }),
    ).finally(() => proxy.close());
    const results = [a, b].sort((x, y) => (x.code ?? 9) - (y.code ?? 9));
    expect(results[0].code, results[0].stderr).toBe(0);
    expect(results[1].code).toBe(1);
    expect(results[1].stderr).toMatch(/is locked by pid \d+ on .*"ods apply"/);
    expect(() => JSON.parse(fs.readFileSync(path.join(dir, "state.json"), "utf8"))).not.toThrow();
    expect((await runOds(["plan", "--detailed-exitcode", ...stackFlags(dir)], { env: env() })).code).toBe(0);
    expect((await admin.listNotifiers()).filter((x) => x.name.startsWith("lock-"))).toHaveLength(20);
  });
});
