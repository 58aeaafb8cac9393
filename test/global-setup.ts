// Run once by vitest around the whole run: a provider cache directory of the run's own
// (ODS_PROVIDER_CACHE_DIR, inherited by every test worker and every terraform it
// starts), so that the passed-check journals the providers write (src/tfprovider/passed-checks.ts)
// live there, not in the user's, and go when the run ends. And the emulator's query
// worker bundled from the sources (tests run the emulator from src/, and a worker thread
// cannot load TypeScript), named in ODS_EMULATOR_QUERY_WORKER for every test worker.
import { buildSync } from "esbuild";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

function providerCacheDir(): () => void {
  if (process.env.ODS_PROVIDER_CACHE_DIR) return () => undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ods-test-provider-cache-"));
  process.env.ODS_PROVIDER_CACHE_DIR = dir;
  return () => fs.rmSync(dir, { recursive: true, force: true });
}

function emulatorQueryWorker(): () => void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ods-test-query-worker-"));
  const out = path.join(dir, "worker.js");
  buildSync({ entryPoints: [path.resolve(__dirname, "../src/emulator/query-host/worker.ts")], outfile: out, bundle: true, platform: "node", target: "node20", format: "cjs", logLevel: "error" });
  process.env.ODS_EMULATOR_QUERY_WORKER = out;
  return () => fs.rmSync(dir, { recursive: true, force: true });
}

export default function setup(): () => void {
  const teardowns = [providerCacheDir(), emulatorQueryWorker()];
  return () => {
    for (const teardown of teardowns) teardown();
  };
}
