// Query execution off the request thread: a bounded pool of worker threads
// (node:worker_threads). The request thread only builds a job (dataset metadata and
// shared views of their events, see shared-log.ts) and waits; a query that overruns its
// time is stopped by terminating its worker, so no query can hold up another request.
//
// Limits: `maxMillis` is the engine's own bound (it stops scanning and answers
// `isPartial`); a job still running `HARD_STOP_GRACE_MS` after that is stopped, its
// worker terminated, and answered 408. A job waits for a thread at most as long, and at
// most `QUEUE_LIMIT` jobs wait (`TENANT_QUEUE_LIMIT` of one tenant); past either it is
// answered 503 (not processed, safe to send again). A worker that runs out of its heap
// (`WORKER_HEAP_MB`) takes only its own query down.
//
// Fairness: every job belongs to a tenant (a token of an organization, or one monitor's
// query, so monitors take turns with each other). A tenant runs at most its share of the
// threads at once
// (`Tenant.share`, at least one thread), and waiting jobs are taken round-robin: between
// organizations, then between the tenants of each, never first come first served. So a
// token that sends hostile queries as fast as it can holds at most its share, and the
// next query of anyone else is the next to run. Because a share is at least one thread,
// on two threads two busy tenants could still hold both: one more thread
// (`RESERVED_THREADS`) is kept for a tenant that has nothing running, so its query
// starts at once whoever holds the others.
//
// Why not piscina or tinypool: both start their own worker entry file by path, which
// the package's single-file bundling cannot keep, and piscina brings an optional native
// module; the part of them this needs (a fixed set of threads, a queue, terminate on
// time-out) is this file.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Worker } from "node:worker_threads";
import type { JobAnswer, QueryJob } from "./jobs";
import type { JobMessage, JobReply } from "./worker";

/** Time a job gets past the query's own limit before it is stopped. */
export const HARD_STOP_GRACE_MS = 1_000;
const QUEUE_LIMIT = 64;
/** Jobs one tenant may have waiting; past it, that tenant's next is answered 503. */
const TENANT_QUEUE_LIMIT = 16;
/** Threads beyond the pool's size, started only for a tenant that has nothing running. */
export const RESERVED_THREADS = 1;
/** A tenant's share of the threads when its emulator sets none. */
export const DEFAULT_QUERY_SHARE = 0.5;
/** An idle worker ends after this long (it holds parsed events). */
const IDLE_MS = 30_000;
/** Heap of one worker; a query past it fails alone. */
const WORKER_HEAP_MB = Math.max(256, Math.min(2048, Math.floor(os.totalmem() / 1024 / 1024 / 8)));

/**
 * Threads the pool keeps at most: ODS_EMULATOR_QUERY_THREADS, or the cores less one for
 * requests, within [2, 4] (two, so that one query at its time limit does not queue all others).
 */
function defaultThreads(): number {
  const fromEnv = Number(process.env.ODS_EMULATOR_QUERY_THREADS);
  if (Number.isInteger(fromEnv) && fromEnv >= 1 && fromEnv <= 64) return fromEnv;
  return Math.max(2, Math.min(4, os.availableParallelism() - 1));
}

/** On whose behalf a job runs, for the pool's fairness. */
export interface Tenant {
  /** The organization (its jobs are taken in turn with other organizations'). */
  org: string;
  /** The token, or one monitor's query, within it. */
  key: string;
  /** The fraction of the pool's threads this tenant may hold at once (at least one thread). */
  share: number;
}

/** How the request thread runs jobs; a unit test of one module may substitute its own. */
export interface QueryRunner {
  /** Runs `job`; one still running after `hardLimitMs` is stopped (408), one still waiting for a thread that long is not run (503). */
  run(job: QueryJob, hardLimitMs: number, tenant?: Tenant): Promise<JobAnswer>;
}

const NO_TENANT: Tenant = { org: "", key: "", share: 1 };

/** The answer to a query stopped at its limit. */
export function timedOutAnswer(limitMs: number): JobAnswer {
  return {
    ok: false,
    error: { status: 408, message: `query stopped: it ran past its time limit of ${limitMs} ms (maxMillis); narrow its time range or its datasets` },
  };
}

const BUSY: JobAnswer = { ok: false, error: { status: 503, message: "too many queries are waiting to run; try again shortly" } };
const TENANT_BUSY: JobAnswer = {
  ok: false,
  error: { status: 503, message: `${TENANT_QUEUE_LIMIT} queries of this token are already waiting to run; try again when they have answered` },
};
const OUT_OF_MEMORY: JobAnswer = {
  ok: false,
  error: { status: 400, message: `query stopped: it needed more than the ${WORKER_HEAP_MB} MiB a query may use; narrow its time range, its joins or its series` },
};

/** Names a bundle of worker.ts to run when this module runs from the TypeScript sources (tests). */
export const WORKER_ENV = "ODS_EMULATOR_QUERY_WORKER";

/**
 * The worker's file: worker.js beside this one, as the build makes it. Run from the
 * TypeScript sources, a worker thread cannot load worker.ts: test/global-setup.ts bundles
 * it once per test run and names the bundle in ODS_EMULATOR_QUERY_WORKER.
 */
function workerFile(): string {
  const built = path.join(__dirname, "worker.js");
  if (fs.existsSync(built)) return built;
  const bundled = process.env[WORKER_ENV];
  if (bundled && fs.existsSync(bundled)) return bundled;
  throw new Error(`the emulator's query worker is not built: run \`npm run build\` (from the TypeScript sources, set ${WORKER_ENV} to a bundle of src/emulator/query-host/worker.ts)`);
}

interface Pending {
  id: number;
  job: QueryJob;
  hardLimitMs: number;
  tenant: Tenant;
  resolve(answer: JobAnswer): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
  worker?: Slot;
}

interface Slot {
  worker: Worker;
  job?: Pending;
  idleTimer?: NodeJS.Timeout;
}

/** The key of a tenant's running count. */
const tenantId = (t: Tenant): string => `${t.org}\u0000${t.key}`;

export class QueryPool implements QueryRunner {
  private readonly slots = new Set<Slot>();
  /** Waiting jobs by organization, then by tenant; both maps in round-robin order (the next to serve first). */
  private readonly waiting = new Map<string, Map<string, Pending[]>>();
  private waitingCount = 0;
  /** Jobs running per tenant. */
  private readonly running = new Map<string, number>();
  private busy = 0;
  private nextId = 1;
  private file: string | undefined;

  constructor(private readonly threads: number = defaultThreads()) {}

  /** Threads alive now (for tests and the hostile suite's report). */
  get size(): number {
    return this.slots.size;
  }

  /** The most jobs `tenant` may run at once. */
  private capOf(tenant: Tenant): number {
    return Math.max(1, Math.floor(this.threads * Math.min(1, Math.max(0, tenant.share))));
  }

  run(job: QueryJob, hardLimitMs: number, tenant: Tenant = NO_TENANT): Promise<JobAnswer> {
    if (this.waitingCount >= QUEUE_LIMIT) return Promise.resolve(BUSY);
    const queue = this.queueOf(tenant);
    if (queue.length >= TENANT_QUEUE_LIMIT) return Promise.resolve(TENANT_BUSY);
    return new Promise<JobAnswer>((resolve, reject) => {
      const pending: Pending = { id: this.nextId++, job, hardLimitMs, tenant, resolve, reject, timer: undefined as unknown as NodeJS.Timeout };
      // Waiting for a thread is bounded too: a job still queued after its limit was not
      // run at all, and says so (503, safe to send again).
      pending.timer = setTimeout(() => this.giveUp(pending), hardLimitMs);
      queue.push(pending);
      this.waitingCount++;
      this.dispatch();
    });
  }

  private queueOf(tenant: Tenant): Pending[] {
    let org = this.waiting.get(tenant.org);
    if (!org) this.waiting.set(tenant.org, (org = new Map()));
    let queue = org.get(tenant.key);
    if (!queue) org.set(tenant.key, (queue = []));
    return queue;
  }

  /** Takes `pending` out of its tenant's queue (dropping queues and organizations left empty). */
  private unqueue(pending: Pending): boolean {
    const org = this.waiting.get(pending.tenant.org);
    const queue = org?.get(pending.tenant.key);
    const at = queue ? queue.indexOf(pending) : -1;
    if (!org || !queue || at === -1) return false;
    queue.splice(at, 1);
    this.waitingCount--;
    if (queue.length === 0) org.delete(pending.tenant.key);
    if (org.size === 0) this.waiting.delete(pending.tenant.org);
    return true;
  }

  private giveUp(pending: Pending): void {
    if (this.unqueue(pending)) pending.resolve(BUSY);
  }

  /** The running job's time is up: its worker is terminated. */
  private stop(pending: Pending): void {
    const slot = pending.worker;
    if (slot) this.discard(slot);
    pending.resolve(timedOutAnswer(pending.job.limits.maxMillis));
    this.dispatch();
  }

  /** A job left its worker (answered, stopped or lost): its tenant and the pool have a thread back. */
  private finished(pending: Pending): void {
    const id = tenantId(pending.tenant);
    const n = (this.running.get(id) ?? 1) - 1;
    if (n <= 0) this.running.delete(id);
    else this.running.set(id, n);
    this.busy--;
  }

  private discard(slot: Slot): void {
    this.slots.delete(slot);
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    if (slot.job) this.finished(slot.job);
    slot.job = undefined;
    slot.worker.removeAllListeners();
    // An error after this (e.g. from termination) has no one left to tell.
    slot.worker.on("error", () => undefined);
    void slot.worker.terminate();
  }

  /**
   * The next job to start, round-robin: the first organization in turn with a tenant
   * that may start one, and the first such tenant in turn within it. A tenant may start
   * one while it is under its cap and a thread is free; one with nothing running may
   * also take a reserved thread. Both the organization and the tenant then go last.
   */
  private next(): Pending | undefined {
    for (const [orgName, org] of this.waiting) {
      for (const [key, queue] of org) {
        const tenant = queue[0]!.tenant;
        const running = this.running.get(tenantId(tenant)) ?? 0;
        if (running >= this.capOf(tenant)) continue;
        if (this.busy >= this.threads + (running === 0 ? RESERVED_THREADS : 0)) continue;
        const pending = queue.shift()!;
        this.waitingCount--;
        org.delete(key);
        if (queue.length > 0) org.set(key, queue);
        this.waiting.delete(orgName);
        if (org.size > 0) this.waiting.set(orgName, org);
        return pending;
      }
    }
    return undefined;
  }

  /** Hands waiting jobs to idle workers, starting workers as the caps allow. */
  private dispatch(): void {
    for (let pending = this.next(); pending !== undefined; pending = this.next()) {
      const slot = [...this.slots].find((s) => s.job === undefined) ?? this.spawn();
      const id = tenantId(pending.tenant);
      this.running.set(id, (this.running.get(id) ?? 0) + 1);
      this.busy++;
      // The limit counts from here: the time the query runs.
      clearTimeout(pending.timer);
      const started = pending;
      pending.timer = setTimeout(() => this.stop(started), pending.hardLimitMs);
      if (slot.idleTimer) clearTimeout(slot.idleTimer);
      slot.idleTimer = undefined;
      slot.job = pending;
      pending.worker = slot;
      slot.worker.ref();
      const message: JobMessage = { id: pending.id, job: pending.job };
      slot.worker.postMessage(message);
    }
  }

  private spawn(): Slot {
    this.file ??= workerFile();
    // No environment: nothing of the emulator's (tokens, credentials) reaches a worker.
    const worker = new Worker(this.file, { env: {}, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
    const slot: Slot = { worker };
    worker.on("message", (reply: JobReply) => {
      const pending = slot.job;
      if (!pending || pending.id !== reply.id) return;
      clearTimeout(pending.timer);
      this.finished(pending);
      slot.job = undefined;
      worker.unref();
      slot.idleTimer = setTimeout(() => {
        if (slot.job === undefined) this.discard(slot);
      }, IDLE_MS);
      slot.idleTimer.unref();
      if ("answer" in reply) pending.resolve(reply.answer);
      else pending.reject(new Error(`query worker: ${reply.internalError}`));
      this.dispatch();
    });
    const lost = (err: Error): void => {
      const pending = slot.job;
      this.discard(slot);
      if (pending) {
        clearTimeout(pending.timer);
        if ((err as { code?: string }).code === "ERR_WORKER_OUT_OF_MEMORY") pending.resolve(OUT_OF_MEMORY);
        else pending.reject(new Error(`query worker failed: ${err.message}`));
      }
      this.dispatch();
    };
    worker.on("error", lost);
    worker.on("exit", (code) => {
      if (this.slots.has(slot)) lost(new Error(`query worker exited with code ${code}`));
    });
    this.slots.add(slot);
    return slot;
  }

  /** Ends every worker; jobs still queued or running are answered 503. */
  async close(): Promise<void> {
    const queued = [...this.waiting.values()].flatMap((org) => [...org.values()].flat());
    this.waiting.clear();
    this.waitingCount = 0;
    for (const pending of queued) {
      clearTimeout(pending.timer);
      pending.resolve(BUSY);
    }
    for (const slot of [...this.slots]) {
      const pending = slot.job;
      this.discard(slot);
      if (pending) {
        clearTimeout(pending.timer);
        pending.resolve(BUSY);
      }
    }
  }
}

let shared: QueryPool | undefined;

/** The process's pool: every emulator in a process shares it (workers key data by storage key, never by emulator). */
export function sharedQueryPool(): QueryPool {
  shared ??= new QueryPool();
  return shared;
}
