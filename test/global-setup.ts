// Run once by vitest around the whole run: a provider cache directory of the run's own
// (ODS_PROVIDER_CACHE_DIR, inherited by every test worker and every terraform it
// starts), so that the provider daemons Terraform's starts hand off to
// (src/tfprovider/daemon-launcher.ts) live there, not in the user's, and are stopped
// when the run ends instead of idling on for minutes.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { stopDaemonsIn } from "../src/tfprovider/daemon-launcher";

export default function setup(): () => void {
  if (process.env.ODS_PROVIDER_CACHE_DIR) return () => undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ods-test-provider-cache-"));
  process.env.ODS_PROVIDER_CACHE_DIR = dir;
  return () => {
    stopDaemonsIn(dir);
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
