// The typed client: one method per endpoint of the seed and API-CONTRACT.md.
import { resolveClientConfig, type OdsClientConfig, type OdsClientOptions } from "./config";
import type { Clock } from "./rate-limiter";
import { Transport, type ClientStats } from "./transport";
import type {
  AplQueryRequest, ApiToken, ApiTokenInput, ApiTokenWithSecret, Dataset, DatasetField, DatasetInput, IngestResult,
  LegacyQueryRequest, LegacyQueryResult, Notifier, NotifierInput, Organization, RegenerateTokenInput, Role, RoleInput,
  StarredQuery, StarredQueryFilter, StarredQueryInput, TabularQueryResult, TabularTable, User, UserInput, VirtualField,
  VirtualFieldInput,
} from "./types";

const seg = encodeURIComponent;

export interface AplQueryOptions {
  /** Record the run in the query history of `datasetName` (no starred query is made). */
  saveAsKind?: string;
  datasetName?: string;
}

export class OdsClient {
  readonly config: OdsClientConfig;
  private readonly http: Transport;

  constructor(options: OdsClientOptions | OdsClientConfig = {}, clock?: Clock) {
    this.config = "maxRetryWaitMs" in options && options.url && options.token ? (options as OdsClientConfig) : resolveClientConfig(options);
    this.http = new Transport(this.config, clock);
  }

  stats(): ClientStats {
    return { ...this.http.counters, byMethod: { ...this.http.counters.byMethod } };
  }

  /** Keeps under the organization's apiRateLimitPerSecond (read once from the org record). */
  async useOrganizationRateLimit(): Promise<number | undefined> {
    if (this.config.rateLimitPerSecond) return this.config.rateLimitPerSecond;
    const org = this.config.orgId ? await this.getOrganization(this.config.orgId) : (await this.listOrganizations())[0];
    const limit = org?.license?.apiRateLimitPerSecond;
    if (limit && limit > 0) this.http.limiter.setRate(limit);
    return limit;
  }

  close(): Promise<void> {
    return this.http.close();
  }

  // Notifiers
  listNotifiers(): Promise<Notifier[]> { return this.http.send("GET", "/v2/notifiers"); }
  getNotifier(id: string): Promise<Notifier> { return this.http.send("GET", `/v2/notifiers/${seg(id)}`); }
  createNotifier(body: NotifierInput): Promise<Notifier> { return this.http.send("POST", "/v2/notifiers", body); }
  updateNotifier(id: string, body: NotifierInput): Promise<Notifier> { return this.http.send("PUT", `/v2/notifiers/${seg(id)}`, body); }
  deleteNotifier(id: string): Promise<void> { return this.http.send("DELETE", `/v2/notifiers/${seg(id)}`); }

  // Roles
  listRoles(): Promise<Role[]> { return this.http.send("GET", "/v2/rbac/roles"); }
  getRole(id: string): Promise<Role> { return this.http.send("GET", `/v2/rbac/roles/${seg(id)}`); }
  createRole(body: RoleInput): Promise<Role> { return this.http.send("POST", "/v2/rbac/roles", body); }
  updateRole(id: string, body: RoleInput): Promise<Role> { return this.http.send("PUT", `/v2/rbac/roles/${seg(id)}`, body); }
  deleteRole(id: string): Promise<void> { return this.http.send("DELETE", `/v2/rbac/roles/${seg(id)}`); }

  // API tokens: no update; a change is a regenerate (rotation) or a replacement.
  listTokens(): Promise<ApiToken[]> { return this.http.send("GET", "/v2/tokens"); }
  getToken(id: string): Promise<ApiToken> { return this.http.send("GET", `/v2/tokens/${seg(id)}`); }
  createToken(body: ApiTokenInput): Promise<ApiTokenWithSecret> { return this.http.send("POST", "/v2/tokens", body); }
  regenerateToken(id: string, body: RegenerateTokenInput): Promise<ApiTokenWithSecret> {
    return this.http.send("POST", `/v2/tokens/${seg(id)}/regenerate`, body);
  }
  deleteToken(id: string): Promise<void> { return this.http.send("DELETE", `/v2/tokens/${seg(id)}`); }

  // Virtual fields
  listVirtualFields(dataset: string): Promise<VirtualField[]> { return this.http.send("GET", "/v2/vfields", undefined, { dataset }); }
  getVirtualField(id: string): Promise<VirtualField> { return this.http.send("GET", `/v2/vfields/${seg(id)}`); }
  createVirtualField(body: VirtualFieldInput): Promise<VirtualField> { return this.http.send("POST", "/v2/vfields", body); }
  updateVirtualField(id: string, body: VirtualFieldInput): Promise<VirtualField> { return this.http.send("PUT", `/v2/vfields/${seg(id)}`, body); }
  deleteVirtualField(id: string): Promise<void> { return this.http.send("DELETE", `/v2/vfields/${seg(id)}`); }

  // Starred queries
  listStarredQueries(filter: StarredQueryFilter = {}): Promise<StarredQuery[]> {
    return this.http.send("GET", "/v2/apl-starred-queries", undefined, { ...filter });
  }
  /** Every page of a filter (pages of 1000 until a short page), bounded at 1000 pages. */
  async listAllStarredQueries(filter: Omit<StarredQueryFilter, "limit" | "offset"> = {}): Promise<StarredQuery[]> {
    const all: StarredQuery[] = [];
    for (let page = 0; page < 1000; page++) {
      const batch = await this.listStarredQueries({ ...filter, limit: 1000, offset: page * 1000 });
      all.push(...batch);
      if (batch.length < 1000) break;
    }
    return all;
  }
  getStarredQuery(id: string): Promise<StarredQuery> { return this.http.send("GET", `/v2/apl-starred-queries/${seg(id)}`); }
  createStarredQuery(body: StarredQueryInput): Promise<StarredQuery> { return this.http.send("POST", "/v2/apl-starred-queries", body); }
  updateStarredQuery(id: string, body: StarredQueryInput): Promise<StarredQuery> {
    return this.http.send("PUT", `/v2/apl-starred-queries/${seg(id)}`, body);
  }
  deleteStarredQuery(id: string): Promise<void> { return this.http.send("DELETE", `/v2/apl-starred-queries/${seg(id)}`); }

  // Datasets (a dataset's id is its name)
  listDatasets(): Promise<Dataset[]> { return this.http.send("GET", "/v2/datasets"); }
  getDataset(id: string): Promise<Dataset> { return this.http.send("GET", `/v2/datasets/${seg(id)}`); }
  createDataset(body: DatasetInput): Promise<Dataset> { return this.http.send("POST", "/v2/datasets", body); }
  updateDataset(id: string, body: { description?: string }): Promise<Dataset> {
    return this.http.send("PUT", `/v2/datasets/${seg(id)}`, { description: body.description ?? "" });
  }
  deleteDataset(id: string): Promise<void> { return this.http.send("DELETE", `/v2/datasets/${seg(id)}`); }
  ingest(dataset: string, events: Record<string, unknown>[]): Promise<IngestResult> {
    return this.http.send("POST", `/v1/datasets/${seg(dataset)}/ingest`, events);
  }

  // Dataset fields (a field's id is its name)
  listDatasetFields(dataset: string): Promise<DatasetField[]> { return this.http.send("GET", `/v2/datasets/${seg(dataset)}/fields`); }
  getDatasetField(dataset: string, field: string): Promise<DatasetField> {
    return this.http.send("GET", `/v2/datasets/${seg(dataset)}/fields/${seg(field)}`);
  }
  updateDatasetField(dataset: string, field: string, body: DatasetField): Promise<DatasetField> {
    return this.http.send("PUT", `/v2/datasets/${seg(dataset)}/fields/${seg(field)}`, body);
  }

  // Users
  listUsers(): Promise<User[]> { return this.http.send("GET", "/v2/users"); }
  getUser(id: string): Promise<User> { return this.http.send("GET", `/v2/users/${seg(id)}`); }
  createUser(body: UserInput): Promise<User> { return this.http.send("POST", "/v2/users", body); }
  updateUserRole(id: string, body: { role: string }): Promise<User> { return this.http.send("PUT", `/v2/users/${seg(id)}/role`, body); }
  deleteUser(id: string): Promise<void> { return this.http.send("DELETE", `/v2/users/${seg(id)}`); }
  getCurrentUser(): Promise<User> { return this.http.send("GET", "/v2/user"); }
  updateCurrentUser(body: { name: string }): Promise<User> { return this.http.send("PUT", "/v2/user", body); }

  // Organizations
  listOrganizations(): Promise<Organization[]> { return this.http.send("GET", "/v2/orgs"); }
  getOrganization(id: string): Promise<Organization> { return this.http.send("GET", `/v2/orgs/${seg(id)}`); }

  // Queries
  queryLegacy(dataset: string, body: LegacyQueryRequest): Promise<LegacyQueryResult> {
    return this.http.send("POST", `/v1/datasets/${seg(dataset)}/query`, body);
  }
  queryAplLegacy(body: AplQueryRequest, options: AplQueryOptions = {}): Promise<LegacyQueryResult> {
    return this.http.send("POST", "/v1/datasets/_apl", body, { format: "legacy", saveAsKind: options.saveAsKind, dataset_name: options.datasetName });
  }
  queryAplTabular(body: AplQueryRequest, options: AplQueryOptions = {}): Promise<TabularQueryResult> {
    return this.http.send("POST", "/v1/datasets/_apl", body, { format: "tabular", saveAsKind: options.saveAsKind, dataset_name: options.datasetName });
  }
}

/** Rows of a tabular table: its column-oriented `columns` turned into objects by field name. */
export function tabularRows(table: TabularTable): Record<string, unknown>[] {
  const count = Math.max(0, ...table.columns.map((c) => c.length));
  const rows: Record<string, unknown>[] = [];
  for (let i = 0; i < count; i++) {
    const row: Record<string, unknown> = {};
    table.fields.forEach((f, j) => {
      row[f.name] = table.columns[j]?.[i] ?? null;
    });
    rows.push(row);
  }
  return rows;
}
