// Wire types of the service, with the seed's names (section 2) and API-CONTRACT.md.

export type ActionList = string[];

export interface OrgCapabilities {
  annotations?: ActionList; apiTokens?: ActionList; auditLog?: ActionList; billing?: ActionList;
  dashboards?: ActionList; datasets?: ActionList; endpoints?: ActionList; flows?: ActionList;
  integrations?: ActionList; monitors?: ActionList; notifiers?: ActionList; rbac?: ActionList;
  sharedAccessKeys?: ActionList; users?: ActionList; views?: ActionList;
}

export interface DatasetCapability {
  ingest?: ActionList; query?: ActionList; starredQueries?: ActionList; virtualFields?: ActionList;
  trim?: ActionList; vacuum?: ActionList; data?: ActionList; share?: ActionList;
}

export interface ViewCapability {
  query?: ActionList; share?: ActionList;
}

export interface Capabilities {
  orgCapabilities?: OrgCapabilities;
  datasetCapabilities?: Record<string, DatasetCapability>;
  viewCapabilities?: Record<string, ViewCapability>;
}

export interface NotifierProperties {
  customWebhook?: { url: string; body?: string; headers?: Record<string, string>; secretHeaders?: Record<string, string> };
  webhook?: { url: string };
  email?: { emails: string[] };
  chatA?: { chatAUrl: string };
  chatB?: { chatBChannel: string; chatBToken: string };
  chatBWebhook?: { chatBWebhookUrl: string };
  chatC?: { chatCUrl: string };
  incidentA?: { apiKey: string; isEU?: boolean };
  incidentB?: { routingKey: string; token?: string };
}

export interface NotifierInput {
  name: string;
  disabledUntil?: string;
  properties: NotifierProperties;
}

export interface Notifier extends NotifierInput {
  id: string;
  createdAt?: string;
  createdBy?: string;
}

export interface RoleInput extends Capabilities {
  name: string;
  description?: string;
  members?: string[];
}

export interface Role extends RoleInput {
  id: string;
}

export interface ApiTokenInput extends Capabilities {
  name: string;
  description?: string;
  expiresAt?: string;
}

export interface ApiToken extends ApiTokenInput {
  id: string;
  samlAuthenticated?: boolean;
}

/** Creation and regeneration answers: the only time the secret is returned. */
export interface ApiTokenWithSecret extends ApiToken {
  token: string;
}

export interface RegenerateTokenInput {
  existingTokenExpiresAt: string;
  newTokenExpiresAt?: string;
  newToken?: Partial<ApiTokenInput>;
}

export interface VirtualFieldInput {
  dataset: string;
  name: string;
  expression: string;
  description?: string;
  type?: string;
  unit?: string;
}

export interface VirtualField extends VirtualFieldInput {
  id: string;
}

export interface QueryOptions {
  disableCache?: boolean; disableStats?: boolean; disableTrace?: boolean; noAggregation?: boolean;
  noFill?: boolean; noInterpolation?: boolean; maxDataPoints?: number; maxSeries?: number;
  priority?: string; resolution?: string;
}

export interface OrderBy {
  field: string;
  desc: boolean;
}

export interface StarredQueryBody {
  apl: string;
  startTime?: string;
  endTime?: string;
  cursor?: string;
  includeCursor?: boolean;
  includeCursorField?: boolean;
  defaultLimit?: number;
  defaultOrder?: OrderBy[];
  libraries?: string[];
  variables?: Record<string, unknown>;
  queryOptions?: QueryOptions;
}

export interface StarredQueryInput {
  dataset: string;
  kind: string;
  name: string;
  who?: string;
  metadata: Record<string, unknown>;
  query: StarredQueryBody;
}

export interface StarredQuery extends StarredQueryInput {
  id: string;
}

export interface StarredQueryFilter {
  dataset?: string;
  /** Unset: the caller's; a user id; `team`; or `all`. */
  who?: string;
  limit?: number;
  offset?: number;
}

export interface DatasetInput {
  name: string;
  description?: string;
}

export interface Dataset extends DatasetInput {
  id: string;
  created?: string;
  who?: string;
}

export interface DatasetField {
  name: string;
  description?: string;
  type?: string;
  unit?: string;
  hidden?: boolean;
}

export interface IngestResult {
  ingested: number;
  failed: number;
  failures?: unknown[];
  processedBytes?: number;
}

export interface UserInput {
  email: string;
  name: string;
  /** A built-in role name or a role id. */
  role: string;
}

export interface User {
  id: string;
  email: string;
  name: string;
  role: { id: string; name: string };
}

export interface License {
  id?: string; issuer?: string; issuedTo?: string; tier?: string;
  issuedAt?: string; validFrom?: string; expiresAt?: string; billingPeriodStart?: string; billingPeriodEnd?: string;
  apiRateLimitPerSecond?: number; maxAuditWindowSeconds?: number; maxDatasets?: number; maxEndpoints?: number;
  maxFields?: number; maxMonitors?: number; maxQueryWindowSeconds?: number; maxUsers?: number;
  monthlyIngestGb?: number; monthlyQueryGbHours?: number; storageAllowanceGB?: number;
  features?: Record<string, unknown>;
  withAuths?: string[];
}

export interface Organization {
  id: string;
  name: string;
  role?: string;
  primaryEmail?: string;
  plan?: string;
  paymentStatus?: string;
  planCreated?: string;
  firstFailedPayment?: string;
  lastUsageSync?: string;
  metaCreated?: string;
  metaModified?: string;
  metaVersion?: string;
  license?: License;
}

export interface LegacyQueryRequest {
  aggregations?: { op: string; field?: string; alias?: string; argument?: unknown }[];
  continuationToken?: string;
  cursor?: string;
  startTime?: string;
  endTime?: string;
  resolution?: string;
  filter?: Record<string, unknown>;
  groupBy?: string[];
  includeCursor?: boolean;
  limit?: number;
  order?: OrderBy[];
  project?: { field: string; alias?: string }[];
  queryOptions?: { displayNull?: string };
}

export interface FieldMeta {
  name: string;
  type: string;
  unit: string;
  description: string;
  hidden: boolean;
}

export interface QueryGroup {
  id: number;
  group: Record<string, unknown>;
  aggregations: { op: string; value: unknown }[];
}

export interface LegacyQueryResult {
  buckets: { series: { startTime: string; endTime: string; groups: QueryGroup[] }[]; totals: QueryGroup[] };
  fieldsMeta: FieldMeta[];
  matches: { _rowId: string; _sysTime: string; _time: string; data: Record<string, unknown> }[];
  status: Record<string, unknown> & { isPartial?: boolean; rowsMatched?: number };
}

export interface AplQueryRequest {
  apl: string;
  startTime?: string;
  endTime?: string;
}

export interface TabularTable {
  name: string;
  sources: { name: string }[];
  fields: { name: string; type: string }[];
  order: OrderBy[];
  groups: unknown[];
  range?: { field: string; start: string; end: string };
  /** One array per field, in the order of `fields`: column-oriented. */
  columns: unknown[][];
}

export interface TabularQueryResult {
  format: "tabular";
  status: Record<string, unknown> & { isPartial?: boolean };
  tables: TabularTable[];
  datasetNames: string[];
  fieldsMetaMap: Record<string, FieldMeta[]>;
}

/** The service's error body. Query-language errors add `detail`. */
export interface ErrorBody {
  code: number;
  message: string;
  detail?: { line?: number; column?: number; message?: string; errorType?: string; compileErrorCode?: string };
}
