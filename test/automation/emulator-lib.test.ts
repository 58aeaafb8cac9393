// startEmulator as a user's program gets it: lib/automation (after `npm run build`) in a
// plain Node process, without the test run's bundle of the query worker, running a query
// on its worker thread; once stop() resolves, nothing is left to keep the process alive,
// so it ends by itself (no process.exit).
import { spawn } from "node:child_process";
import * as path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../..");

const PROGRAM = `
const fs = require("node:fs");
const { startEmulator } = require(${JSON.stringify(path.join(ROOT, "lib/automation"))});
(async () => {
  const em = await startEmulator();
  await em.ingest("logs", [{ status: 500 }, { status: 200 }, { status: 503 }]);
  const res = await fetch(em.url + "/v1/datasets/_apl?format=tabular", {
    method: "POST",
    headers: { authorization: "Bearer " + em.token, "content-type": "application/json" },
    body: JSON.stringify({ apl: "['logs'] | where status >= 500 | count", startTime: "2000-01-01T00:00:00Z", endTime: "2100-01-01T00:00:00Z" }),
  });
  const answer = await res.json();
  await em.stop();
  console.log(JSON.stringify({ status: res.status, count: answer.tables[0].columns[0][0], dataDirLeft: fs.existsSync(em.dataDir) }));
})();
`;

function run(): Promise<{ code: number | null; stdout: string; stderr: string; timedOut: boolean }> {
  const env = { ...process.env };
  delete env.ODS_EMULATOR_QUERY_WORKER;
  const child = spawn(process.execPath, ["-e", PROGRAM], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  let timedOut = false;
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  // A process kept alive by a leftover server, socket or thread would never end: 20 s is ample.
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill("SIGKILL");
  }, 20_000);
  return new Promise((resolve) => {
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut });
    });
  });
}

describe("startEmulator from the built package", () => {
  it("runs a query on the built worker and lets the process end by itself after stop()", async () => {
    const result = await run();
    expect(result.timedOut, `the process did not end by itself: ${result.stderr}`).toBe(false);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout.trim())).toEqual({ status: 200, count: 2, dataDirLeft: false });
  });
});
