// The journal of a remote state (issue 47): an apply's answers are appended between whole
// writes instead of rewriting the whole state after every few answers. A pg state keeps
// them in a table beside Terraform's; an http state, whose protocol has no append, in a
// local file, with the server's copy written whole at least every few seconds and at the
// end of the run. Against a real PostgreSQL and an http state server on 127.0.0.1.
import * as fs from "node:fs";
import * as path from "node:path";
import { Client } from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpStateServer, type HttpStateServer } from "../../bench/http-state-server";
import { HttpBackend, PgBackend } from "../../src/reconcile/backends";
import { emptyState, StateStore, type ResourceState, type StateFile } from "../../src/reconcile/state";
import { ROOT, removeTempDirs, tempDir } from "../helpers/ods-cli";
import { killAfterSaved } from "./kill-trial";
import { startPg, type PgServer } from "../../bench/pg-server";

function role(id: string, name: string): ResourceState {
  return { typeName: "ods_role", id, values: { name, description: `role ${name}` }, engineValues: {}, secretFingerprints: {}, dependsOn: [] };
}

async function withRoles(store: StateStore, count: number): Promise<StateFile> {
  const state = emptyState();
  for (let i = 0; i < count; i++) state.resources[`ods_role.r${i}`] = role(`id-${i}`, `r${i}`);
  await store.write(state);
  return state;
}

function storedAddresses(text: string | undefined): string[] {
  const doc = JSON.parse(text ?? "{}") as { resources?: { type: string; name: string }[] };
  return (doc.resources ?? []).map((r) => `${r.type}.${r.name}`).sort();
}

afterAll(() => removeTempDirs());

describe("the journal of an http state", () => {
  let server: HttpStateServer;
  beforeAll(async () => {
    server = await startHttpStateServer();
  });
  afterAll(async () => {
    await server.close();
  });

  const backend = (journalFile: string, lag?: number): HttpBackend =>
    new HttpBackend({ address: `${server.url}/state`, updateMethod: "POST", lockMethod: "LOCK", unlockMethod: "UNLOCK", lockAddress: `${server.url}/lock`, unlockAddress: `${server.url}/lock`, username: "ci", password: "s3cret-pass", journalFile, journalMaxLagSeconds: lag });

  it("appends answers to a private local file instead of posting the state; a read sees them; the end of the run posts the whole state and removes the file", async () => {
    const journal = path.join(tempDir(), ".ods", "state-journal", "x.ods-journal");
    const store = new StateStore(backend(journal));
    await store.lock("ods apply");
    const state = await withRoles(store, 5);
    const posted = server.writes();
    for (let i = 0; i < 200; i++) {
      state.resources[`ods_role.n${i}`] = role(`id-n${i}`, `n${i}`);
      await store.writeChanges(state, [`ods_role.n${i}`]);
    }
    delete state.resources["ods_role.r0"];
    await store.writeChanges(state, ["ods_role.r0"]);
    expect(server.writes()).toBe(posted); // 201 answers, no whole write
    expect(fs.statSync(journal).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(journal)).mode & 0o777).toBe(0o700);

    // A run on this machine after a kill here would read the server's state and the journal.
    const read = await new StateStore(backend(journal)).read();
    expect(Object.keys(read.resources)).toHaveLength(204);
    expect(read.resources["ods_role.r0"]).toBeUndefined();
    expect(storedAddresses(server.state())).toHaveLength(5);

    await store.unlock();
    expect(server.writes()).toBe(posted + 1);
    expect(storedAddresses(server.state())).toEqual(Object.keys(state.resources).sort());
    expect(fs.existsSync(journal)).toBe(false);
    await store.close();
    expect(server.lock()).toBeUndefined();
  });

  it("posts the whole state at least every max-lag seconds while answers arrive, so another machine's view lags by at most that", async () => {
    const journal = path.join(tempDir(), "j.ods-journal");
    const store = new StateStore(backend(journal, 0.3));
    await store.lock("ods apply");
    const state = await withRoles(store, 3);
    const posted = server.writes();
    const startedAt = Date.now();
    let i = 0;
    while (Date.now() - startedAt < 1_000 && i < 10_000) {
      state.resources[`ods_role.t${i}`] = role(`id-t${i}`, `t${i}`);
      await store.writeChanges(state, [`ods_role.t${i}`]);
      i++;
      await new Promise((r) => setTimeout(r, 5));
    }
    // About one whole write per 0.3 s over one second: not one per answer, and not none.
    const whole = server.writes() - posted;
    expect(i).toBeGreaterThan(20);
    expect(whole).toBeGreaterThanOrEqual(2);
    expect(whole).toBeLessThanOrEqual(5);
    await store.close();
    expect(storedAddresses(server.state())).toHaveLength(3 + i);
  });
});

describe("the journal of a pg state", () => {
  let pg: PgServer | undefined;
  let reason: string | undefined;
  let sql: Client | undefined;
  beforeAll(async () => {
    ({ server: pg, reason } = await startPg());
    if (pg) {
      sql = new Client({ connectionString: pg.connStr });
      await sql.connect();
    }
  }, 180_000);
  afterAll(async () => {
    await sql?.end();
    pg?.stop();
  });

  const store = (schema: string): StateStore =>
    new StateStore(new PgBackend({ connStr: pg!.connStr, schemaName: schema, skipSchemaCreation: false, skipTableCreation: false, skipIndexCreation: false }));
  const stored = async (schema: string): Promise<string | undefined> => (await sql!.query<{ data: string }>(`SELECT data FROM "${schema}".states WHERE name = 'default'`)).rows[0]?.data;
  const journalRows = async (schema: string): Promise<number> => Number((await sql!.query<{ n: string }>(`SELECT count(*) AS n FROM "${schema}".ods_state_journal`)).rows[0].n);

  it("appends answers as rows beside Terraform's state instead of rewriting it; a read sees them; a whole write takes them in and deletes them", async (ctx) => {
    if (!pg) return ctx.skip(reason);
    const s = store("journal_a");
    await s.lock("ods apply");
    const state = await withRoles(s, 4);
    const before = await stored("journal_a");
    for (let i = 0; i < 300; i++) {
      state.resources[`ods_role.n${i}`] = role(`id-n${i}`, `n${i}`);
      await s.writeChanges(state, [`ods_role.n${i}`]);
    }
    state.resources["ods_role.r1"] = role("id-1b", "r1");
    await s.writeChanges(state, ["ods_role.r1"]);
    expect(await stored("journal_a")).toBe(before);
    expect(await journalRows("journal_a")).toBe(301);

    const other = store("journal_a");
    const read = await other.read();
    expect(Object.keys(read.resources)).toHaveLength(304);
    expect(read.resources["ods_role.r1"].id).toBe("id-1b");
    await other.close();

    // A whole write of an older journal's base: its rows no longer count.
    await s.write(state);
    expect(await journalRows("journal_a")).toBe(0);
    expect(storedAddresses(await stored("journal_a"))).toHaveLength(304);
    await s.close();
  });

  it("a run that ends leaves Terraform a complete state and no rows; rows of an older serial are ignored", async (ctx) => {
    if (!pg) return ctx.skip(reason);
    const s = store("journal_b");
    await s.lock("ods apply");
    const state = await withRoles(s, 2);
    state.resources["ods_role.x"] = role("id-x", "x");
    await s.writeChanges(state, ["ods_role.x"]);
    await s.close();
    expect(storedAddresses(await stored("journal_b"))).toEqual(["ods_role.r0", "ods_role.r1", "ods_role.x"]);
    expect(await journalRows("journal_b")).toBe(0);
    // Rows a kill left between a whole write and their deletion extend an older serial.
    const { lineage, serial } = JSON.parse((await stored("journal_b"))!) as { lineage: string; serial: number };
    await sql!.query(`INSERT INTO journal_b.ods_state_journal (name, lineage, serial, address, resource) VALUES ('default', $1, $2, 'ods_role.x', NULL)`, [lineage, serial - 1]);
    const read = await store("journal_b").read();
    expect(Object.keys(read.resources).sort()).toEqual(["ods_role.r0", "ods_role.r1", "ods_role.x"]);
  });

  it("a SIGKILL at a random moment loses no acknowledged entry and duplicates none", { timeout: 120_000 }, async (ctx) => {
    if (!pg) return ctx.skip(reason);
    // A child saves one entry at a time (compacting after 1,000) and prints each once saved.
    const script = `
      const { PgBackend } = require(${JSON.stringify(path.join(ROOT, "lib/reconcile/backends"))});
      const { StateStore, emptyState } = require(${JSON.stringify(path.join(ROOT, "lib/reconcile/state"))});
      const role = (id, name) => ({ typeName: "ods_role", id, values: { name, description: "role " + name }, engineValues: {}, secretFingerprints: {}, dependsOn: [] });
      (async () => {
        const store = new StateStore(new PgBackend({ connStr: process.argv[1], schemaName: process.argv[2], skipSchemaCreation: false, skipTableCreation: false, skipIndexCreation: false }));
        await store.lock("ods apply");
        const state = emptyState();
        await store.write(state);
        for (let i = 0; i < 3000; i++) {
          state.resources["ods_role.r" + i] = role("id-" + i, "r" + i);
          await store.writeChanges(state, ["ods_role.r" + i]);
          process.stdout.write("saved " + i + "\\n");
        }
      })();
    `;
    for (const [trial, killAt] of [200, 1400].entries()) {
      const schema = `journal_kill_${trial}`;
      const acknowledged = await killAfterSaved(script, [pg!.connStr, schema], killAt);
      expect(acknowledged).toBeGreaterThanOrEqual(killAt);
      const reader = store(schema);
      const read = await reader.read();
      await reader.close();
      const ids = Object.values(read.resources).map((r) => r.id);
      expect(new Set(ids).size).toBe(ids.length);
      for (let i = 0; i <= acknowledged; i++) expect(read.resources[`ods_role.r${i}`]?.id).toBe(`id-${i}`);
    }
  });
});
