// Run once by vitest around the whole run: a provider cache directory of the run's own
// (ODS_PROVIDER_CACHE_DIR, inherited by every test worker and every terraform it
// starts), so that the passed-check journals the providers write (src/tfprovider/passed-checks.ts)
// live there, not in the user's, and go when the run ends.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

export default function setup(): () => void {
  if (process.env.ODS_PROVIDER_CACHE_DIR) return () => undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ods-test-provider-cache-"));
  process.env.ODS_PROVIDER_CACHE_DIR = dir;
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
