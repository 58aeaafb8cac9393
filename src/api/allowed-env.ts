// The environment a process of ours keeps: what it reads (ODS_*), what Terraform's plugin
// start-up and logging use, proxies and CA bundles, and what Node itself needs. Everything
// else in the shell that started the command (cloud credentials, CI tokens) is not ours:
// a provider process drops it at start, and a helper process we spawn never receives it.

/** Proxies, as curl reads them (both spellings), and CA bundles: how a process reaches the network here. */
export const NETWORK_ENV_NAMES: readonly string[] = [
  "HTTPS_PROXY",
  "https_proxy",
  "HTTP_PROXY",
  "http_proxy",
  "NO_PROXY",
  "no_proxy",
  "ALL_PROXY",
  "all_proxy",
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
];

/** What a process needs on Windows to find the system and the user's folders. */
export const WINDOWS_ENV_NAMES: readonly string[] = ["SYSTEMROOT", "SYSTEMDRIVE", "WINDIR", "COMSPEC", "PATHEXT", "USERPROFILE", "APPDATA", "LOCALAPPDATA"];

/** Exact names kept (compared case-sensitively, except on Windows where names are case-insensitive). */
const KEPT_NAMES = new Set([
  // go-plugin's start-up contract (src/tfprovider/protocol/handshake.ts)
  "TF_PLUGIN_MAGIC_COOKIE",
  "PLUGIN_PROTOCOL_VERSIONS",
  "PLUGIN_CLIENT_CERT",
  "PLUGIN_UNIX_SOCKET_DIR",
  "PLUGIN_MIN_PORT",
  "PLUGIN_MAX_PORT",
  "TF_DISABLE_PLUGIN_TLS",
  ...NETWORK_ENV_NAMES,
  // Node and the C library
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "TMPDIR",
  "TMP",
  "TEMP",
  "TZ",
  "LANG",
  "NODE_OPTIONS",
  "NODE_V8_COVERAGE",
  "UV_THREADPOOL_SIZE",
  ...WINDOWS_ENV_NAMES,
]);

/** Name prefixes kept: our own settings, Terraform's log settings, locale categories. */
const KEPT_PREFIXES = ["ODS_", "TF_LOG", "LC_"];

/** Whether a variable of this name is one a process of ours keeps. */
export function isAllowedEnvName(name: string): boolean {
  const key = process.platform === "win32" ? name.toUpperCase() : name;
  if (KEPT_NAMES.has(key)) return true;
  return KEPT_PREFIXES.some((prefix) => key.startsWith(prefix));
}

/** The allowed part of `env`: the environment to give a process we spawn. */
export function allowedEnvironment(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const kept: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined && isAllowedEnvName(name)) kept[name] = value;
  return kept;
}

/**
 * The allowlist as a POSIX sh `case` pattern (`NAME|NAME|PREFIX*`), for the provider's
 * launcher script (src/tfprovider/install.ts), which starts Node with these variables alone.
 */
export function allowedEnvCasePattern(): string {
  return [...KEPT_NAMES, ...KEPT_PREFIXES.map((prefix) => `${prefix}*`)].join("|");
}

/**
 * Drops from `env` (this process's own, in place) every variable not allowed. It changes
 * what this process and the processes it starts see, not what the kernel keeps of the
 * environment it was started with (/proc/PID/environ): the provider's launcher starts it
 * with the allowed part only.
 */
export function keepAllowedEnvironment(env: NodeJS.ProcessEnv = process.env): void {
  for (const name of Object.keys(env)) if (!isAllowedEnvName(name)) delete env[name];
}
