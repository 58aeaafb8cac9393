// A state that exists but holds nothing, or a serial ods cannot count exactly, is refused
// by every command that reads the state, through every backend, naming where it is and
// how to start afresh; nothing is written to the service or the state. A new state (no
// file, or the 0-byte file a lock creates) still reads as none.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { startHttpStateServer, type HttpStateServer } from "../../bench/http-state-server";
import { startPg, type PgServer } from "../../bench/pg-server";
import { LocalBackend, PgBackend, lockInfoPath } from "../../src/reconcile/backends";
import { StateStore, emptyState, parseState, serializeState, LARGEST_SERIAL } from "../../src/reconcile/state";
import { removeTempDirs, tempDir } from "../helpers/ods-cli";
import { stateProject, type StateProject } from "./state-project";

let emu: EmulatorHandle;
let server: HttpStateServer;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, dataDir: tempDir("ods-emu-") });
  server = await startHttpStateServer();
});
afterAll(async () => {
  await emu.close();
  await server.close();
  removeTempDirs();
});

const project = (prefix: string, backend?: Record<string, unknown>): StateProject => stateProject(emu, prefix, backend);

const writes = (): unknown[] => emu.requests().filter((q) => q.method !== "GET");

const EVERY_COMMAND: string[][] = [
  ["plan"],
  ["apply", "--auto-approve"],
  ["destroy", "--auto-approve"],
  ["drift"],
  ["import", "ods_role.r", "some-role-id"],
  ["state", "list"],
  ["state", "show", "ods_role.r"],
  ["state", "mv", "ods_role.r", "ods_role.s"],
  ["state", "rm", "ods_role.r"],
  ["state", "pull"],
  ["output"],
];

describe("an empty local state file", () => {
  it("is refused by every command that reads the state, naming the file and how to start afresh; nothing is written", async () => {
    const p = project("empty-local");
    const file = path.join(p.dir, "terraform.main.tfstate");
    const cases: [string, string[][]][] = [["", EVERY_COMMAND], [" \n\t\n", [["apply", "--auto-approve"], ["state", "list"]]]];
    for (const [content, commands] of cases) {
      fs.writeFileSync(file, content);
      for (const args of commands) {
        emu.resetRequests();
        const r = await p.ods(args);
        expect(r.code, `${args.join(" ")}: ${r.stdout}${r.stderr}`).toBe(1);
        expect(r.stderr).toContain(`the state local file ${file} exists but is empty`);
        expect(r.stderr).toContain("if you really mean to start afresh, delete it first");
        expect(writes(), args.join(" ")).toEqual([]);
        expect(fs.readFileSync(file, "utf8"), args.join(" ")).toBe(content);
      }
    }
    // Deleted deliberately: a new state.
    fs.rmSync(file);
    const applied = await p.ods(["apply", "--auto-approve"]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(JSON.parse(fs.readFileSync(file, "utf8")).resources[0].type).toBe("ods_role");
  });

  it("is a new state when a lock made it: a run killed before its first write leaves it with its lock record", async () => {
    const p = project("lock-made");
    const file = path.join(p.dir, "terraform.main.tfstate");
    // What a run killed after taking the lock on a new state leaves behind.
    fs.writeFileSync(file, "");
    fs.writeFileSync(lockInfoPath(file), JSON.stringify({ ID: "dead-run", Operation: "OperationTypeApply", Info: "ods apply (pid 1)", Who: "ci@x", Version: "ods 0.1.0", Created: "2026-01-01T00:00:00Z", Path: file }));
    const listed = await p.ods(["state", "list"]);
    expect(listed.code, listed.stderr).toBe(0);
    const applied = await p.ods(["apply", "--auto-approve"]);
    expect(applied.code, applied.stderr).toBe(0);
    expect(JSON.parse(fs.readFileSync(file, "utf8")).resources[0].type).toBe("ods_role");
    expect(fs.existsSync(lockInfoPath(file))).toBe(false);
  });

  it("through the store: the lock's own new file reads as none; an empty file present before the lock is refused", async () => {
    const dir = tempDir();
    const fresh = path.join(dir, "fresh.tfstate");
    const store = new StateStore(new LocalBackend(fresh));
    await store.lock("ods apply");
    expect(fs.statSync(fresh).size).toBe(0);
    expect((await store.read()).resources).toEqual({});
    await store.close();
    expect(fs.existsSync(fresh)).toBe(false);

    const lost = path.join(dir, "lost.tfstate");
    fs.writeFileSync(lost, "");
    const other = new StateStore(new LocalBackend(lost));
    await other.lock("ods apply");
    await expect(other.read()).rejects.toThrow(`the state local file ${lost} exists but is empty`);
    await other.close();
    expect(fs.existsSync(lost)).toBe(true);
  });
});

describe("an empty remote state", () => {
  it("http: a 200 answer with an empty body is refused by every command, naming the server; nothing is written", async () => {
    const p = project("empty-http", { http: server.backend });
    // The server holds an empty state (as a server that lost its copy answers).
    const auth = { authorization: `Basic ${Buffer.from("ci:s3cret-pass").toString("base64")}` };
    expect((await fetch(server.backend.address, { method: "POST", headers: auth, body: "" })).status).toBe(200);
    const posted = server.writes();
    for (const args of [["plan"], ["apply", "--auto-approve"], ["state", "list"], ["drift"]]) {
      emu.resetRequests();
      const r = await p.ods(args);
      expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBe(1);
      expect(r.stderr).toMatch(/the state http state at http:\/\/127\.0\.0\.1:\d+\/state exists but is empty/);
      expect(r.stderr).not.toContain("s3cret-pass");
      expect(writes()).toEqual([]);
    }
    expect(server.writes()).toBe(posted);
    expect(server.state()).toBe("");
  });

  describe("pg", () => {
    let pg: PgServer | undefined;
    let reason: string | undefined;
    beforeAll(async () => {
      ({ server: pg, reason } = await startPg());
      if (!pg) console.warn(`pg empty-state test skipped: ${reason}`);
    }, 60_000);
    afterAll(() => pg?.stop());

    it("a row whose data is empty or NULL is refused; no row is a new state", async (ctx) => {
      if (!pg) return ctx.skip();
      const config = { connStr: pg.connStr, schemaName: "empty_rows", skipSchemaCreation: false, skipTableCreation: false, skipIndexCreation: false };
      const fresh = new StateStore(new PgBackend(config));
      expect((await fresh.read()).resources).toEqual({});
      await fresh.close();
      const { Client } = await import("pg");
      for (const data of ["", null, "  \n"]) {
        const c = new Client({ connectionString: pg.connStr });
        await c.connect();
        await c.query("INSERT INTO empty_rows.states (name, data) VALUES ('default', $1) ON CONFLICT (name) DO UPDATE SET data = $1", [data]);
        await c.end();
        const store = new StateStore(new PgBackend(config));
        await store.lock("ods apply");
        await expect(store.read()).rejects.toThrow(/the state pg state in .*, schema empty_rows exists but is empty/);
        await expect(store.readText()).rejects.toThrow(/exists but is empty/);
        await store.close();
      }
    }, 60_000);
  });
});

describe("state serials", () => {
  it("a serial above 2^52 is refused by every command before any call; one below is kept exactly and increased by one", async () => {
    const p = project("serial");
    const file = path.join(p.dir, "terraform.main.tfstate");
    expect((await p.ods(["apply", "--auto-approve"])).code).toBe(0);
    const text = fs.readFileSync(file, "utf8");
    const high = (serial: string): string => text.replace(/"serial": \d+/, `"serial": ${serial}`);

    // 2^53 + 1: JSON.parse reads it as 2^53, and 2^53 + 1 is 2^53 again.
    for (const serial of ["9007199254740993", "18446744073709551615", String(LARGEST_SERIAL + 1)]) {
      fs.writeFileSync(file, high(serial));
      for (const args of [["apply", "--auto-approve"], ["state", "list"], ["state", "rm", "ods_role.r"]]) {
        emu.resetRequests();
        const r = await p.ods(args);
        expect(r.code, `${serial} ${args.join(" ")}`).toBe(1);
        expect(r.stderr).toContain(`the state local file ${file} has a serial above 2^52 (4503599627370496)`);
        expect(writes()).toEqual([]);
        expect(fs.readFileSync(file, "utf8")).toBe(high(serial));
      }
    }

    // The largest accepted serial, written back exactly plus one.
    fs.writeFileSync(file, high(String(LARGEST_SERIAL)));
    const removed = await p.ods(["state", "rm", "ods_role.r"]);
    expect(removed.code, removed.stderr).toBe(0);
    expect(fs.readFileSync(file, "utf8")).toContain(`"serial": ${LARGEST_SERIAL + 1},`);
  });

  it("parseState refuses a serial that is not a non-negative integer, and round-trips a large one exactly", () => {
    const s = emptyState();
    s.lineage = "l";
    s.serial = 4503599627370000;
    expect(parseState(serializeState(s), "x").serial).toBe(4503599627370000);
    for (const bad of ["-1", "1.5", "\"7\""]) {
      expect(() => parseState(serializeState(s).replace(/"serial": \d+/, `"serial": ${bad}`), "the file x")).toThrow(`the state the file x has serial ${bad}: expected a non-negative integer`);
    }
  });

  it("state push refuses an empty file or a serial out of range, and replaces an empty stored state only with --force", async () => {
    const p = project("push");
    const file = path.join(p.dir, "terraform.main.tfstate");
    expect((await p.ods(["apply", "--auto-approve"])).code).toBe(0);
    const good = fs.readFileSync(file, "utf8");
    const pushFile = path.join(p.dir, "push.tfstate");
    fs.writeFileSync(pushFile, "");
    const empty = await p.ods(["state", "push", pushFile]);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain(`the state ${pushFile} exists but is empty`);
    fs.writeFileSync(pushFile, good.replace(/"serial": \d+/, '"serial": 9007199254740993'));
    expect((await p.ods(["state", "push", pushFile])).stderr).toContain("has a serial above 2^52");
    expect(fs.readFileSync(file, "utf8")).toBe(good);

    // A stored state that was emptied, restored from the good copy.
    fs.writeFileSync(file, "");
    fs.writeFileSync(pushFile, good);
    expect((await p.ods(["state", "push", pushFile])).stderr).toContain("exists but is empty");
    const forced = await p.ods(["state", "push", "--force", pushFile]);
    expect(forced.code, forced.stderr).toBe(0);
    expect(fs.readFileSync(file, "utf8")).toBe(good);
    expect((await p.ods(["plan", "--detailed-exitcode"])).code).toBe(0);
  });
});
