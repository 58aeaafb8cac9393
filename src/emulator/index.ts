// `ods emulator`: a local, persistent implementation of the Observability Data Service,
// written from the seed and docs/service-contract.md only (never from the client or the
// resource model: shared code would make their bugs cancel out in tests).
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { bootstrap } from "./bootstrap";
import { EmulatorCore } from "./core";
import { lockDataDir, writeCredentials } from "./data-dir";
import { EventStore } from "./event-store";
import type { FaultSpec } from "./faults";
import { emptyState } from "./model";
import { parseLicenseSettings, type LicenseSettings } from "./license";
import { RateLimiter } from "./rate-limit";
import { ROUTE_TABLE } from "./route-table";
import { Router } from "./routing";
import { ManualClock, RealClock, clockTarget, type Clock, type ClockMode } from "./monitors/clock";
import { normalizeTimestamp } from "./time";
import { DeliveryQueue, type DeliveryOptions, type DeliveryRecord, type OutboxEntry } from "./monitors/delivery";
import { MonitorEngine } from "./monitors/engine";
import { parseDeliverTo } from "./monitors/deliver-to";
import { DEFAULT_QUERY_LIMITS, type QueryLimits } from "./query";
import { DEFAULT_QUERY_SHARE, sharedQueryPool } from "./query-host/pool";
import { isObject } from "./validate";
import { HttpError } from "./errors";
import { EmulatorServer, faultInjectorFor, type AdminHandler, type RequestRecord } from "./server";
import { Store } from "./store";

export type { FaultSpec } from "./faults";
export { FaultSpecError, parseFaultSpec } from "./faults";
export { parseDeliverTo } from "./monitors/deliver-to";
export { LicenseSettingsError, parseLicenseSettings, type LicenseSettings } from "./license";

/**
 * Ends the process's query threads (every emulator of the process shares them): for a
 * command that is done with its emulators, so that a query still running cannot keep the
 * process alive until its time limit.
 */
export function closeQueryPool(): Promise<void> {
  return sharedQueryPool().close();
}
export type { ConnectTarget, DeliveryOptions, DeliveryRecord, OutboxEntry, Notification } from "./monitors/delivery";
export type { RequestRecord } from "./server";

export interface EmulatorOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  dataDir: string;
  /** Requests per second before 429; default: the license's apiRateLimitPerSecond. */
  rateLimitPerSecond?: number;
  faults?: string | FaultSpec;
  /**
   * "real" (the default): monitors run on the wall clock's schedule. "manual": time stands
   * still until POST /_emulator/clock (or `advanceClock`) moves it; see docs/guides/monitors-emulator.md.
   */
  clock?: ClockMode;
  /** Where a manual clock starts (RFC 3339); default: the wall clock at start. */
  clockStart?: string;
  /** Retry policy of webhook deliveries (tests shorten it), and the test hooks of delivery. */
  delivery?: DeliveryOptions;
  /**
   * Hosts webhooks may reach besides loopback: "HOST[,HOST...]", or "any". Link-local and
   * metadata addresses never (monitors/deliver-to.ts).
   */
  deliverTo?: string;
  /** The longest a query may run (ms; default 10,000); a request's `maxMillis` may only lower it. */
  queryMaxMillis?: number;
  /** Rows a query may read and make, together (default 5,000,000); past it the result is partial. */
  queryMaxRows?: number;
  /** MiB a query may build while it runs: rows kept, lists, sets, groups (default 256); past it, 400. */
  queryMaxMemoryMb?: number;
  /** MiB an answer may be (default 64); past it, 400. */
  queryMaxAnswerMb?: number;
  /** Fraction of the query threads one token, or the monitors, may hold at once (default 0.5; at least one thread). */
  queryShare?: number;
  /**
   * License limits to set in the organization's record (kept in the data directory):
   * `"maxMonitors=10,maxFields=50"` or the same as an object. See license.ts.
   */
  license?: string | LicenseSettings;
}

/** The query limits of `opts`, checked; the defaults where unset. */
function queryLimitsOf(opts: EmulatorOptions): { limits: QueryLimits; share: number } {
  const whole = (name: string, v: number | undefined, fallback: number): number => {
    const n = v ?? fallback;
    if (!(Number.isInteger(n) && n >= 1)) throw new Error(`${name} must be a whole number >= 1, got ${n}`);
    return n;
  };
  const MIB = 1024 * 1024;
  const share = opts.queryShare ?? DEFAULT_QUERY_SHARE;
  if (!(typeof share === "number" && share > 0 && share <= 1)) throw new Error(`queryShare must be a fraction in (0, 1], got ${share}`);
  return {
    limits: {
      maxMillis: whole("queryMaxMillis", opts.queryMaxMillis, DEFAULT_QUERY_LIMITS.maxMillis),
      maxRowsExamined: whole("queryMaxRows", opts.queryMaxRows, DEFAULT_QUERY_LIMITS.maxRowsExamined),
      maxRowsReturned: DEFAULT_QUERY_LIMITS.maxRowsReturned,
      maxMemoryBytes: whole("queryMaxMemoryMb", opts.queryMaxMemoryMb, DEFAULT_QUERY_LIMITS.maxMemoryBytes / MIB) * MIB,
      maxAnswerBytes: whole("queryMaxAnswerMb", opts.queryMaxAnswerMb, DEFAULT_QUERY_LIMITS.maxAnswerBytes / MIB) * MIB,
    },
    share,
  };
}

/** How long a clock move waits for the first attempts of the deliveries it caused. */
const CLOCK_DELIVERY_WAIT_MS = 10_000;
/** Default and longest wait of POST /_emulator/deliveries/flush. */
const FLUSH_DEFAULT_MS = 30_000;
const FLUSH_MAX_MS = 120_000;

export interface EmulatorHandle {
  url: string;
  port: number;
  /** Secret of the admin token (every capability); also in <dataDir>/credentials.json. */
  adminToken: string;
  orgId: string;
  requests(): RequestRecord[];
  resetRequests(): void;
  /** The emulator's current time (ms since the epoch). */
  now(): number;
  /**
   * Moves a manual clock (`{advance: "15m"}` or `{set: "2026-01-01T00:00:00Z"}`), running every
   * monitor run due on the way; resolves once their deliveries have had a first attempt.
   */
  moveClock(move: { advance?: string; set?: string }): Promise<string>;
  /** Notifications for channels the emulator does not send anywhere. */
  outbox(): OutboxEntry[];
  /** Every webhook delivery and its outcome, oldest first. */
  deliveries(): DeliveryRecord[];
  /** Resolves when no delivery is pending, retries included, or after `timeoutMs` (default 30 s). */
  flushDeliveries(timeoutMs?: number): Promise<DeliveryRecord[]>;
  /** Replaces the faults in force; undefined (or "") clears them. Throws FaultSpecError. */
  setFaults(spec: string | FaultSpec | undefined): void;
  close(): Promise<void>;
}

function allRoutes(): Router {
  return new Router().add(ROUTE_TABLE);
}

function makeClock(opts: EmulatorOptions): Clock {
  const mode = opts.clock ?? "real";
  if (mode !== "real" && mode !== "manual") throw new Error(`clock must be "real" or "manual", got ${JSON.stringify(mode)}`);
  if (mode === "real") {
    if (opts.clockStart !== undefined) throw new Error("clockStart needs clock: \"manual\"");
    return new RealClock();
  }
  if (opts.clockStart === undefined) return new ManualClock(Date.now());
  const start = normalizeTimestamp(opts.clockStart);
  if (start === undefined) throw new Error(`clockStart must be an RFC 3339 timestamp, got ${JSON.stringify(opts.clockStart)}`);
  return new ManualClock(Date.parse(start));
}

function flushTimeout(body: unknown): number {
  const raw = isObject(body) ? body.timeoutMs : undefined;
  if (raw === undefined) return FLUSH_DEFAULT_MS;
  if (typeof raw !== "number" || !Number.isInteger(raw) || raw < 0 || raw > FLUSH_MAX_MS) {
    throw new HttpError(400, `"timeoutMs" must be an integer from 0 to ${FLUSH_MAX_MS}`);
  }
  return raw;
}

function clockAnswer(clock: Clock): { mode: ClockMode; now: string } {
  return { mode: clock.mode, now: new Date(clock.now()).toISOString() };
}

export async function startEmulator(opts: EmulatorOptions): Promise<EmulatorHandle> {
  const rateOverride = opts.rateLimitPerSecond;
  if (rateOverride !== undefined && !(Number.isInteger(rateOverride) && rateOverride >= 1)) {
    throw new Error(`rateLimitPerSecond must be a whole number >= 1, got ${rateOverride}`);
  }
  const faults = faultInjectorFor(opts.faults);
  const clock = makeClock(opts);
  const deliverTo = parseDeliverTo(opts.deliverTo);
  const query = queryLimitsOf(opts);
  const dataDir = path.resolve(opts.dataDir);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const release = lockDataDir(dataDir);
  let store: Store<ReturnType<typeof emptyState>> | undefined;
  let events: EventStore | undefined;
  try {
    store = await Store.open(dataDir, emptyState);
    const boot = await bootstrap(store, dataDir);
    if (opts.license !== undefined) {
      const settings = typeof opts.license === "string" ? parseLicenseSettings(opts.license) : opts.license;
      const org = store.state.orgs.get(boot.orgId)!;
      await store.tx().put("orgs", org.id, { ...org, license: { ...org.license, ...settings } }).commit();
    }
    const liveKeys = new Set([...store.state.datasets.values()].map((d) => d.storageKey));
    events = EventStore.load(dataDir, liveKeys);
    const core = new EmulatorCore(store, events, boot.orgId, clock, sharedQueryPool(), query.limits, query.share);
    const limiter = new RateLimiter(() => rateOverride ?? core.org.license.apiRateLimitPerSecond);
    const delivery = new DeliveryQueue({ ...opts.delivery, deliverTo });
    const engine = new MonitorEngine(core, delivery);
    delivery.onRefused = (refusal) => {
      opts.delivery?.onRefused?.(refusal);
      engine.recordRefusal(refusal).catch((err: unknown) => process.stderr.write(`ods emulator: could not record a refused delivery: ${String(err)}\n`));
    };
    const moveClock = async (body: unknown): Promise<{ mode: ClockMode; now: string; runs: number }> => {
      if (!(clock instanceof ManualClock)) throw new HttpError(409, "the clock is the real one; start the emulator with --clock manual to move it");
      const runs = await engine.advanceTo(clockTarget(body, clock.now()));
      await delivery.firstAttemptsDone(CLOCK_DELIVERY_WAIT_MS);
      return { ...clockAnswer(clock), runs };
    };
    const flush = async (timeoutMs: number): Promise<DeliveryRecord[]> => {
      await delivery.drained(timeoutMs);
      return delivery.deliveries();
    };
    const adminHooks: Record<string, AdminHandler> = {
      "GET /_emulator/clock": () => clockAnswer(clock),
      "POST /_emulator/clock": moveClock,
      "GET /_emulator/outbox": () => delivery.outboxEntries(),
      "GET /_emulator/deliveries": () => delivery.deliveries(),
      // Why a monitor did not fire: its last query error, open groups, caps and suppressed matches.
      "GET /_emulator/monitor-states": () => [...core.state.monitorStates.values()],
      "POST /_emulator/deliveries/flush": (body) => flush(flushTimeout(body)),
    };
    const emulator = new EmulatorServer({ core, router: allRoutes(), limiter, faults, adminToken: () => boot.credentials.token, adminHooks });

    const server = http.createServer({ keepAliveTimeout: 5_000 }, emulator.listener);
    const host = opts.host ?? "127.0.0.1";
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(opts.port ?? 0, host, () => {
        server.off("error", reject);
        resolve();
      });
    });
    const port = (server.address() as AddressInfo).port;
    const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
    writeCredentials(dataDir, { ...boot.credentials, url });
    engine.start();

    let closing: Promise<void> | undefined;
    const openStore = store;
    const openEvents = events;
    return {
      url,
      port,
      adminToken: boot.credentials.token,
      orgId: boot.orgId,
      now: () => clock.now(),
      moveClock: async (move) => (await moveClock(move)).now,
      outbox: () => delivery.outboxEntries(),
      deliveries: () => delivery.deliveries(),
      flushDeliveries: (timeoutMs = FLUSH_DEFAULT_MS) => flush(timeoutMs),
      requests: () => emulator.requests(),
      resetRequests: () => emulator.resetRequests(),
      setFaults: (spec) => {
        emulator.faults = faultInjectorFor(spec === "" ? undefined : spec);
      },
      close: () =>
        (closing ??= (async () => {
          await engine.close();
          await delivery.close();
          await new Promise<void>((resolve) => {
            server.close(() => resolve());
            server.closeAllConnections();
          });
          await openStore.close();
          await openEvents.close();
          release();
        })()),
    };
  } catch (err) {
    await events?.close().catch(() => undefined);
    await store?.close().catch(() => undefined);
    release();
    throw err;
  }
}
