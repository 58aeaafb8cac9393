// A private PostgreSQL for tests: initdb into a temp dir, pg_ctl start on a free port of
// 127.0.0.1, stopped by the test that started it. PostgreSQL refuses to run as root, so
// as root the server runs as `nobody`. Undefined, with the reason, where it cannot run.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";

export interface PgServer {
  connStr: string;
  stop(): void;
}

function found(bin: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${bin}`], { encoding: "utf8" }).status === 0;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

export async function startPg(): Promise<{ server?: PgServer; reason?: string }> {
  for (const bin of ["initdb", "pg_ctl"]) if (!found(bin)) return { reason: `${bin} is not on PATH (install PostgreSQL to run the pg backend tests)` };
  const asRoot = process.getuid?.() === 0;
  if (asRoot && !found("runuser")) return { reason: "running as root without runuser: PostgreSQL cannot be started as root" };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ods-pg-"));
  fs.chmodSync(dir, 0o755);
  const data = path.join(dir, "data");
  fs.mkdirSync(data, { mode: 0o700 });
  const as = (cmd: string[]): string[] => (asRoot ? ["runuser", "-u", "nobody", "--", ...cmd] : cmd);
  if (asRoot) spawnSync("chown", ["nobody", data]);
  const run = (cmd: string[]): { status: number | null; out: string } => {
    const [bin, ...args] = as(cmd);
    const r = spawnSync(bin, args, { encoding: "utf8", timeout: 120_000, cwd: dir });
    return { status: r.status, out: `${r.stdout}${r.stderr}` };
  };
  const init = run(["initdb", "-D", data, "-A", "trust", "-U", "postgres", "--no-sync"]);
  if (init.status !== 0) {
    fs.rmSync(dir, { recursive: true, force: true });
    return { reason: `initdb failed: ${init.out.slice(-300)}` };
  }
  const port = await freePort();
  const start = run(["pg_ctl", "-D", data, "-o", `-p ${port} -h 127.0.0.1 -k ${data} -c fsync=off`, "-l", path.join(data, "log"), "-w", "-t", "60", "start"]);
  if (start.status !== 0) {
    fs.rmSync(dir, { recursive: true, force: true });
    return { reason: `pg_ctl start failed: ${start.out.slice(-300)}` };
  }
  return {
    server: {
      connStr: `postgres://postgres@127.0.0.1:${port}/postgres?sslmode=disable`,
      stop: () => {
        run(["pg_ctl", "-D", data, "-m", "immediate", "-w", "stop"]);
        fs.rmSync(dir, { recursive: true, force: true });
      },
    },
  };
}
