// The data directory's lock and credentials file.
//
// Layout of <dataDir>:
//   emulator.lock     pid of the emulator using the directory (stale after a crash)
//   credentials.json  {orgId, userId, tokenId, token, url} of the admin token, mode 0600
//   state.json        snapshot of every object (see store.ts)
//   journal.ndjson    writes since the snapshot, fsynced before each answer
//   events/<key>.ndjson  ingested events of one dataset, appended and fsynced
import * as fs from "node:fs";
import * as path from "node:path";
import { writeFileAtomic } from "./append-log";

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Claims the directory for this process, so that two emulators never append to the
 * same journal. A lock left by a killed process is taken over. Returns the release.
 */
export function lockDataDir(dataDir: string): () => void {
  const lockPath = path.join(dataDir, "emulator.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(lockPath, "wx", 0o600);
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      return () => fs.rmSync(lockPath, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const pid = Number(fs.readFileSync(lockPath, "utf8").trim());
      if (Number.isInteger(pid) && pid > 0 && pidAlive(pid)) {
        throw new Error(`data directory ${dataDir} is in use by another emulator (pid ${pid}); stop it or use another --data-dir`);
      }
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`could not lock data directory ${dataDir}`);
}

export interface Credentials {
  orgId: string;
  userId: string;
  tokenId: string;
  token: string;
  url?: string;
}

export function readCredentials(dataDir: string): Credentials | undefined {
  try {
    const parsed = JSON.parse(fs.readFileSync(path.join(dataDir, "credentials.json"), "utf8")) as Partial<Credentials>;
    if (typeof parsed.token !== "string" || typeof parsed.tokenId !== "string" || typeof parsed.orgId !== "string" || typeof parsed.userId !== "string") {
      return undefined;
    }
    return { orgId: parsed.orgId, userId: parsed.userId, tokenId: parsed.tokenId, token: parsed.token, url: parsed.url };
  } catch {
    return undefined;
  }
}

/** Written with mode 0600: it holds the admin token's secret. */
export function writeCredentials(dataDir: string, credentials: Credentials): void {
  const file = path.join(dataDir, "credentials.json");
  writeFileAtomic(file, JSON.stringify(credentials, null, 2) + "\n", 0o600);
  fs.chmodSync(file, 0o600);
}
