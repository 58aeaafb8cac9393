// The convergence check of `ods apply` compares each write's answer with the declaration;
// only where an answer differs does it list the kind again and ask the service. A proxy in
// front of the emulator changes answers on cue: first an answer that is not what the
// service keeps (the list settles it: no warning, a clean plan, one list more), then a
// service that keeps another value than the one sent (the list confirms it: reported).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { startForwardProxy, type ForwardProxy } from "../helpers/forward-proxy";
import { removeTempDirs, runOds, stackFlags, tempDir, writeStack, type StackSpec } from "../helpers/ods-cli";

let emu: EmulatorHandle;
let proxy: ForwardProxy;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, dataDir: tempDir("ods-emu-") });
  proxy = await startForwardProxy(emu.url);
});
afterAll(async () => {
  await proxy.close();
  await emu.close();
  removeTempDirs();
});

function stack(revision: string): StackSpec {
  return {
    resource: {
      ods_role: {
        readers: { name: "conv-readers", description: `readers ${revision}` },
        writers: { name: "conv-writers", description: `writers ${revision}` },
      },
    },
  };
}

/** Changes the readers role's description wherever it appears in an answer (one object or a list). */
function tamper(body: unknown): unknown {
  const edit = (o: unknown): unknown =>
    o && typeof o === "object" && (o as { name?: unknown }).name === "conv-readers" ? { ...(o as object), description: "kept by the service" } : o;
  return Array.isArray(body) ? body.map(edit) : edit(body);
}

describe("ods apply convergence check against the writes' answers", () => {
  it("lists again only where an answer differs, and reports what the service really keeps", async () => {
    const dir = tempDir();
    const viaProxy = { ODS_URL: proxy.url, ODS_TOKEN: emu.adminToken };
    const direct = { ODS_URL: emu.url, ODS_TOKEN: emu.adminToken };

    // 1. The create's answer for readers is not what the service stored.
    writeStack(dir, stack("one"));
    proxy.rewriteAnswers("POST", /^\/v2\/rbac\/roles$/, tamper);
    emu.resetRequests();
    const created = await runOds(["apply", "--auto-approve", ...stackFlags(dir)], { env: viaProxy });
    expect(created.code, created.stderr).toBe(0);
    expect(proxy.rewritten).toBe(2); // both creates' answers went through it; one was changed
    expect(created.stderr).not.toMatch(/did not converge|not found after apply/);
    const roleLists = (rs: { method: string; path: string }[]) => rs.filter((q) => q.method === "GET" && q.path === "/v2/rbac/roles");
    let requests = emu.requests();
    // The organization, the plan's list of roles, two creates, and one list again for the
    // answer that differed (not one per role).
    expect(requests.filter((q) => q.method === "POST")).toHaveLength(2);
    expect(roleLists(requests)).toHaveLength(2);
    expect(requests).toHaveLength(5);
    const clean = await runOds(["plan", "--detailed-exitcode", ...stackFlags(dir)], { env: direct });
    expect(clean.code, clean.stdout + clean.stderr).toBe(0);

    // 2. The service keeps another value than the one sent: the update's answer and every
    // list say so.
    writeStack(dir, stack("two"));
    proxy.rewriteAnswers("PUT", /^\/v2\/rbac\/roles\//, tamper);
    proxy.rewriteAnswers("GET", /^\/v2\/rbac\/roles$/, tamper);
    emu.resetRequests();
    const changed = await runOds(["apply", "--auto-approve", ...stackFlags(dir)], { env: viaProxy });
    expect(changed.code, changed.stderr).toBe(0);
    expect(changed.stderr).toMatch(/ods_role\.readers: description did not converge/);
    expect(changed.stderr).not.toMatch(/ods_role\.writers/);
    requests = emu.requests();
    expect(requests.filter((q) => q.method === "PUT")).toHaveLength(2);
    expect(roleLists(requests)).toHaveLength(2);
    expect(requests).toHaveLength(5);
    // The next plan shows the drift: readers is to be brought back to the declaration.
    const drift = await runOds(["plan", "--detailed-exitcode", ...stackFlags(dir)], { env: viaProxy });
    expect(drift.code, drift.stdout + drift.stderr).toBe(2);
    expect(drift.stdout).toMatch(/ods_role\.readers/);
    expect(drift.stdout).not.toMatch(/ods_role\.writers/);
  });
});
