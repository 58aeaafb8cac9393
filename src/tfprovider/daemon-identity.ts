// The rules both launchers follow to find a start's provider daemon: the Node launcher
// (daemon-launcher.ts) and the provider package's Perl launcher (launcher-pl.ts), whose
// text is written from these values, so that the two cannot drift apart. Nothing here
// loads anything: the package's `ods terraform install` ships this file.

/** The first line of a daemon's identity text; a new text format gets a new version. */
export const IDENTITY_VERSION = "ods-provider-daemon 2";

/**
 * Variables that are not the provider's environment: go-plugin's (`PLUGIN_*`), which belong
 * to one start (Terraform sets PLUGIN_CLIENT_CERT anew for every start, and lists
 * PLUGIN_PROTOCOL_VERSIONS in either order) and whose meaning the session request carries;
 * the stats file the launcher itself writes to; and what a shell sets about itself, which
 * no provider reads: `_` (the last command's path), the previous directory, the nesting
 * level, and PWD (the working directory is in the identity by itself). With them,
 * `cd ..; cd -` before the next terraform would cost a cold daemon.
 */
export const PER_START_PREFIX = "PLUGIN_";
export const PER_START_NAMES: readonly string[] = ["ODS_PROVIDER_STATS", "_", "OLDPWD", "SHLVL", "PWD"];

export const isPerStart = (name: string): boolean => name.startsWith(PER_START_PREFIX) || PER_START_NAMES.includes(name);

/**
 * The socket name's hash: FNV-1a (32 bits) of the identity's UTF-8 bytes from two offset
 * bases. Not a secret and not a proof (the daemon checks the whole text); only cheap to
 * compute in Perl as well.
 */
export const IDENTITY_HASH = { bases: [0x811c9dc5, 0x2f7a5e13], prime: 0x01000193 } as const;

/** Unix socket paths are limited to 107 bytes on Linux (103 on macOS). */
export const MAX_SOCKET_PATH = 100;

/** A session opens in milliseconds (a certificate and a listener); a daemon slower than this is not answering. */
export const SESSION_OPEN_TIMEOUT_MS = 10_000;
