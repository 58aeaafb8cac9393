// Durability: a restart on the same data dir keeps every object and event; a process
// killed with SIGKILL right after acknowledged writes keeps them; SIGTERM stops cleanly.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startEmulator } from "../../src/emulator";
import { call, killSpawnedEmulators, sampleNotifier, spawnEmulator, startTestEmulator, tempDir } from "./helpers";

afterEach(killSpawnedEmulators);

describe("restart", () => {
  it("keeps every object, the events and the admin credentials", async () => {
    const t = await startTestEmulator();
    const notifier = await t.ok("POST", "/v2/notifiers", { name: "keep", properties: { chatB: { chatBChannel: "#c", chatBToken: "kept-secret" } } });
    const role = await t.ok("POST", "/v2/rbac/roles", { name: "keep" });
    const token = await t.ok("POST", "/v2/tokens", { name: "keep", orgCapabilities: { users: ["read"] } });
    await t.ok("POST", "/v2/datasets", { name: "keep-ds", description: "d" });
    await t.ok("POST", "/v1/datasets/keep-ds/ingest", [{ a: 1 }, { a: 2, b: "x" }]);
    await t.ok("PUT", "/v2/datasets/keep-ds/fields/a", { unit: "ms", description: "A" });
    const vfield = await t.ok("POST", "/v2/vfields", { dataset: "keep-ds", name: "v", expression: "a + 1" });
    const starred = await t.ok("POST", "/v2/apl-starred-queries", { dataset: "keep-ds", kind: "apl", name: "s", query: { apl: "['keep-ds']" }, metadata: { x: 1 } });
    const user = await t.ok("POST", "/v2/users", { email: "keep@example.com", name: "K", role: role.id });
    await t.ok("DELETE", `/v2/rbac/roles/${(await t.ok("POST", "/v2/rbac/roles", { name: "gone" })).id}`);
    const reads = ["/v2/notifiers", "/v2/rbac/roles", "/v2/tokens", "/v2/datasets", "/v2/datasets/keep-ds/fields", "/v2/vfields?dataset=keep-ds", "/v2/apl-starred-queries?who=all", "/v2/users", "/v2/orgs"];
    const before = await Promise.all(reads.map((p) => t.ok("GET", p)));
    const eventsBefore = await t.ok("POST", "/v1/datasets/keep-ds/query", {});
    const { adminToken, orgId } = t.em;
    await t.close();

    const again = await startTestEmulator({ dataDir: t.dir });
    try {
      expect(again.em.adminToken).toBe(adminToken);
      expect(again.em.orgId).toBe(orgId);
      expect(await Promise.all(reads.map((p) => again.ok("GET", p)))).toEqual(before);
      expect((await again.ok("POST", "/v1/datasets/keep-ds/query", {})).matches).toEqual(eventsBefore.matches);
      expect((await again.call("GET", "/v2/user", { token: token.token })).status).toBe(200);
      for (const id of [notifier.id, vfield.id, starred.id, user.id]) expect(JSON.stringify(before)).toContain(id);
      // Row ids keep counting after a restart.
      await again.ok("POST", "/v1/datasets/keep-ds/ingest", [{ a: 3 }]);
      const rowIds = (await again.ok("POST", "/v1/datasets/keep-ds/query", {})).matches.map((m: { _rowId: string }) => m._rowId);
      expect(new Set(rowIds).size).toBe(3);
    } finally {
      await again.close();
    }
  });

  it("keeps events of any text, in any number, byte for byte in the file and in the answers after a restart", async () => {
    const t = await startTestEmulator();
    await t.ok("POST", "/v2/datasets", { name: "texts" });
    // Multi-byte text (2, 3 and 4 bytes a character, lone surrogates escaped), escapes, and a
    // batch large enough that its encoding outgrows a first guess at its size.
    const texts = ["é", "€ — ✓", "😀🚀", "\u2028\u2029", 'quote " backslash \\ newline \n tab \t', "\ud800 lone", "x".repeat(5000)];
    const events = Array.from({ length: 3000 }, (_, i) => ({ i, s: texts[i % texts.length]!.repeat(1 + (i % 3)), n: i % 7 === 0 ? null : i / 4 }));
    await t.ok("POST", "/v1/datasets/texts/ingest", events);
    await t.ok("POST", "/v1/datasets/texts/ingest", [{ i: 3000, s: "after" }]);
    const ask = { apl: "['texts'] | project i, s, n | sort by i asc", startTime: "2000-01-01T00:00:00Z", endTime: "2100-01-01T00:00:00Z" };
    const before = await t.ok("POST", "/v1/datasets/_apl?format=tabular", ask);
    expect(before.tables[0].columns[1].slice(0, texts.length)).toEqual(events.slice(0, texts.length).map((e) => e.s));
    const file = fs.readdirSync(path.join(t.dir, "events"))[0]!;
    const lines = fs.readFileSync(path.join(t.dir, "events", file), "utf8").split("\n");
    expect(lines).toHaveLength(3002);
    expect(lines.slice(0, -1).map((l) => (JSON.parse(l) as { data: { s: string } }).data.s)).toEqual([...events.map((e) => e.s), "after"]);
    await t.close();
    const again = await startTestEmulator({ dataDir: t.dir });
    try {
      expect((await again.ok("POST", "/v1/datasets/_apl?format=tabular", ask)).tables).toEqual(before.tables);
    } finally {
      await again.close();
    }
  });

  it("writes credentials.json with mode 0600 and refuses a second emulator on the same dir", async () => {
    const t = await startTestEmulator();
    try {
      const file = path.join(t.dir, "credentials.json");
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      const saved = JSON.parse(fs.readFileSync(file, "utf8"));
      expect(saved).toMatchObject({ token: t.em.adminToken, orgId: t.em.orgId, url: t.em.url });
      await expect(startEmulator({ port: 0, dataDir: t.dir })).rejects.toThrow(/in use/);
    } finally {
      await t.close();
    }
  });

  it("mints a new admin token when credentials.json is lost, keeping the organization", async () => {
    const t = await startTestEmulator();
    const { adminToken, orgId } = t.em;
    await t.close();
    fs.rmSync(path.join(t.dir, "credentials.json"));
    const again = await startTestEmulator({ dataDir: t.dir });
    try {
      expect(again.em.orgId).toBe(orgId);
      expect(again.em.adminToken).not.toBe(adminToken);
      expect((await again.call("GET", "/v2/notifiers")).status).toBe(200);
    } finally {
      await again.close();
    }
  });

  it("drops a torn last journal line (an unacknowledged write) and keeps going", async () => {
    const t = await startTestEmulator();
    await t.close();
    // As if the process died in the middle of an append.
    fs.appendFileSync(path.join(t.dir, "journal.ndjson"), '{"c":"notifiers","id":"ntf_torn","v":{"na');
    fs.appendFileSync(path.join(t.dir, "events", "orphan.ndjson"), '{"_rowId":"1"}\n');
    const again = await startTestEmulator({ dataDir: t.dir });
    try {
      expect(await again.ok("GET", "/v2/notifiers")).toEqual([]);
      await again.ok("POST", "/v2/notifiers", sampleNotifier);
    } finally {
      await again.close();
    }
    expect(fs.existsSync(path.join(t.dir, "events", "orphan.ndjson"))).toBe(false);
    const third = await startTestEmulator({ dataDir: t.dir });
    try {
      expect((await third.ok("GET", "/v2/notifiers")).map((n: { name: string }) => n.name)).toEqual([sampleNotifier.name]);
    } finally {
      await third.close();
    }
  });

  it("keeps thousands of objects across a restart", async () => {
    const t = await startTestEmulator();
    const total = 5000;
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < total) {
        const i = next++;
        await t.ok("POST", "/v2/notifiers", { name: `bulk-${i}`, properties: { webhook: { url: `https://h.example.com/${i}` } } });
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    await t.close();
    const again = await startTestEmulator({ dataDir: t.dir });
    try {
      const names = new Set((await again.ok("GET", "/v2/notifiers")).map((n: { name: string }) => n.name));
      expect(names.size).toBe(total);
    } finally {
      await again.close();
    }
  });
});

describe("the ods emulator process", () => {
  it("keeps acknowledged writes when killed with SIGKILL", async () => {
    const dir = tempDir();
    const proc = await spawnEmulator(dir);
    const created = await Promise.all(
      Array.from({ length: 20 }, (_, i) => call(proc.url, proc.token, "POST", "/v2/notifiers", { body: { ...sampleNotifier, name: `acked-${i}` } })),
    );
    expect(created.every((r) => r.status === 200)).toBe(true);
    expect((await call(proc.url, proc.token, "POST", "/v2/datasets", { body: { name: "killed" } })).status).toBe(200);
    expect((await call(proc.url, proc.token, "POST", "/v1/datasets/killed/ingest", { body: [{ n: 1 }, { n: 2 }] })).status).toBe(200);
    proc.child.kill("SIGKILL");
    expect((await proc.exited).signal).toBe("SIGKILL");

    const em = await startEmulator({ port: 0, dataDir: dir, rateLimitPerSecond: 100_000 });
    try {
      expect(em.adminToken).toBe(proc.token);
      const notifiers = await call(em.url, em.adminToken, "GET", "/v2/notifiers");
      expect(notifiers.body.map((n: { id: string }) => n.id).sort()).toEqual(created.map((r) => r.body.id).sort());
      const events = await call(em.url, em.adminToken, "POST", "/v1/datasets/killed/query", { body: {} });
      expect(events.body.matches).toHaveLength(2);
    } finally {
      await em.close();
    }
  });

  it("stops with exit code 0 on SIGTERM, releasing the data dir", async () => {
    const dir = tempDir();
    const proc = await spawnEmulator(dir);
    expect((await call(proc.url, proc.token, "POST", "/v2/notifiers", { body: sampleNotifier })).status).toBe(200);
    proc.child.kill("SIGTERM");
    expect(await proc.exited).toEqual({ code: 0, signal: null });
    expect(fs.existsSync(path.join(dir, "emulator.lock"))).toBe(false);
    const em = await startEmulator({ port: 0, dataDir: dir });
    try {
      expect((await call(em.url, em.adminToken, "GET", "/v2/notifiers")).body).toHaveLength(1);
    } finally {
      await em.close();
    }
  });
});
