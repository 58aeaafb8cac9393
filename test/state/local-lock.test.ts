// Locking a local state the way Terraform does (an fcntl lock on the state file, the
// holder in `.NAME.lock.info`): one holder at a time, a crashed holder leaves no lock,
// and several processes racing for a lock a dead run left behind get it one at a time.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { LocalBackend, LockHeldError, lockInfoPath } from "../../src/reconcile/backends";
import { lockInfo } from "../../src/reconcile/state";
import { ROOT, removeTempDirs, tempDir } from "../helpers/ods-cli";

afterEach(() => removeTempDirs());

// A separate process that takes the lock, says when it holds it and for how long, and
// releases it (or is killed while holding it).
const HOLDER = `
const { LocalBackend } = require(${JSON.stringify(path.join(ROOT, "lib/reconcile/backends"))});
const [file, holdMs] = process.argv.slice(1);
(async () => {
  const b = new LocalBackend(file);
  try {
    await b.lock({ ID: require("node:crypto").randomUUID(), Operation: "OperationTypeApply", Info: "ods apply (pid " + process.pid + ")", Who: "test", Version: "ods", Created: new Date().toISOString(), Path: "" });
  } catch (err) {
    console.log("busy " + err.message);
    return;
  }
  const start = Date.now();
  console.log("held " + start);
  await new Promise((r) => setTimeout(r, Number(holdMs)));
  const end = Date.now();
  await b.unlock();
  console.log("released " + start + " " + end);
})();
`;

function holder(file: string, holdMs: number, onLine?: (line: string, kill: () => void) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["-e", HOLDER, file, String(holdMs)], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      for (const line of d.toString().split("\n").filter(Boolean)) onLine?.(line, () => child.kill("SIGKILL"));
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("error", reject);
    child.on("close", () => {
      clearTimeout(timer);
      resolve(out);
    });
  });
}

describe("the local state lock", () => {
  it("lets a second run fail at once, naming the holder; released, it can be taken again", async () => {
    const file = path.join(tempDir(), "terraform.main.tfstate");
    const a = new LocalBackend(file);
    await a.lock(lockInfo("ods apply"));
    try {
      const started = Date.now();
      const err = await new LocalBackend(file).lock(lockInfo("ods apply")).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(LockHeldError);
      expect(String(err)).toMatch(new RegExp(`is locked: lock ID \\S+, held by \\S+@\\S+ \\(ods apply \\(pid ${process.pid}\\)`));
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(JSON.parse(fs.readFileSync(lockInfoPath(file), "utf8")).Info).toContain("ods apply");
    } finally {
      await a.unlock();
    }
    expect(fs.existsSync(lockInfoPath(file))).toBe(false);
    const again = new LocalBackend(file);
    await again.lock(lockInfo("ods apply"));
    await again.unlock();
  });

  it("ends with a holder killed by SIGKILL: the next run takes it at once", async () => {
    const file = path.join(tempDir(), "terraform.main.tfstate");
    const out = await holder(file, 20_000, (line, kill) => {
      if (line.startsWith("held")) kill();
    });
    expect(out).toMatch(/^held/);
    expect(fs.existsSync(lockInfoPath(file))).toBe(true); // the dead run's record stays behind
    const next = new LocalBackend(file);
    await next.lock(lockInfo("ods apply"));
    expect(JSON.parse(fs.readFileSync(lockInfoPath(file), "utf8")).Info).toContain(`pid ${process.pid}`);
    await next.unlock();
  });

  const rounds = process.env.ODS_RELIABILITY === "full" ? 60 : 2;
  it(`is held by one process at a time when four race for a lock a dead run left behind (${rounds} rounds)`, { timeout: rounds * 30_000 }, async () => {
    let overlaps = 0;
    let held = 0;
    for (let round = 0; round < rounds; round++) {
      const file = path.join(tempDir(), "terraform.main.tfstate");
      // What a killed run leaves: its lock record, naming a process that is gone.
      fs.writeFileSync(lockInfoPath(file), JSON.stringify({ ...lockInfo("ods apply"), Info: "ods apply (pid 4194311)" }));
      const outs = await Promise.all([0, 1, 2, 3].map(() => holder(file, 300)));
      const spans = outs.flatMap((o) => [...o.matchAll(/released (\d+) (\d+)/g)].map((m) => [Number(m[1]), Number(m[2])]));
      held += spans.length;
      for (const [i, [s1, e1]] of spans.entries()) for (const [s2, e2] of spans.slice(i + 1)) if (s1 < e2 && s2 < e1) overlaps++;
    }
    console.log(`local lock race: ${rounds} rounds of 4 processes, ${held} holds, ${overlaps} overlapping`);
    expect(overlaps).toBe(0);
    expect(held).toBeGreaterThanOrEqual(rounds);
  });
});
