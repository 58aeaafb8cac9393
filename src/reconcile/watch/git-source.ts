// The watched branch, fetched with the real `git` into a checkout of the watcher's own
// (a directory only this user may read: it holds the configuration, and may hold a
// credential in its remote's URL). Each round fetches the branch and, when its commit
// moved, checks it out clean: a file left by an earlier synthesis cannot leak into the
// next one. Every git call is bounded in time and ends with the watcher.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

/** The environment git gets: what finding git, credentials and proxies need, nothing else. */
const GIT_ENV_KEYS = [
  "PATH", "HOME", "LANG", "TMPDIR", "SSH_AUTH_SOCK", "GIT_SSH_COMMAND", "GIT_SSL_CAINFO", "GIT_ASKPASS", "SSL_CERT_FILE",
  "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy",
];

export class GitSourceError extends Error {}

export interface GitSourceOptions {
  /** A path to a git repository or a URL git can clone. */
  source: string;
  branch: string;
  /** The private checkout (created when missing). */
  dir: string;
  /** Bound on each git call. */
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

export interface Fetched {
  /** The commit the branch points at now. */
  revision: string;
  /** Whether the checkout moved to it in this fetch. */
  changed: boolean;
}

const HIDDEN = "***";

/** A URL with a scheme (`https://`, `ssh://`, `file://`...), split where a credential may sit. */
const URL_PARTS = /^([a-z][a-z0-9+.-]*:\/\/)(?:([^/?#]*)@)?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/is;

/**
 * The source as messages, logs and /status show it: a URL's user information, the value of
 * each query parameter (`?private_token=...`) and its fragment hidden, whatever git or a
 * forge puts there. A path is shown as it is.
 */
export function describeSource(source: string): string {
  const m = URL_PARTS.exec(source);
  if (!m) return source;
  const [, scheme, userInfo, rest, query, fragment] = m;
  const shownQuery = query === undefined ? "" : `?${query.split("&").map((p) => (p === "" ? p : `${p.split("=")[0]}=${HIDDEN}`)).join("&")}`;
  return `${scheme}${userInfo !== undefined ? `${HIDDEN}@` : ""}${rest}${shownQuery}${fragment !== undefined ? `#${HIDDEN}` : ""}`;
}

/** The parts of a source URL that may be a credential, as written and as decoded. */
function secretParts(source: string): string[] {
  const m = URL_PARTS.exec(source);
  if (!m) return [];
  const [, , userInfo, , query, fragment] = m;
  const raw = [
    ...(userInfo ? userInfo.split(":") : []),
    ...(query ? query.split("&").map((p) => (p.includes("=") ? p.slice(p.indexOf("=") + 1) : p)) : []),
    ...(fragment ? [fragment] : []),
  ];
  const decoded = raw.map((p) => {
    try {
      return decodeURIComponent(p);
    } catch {
      return p;
    }
  });
  // Very short values (`?ref=1`) are no credential, and hiding them would hide every "1".
  return [...new Set([...raw, ...decoded])].filter((p) => p.length >= 6).sort((a, b) => b.length - a.length);
}

/**
 * `text` (git's own messages, which may echo the remote's URL in its own form) with every
 * URL in it described as describeSource does, and every credential part of `source` hidden.
 */
export function redactSourceIn(text: string, source: string): string {
  let out = text.split(source).join(describeSource(source));
  out = out.replace(/[a-z][a-z0-9+.-]*:\/\/[^\s'"<>]+/gi, (url) => describeSource(url));
  for (const part of secretParts(source)) out = out.split(part).join(HIDDEN);
  return out;
}

export class GitSource {
  private revision: string | undefined;
  private readonly timeoutMs: number;
  private readonly env: NodeJS.ProcessEnv;

  constructor(private readonly options: GitSourceOptions) {
    this.timeoutMs = options.timeoutMs ?? 120_000;
    const from = options.env ?? process.env;
    this.env = { GIT_TERMINAL_PROMPT: "0", LC_ALL: "C" };
    for (const k of GIT_ENV_KEYS) if (from[k] !== undefined) this.env[k] = from[k];
  }

  get dir(): string {
    return this.options.dir;
  }

  /** Fetches the branch; checks out its commit when it moved (or on the first call). */
  async fetch(signal?: AbortSignal): Promise<Fetched> {
    const { dir, branch } = this.options;
    if (!fs.existsSync(path.join(dir, ".git"))) {
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      fs.chmodSync(dir, 0o700);
      await this.git(["init", "--quiet", dir], signal, path.dirname(dir));
      // A local path is read as a path, never through a shell: git gets it as one argument.
      await this.git(["remote", "add", "origin", this.remoteOf(this.options.source)], signal);
    }
    await this.git(["fetch", "--quiet", "--no-tags", "--prune", "origin", `+refs/heads/${branch}:refs/remotes/origin/${branch}`], signal);
    const revision = (await this.git(["rev-parse", "--verify", `refs/remotes/origin/${branch}^{commit}`], signal)).trim();
    if (revision === this.revision) return { revision, changed: false };
    await this.git(["checkout", "--quiet", "--force", "--detach", revision], signal);
    await this.git(["clean", "--quiet", "-ffdx"], signal);
    this.revision = revision;
    return { revision, changed: true };
  }

  /** A relative path is resolved now: git runs in the checkout, not where the watcher started. */
  private remoteOf(source: string): string {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source) || /^[^/]+@[^/]+:/.test(source)) return source;
    return path.resolve(source);
  }

  private git(args: string[], signal: AbortSignal | undefined, cwd = this.options.dir): Promise<string> {
    const shown = `git ${args.filter((a) => a !== this.options.source).join(" ")}`;
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new GitSourceError(`${shown}: stopped`));
      const child = spawn("git", args, { cwd, env: this.env, stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      let err = "";
      child.stdout.on("data", (d: Buffer) => (out += d.toString("utf8")));
      child.stderr.on("data", (d: Buffer) => (err += d.toString("utf8")));
      const stop = (): void => {
        child.kill("SIGKILL");
      };
      const timer = setTimeout(stop, this.timeoutMs);
      signal?.addEventListener("abort", stop, { once: true });
      child.on("error", (e) => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", stop);
        reject(new GitSourceError(`cannot run git (${e.message}); install git to watch ${describeSource(this.options.source)}`));
      });
      child.on("close", (code, sig) => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", stop);
        if (code === 0) return resolve(out);
        const why = sig ? (signal?.aborted ? "stopped" : `killed after ${this.timeoutMs} ms`) : `exit ${code}`;
        const detail = this.hideSource(err.trim().split("\n").slice(-3).join("; "));
        reject(new GitSourceError(`${shown} failed (${why}) for ${describeSource(this.options.source)} branch ${this.options.branch}${detail ? `: ${detail}` : ""}`));
      });
    });
  }

  /** git may echo the remote's URL, credentials included: shown without them. */
  private hideSource(text: string): string {
    return redactSourceIn(text, this.options.source);
  }
}
