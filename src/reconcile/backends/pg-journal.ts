// The journal of a pg state: a table beside Terraform's `states`, one row per changed
// address, so that an apply's saves append rows instead of rewriting the whole state
// text after every few answers. Each append is one INSERT, committed (and so durable on
// the server) before it resolves; a whole write of the state drops the rows it holds.
// Terraform ignores the table: it reads the state as of the last whole write, which is
// also what it would read while an ods apply holds the lock.
import type { Client } from "pg";
import type { JournalBase, JournalEntry, StateJournal } from "./types";

export class PgJournal implements StateJournal {
  private readonly table: string;

  /**
   * @param connect the backend's connection (one session per run)
   * @param schema the quoted schema name
   */
  constructor(
    private readonly connect: () => Promise<Client>,
    schema: string,
    private readonly workspace: string,
    readonly description: string,
  ) {
    this.table = `${schema}.ods_state_journal`;
  }

  /** Run by the backend with its other CREATE statements. */
  createStatements(): string[] {
    return [
      `CREATE TABLE IF NOT EXISTS ${this.table} (id bigserial PRIMARY KEY, name text NOT NULL, lineage text NOT NULL, serial bigint NOT NULL, address text NOT NULL, resource text)`,
      `CREATE INDEX IF NOT EXISTS ods_state_journal_by_name ON ${this.table} (name, lineage, serial, id)`,
    ];
  }

  async read(base: JournalBase): Promise<JournalEntry[]> {
    const client = await this.connect();
    const r = await client.query<{ address: string; resource: string | null }>(
      `SELECT address, resource FROM ${this.table} WHERE name = $1 AND lineage = $2 AND serial = $3 ORDER BY id`,
      [this.workspace, base.lineage, base.serial],
    );
    return r.rows.map((row) => ({ address: row.address, resource: row.resource === null ? null : (JSON.parse(row.resource) as unknown) }));
  }

  async append(base: JournalBase, entries: readonly JournalEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const client = await this.connect();
    await client.query(
      `INSERT INTO ${this.table} (name, lineage, serial, address, resource) SELECT $1, $2, $3, a, r FROM unnest($4::text[], $5::text[]) AS e(a, r)`,
      [this.workspace, base.lineage, base.serial, entries.map((e) => e.address), entries.map((e) => (e.resource === null ? null : JSON.stringify(e.resource)))],
    );
  }

  async discard(): Promise<void> {
    const client = await this.connect();
    await client.query(`DELETE FROM ${this.table} WHERE name = $1`, [this.workspace]);
  }

  async close(): Promise<void> {
    // The backend closes the session.
  }
}
