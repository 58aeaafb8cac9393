// Wire types of the service. Names are the seed's, as docs/service-contract.md lists them,
// exactly as they travel; where the seed leaves a shape open, the contract's convention.
// `...Input` types are request bodies; the plain names are what the service answers.

// ---------------------------------------------------------------------------------------
// Capabilities (shared by roles and API tokens). Any action outside these sets is a 400.

export type CrudAction = "create" | "read" | "update" | "delete";

export interface OrgCapabilities {
  annotations?: CrudAction[];
  apiTokens?: CrudAction[];
  auditLog?: "read"[];
  billing?: ("read" | "update")[];
  dashboards?: CrudAction[];
  datasets?: CrudAction[];
  endpoints?: CrudAction[];
  flows?: CrudAction[];
  integrations?: CrudAction[];
  monitors?: CrudAction[];
  notifiers?: CrudAction[];
  rbac?: CrudAction[];
  sharedAccessKeys?: ("read" | "update")[];
  users?: CrudAction[];
  views?: CrudAction[];
}

/** What a role or token may do on one dataset. */
export interface DatasetCapability {
  ingest?: "create"[];
  query?: "read"[];
  starredQueries?: CrudAction[];
  virtualFields?: CrudAction[];
  trim?: "update"[];
  vacuum?: "update"[];
  data?: "delete"[];
  share?: ("create" | "read" | "delete")[];
}

/** What a role or token may do on one view. */
export interface ViewCapability {
  query?: "read"[];
  share?: ("create" | "read" | "delete")[];
}

export interface Capabilities {
  orgCapabilities?: OrgCapabilities;
  /** Keyed by dataset name. */
  datasetCapabilities?: Record<string, DatasetCapability>;
  /** Keyed by view name. */
  viewCapabilities?: Record<string, ViewCapability>;
}

// ---------------------------------------------------------------------------------------
// Notifiers. Secrets (chatBToken, incidentA.apiKey, incidentB.routingKey, incidentB.token,
// the values of customWebhook.secretHeaders) are write-only: every read answers "".

export interface CustomWebhookChannel {
  url: string;
  /** Template text (Go text/template) over the alert: {{.Action}}, {{.Title}}, {{.Value}}, ... (API-CONTRACT-MONITORS.md, Delivery). */
  body?: string;
  headers?: Record<string, string>;
  /** Values are secret: read back as "" (the keys are kept). */
  secretHeaders?: Record<string, string>;
}

export interface WebhookChannel {
  url: string;
}

export interface EmailChannel {
  emails: string[];
}

export interface ChatAChannel {
  chatAUrl: string;
}

export interface ChatBChannel {
  chatBChannel: string;
  /** Secret: read back as "". */
  chatBToken: string;
}

export interface ChatBWebhookChannel {
  chatBWebhookUrl: string;
}

export interface ChatCChannel {
  chatCUrl: string;
}

export interface IncidentAChannel {
  /** Secret: read back as "". */
  apiKey: string;
  isEU?: boolean;
}

export interface IncidentBChannel {
  /** Secret: read back as "". */
  routingKey: string;
  /** Secret: read back as "". */
  token?: string;
}

export interface NotifierProperties {
  customWebhook?: CustomWebhookChannel;
  webhook?: WebhookChannel;
  email?: EmailChannel;
  chatA?: ChatAChannel;
  chatB?: ChatBChannel;
  chatBWebhook?: ChatBWebhookChannel;
  chatC?: ChatCChannel;
  incidentA?: IncidentAChannel;
  incidentB?: IncidentBChannel;
}

export interface NotifierInput {
  name: string;
  /** Timestamp until which the notifier sends nothing. */
  disabledUntil?: string;
  properties: NotifierProperties;
}

export interface Notifier extends NotifierInput {
  id: string;
  createdAt?: string;
  /** The creating user. */
  createdBy?: string;
}

// ---------------------------------------------------------------------------------------
// Monitors (API-CONTRACT-MONITORS.md): a query the service runs on a schedule, alerting
// through notifiers.

export type MonitorType = "Threshold" | "MatchEvent" | "AnomalyDetection";
export type MonitorOperator = "Below" | "BelowOrEqual" | "Above" | "AboveOrEqual" | "AboveOrBelow";

export interface MonitorInput {
  name: string;
  type: MonitorType;
  description?: string;
  aplQuery?: string;
  operator?: MonitorOperator;
  threshold?: number;
  intervalMinutes?: number;
  rangeMinutes?: number;
  /** Seconds the query window is shifted back, so late events are counted. */
  secondDelay?: number;
  alertOnNoData?: boolean;
  notifyByGroup?: boolean;
  notifyEveryRun?: boolean;
  resolvable?: boolean;
  skipResolved?: boolean;
  disabled?: boolean;
  /** Timestamp before which the monitor does not run. */
  disabledUntil?: string;
  /** Notifier ids. */
  notifierIds?: string[];
  triggerAfterNPositiveResults?: number;
  triggerFromNRuns?: number;
  compareDays?: number;
  /** Percent. */
  tolerance?: number;
  columnName?: string;
}

export interface Monitor extends MonitorInput {
  id: string;
  createdAt?: string;
  /** The creating user. */
  createdBy?: string;
  updatedAt?: string;
}

/** One change of a monitor's state, as `GET /v2/monitors/{id}/history` answers it. */
export interface MonitorHistoryEntry {
  checkId: string;
  name: string;
  /** "error" (the emulator's): a run whose query was stopped at its time limit, or a refused delivery. */
  state: "open" | "closed" | "error";
  timestamp: string;
  /** Why, for an "error" entry. */
  message?: string;
}

// ---------------------------------------------------------------------------------------
// Roles and API tokens

export interface RoleInput extends Capabilities {
  name: string;
  description?: string;
  /** User ids. */
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

/** A token as read: never carries the secret. */
export interface ApiToken extends ApiTokenInput {
  id: string;
  samlAuthenticated?: boolean;
}

/** The answer to creation and regeneration: the only time the secret is returned. */
export interface ApiTokenWithSecret extends ApiToken {
  token: string;
}

/** Rotation: a NEW token (new id, new secret); the old one works until existingTokenExpiresAt. */
export interface RegenerateTokenInput {
  existingTokenExpiresAt: string;
  newTokenExpiresAt?: string;
  /** The new token's settings; unset copies the old token's. */
  newToken?: ApiTokenInput;
}

// ---------------------------------------------------------------------------------------
// Datasets, their fields, virtual fields

export interface DatasetInput {
  /** Letters, digits, "-", "_", "." ; unique. */
  name: string;
  description?: string;
}

export interface DatasetUpdate {
  description: string;
}

/** A dataset's id equals its name. */
export interface Dataset {
  id: string;
  name: string;
  description?: string;
  created?: string;
  who?: string;
}

/** A field's id is its name (unique within its dataset). */
export interface DatasetField {
  name: string;
  description?: string;
  /** Seen: datetime, string, boolean, float, integer, or "". */
  type?: string;
  /** Seen: "", none, decbytes, ms. */
  unit?: string;
  hidden?: boolean;
}

/** One event to ingest; `_time` defaults to the ingest time. */
export type IngestEvent = Record<string, unknown>;

/** The answer to an ingest: counts of accepted and refused events. */
export interface IngestResult {
  ingested: number;
  failed: number;
  failures?: { timestamp?: string; error: string }[];
  processedBytes?: number;
}

export interface VirtualFieldInput {
  dataset: string;
  /** Unique within its dataset. */
  name: string;
  expression: string;
  description?: string;
  type?: string;
  unit?: string;
}

export interface VirtualField extends VirtualFieldInput {
  id: string;
}

// ---------------------------------------------------------------------------------------
// Starred queries

export interface OrderBy {
  field: string;
  desc: boolean;
}

export interface QueryOptions {
  disableCache?: boolean;
  disableStats?: boolean;
  disableTrace?: boolean;
  noAggregation?: boolean;
  noFill?: boolean;
  noInterpolation?: boolean;
  maxDataPoints?: number;
  maxSeries?: number;
  /** Seen: low. */
  priority?: string;
  resolution?: string;
}

/** The `query` object of a starred query. */
export interface StarredQueryQuery {
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
  dataset?: string;
  /** Seen: apl. */
  kind: string;
  name: string;
  /** A user id, or `team`. */
  who: string;
  metadata: Record<string, unknown>;
  query: StarredQueryQuery;
}

export interface StarredQuery extends StarredQueryInput {
  id: string;
}

export interface StarredQueryFilter {
  dataset?: string;
  /** Unset: the caller's; a user id; `team`; or `all`. */
  who?: string;
  /** 1..1000; the service's default is 100. */
  limit?: number;
  offset?: number;
}

// ---------------------------------------------------------------------------------------
// Users and organizations

export interface UserInput {
  email: string;
  name: string;
  /** A role name or a role id. */
  role: string;
}

export interface UserRoleUpdate {
  /** A role name or a role id. */
  role: string;
}

export interface CurrentUserUpdate {
  name: string;
}

export interface User {
  id: string;
  email: string;
  name: string;
  role: { id: string; name: string };
}

export interface License {
  id?: string;
  issuer?: string;
  issuedTo?: string;
  /** Seen: personal. */
  tier?: string;
  issuedAt?: string;
  validFrom?: string;
  expiresAt?: string;
  billingPeriodStart?: string;
  billingPeriodEnd?: string;
  /** The API rate limit the client keeps under. */
  apiRateLimitPerSecond?: number;
  maxAuditWindowSeconds?: number;
  maxDatasets?: number;
  maxEndpoints?: number;
  maxFields?: number;
  maxMonitors?: number;
  maxQueryWindowSeconds?: number;
  maxUsers?: number;
  monthlyIngestGb?: number;
  monthlyQueryGbHours?: number;
  storageAllowanceGB?: number;
  features?: Record<string, unknown>;
  withAuths?: string[];
}

export interface Organization {
  id: string;
  name: string;
  role?: string;
  primaryEmail?: string;
  /** Seen: personal. */
  plan?: string;
  /** Seen: na. */
  paymentStatus?: string;
  planCreated?: string;
  firstFailedPayment?: string;
  lastUsageSync?: string;
  metaCreated?: string;
  metaModified?: string;
  metaVersion?: string;
  license?: License;
}

// ---------------------------------------------------------------------------------------
// Queries: the legacy structured query, the query-language endpoint, and both layouts.

export interface Aggregation {
  op: string;
  field?: string;
  alias?: string;
  argument?: unknown;
}

export interface LegacyQueryRequest {
  aggregations?: Aggregation[];
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

export interface QueryInterval {
  startTime: string;
  endTime: string;
  groups: QueryGroup[];
}

export interface QueryMatch {
  _rowId: string;
  _sysTime: string;
  _time: string;
  data: Record<string, unknown>;
}

export interface QueryMessage {
  code: string;
  count: number;
  msg: string;
  priority: string;
}

export interface LegacyQueryStatus {
  blocksExamined?: number;
  cacheStatus?: number;
  elapsedTime?: number;
  numGroups?: number;
  rowsExamined?: number;
  rowsMatched?: number;
  continuationToken?: string;
  isEstimate?: boolean;
  isPartial?: boolean;
  minBlockTime?: string;
  maxBlockTime?: string;
  messages?: QueryMessage[];
}

export interface LegacyQueryResult {
  buckets: { series: QueryInterval[]; totals: QueryGroup[] };
  fieldsMeta: FieldMeta[];
  matches: QueryMatch[];
  status: LegacyQueryStatus;
}

/** Body of POST /v1/datasets/_apl. */
export interface AplQueryRequest {
  apl: string;
  startTime?: string;
  endTime?: string;
}

export interface TabularQueryStatus {
  elapsedTime?: number;
  blocksExamined?: number;
  blocksCached?: number;
  blocksMatched?: number;
  rowsExamined?: number;
  rowsMatched?: number;
  numGroups?: number;
  cacheStatus?: number;
  minCursor?: string;
  maxCursor?: string;
  isPartial?: boolean;
  minBlockTime?: string;
  maxBlockTime?: string;
}

export interface TabularTable {
  name: string;
  sources: { name: string }[];
  fields: { name: string; type: string }[];
  order: OrderBy[];
  groups: unknown[];
  range?: { field: string; start: string; end: string };
  /** One array per entry of `fields`, in that order, each holding the field's value for every row. */
  columns: unknown[][];
}

export interface TabularQueryResult {
  format: "tabular";
  status: TabularQueryStatus;
  tables: TabularTable[];
  datasetNames: string[];
  fieldsMetaMap: Record<string, FieldMeta[]>;
}

// ---------------------------------------------------------------------------------------
// Errors

/** Where a query-language error is. */
export interface QueryErrorDetail {
  line?: number;
  column?: number;
  message?: string;
  errorType?: string;
  compileErrorCode?: string;
}

/** The service's error body. */
export interface ErrorBody {
  code: number;
  message: string;
  detail?: QueryErrorDetail;
}
