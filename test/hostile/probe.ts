// A health probe: one cheap authenticated request (GET /v2/user) after another, on a
// connection of its own, timing each answer while a test does something hostile. It runs
// in a process of its own, so that what it measures is the emulator, not the test's
// own work (building a 10 MB body, parsing a large answer).
import { spawn } from "node:child_process";

export interface ProbeReport {
  count: number;
  p50: number;
  p99: number;
  max: number;
  /** Answers other than 200 (none expected). */
  failures: number;
}

export interface Probe {
  stop(): Promise<ProbeReport>;
}

/**
 * The probe process: requests until its stdin closes, at most MAX_PROBES of them and for
 * at most MAX_MS, then prints its figures as one JSON line and exits.
 */
const PROBE_SCRIPT = `
const http = require("node:http");
const base = process.argv[1];
const token = process.env.PROBE_TOKEN;
const GAP_MS = 20, MAX_PROBES = 20000, MAX_MS = 600000;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const url = new URL("/v2/user", base);
let stopped = false;
process.stdin.on("data", () => undefined);
process.stdin.on("end", () => { stopped = true; });
const once = () => new Promise((resolve) => {
  const req = http.get(url, { agent, headers: { Authorization: "Bearer " + token }, timeout: 30000 }, (res) => {
    res.resume();
    res.on("end", () => resolve(res.statusCode || 0));
  });
  req.on("timeout", () => req.destroy());
  req.on("error", () => resolve(0));
});
(async () => {
  const times = [];
  let failures = 0;
  const started = Date.now();
  for (let i = 0; i < MAX_PROBES && !stopped && Date.now() - started < MAX_MS; i++) {
    const t0 = performance.now();
    const status = await once();
    times.push(performance.now() - t0);
    if (status !== 200) failures++;
    await new Promise((r) => setTimeout(r, GAP_MS));
  }
  agent.destroy();
  times.sort((a, b) => a - b);
  const at = (q) => times.length === 0 ? 0 : times[Math.min(times.length - 1, Math.floor(q * times.length))];
  process.stdout.write(JSON.stringify({ count: times.length, p50: at(0.5), p99: at(0.99), max: times.length === 0 ? 0 : times[times.length - 1], failures }) + "\\n");
})();
`;

export function startProbe(base: string, token: string): Probe {
  const child = spawn(process.execPath, ["-e", PROBE_SCRIPT, base], { stdio: ["pipe", "pipe", "inherit"], env: { PROBE_TOKEN: token } });
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    async stop() {
      child.stdin!.end();
      await exited;
      return JSON.parse(out.trim()) as ProbeReport;
    },
  };
}
