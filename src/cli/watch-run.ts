// The run of `ods watch` (declared in watch-command.ts). The loop and its decisions live in
// src/reconcile/watch; this module turns the flags into its options and gives it the
// operations of `ods plan` and `ods apply` (the same session, the same engine, the same
// rails), and runs its HTTP endpoints until SIGTERM or SIGINT.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { OdsClient, RateLimiter, resolveClientConfig, type RequestEvent } from "../api";
import { LocalBackend, redactUrl } from "../reconcile/backends";
import { toSavedPlan } from "../reconcile/saved-plan";
import { StackError } from "../reconcile/stack";
import {
  GitSource,
  WatchMetrics,
  Watcher,
  describeSource,
  exposureWarning,
  formatEvent,
  parseDuration,
  parseListen,
  parseShare,
  parseSynthEnvNames,
  redactSourceIn,
  roundRate,
  startWatchServer,
  synthEnvironment,
  type LogFormat,
  type OpenedRound,
  type PendingPlan,
  type RoundSource,
  type WatchedStack,
} from "../reconcile/watch";
import { annotateStack, openCliSession, type CommonOpts, type Session } from "./reconcile-commands";
import type { WarningsOpts } from "./warnings-as-errors";
import type { StackPlan } from "../reconcile/stack-plan";
import type { StackUnit } from "../reconcile/stack-unit";
import { sessionStack } from "../reconcile/watch/session-stack";
import { synth } from "../reconcile/synth";

/** A stopped watcher exits within this time, whatever its round is doing. */
const STOP_DEADLINE_MS = 8_000;

export interface WatchOpts extends CommonOpts, WarningsOpts {
  source: string;
  branch: string;
  interval: string;
  jitter: string;
  onChange: "apply" | "plan";
  onDrift: "report" | "correct";
  listen: string;
  logFormat: LogFormat;
  planDir: string;
  workdir?: string;
  lockTimeout: string;
  maxBackoff: string;
  rateBudget: string;
  parallelism: number;
  annotate?: boolean;
  once?: boolean;
  /** --synth-env: variables of the watcher's environment the repository's app also gets. */
  synthEnv: string[];
}

function logWriter(): (line: string) => void {
  return (line) => process.stdout.write(line.endsWith("\n") ? line : `${line}\n`);
}

/** Runs the watcher until SIGTERM or SIGINT (or one round with --once); answers the exit code. */
export async function runWatch(o: WatchOpts): Promise<number> {
  const intervalMs = parseDuration(o.interval, "--interval");
  const schedule = {
    intervalMs,
    jitter: parseShare(o.jitter, "--jitter", 0, 0.5),
    maxBackoffMs: parseDuration(o.maxBackoff, "--max-backoff"),
  };
  const lockTimeoutMs = parseDuration(o.lockTimeout, "--lock-timeout");
  const budgetShare = parseShare(o.rateBudget, "--rate-budget", 0.01, 1);
  const listen = parseListen(o.listen);
  parseSynthEnvNames(o.synthEnv);
  if (path.isAbsolute(o.outDir) || o.outDir.split(/[\\/]/).includes("..")) {
    throw new StackError([`--out-dir ${o.outDir}: with ods watch it names a directory inside the checkout of ${describeSource(o.source)}, relative to its root`]);
  }
  // Said before the address is bound: the operator reads it before anything is served.
  const exposed = exposureWarning(listen);
  if (exposed) process.stderr.write(`Warning: ${exposed}\n`);
  const write = logWriter();
  const metrics = new WatchMetrics();
  const temporary = o.workdir === undefined;
  const checkout = o.workdir ? path.resolve(o.workdir) : path.join(fs.mkdtempSync(path.join(os.tmpdir(), "ods-watch-")), "checkout");
  const source = new CliRoundSource(o, new GitSource({ source: o.source, branch: o.branch, dir: checkout }), metrics, intervalMs, budgetShare);
  const watcher = new Watcher({
    source,
    schedule,
    onChange: o.onChange,
    onDrift: o.onDrift,
    annotate: o.annotate === true,
    lockTimeoutMs,
    metrics,
    logFormat: o.logFormat,
    write,
    sourceName: describeSource(o.source),
    branch: o.branch,
    redact: (text) => redactSourceIn(text, o.source),
  });
  const stop = new AbortController();
  const server = await startWatchServer(listen, { metrics, status: () => watcher.status(), ready: () => watcher.ready, live: () => !stop.signal.aborted });
  const started = `ods watch: following ${describeSource(o.source)} branch ${o.branch} every ${o.interval}; on change: ${o.onChange}, on drift: ${o.onDrift}; serving ${server.url}/metrics`;
  write(formatEvent(o.logFormat, "start", started, { url: server.url }));

  let forced: NodeJS.Timeout | undefined;
  const onSignal = (sig: NodeJS.Signals): void => {
    if (stop.signal.aborted) return;
    write(formatEvent(o.logFormat, "stop", `${sig}: ending the round and stopping`));
    stop.abort();
    // A call in flight cannot be interrupted halfway; past the deadline the process goes anyway
    // (each state write is complete, and a lock ends with its holder or its connection).
    forced = setTimeout(() => {
      source.closeNow();
      if (temporary) fs.rmSync(path.dirname(checkout), { recursive: true, force: true });
      process.exit(0);
    }, STOP_DEADLINE_MS);
    forced.unref();
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  try {
    if (o.once) {
      const ok = await watcher.round(stop.signal);
      const stacks = watcher.status().stacks;
      if (!ok) return 1;
      return stacks.some((s) => s.drifted.length > 0 || s.pendingPlan) ? 2 : 0;
    }
    await watcher.run(stop.signal);
    return 0;
  } finally {
    process.off("SIGTERM", onSignal);
    process.off("SIGINT", onSignal);
    await server.close();
    await source.close();
    if (temporary) fs.rmSync(path.dirname(checkout), { recursive: true, force: true });
    if (forced) clearTimeout(forced);
  }
}

/** The flags that select the same stacks and variables for `ods apply FILE`; --var values are left out (they may be secret). */
function applyFlags(o: WatchOpts): string[] {
  const flags: string[] = [];
  if (o.state) flags.push("--state", path.resolve(o.state));
  for (const v of o.var ?? o.varFile ?? []) if (v.kind === "file") flags.push("--var-file", v.text);
  return flags;
}

/**
 * Each round: fetch, synthesize when the commit moved (or the last synthesis failed),
 * open the stacks as `ods plan` does, with clients that count requests and share one
 * rate limiter per organization across rounds.
 */
class CliRoundSource implements RoundSource {
  private synthesized: string | undefined;
  private readonly limiters = new Map<string, RateLimiter>();
  private readonly serviceLimits = new Map<string, number | undefined>();
  /** Requests each stack's last round sent: the budget's estimate for the next. */
  private readonly lastRequests = new Map<string, number>();
  private session: Session | undefined;
  private readonly announced = new Set<string>();

  constructor(
    private readonly o: WatchOpts,
    private readonly git: GitSource,
    private readonly metrics: WatchMetrics,
    private readonly intervalMs: number,
    private readonly budgetShare: number,
  ) {}

  async open(signal: AbortSignal): Promise<OpenedRound> {
    const { revision } = await this.git.fetch(signal);
    const outDir = path.join(this.git.dir, this.o.outDir);
    if (this.o.synth && this.synthesized !== revision) {
      this.synthesized = undefined;
      // A failed synthesis fails the round: nothing is planned from a half-written directory.
      // The app is the repository's code: it gets none of the watcher's credentials.
      await synth({ app: this.o.app, out: outDir, cwd: this.git.dir, stdio: "pipe", signal, env: synthEnvironment(this.o.synthEnv) });
      this.synthesized = revision;
    }
    const counters = new Map<string, OdsClient[]>();
    const closeClients = async (): Promise<void> => {
      for (const clients of counters.values()) for (const c of clients) await c.close();
    };
    let session: Session;
    try {
      session = await openCliSession({ ...this.o, outDir, synth: false }, (line) => this.announce(line), async (unit) => {
        this.refuseStateInCheckout(unit);
        counters.set(unit.name, await this.wrapClients(unit));
      });
    } catch (e) {
      await closeClients();
      throw e;
    }
    this.session = session;
    const stacks = session.units.map((unit) => this.watched(unit, session, revision, outDir, () => counters.get(unit.name) ?? []));
    return {
      revision,
      stacks,
      close: async () => {
        for (const s of stacks) this.lastRequests.set(s.name, s.requests());
        this.session = undefined;
        await session.close();
        await closeClients();
      },
    };
  }

  /** Target lines are printed when they first appear, not every round. */
  private announce(line: string): void {
    if (this.announced.has(line)) return;
    this.announced.add(line);
    process.stderr.write(`${line}\n`);
  }

  /** A local state file inside the checkout would be lost with it (and git clean removes it). */
  private refuseStateInCheckout(unit: StackUnit): void {
    const backend = unit.store.backend;
    if (!(backend instanceof LocalBackend)) return;
    const rel = path.relative(this.git.dir, backend.file);
    if (!rel.startsWith("..") && !path.isAbsolute(rel)) {
      throw new StackError([
        `stack ${unit.name} keeps its state in ${rel}, inside the watcher's checkout, where it would not outlive the watcher: declare a shared backend (pg, http) in the stack, or pass --state FILE outside the checkout`,
      ]);
    }
  }

  /**
   * The watcher's token (--token, ODS_TOKEN) goes only to the watcher's service (--url,
   * ODS_URL): a provider block of the repository naming another url would otherwise have
   * the watcher send its token there. A block with its own token may name any service.
   */
  private refuseTokenElsewhere(unit: StackUnit, provider: string, url: string, token: string): void {
    const own = this.o.token ?? process.env.ODS_TOKEN;
    if (own === undefined || token !== own) return;
    const service = this.o.url ?? process.env.ODS_URL;
    const pinned = service === undefined ? undefined : resolveClientConfig({ url: service, token: own }, {}).url;
    if (pinned === url) return;
    throw new StackError([
      `stack ${unit.name}, provider ${provider}: the repository sends the watcher's token to ${redactUrl(url)}, ` +
        (pinned === undefined ? "and the watcher names no service of its own" : `not to the watcher's service ${redactUrl(pinned)}`) +
        `: the watcher's token goes only to the service of --url or ODS_URL. Set that to the service the stacks use, or give the provider block its own token (a variable)`,
    ]);
  }

  /**
   * Replaces each target's client by one that counts its requests by status and goes
   * through the organization's shared limiter at the round's rate.
   */
  private async wrapClients(unit: StackUnit): Promise<OdsClient[]> {
    const clients: OdsClient[] = [];
    for (const target of unit.targets.values()) {
      const base = target.client.config;
      this.refuseTokenElsewhere(unit, target.provider, base.url, base.token);
      const key = `${base.url}\n${base.orgId ?? ""}`;
      let limiter = this.limiters.get(key);
      if (!limiter) {
        limiter = new RateLimiter(base.rateLimitPerSecond);
        this.limiters.set(key, limiter);
      }
      const onRequest = (e: RequestEvent): void => this.metrics.apiRequest(e.status);
      const make = (rate: number | undefined): OdsClient =>
        new OdsClient(resolveClientConfig({ ...base, onRequest, ...(rate !== undefined ? { rateLimitPerSecond: rate } : {}) }, {}), { limiter });
      if (!this.serviceLimits.has(key)) {
        // Read once: the organization's limit (the record, else the configured one).
        const probe = make(undefined);
        let limit: number | undefined;
        try {
          limit = await probe.useOrganizationRateLimit();
        } catch {
          limit = base.rateLimitPerSecond; // describing the target reports the failure
        }
        await probe.close();
        this.serviceLimits.set(key, limit);
      }
      const service = this.serviceLimits.get(key);
      const configured = base.rateLimitPerSecond;
      const limit = configured !== undefined && service !== undefined ? Math.min(configured, service) : configured ?? service;
      const rate = roundRate({ serviceLimit: limit, share: this.budgetShare, expectedRequests: this.lastRequests.get(unit.name), intervalMs: this.intervalMs });
      if (rate !== undefined) limiter.setRate(rate);
      target.client = make(rate);
      clients.push(target.client);
    }
    return clients;
  }

  private watched(unit: StackUnit, session: Session, revision: string, outDir: string, clients: () => OdsClient[]): WatchedStack {
    const o = this.o;
    return sessionStack(unit, session, {
      revision,
      checkQueries: o.checkQueries,
      parallelism: o.parallelism,
      warningsAsErrors: o.warningsAsErrors,
      annotate: (sp, startedAt, a) => annotateStack(sp, startedAt, { by: a.by, ...(a.only ? { only: a.only } : {}), info: () => undefined }),
      savePlan: (u, part, rev) => savePlanFile(o, u, part.plan, rev, outDir),
      requests: () => clients().reduce((n, c) => n + c.stats().requests, 0),
    });
  }

  /** Closes what a round left open, at once (the stop deadline passed). */
  closeNow(): void {
    void this.session?.close().catch(() => undefined);
  }

  async close(): Promise<void> {
    await this.session?.close().catch(() => undefined);
    this.session = undefined;
  }
}

/**
 * Saves a revision's plan as `ods plan --out` does, named after the stack and the commit,
 * beside a copy of the configuration it was made from: `ods apply FILE --out-dir DIR`
 * applies exactly it (and refuses it once anything moved). Plans of older commits of the
 * stack are removed: they could only be refused as stale.
 */
function savePlanFile(o: WatchOpts, unit: StackUnit, plan: StackPlan["parts"][number]["plan"], revision: string, outDir: string): PendingPlan {
  const dir = path.resolve(o.planDir);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const base = `${unit.name}-${revision.slice(0, 12)}`;
  for (const entry of fs.readdirSync(dir)) {
    if (entry.startsWith(`${unit.name}-`) && !entry.startsWith(base) && /-[0-9a-f]{12}\.(plan\.json|out)$/.test(entry)) fs.rmSync(path.join(dir, entry), { recursive: true, force: true });
  }
  const copy = path.join(dir, `${base}.out`);
  fs.rmSync(copy, { recursive: true, force: true });
  fs.cpSync(outDir, copy, { recursive: true });
  const stackFile = path.join(copy, path.relative(outDir, unit.file));
  const file = path.join(dir, `${base}.plan.json`);
  fs.writeFileSync(file, `${JSON.stringify(toSavedPlan(plan, stackFile), null, 2)}\n`, { mode: 0o600 });
  const quote = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
  const command = ["ods", "apply", file, "--stack", unit.name, "--out-dir", copy, ...applyFlags(o)].map(quote).join(" ");
  return { file, outDir: copy, revision, command, changes: plan.changes.filter((c) => c.action !== "noop").length, savedAt: new Date().toISOString() };
}
