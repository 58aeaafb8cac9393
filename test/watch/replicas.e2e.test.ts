// Several `ods watch` replicas on one state share it through the backend's lock: each
// waits for the lock, naming its holder, plans again under it, and no revision is applied
// twice. PostgreSQL (a private server, as the state tests start it) and the http backend.
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpStateServer, type HttpStateServer } from "../../bench/http-state-server";
import { OdsClient } from "../../src/api";
import { startEmulator, type EmulatorHandle } from "../../src/emulator";
import { HttpBackend, PgBackend, type StateBackend } from "../../src/reconcile/backends";
import { lockInfo } from "../../src/reconcile/state";
import { removeTempDirs, tempDir } from "../helpers/ods-cli";
import { startPg, type PgServer } from "../../bench/pg-server";
import { eventually, Repo, stackJson, WatchProcess } from "./fixture";

let emu: EmulatorHandle;
let admin: OdsClient;
let pg: PgServer | undefined;
let pgReason: string | undefined;
let httpState: HttpStateServer;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, dataDir: tempDir("ods-emu-") });
  admin = new OdsClient({ url: emu.url, token: emu.adminToken });
  httpState = await startHttpStateServer();
  const started = await startPg();
  pg = started.server;
  pgReason = started.reason;
}, 180_000);
afterAll(async () => {
  await admin.close();
  await emu.close();
  await httpState.close();
  pg?.stop();
  removeTempDirs();
});

interface BackendCase {
  name: string;
  /** The backend block of the stack and the environment that completes it (credentials stay out of git). */
  setup(): { block: Record<string, Record<string, unknown>>; env: Record<string, string>; holder: StateBackend } | { skip: string };
}

const CASES: BackendCase[] = [
  {
    name: "pg",
    setup: () => {
      if (!pg) return { skip: `no private PostgreSQL: ${pgReason}` };
      const holder = new PgBackend({ connStr: pg.connStr, schemaName: "terraform_remote_state", skipSchemaCreation: false, skipTableCreation: false, skipIndexCreation: false });
      return { block: { pg: {} }, env: { PG_CONN_STR: pg.connStr }, holder };
    },
  },
  {
    name: "http",
    setup: () => {
      const b = httpState.backend;
      const holder = new HttpBackend({
        address: b.address,
        updateMethod: "POST",
        lockAddress: b.lock_address,
        lockMethod: "LOCK",
        unlockAddress: b.unlock_address,
        unlockMethod: "UNLOCK",
        username: b.username,
        password: b.password,
      });
      return {
        block: { http: {} },
        env: { TF_HTTP_ADDRESS: b.address, TF_HTTP_LOCK_ADDRESS: b.lock_address, TF_HTTP_UNLOCK_ADDRESS: b.unlock_address, TF_HTTP_USERNAME: b.username, TF_HTTP_PASSWORD: b.password },
        holder,
      };
    },
  },
];

function stack(prefix: string, description: string, backend: Record<string, Record<string, unknown>>): Record<string, unknown> {
  const notifiers: Record<string, Record<string, unknown>> = {};
  // Enough objects that an apply takes a moment, so that the replicas overlap.
  for (let i = 0; i < 10; i++) notifiers[`n${i}`] = { name: `${prefix}-n${i}`, properties: { email: { emails: [`n${i}@example.com`] } } };
  return stackJson(
    {
      ods_role: { readers: { name: `${prefix}-readers`, description, org_capabilities: { datasets: ["read"] } } },
      ods_notifier: notifiers,
    },
    backend,
  );
}

function appliedRevisions(watchers: WatchProcess[]): string[] {
  return watchers.flatMap((w) => w.lines().filter((l) => l.event === "reconcile" && l.result === "applied").map((l) => String(l.revision)));
}

describe("ods watch replicas on one state", () => {
  for (const c of CASES) {
    it(`${c.name} backend: replicas wait for the lock naming its holder, and never apply a revision twice`, async (ctx) => {
      const setup = c.setup();
      if ("skip" in setup) {
        console.warn(`skipped: ${setup.skip}`);
        ctx.skip();
        return;
      }
      const dir = tempDir("ods-watch-replicas-");
      const prefix = `rep-${c.name}`;
      const repo = Repo.create(path.join(dir, "origin"), stack(prefix, "first", setup.block));
      const first = repo.head();
      // Someone holds the state's lock when both replicas start: each must wait, naming it.
      await setup.holder.lock(lockInfo("ods apply (held by the test)"));
      const watchers = ["a", "b"].map(
        (name) =>
          new WatchProcess(["--source", repo.dir, "--interval", "2s", "--jitter", "0%", "--workdir", path.join(dir, `checkout-${name}`)], {
            cwd: dir,
            env: { ODS_URL: emu.url, ODS_TOKEN: emu.adminToken, ...setup.env },
          }),
      );
      const log = (): string => watchers.map((w, i) => `--- watcher ${i}\n${w.stdout}\n${w.stderr}`).join("\n");
      try {
        for (const w of watchers) {
          const wait = await eventually("a lock_wait line", 30_000, () => w.lines().find((l) => l.event === "lock_wait"), log);
          expect(String(wait.message)).toContain(`pid ${process.pid}`);
        }
        expect(await admin.listRoles().then((rs) => rs.filter((r) => r.name === `${prefix}-readers`))).toEqual([]);
        await setup.holder.unlock();

        const converged = async (revision: string): Promise<boolean | undefined> => {
          for (const w of watchers) {
            const s = await w.stack("app");
            if (s?.revision !== revision || !["applied", "converged_elsewhere", "in_sync"].includes(s.lastReconcile?.result ?? "")) return undefined;
          }
          return true;
        };
        await eventually("both replicas at the first revision", 30_000, () => converged(first), log);
        // /status and the log line are written together, but stdout's pipe may reach us after the HTTP answer.
        const convergedElsewhere = (): Record<string, unknown>[] =>
          watchers.flatMap((w) => w.lines().filter((l) => l.event === "reconcile" && l.result === "converged_elsewhere" && l.revision === first));
        await eventually("both replicas' lines logged", 5_000, () => (appliedRevisions(watchers).includes(first) && convergedElsewhere().length > 0 ? true : undefined), log);
        expect(appliedRevisions(watchers).filter((r) => r === first)).toEqual([first]);
        // The other one, lock taken after it, planned again and found the revision applied.
        const elsewhere = convergedElsewhere();
        expect(elsewhere, log()).toHaveLength(1);
        expect((await admin.listRoles()).filter((r) => r.name === `${prefix}-readers`)).toHaveLength(1);
        expect((await admin.listNotifiers()).filter((n) => n.name.startsWith(`${prefix}-n`))).toHaveLength(10);

        const second = repo.commit(stack(prefix, "second", setup.block), "second revision");
        await eventually("both replicas at the second revision", 30_000, () => converged(second), log);
        // Let one more round of each pass: neither applies it again.
        await new Promise((r) => setTimeout(r, 2_500));
        expect(appliedRevisions(watchers).filter((r) => r === second), log()).toEqual([second]);
        expect((await admin.listRoles()).find((r) => r.name === `${prefix}-readers`)?.description).toBe("second");
      } finally {
        await setup.holder.close();
        for (const w of watchers) w.child.kill("SIGTERM");
        for (const w of watchers) expect((await w.exited).code).toBe(0);
      }
    }, 120_000);
  }
});
