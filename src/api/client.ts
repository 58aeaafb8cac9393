// The typed client: one method per endpoint of docs/service-contract.md. Paths and
// bodies live here; retries, rate limiting and errors in transport.ts.
import { inspect } from "node:util";
import { resolveClientConfig, type OdsClientConfig, type OdsClientOptions } from "./config";
import type { Method } from "./retry-policy";
import { Transport, type CallOptions, type ClientStats, type TransportDeps } from "./transport";
import type {
  AplQueryRequest, ApiToken, ApiTokenInput, ApiTokenWithSecret, CurrentUserUpdate, Dataset, DatasetField, DatasetInput,
  DatasetUpdate, IngestEvent, IngestResult, LegacyQueryRequest, LegacyQueryResult, Monitor, MonitorHistoryEntry, MonitorInput, Notifier, NotifierInput, Organization,
  RegenerateTokenInput, Role, RoleInput, StarredQuery, StarredQueryFilter, StarredQueryInput, TabularQueryResult, User,
  UserInput, UserRoleUpdate, VirtualField, VirtualFieldInput,
} from "./types";

const seg = encodeURIComponent;

export type AplFormat = "legacy" | "tabular";

export interface AplQueryOptions {
  format: AplFormat;
  /** Saves the run to the query history of `datasetName` under this kind (no starred query is made). */
  saveAsKind?: string;
  datasetName?: string;
}

/** The service's page size ceiling for starred queries. */
export const STARRED_QUERY_PAGE = 1000;
/** Bound on pages read by listAllStarredQueries (a million queries). */
const MAX_STARRED_QUERY_PAGES = 1000;

export class OdsClient {
  readonly config: OdsClientConfig;
  private readonly http: Transport;
  private organizationLimit?: Promise<number | undefined>;

  /** Options not given come from ODS_URL, ODS_TOKEN, ODS_ORG_ID (see resolveClientConfig). */
  constructor(options: OdsClientOptions = {}, deps: TransportDeps = {}) {
    this.config = resolveClientConfig(options);
    this.http = new Transport(this.config, deps);
  }

  private call<T>(method: Method, path: string, options?: CallOptions): Promise<T> {
    return this.http.send<T>(method, path, options);
  }

  /** Counters since the client was made (CLI summaries, benchmarks). */
  stats(): ClientStats {
    return { ...this.http.counters, byMethod: { ...this.http.counters.byMethod } };
  }

  /** The requests-per-second ceiling in force now, if any. */
  get rateLimitPerSecond(): number | undefined {
    return this.http.rateLimitPerSecond;
  }

  /**
   * Keeps under the organization's `apiRateLimitPerSecond`, read once from its record
   * (`GET /v2/orgs/{orgId}`, or the first of `GET /v2/orgs` without an org id). Answers
   * the limit now in force.
   */
  async useOrganizationRateLimit(): Promise<number | undefined> {
    this.organizationLimit ??= (async () => {
      const org = this.config.orgId ? await this.getOrganization(this.config.orgId) : (await this.listOrganizations())[0];
      const limit = org?.license?.apiRateLimitPerSecond;
      if (typeof limit === "number" && limit > 0) this.http.setOrganizationLimit(limit);
      return limit;
    })();
    try {
      await this.organizationLimit;
    } catch (err) {
      this.organizationLimit = undefined; // a failed read may be tried again
      throw err;
    }
    return this.rateLimitPerSecond;
  }

  /** What the client is, for logs: everything but the token. */
  toJSON(): Record<string, unknown> {
    const { token: _token, onRequest: _hook, ...safe } = this.config;
    return { ...safe, rateLimitPerSecond: this.rateLimitPerSecond };
  }

  toString(): string {
    return `OdsClient(${this.config.url})`;
  }

  [inspect.custom](): string {
    return `OdsClient ${inspect(this.toJSON())}`;
  }

  /** Closes the kept-alive connections. */
  close(): Promise<void> {
    return this.http.close();
  }

  // Monitors -------------------------------------------------------------------------
  listMonitors(): Promise<Monitor[]> {
    return this.call("GET", "/v2/monitors");
  }
  getMonitor(id: string): Promise<Monitor> {
    return this.call("GET", `/v2/monitors/${seg(id)}`);
  }
  createMonitor(body: MonitorInput): Promise<Monitor> {
    return this.call("POST", "/v2/monitors", { body });
  }
  updateMonitor(id: string, body: MonitorInput): Promise<Monitor> {
    return this.call("PUT", `/v2/monitors/${seg(id)}`, { body });
  }
  deleteMonitor(id: string): Promise<void> {
    return this.call("DELETE", `/v2/monitors/${seg(id)}`);
  }
  /** State changes (open, closed) between two RFC 3339 times; the service requires both. */
  getMonitorHistory(id: string, range: { startTime: string; endTime: string }): Promise<MonitorHistoryEntry[]> {
    return this.call("GET", `/v2/monitors/${seg(id)}/history`, { query: range });
  }

  // Notifiers ------------------------------------------------------------------------
  listNotifiers(): Promise<Notifier[]> {
    return this.call("GET", "/v2/notifiers");
  }
  getNotifier(id: string): Promise<Notifier> {
    return this.call("GET", `/v2/notifiers/${seg(id)}`);
  }
  createNotifier(body: NotifierInput): Promise<Notifier> {
    return this.call("POST", "/v2/notifiers", { body });
  }
  updateNotifier(id: string, body: NotifierInput): Promise<Notifier> {
    return this.call("PUT", `/v2/notifiers/${seg(id)}`, { body });
  }
  deleteNotifier(id: string): Promise<void> {
    return this.call("DELETE", `/v2/notifiers/${seg(id)}`);
  }

  // Roles ----------------------------------------------------------------------------
  listRoles(): Promise<Role[]> {
    return this.call("GET", "/v2/rbac/roles");
  }
  getRole(id: string): Promise<Role> {
    return this.call("GET", `/v2/rbac/roles/${seg(id)}`);
  }
  createRole(body: RoleInput): Promise<Role> {
    return this.call("POST", "/v2/rbac/roles", { body });
  }
  /** Replaces the role. */
  updateRole(id: string, body: RoleInput): Promise<Role> {
    return this.call("PUT", `/v2/rbac/roles/${seg(id)}`, { body });
  }
  deleteRole(id: string): Promise<void> {
    return this.call("DELETE", `/v2/rbac/roles/${seg(id)}`);
  }

  // API tokens: no update; a change is a regeneration (rotation) or a replacement ------
  /** Never carries the secrets. */
  listTokens(): Promise<ApiToken[]> {
    return this.call("GET", "/v2/tokens");
  }
  getToken(id: string): Promise<ApiToken> {
    return this.call("GET", `/v2/tokens/${seg(id)}`);
  }
  /** The only answer that carries the new token's secret. */
  createToken(body: ApiTokenInput): Promise<ApiTokenWithSecret> {
    return this.call("POST", "/v2/tokens", { body });
  }
  /** Issues a new token (new id and secret); the old one works until `existingTokenExpiresAt`. */
  regenerateToken(id: string, body: RegenerateTokenInput): Promise<ApiTokenWithSecret> {
    return this.call("POST", `/v2/tokens/${seg(id)}/regenerate`, { body });
  }
  deleteToken(id: string): Promise<void> {
    return this.call("DELETE", `/v2/tokens/${seg(id)}`);
  }

  // Virtual fields -------------------------------------------------------------------
  listVirtualFields(dataset: string): Promise<VirtualField[]> {
    return this.call("GET", "/v2/vfields", { query: { dataset } });
  }
  getVirtualField(id: string): Promise<VirtualField> {
    return this.call("GET", `/v2/vfields/${seg(id)}`);
  }
  createVirtualField(body: VirtualFieldInput): Promise<VirtualField> {
    return this.call("POST", "/v2/vfields", { body });
  }
  updateVirtualField(id: string, body: VirtualFieldInput): Promise<VirtualField> {
    return this.call("PUT", `/v2/vfields/${seg(id)}`, { body });
  }
  deleteVirtualField(id: string): Promise<void> {
    return this.call("DELETE", `/v2/vfields/${seg(id)}`);
  }

  // Starred queries ------------------------------------------------------------------
  /** One page; `who` unset lists the caller's. */
  listStarredQueries(filter: StarredQueryFilter = {}): Promise<StarredQuery[]> {
    const { dataset, who, limit, offset } = filter;
    return this.call("GET", "/v2/apl-starred-queries", { query: { dataset, who, limit, offset } });
  }
  /** Every page of a filter: pages of 1000 until a short page. */
  async listAllStarredQueries(filter: Omit<StarredQueryFilter, "limit" | "offset"> = {}): Promise<StarredQuery[]> {
    const all: StarredQuery[] = [];
    const seen = new Set<string>();
    for (let page = 0; page < MAX_STARRED_QUERY_PAGES; page++) {
      const batch = await this.listStarredQueries({ ...filter, limit: STARRED_QUERY_PAGE, offset: page * STARRED_QUERY_PAGE });
      // A service that ignored `offset` would answer the first page forever: stop on a repeat.
      const fresh = batch.filter((q) => !seen.has(q.id));
      for (const q of fresh) seen.add(q.id);
      all.push(...fresh);
      if (batch.length < STARRED_QUERY_PAGE || fresh.length === 0) break;
    }
    return all;
  }
  getStarredQuery(id: string): Promise<StarredQuery> {
    return this.call("GET", `/v2/apl-starred-queries/${seg(id)}`);
  }
  createStarredQuery(body: StarredQueryInput): Promise<StarredQuery> {
    return this.call("POST", "/v2/apl-starred-queries", { body });
  }
  updateStarredQuery(id: string, body: StarredQueryInput): Promise<StarredQuery> {
    return this.call("PUT", `/v2/apl-starred-queries/${seg(id)}`, { body });
  }
  deleteStarredQuery(id: string): Promise<void> {
    return this.call("DELETE", `/v2/apl-starred-queries/${seg(id)}`);
  }

  // Datasets (a dataset's id is its name) ----------------------------------------------
  listDatasets(): Promise<Dataset[]> {
    return this.call("GET", "/v2/datasets");
  }
  getDataset(id: string): Promise<Dataset> {
    return this.call("GET", `/v2/datasets/${seg(id)}`);
  }
  createDataset(body: DatasetInput): Promise<Dataset> {
    return this.call("POST", "/v2/datasets", { body });
  }
  updateDataset(id: string, body: DatasetUpdate): Promise<Dataset> {
    return this.call("PUT", `/v2/datasets/${seg(id)}`, { body: { description: body.description } });
  }
  /** Deletes the dataset AND all its events. */
  deleteDataset(id: string): Promise<void> {
    return this.call("DELETE", `/v2/datasets/${seg(id)}`);
  }
  /** Appends events; fields are created as they are first seen. Never retried once sent. */
  ingest(dataset: string, events: IngestEvent[]): Promise<IngestResult> {
    return this.call("POST", `/v1/datasets/${seg(dataset)}/ingest`, { body: events });
  }

  // Dataset fields (a field's id is its name) ----------------------------------------
  listDatasetFields(dataset: string): Promise<DatasetField[]> {
    return this.call("GET", `/v2/datasets/${seg(dataset)}/fields`);
  }
  getDatasetField(dataset: string, field: string): Promise<DatasetField> {
    return this.call("GET", `/v2/datasets/${seg(dataset)}/fields/${seg(field)}`);
  }
  updateDatasetField(dataset: string, field: string, body: DatasetField): Promise<DatasetField> {
    return this.call("PUT", `/v2/datasets/${seg(dataset)}/fields/${seg(field)}`, { body });
  }

  // Users ----------------------------------------------------------------------------
  listUsers(): Promise<User[]> {
    return this.call("GET", "/v2/users");
  }
  getUser(id: string): Promise<User> {
    return this.call("GET", `/v2/users/${seg(id)}`);
  }
  /** `role` is a role name or id; the answer's `role` is `{id, name}`. */
  createUser(body: UserInput): Promise<User> {
    return this.call("POST", "/v2/users", { body });
  }
  updateUserRole(id: string, body: UserRoleUpdate): Promise<User> {
    return this.call("PUT", `/v2/users/${seg(id)}/role`, { body: { role: body.role } });
  }
  deleteUser(id: string): Promise<void> {
    return this.call("DELETE", `/v2/users/${seg(id)}`);
  }
  /** The user the token belongs to. */
  getCurrentUser(): Promise<User> {
    return this.call("GET", "/v2/user");
  }
  updateCurrentUser(body: CurrentUserUpdate): Promise<User> {
    return this.call("PUT", "/v2/user", { body: { name: body.name } });
  }

  // Organizations --------------------------------------------------------------------
  listOrganizations(): Promise<Organization[]> {
    return this.call("GET", "/v2/orgs");
  }
  getOrganization(id: string): Promise<Organization> {
    return this.call("GET", `/v2/orgs/${seg(id)}`);
  }

  // Queries (POSTs that change nothing, but are never retried after sending all the same) --
  queryLegacy(dataset: string, body: LegacyQueryRequest): Promise<LegacyQueryResult> {
    return this.call("POST", `/v1/datasets/${seg(dataset)}/query`, { body, readOnly: true });
  }
  /** Runs a query-language query; the answer's layout follows `format`. */
  queryApl(body: AplQueryRequest, options: AplQueryOptions & { format: "tabular" }): Promise<TabularQueryResult>;
  queryApl(body: AplQueryRequest, options: AplQueryOptions & { format: "legacy" }): Promise<LegacyQueryResult>;
  queryApl(body: AplQueryRequest, options: AplQueryOptions): Promise<TabularQueryResult | LegacyQueryResult>;
  queryApl(body: AplQueryRequest, options: AplQueryOptions): Promise<TabularQueryResult | LegacyQueryResult> {
    const query = { format: options.format, saveAsKind: options.saveAsKind, dataset_name: options.datasetName };
    // A query changes nothing unless it is saved to history: then it is a write.
    return this.call("POST", "/v1/datasets/_apl", { body, query, readOnly: !options.saveAsKind });
  }
  /** queryApl with format `tabular` (read rows with tabularRows). */
  queryAplTabular(body: AplQueryRequest, options: Omit<AplQueryOptions, "format"> = {}): Promise<TabularQueryResult> {
    return this.queryApl(body, { ...options, format: "tabular" });
  }
  /** queryApl with format `legacy`. */
  queryAplLegacy(body: AplQueryRequest, options: Omit<AplQueryOptions, "format"> = {}): Promise<LegacyQueryResult> {
    return this.queryApl(body, { ...options, format: "legacy" });
  }
}
