// The `pg` backend: Terraform's schema (SCHEMA.states(id, name, data), one row per
// workspace, "default" here) and Terraform's locks: a session advisory lock on the row's
// id, and on -1 while the row does not exist yet. A lock lives as long as the session
// that took it, so a crashed holder leaves none; one connection is kept for the run.
import type { Client } from "pg";
import { LockHeldError, StateBackendError, type LockInfo, type StateBackend } from "./types";
import { redactUrl } from "./http";
import { PgJournal } from "./pg-journal";

export interface PgBackendConfig {
  connStr: string;
  schemaName: string;
  skipSchemaCreation: boolean;
  skipTableCreation: boolean;
  skipIndexCreation: boolean;
}

/** Workspaces are not used by cdktf stacks: Terraform names the only one "default". */
const WORKSPACE = "default";

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export class PgBackend implements StateBackend {
  private client?: Client;
  private ready?: Promise<Client>;
  /** The advisory lock key held ("-1" while the row does not exist), as Terraform records it. */
  private heldKey?: string;
  private readonly schema: string;

  /**
   * Answers between whole writes, in a table beside `states`; none when the user creates
   * the tables (skip_table_creation), since ods then creates none of its own.
   */
  readonly journal?: PgJournal;

  constructor(private readonly config: PgBackendConfig) {
    this.schema = quoteIdent(config.schemaName);
    if (!config.skipTableCreation) this.journal = new PgJournal(() => this.connect(), this.schema, WORKSPACE, `journal table ${config.schemaName}.ods_state_journal`);
  }

  get description(): string {
    const where = /^postgres(ql)?:\/\//.test(this.config.connStr) ? redactUrl(this.config.connStr) : "(a PostgreSQL connection string)";
    return `pg state in ${where}, schema ${this.config.schemaName}`;
  }

  private connect(): Promise<Client> {
    this.ready ??= (async () => {
      // Loaded on first use: most stacks never need it, and every command starts faster.
      const { Client: PgClient } = await import("./pg-driver");
      const client = new PgClient({ connectionString: this.config.connStr, application_name: `ods (pid ${process.pid})` });
      client.on("error", () => undefined); // a dropped connection surfaces on the next query
      try {
        await client.connect();
      } catch (err) {
        throw new StateBackendError(`cannot connect to the ${this.description}: ${(err as Error).message}`);
      }
      this.client = client;
      await this.prepare(client);
      return client;
    })();
    return this.ready;
  }

  /** Creates the schema, table and index when missing, as Terraform's pg backend does. */
  private async prepare(client: Client): Promise<void> {
    if (!this.config.skipSchemaCreation) {
      const found = await client.query("select count(1) as n from information_schema.schemata where schema_name = $1", [this.config.schemaName]);
      if (Number(found.rows[0].n) < 1) await client.query(`CREATE SCHEMA IF NOT EXISTS ${this.schema}`);
    }
    if (!this.config.skipTableCreation) {
      await client.query("CREATE SEQUENCE IF NOT EXISTS public.global_states_id_seq AS bigint");
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${this.schema}.states (id bigint NOT NULL DEFAULT nextval('public.global_states_id_seq') PRIMARY KEY, name text UNIQUE, data text)`,
      );
      for (const statement of this.journal?.createStatements() ?? []) {
        try {
          await client.query(statement);
        } catch (err) {
          // Two runs creating it at once: IF NOT EXISTS does not stop the loser's catalog insert.
          if (!["23505", "42P07"].includes((err as { code?: string }).code ?? "")) throw err;
        }
      }
    }
    if (!this.config.skipIndexCreation) {
      await client.query(`CREATE UNIQUE INDEX IF NOT EXISTS states_by_name ON ${this.schema}.states (name)`);
    }
  }

  async read(): Promise<string | undefined> {
    const client = await this.connect();
    const r = await client.query<{ data: string | null }>(`SELECT data FROM ${this.schema}.states WHERE name = $1`, [WORKSPACE]);
    // No row: no state yet. A row whose data is empty (or NULL) is a lost state, refused by
    // the StateStore rather than read as none (see EmptyStateError).
    if (r.rows.length === 0) return undefined;
    return r.rows[0].data ?? "";
  }

  async write(text: string): Promise<void> {
    const client = await this.connect();
    await client.query(
      `INSERT INTO ${this.schema}.states (name, data) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET data = $2 WHERE states.name = $1`,
      [WORKSPACE, text],
    );
  }

  private async advisoryUnlock(client: Client, key: string): Promise<void> {
    await client.query("SELECT pg_advisory_unlock($1::bigint)", [key]);
  }

  /** Who holds an advisory lock on `key`: the session's pid, application and start. */
  private async holderOf(client: Client, key: string): Promise<string> {
    const k = BigInt(key);
    const classid = Number((k >> 32n) & 0xffffffffn);
    const objid = Number(k & 0xffffffffn);
    const r = await client.query<{ pid: number; application_name: string; usename: string; client_addr: string | null; backend_start: Date }>(
      `SELECT a.pid, a.application_name, a.usename, a.client_addr::text AS client_addr, a.backend_start
         FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
        WHERE l.locktype = 'advisory' AND l.granted AND l.classid = $1::oid AND l.objid = $2::oid AND l.objsubid = 1 AND l.pid <> pg_backend_pid()`,
      [classid, objid],
    );
    const h = r.rows[0];
    if (!h) return "held by another PostgreSQL session";
    const app = h.application_name ? `"${h.application_name}"` : "an unnamed client (terraform names none)";
    return `held by PostgreSQL session ${h.pid}, ${app}, user ${h.usename}${h.client_addr ? ` from ${h.client_addr}` : ""}, connected since ${h.backend_start.toISOString()}; a pg lock ends with its session (pg_terminate_backend(${h.pid}) ends a hung one)`;
  }

  async lock(info: LockInfo): Promise<string> {
    const client = await this.connect();
    const row = await client.query<{ id: string; did_lock: boolean; did_lock_create: boolean }>(
      `SELECT states.id::text AS id, pg_try_advisory_lock(states.id) AS did_lock, pg_try_advisory_lock(-1) AS did_lock_create FROM ${this.schema}.states WHERE states.name = $1`,
      [WORKSPACE],
    );
    const r = row.rows[0];
    if (!r) {
      // No row yet: the state is being created; Terraform takes the creation lock -1.
      const c = await client.query<{ ok: boolean }>("SELECT pg_try_advisory_lock(-1) AS ok");
      if (!c.rows[0].ok) throw new LockHeldError(this.description, undefined, await this.holderOf(client, "-1"));
      this.heldKey = "-1";
      return info.ID;
    }
    if (!r.did_lock) {
      if (r.did_lock_create) await this.advisoryUnlock(client, "-1");
      throw new LockHeldError(this.description, undefined, await this.holderOf(client, r.id));
    }
    if (!r.did_lock_create) {
      await this.advisoryUnlock(client, r.id);
      throw new LockHeldError(this.description, undefined, await this.holderOf(client, "-1"));
    }
    await this.advisoryUnlock(client, "-1");
    this.heldKey = r.id;
    return info.ID;
  }

  async unlock(): Promise<void> {
    const key = this.heldKey;
    if (key === undefined || !this.client) return;
    this.heldKey = undefined;
    await this.advisoryUnlock(this.client, key);
  }

  async forceUnlock(id: string): Promise<void> {
    throw new StateBackendError(
      `a pg state lock (${id}) is a session advisory lock: it ends when the session that holds it ends, and cannot be released from another session. End the holder's session (SELECT pg_terminate_backend(PID)) if it hangs`,
    );
  }

  async close(): Promise<void> {
    try {
      await this.unlock();
    } finally {
      const client = this.client;
      this.client = undefined;
      this.ready = undefined;
      await client?.end().catch(() => undefined);
    }
  }
}
