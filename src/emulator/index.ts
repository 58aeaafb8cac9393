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
import { queryRoutes } from "./query-routes";
import { RateLimiter } from "./rate-limit";
import { Router } from "./routing";
import { datasetRoutes } from "./routes/datasets";
import { ingestRoutes } from "./routes/ingest";
import { monitorRoutes } from "./routes/monitors";
import { notifierRoutes } from "./routes/notifiers";
import { ManualClock, RealClock, clockTarget, type Clock, type ClockMode } from "./monitors/clock";
import { normalizeTimestamp } from "./time";
import { roleRoutes } from "./routes/roles";
import { starredQueryRoutes } from "./routes/starred-queries";
import { tokenRoutes } from "./routes/tokens";
import { userRoutes } from "./routes/users";
import { virtualFieldRoutes } from "./routes/virtual-fields";
import { HttpError } from "./errors";
import { EmulatorServer, faultInjectorFor, type AdminHandler, type RequestRecord } from "./server";
import { Store } from "./store";

export type { FaultSpec } from "./faults";
export { FaultSpecError, parseFaultSpec } from "./faults";
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
}

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
  /** Replaces the faults in force; undefined (or "") clears them. Throws FaultSpecError. */
  setFaults(spec: string | FaultSpec | undefined): void;
  close(): Promise<void>;
}

function allRoutes(): Router {
  return new Router()
    .add(notifierRoutes)
    .add(roleRoutes)
    .add(tokenRoutes)
    .add(virtualFieldRoutes)
    .add(starredQueryRoutes)
    .add(datasetRoutes)
    .add(ingestRoutes)
    .add(queryRoutes)
    .add(monitorRoutes)
    .add(userRoutes);
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
  const dataDir = path.resolve(opts.dataDir);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const release = lockDataDir(dataDir);
  let store: Store<ReturnType<typeof emptyState>> | undefined;
  let events: EventStore | undefined;
  try {
    store = await Store.open(dataDir, emptyState);
    const boot = await bootstrap(store, dataDir);
    const liveKeys = new Set([...store.state.datasets.values()].map((d) => d.storageKey));
    events = EventStore.load(dataDir, liveKeys);
    const core = new EmulatorCore(store, events, boot.orgId, clock);
    const limiter = new RateLimiter(() => rateOverride ?? core.org.license.apiRateLimitPerSecond);
    const adminHooks: Record<string, AdminHandler> = {
      "GET /_emulator/clock": () => clockAnswer(clock),
      "POST /_emulator/clock": (body) => {
        if (!(clock instanceof ManualClock)) throw new HttpError(409, "the clock is the real one; start the emulator with --clock manual to move it");
        clock.moveTo(clockTarget(body, clock.now()));
        return clockAnswer(clock);
      },
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

    let closing: Promise<void> | undefined;
    const openStore = store;
    const openEvents = events;
    return {
      url,
      port,
      adminToken: boot.credentials.token,
      orgId: boot.orgId,
      now: () => clock.now(),
      requests: () => emulator.requests(),
      resetRequests: () => emulator.resetRequests(),
      setFaults: (spec) => {
        emulator.faults = faultInjectorFor(spec === "" ? undefined : spec);
      },
      close: () =>
        (closing ??= (async () => {
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
