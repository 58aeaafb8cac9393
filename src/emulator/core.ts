// The state every route works on: the durable store, the events, and lookups that
// several kinds share (datasets, their fields and virtual fields, users).
import { randomBytes } from "node:crypto";
import { notFound } from "./errors";
import type { EventStore } from "./event-store";
import {
  type DatasetRecord,
  type EmulatorState,
  type FieldRecord,
  type OrgRecord,
  type TokenRecord,
  type UserRecord,
  type ViewRecord,
  type VirtualFieldRecord,
} from "./model";
import { DEFAULT_QUERY_LIMITS } from "./query";
import type { QueryLimits } from "./query/types";
import type { DatasetDescriptor, JobAnswer, QueryJob, Reader } from "./query-host/jobs";
import { DEFAULT_QUERY_SHARE, HARD_STOP_GRACE_MS, sharedQueryPool, type QueryRunner, type Tenant } from "./query-host/pool";
import type { Store } from "./store";
import { RealClock, type Clock } from "./monitors/clock";
import { hasDatasetGrant, WILDCARD } from "./capabilities";
import type { Caller } from "./auth";

/** A job as a route or the scheduler describes it: the emulator adds the datasets and limits. */
export type JobRequest = QueryJob extends infer J ? (J extends QueryJob ? Omit<J, "datasets" | "limits"> : never) : never;

/** Opaque unique ids: a kind prefix and 16 random hex digits (`ntf_3f9c...`). */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(8).toString("hex")}`;
}

/**
 * The dataset names a job's query may name, or "any". A dataset name is letters, digits,
 * "-", "_" and "."; the query can only name one as a whole run of those characters (bare
 * or inside `['...']`), or as dot-separated parts of such a run. A substring match (the
 * rule before) let `g-ds-1` carry `g-ds-10` to `g-ds-1999` too, so a job's datasets grew
 * with the organization. A query with a backslash may spell a name with escapes: then any.
 */
export function datasetNamesIn(request: JobRequest): ReadonlySet<string> | "any" {
  if (request.kind === "legacy") return new Set([request.dataset]);
  const text: unknown = request.kind === "apl" ? request.request.apl : request.apl;
  if (typeof text !== "string" || text.includes("\\")) return "any";
  const names = new Set<string>();
  for (const run of text.match(/[A-Za-z0-9_.-]+/g) ?? []) {
    names.add(run);
    const parts = run.split(".");
    if (parts.length === 1) continue;
    for (let i = 0; i < parts.length; i++) {
      for (let j = i + 1; j <= parts.length; j++) names.add(parts.slice(i, j).join("."));
    }
  }
  return names;
}

function indexesOf(store: Store<EmulatorState>) {
  return {
    tokenBySecret: store.index("tokens", (t) => t.secretSha256),
    fieldsByDataset: store.index("fields", (f) => f.dataset),
    virtualFieldsByDataset: store.index("vfields", (v) => v.dataset),
    userByEmail: store.index("users", (u) => u.email.toLowerCase()),
    viewByName: store.index("views", (v) => v.name),
  };
}

export class EmulatorCore {
  constructor(
    readonly store: Store<EmulatorState>,
    readonly events: EventStore,
    readonly orgId: string,
    readonly clock: Clock = new RealClock(),
    readonly queries: QueryRunner = sharedQueryPool(),
    readonly queryLimits: QueryLimits = DEFAULT_QUERY_LIMITS,
    /** The fraction of the query threads one token (or one monitor's query) may hold at once. */
    readonly queryShare: number = DEFAULT_QUERY_SHARE,
  ) {
    this.byKey = indexesOf(store);
  }

  /** Lookups that every request (authentication) or every create makes, by index instead of a scan. */
  private readonly byKey: ReturnType<typeof indexesOf>;

  get state(): EmulatorState {
    return this.store.state;
  }

  /** The records of COLLECTION with the ids of an index lookup, in the order they were first stored. */
  private recordsOf<R>(map: Map<string, R>, ids: ReadonlySet<string>): R[] {
    const out: R[] = [];
    for (const id of ids) {
      const r = map.get(id);
      if (r !== undefined) out.push(r);
    }
    return out;
  }

  get org(): OrgRecord {
    const org = this.state.orgs.get(this.orgId);
    if (!org) throw new Error(`internal: organization ${this.orgId} is missing`);
    return org;
  }

  dataset(name: string): DatasetRecord {
    const dataset = this.state.datasets.get(name);
    if (!dataset) throw notFound("dataset", name);
    return dataset;
  }

  user(id: string): UserRecord {
    const user = this.state.users.get(id);
    if (!user) throw notFound("user", id);
    return user;
  }

  /** A dataset's fields in the order they were first seen. */
  fieldsOf(dataset: string): FieldRecord[] {
    return this.recordsOf(this.state.fields, this.byKey.fieldsByDataset.get(dataset));
  }

  virtualFieldsOf(dataset: string): VirtualFieldRecord[] {
    return this.recordsOf(this.state.vfields, this.byKey.virtualFieldsByDataset.get(dataset));
  }

  /** Users with this e-mail address, compared without case. */
  usersWithEmail(email: string): UserRecord[] {
    return this.recordsOf(this.state.users, this.byKey.userByEmail.get(email.toLowerCase()));
  }

  viewsNamed(name: string): ViewRecord[] {
    return this.recordsOf(this.state.views, this.byKey.viewByName.get(name));
  }

  /** The token whose secret hashes to HASH, if any. */
  tokenWithSecretHash(hash: string): TokenRecord | undefined {
    return this.recordsOf(this.state.tokens, this.byKey.tokenBySecret.get(hash))[0];
  }

  /** On whose behalf a caller's query reads: the datasets its token may query. */
  readerOf(caller: Caller): Reader {
    const caps = caller.token.datasetCapabilities;
    const tokenId = caller.token.id;
    if (hasDatasetGrant(caller.token, WILDCARD, "query", "read")) return { kind: "token", tokenId, wildcard: true, datasets: [] };
    return { kind: "token", tokenId, wildcard: false, datasets: Object.keys(caps).filter((name) => hasDatasetGrant(caller.token, name, "query", "read")) };
  }

  /** What a job carries of the datasets `reader` may read: metadata and shared views of the events. */
  private jobDatasets(reader: Reader, named: ReadonlySet<string> | "any"): DatasetDescriptor[] {
    const out: DatasetDescriptor[] = [];
    // The job looks its datasets up by name: their order does not matter.
    const candidates =
      named === "any" || named.size > this.state.datasets.size
        ? this.state.datasets.values()
        : [...named].map((n) => this.state.datasets.get(n)).filter((d) => d !== undefined);
    for (const dataset of candidates) {
      if (reader.kind === "token" && !reader.wildcard && !reader.datasets.includes(dataset.name)) continue;
      if (named !== "any" && !named.has(dataset.name)) continue;
      out.push({
        name: dataset.name,
        storageKey: dataset.storageKey,
        events: this.events.view(dataset.storageKey),
        fields: this.fieldsOf(dataset.name).map(({ name: n, type, unit, description, hidden }) => ({ name: n, type, unit, description, hidden })),
        virtualFields: this.virtualFieldsOf(dataset.name).map(({ name: n, expression, type, unit, description }) => ({ name: n, expression, type, unit, description })),
      });
    }
    return out;
  }

  /**
   * Runs a query job on the worker pool with the emulator's limits, or a lower
   * `maxMillis` the request asked for; stopped (408) past that limit and a grace.
   */
  runQuery(request: JobRequest, maxMillis?: number): Promise<JobAnswer> {
    const limits = { ...this.queryLimits, maxMillis: Math.min(this.queryLimits.maxMillis, maxMillis ?? Infinity) };
    // The access check reads no dataset: it needs only the query and the reader.
    const datasets = request.kind === "access" ? [] : this.jobDatasets(request.reader, datasetNamesIn(request));
    const job = { ...request, datasets, limits } as QueryJob;
    return this.queries.run(job, limits.maxMillis + HARD_STOP_GRACE_MS, this.tenantOf(request));
  }

  /**
   * Whose turn a job takes in the pool: the token's, or (a monitor's scheduled run) the
   * monitor's query, so that one token holds at most its share of the threads and one
   * monitor stuck at its time limit holds up no other monitor.
   */
  private tenantOf(request: JobRequest): Tenant {
    const { reader } = request;
    const key = reader.kind === "token" ? `token:${reader.tokenId}` : `monitor:${request.kind === "monitor" ? request.apl : ""}`;
    return { org: this.orgId, key, share: this.queryShare };
  }
}
