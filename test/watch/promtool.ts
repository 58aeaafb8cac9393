// `promtool check metrics` from Debian's prometheus package: installed here when missing
// (as root, through apt-get), else the check is skipped with the reason.
import { spawnSync } from "node:child_process";

let installTried = false;

function found(): boolean {
  return spawnSync("sh", ["-c", "command -v promtool"], { encoding: "utf8" }).status === 0;
}

function install(): string | undefined {
  if (installTried) return "installing the prometheus package failed earlier in this run";
  installTried = true;
  if (process.getuid?.() !== 0) return "promtool is not on PATH and this user cannot install Debian's prometheus package (apt-get install prometheus)";
  if (spawnSync("sh", ["-c", "command -v apt-get"]).status !== 0) return "promtool is not on PATH and there is no apt-get to install Debian's prometheus package";
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const update = spawnSync("apt-get", ["update"], { encoding: "utf8", env, timeout: 300_000 });
  const r = spawnSync("apt-get", ["install", "-y", "--no-install-recommends", "prometheus"], { encoding: "utf8", env, timeout: 600_000 });
  if (r.status !== 0 || !found()) return `apt-get install prometheus failed: ${`${update.stderr ?? ""}${r.stderr ?? ""}`.slice(-300)}`;
  return undefined;
}

/**
 * Runs `promtool check metrics` on an exposition; answers its complaints ("" when none).
 * With ODS_REQUIRE_PROMTOOL=1 (CI's .ci/run) a missing promtool is a failure, not a skip.
 */
export function promtool(exposition: string): { output: string; skipped?: string } {
  if (!found()) {
    const why = install();
    if (why && process.env.ODS_REQUIRE_PROMTOOL === "1") return { output: `promtool is required (ODS_REQUIRE_PROMTOOL=1): ${why}` };
    if (why) return { output: "", skipped: why };
  }
  const r = spawnSync("promtool", ["check", "metrics"], { input: exposition, encoding: "utf8", timeout: 60_000 });
  const output = `${r.stdout}${r.stderr}`.trim();
  return { output: r.status === 0 ? output : output || `promtool exited ${r.status}` };
}
