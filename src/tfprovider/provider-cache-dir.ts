// The directory a provider's processes share on this machine (ODS_PROVIDER_CACHE_DIR, or one
// of this user's own under the temporary directory): the journal of passed checks
// (passed-checks.ts) and the compiled code of the bundle (code-cache.ts). Both are read
// as trusted, so the directory must be this user's alone: other users must not be able to
// plant a pass or code.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/**
 * ODS_PROVIDER_CACHE_DIR, or `ods-provider-UID` under the system's temporary directory;
 * undefined for "off", or when the directory cannot be made or is not this user's alone
 * (owned by another user, or open to group or others).
 */
export function providerCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const chosen = env.ODS_PROVIDER_CACHE_DIR;
  if (chosen === "off") return undefined;
  const uid = typeof process.getuid === "function" ? process.getuid() : undefined;
  const dir = chosen ? path.resolve(chosen) : path.join(os.tmpdir(), `ods-provider-${uid ?? os.userInfo().username}`);
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = fs.lstatSync(dir);
    if (!st.isDirectory() || (uid !== undefined && st.uid !== uid) || (st.mode & 0o077) !== 0) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}
