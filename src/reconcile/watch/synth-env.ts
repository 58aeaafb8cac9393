// The environment the watcher gives the repository's app (cdktf.json's `app`) when it
// synthesizes a commit. That app is code whoever can push to the branch wrote, so it gets
// what running Node and npm needs and nothing that opens anything: no ODS_* variable (the
// service's URL and token), no state backend's settings (PG*, DATABASE_URL, TF_HTTP_*...),
// no cloud or CI credential. A variable the app really needs is named with --synth-env.

import { NETWORK_ENV_NAMES, WINDOWS_ENV_NAMES } from "../../api/allowed-env";

/** Exact names passed on: finding programs, the user's home and temporary files, time zone. */
const BASE_NAMES = new Set([
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "SHELL",
  "TMPDIR",
  "TMP",
  "TEMP",
  "TZ",
  "LANG",
  "LANGUAGE",
  // proxies and CA bundles
  ...NETWORK_ENV_NAMES,
  // Node and npm (no npm_config_* beyond these: that prefix also carries registry tokens)
  "NODE_OPTIONS",
  "NODE_PATH",
  "NODE_ENV",
  "npm_config_cache",
  "npm_config_registry",
  "npm_config_prefix",
  "NPM_CONFIG_CACHE",
  "NPM_CONFIG_REGISTRY",
  "NPM_CONFIG_PREFIX",
  // cdktf's own settings, none secret
  "CHECKPOINT_DISABLE",
  "DISABLE_VERSION_CHECK",
  "CDKTF_LOG_LEVEL",
  "CDKTF_DISABLE_PLUGIN_CACHE_ENV",
  "CDKTF_HOME",
  "JSII_SILENCE_WARNING_UNTESTED_NODE_VERSION",
  "JSII_SILENCE_WARNING_DEPRECATED_NODE_VERSION",
  ...WINDOWS_ENV_NAMES,
]);

/** Name prefixes passed on: the locale categories. */
const BASE_PREFIXES = ["LC_"];

/** What `--synth-env NAME` accepts: a variable's name, not an assignment or a pattern. */
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export class SynthEnvError extends Error {}

/** Checks the names given with --synth-env; answers them as given. */
export function parseSynthEnvNames(names: readonly string[]): string[] {
  const bad = names.filter((n) => !NAME.test(n));
  if (bad.length > 0) {
    throw new SynthEnvError(
      `--synth-env expects the name of a variable of the watcher's environment to pass to the app (such as --synth-env NPM_TOKEN), got ${bad.map((n) => JSON.stringify(n.includes("=") ? `${n.split("=")[0]}=...` : n)).join(", ")}`,
    );
  }
  return [...names];
}

function isBaseName(name: string): boolean {
  const key = process.platform === "win32" ? name.toUpperCase() : name;
  return BASE_NAMES.has(key) || BASE_PREFIXES.some((p) => key.startsWith(p));
}

/**
 * The app's environment: the base variables of `from` that are set, plus the `extra`
 * names (--synth-env) that are set. Nothing else of the watcher's environment.
 */
export function synthEnvironment(extra: readonly string[], from: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const named = new Set(extra);
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(from)) {
    if (value !== undefined && (isBaseName(name) || named.has(name))) env[name] = value;
  }
  return env;
}
