// What the emulator stores, per collection. Records hold what the wire shows plus the
// private bookkeeping the wire must never show (secret hashes, storage keys, stored
// notifier secrets); the route modules turn records into wire objects.
import type { Capabilities } from "./capabilities";
import type { Collections } from "./store";
import type { JsonObject } from "./validate";

export interface LicenseRecord {
  id: string;
  issuer: string;
  issuedTo: string;
  tier: string;
  issuedAt: string;
  validFrom: string;
  expiresAt: string;
  billingPeriodStart: string;
  billingPeriodEnd: string;
  apiRateLimitPerSecond: number;
  maxAuditWindowSeconds: number;
  maxDatasets: number;
  maxEndpoints: number;
  maxFields: number;
  maxMonitors: number;
  maxQueryWindowSeconds: number;
  maxUsers: number;
  monthlyIngestGb: number;
  monthlyQueryGbHours: number;
  storageAllowanceGB: number;
  features: JsonObject;
  withAuths: string[];
}

export interface OrgRecord {
  id: string;
  name: string;
  role: string;
  primaryEmail: string;
  plan: string;
  paymentStatus: string;
  planCreated: string;
  firstFailedPayment: string;
  lastUsageSync: string;
  metaCreated: string;
  metaModified: string;
  metaVersion: string;
  license: LicenseRecord;
}

export interface UserRecord {
  id: string;
  email: string;
  name: string;
  /** A built-in role name or the id of a custom role. */
  role: string;
  created: string;
}

export interface TokenRecord extends Capabilities {
  id: string;
  name: string;
  description: string;
  /** "" when the token never expires. */
  expiresAt: string;
  /** The user the token acts as: the one whose token created it. */
  userId: string;
  /** SHA-256 (hex) of the secret: enough to authenticate, useless to an attacker. */
  secretSha256: string;
  created: string;
}

export interface RoleRecord extends Capabilities {
  id: string;
  name: string;
  description: string;
  members: string[];
}

/** A channel object as stored: secret fields hold their real values. */
export type ChannelRecord = Record<string, unknown>;

export interface NotifierRecord {
  id: string;
  name: string;
  disabledUntil: string;
  createdAt: string;
  createdBy: string;
  properties: Record<string, ChannelRecord>;
}

export interface VirtualFieldRecord {
  id: string;
  dataset: string;
  name: string;
  description: string;
  expression: string;
  type: string;
  unit: string;
}

export interface StarredQueryRecord {
  id: string;
  dataset: string;
  kind: string;
  name: string;
  who: string;
  metadata: JsonObject;
  query: JsonObject;
}

export interface ViewRecord {
  id: string;
  name: string;
  aplQuery: string;
  datasets: string[];
  description: string;
}

/** A dashboard keyed by uid; the document is kept as the service answers it. */
export interface DashboardRecord {
  id: string;
  uid: string;
  version: number;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
  updatedBy: string;
  dashboard: JsonObject;
}

export interface AnnotationRecord {
  id: string;
  datasets: string[];
  type: string;
  time: string;
  endTime: string;
  title: string;
  description: string;
  url: string;
}

export interface DatasetRecord {
  name: string;
  description: string;
  created: string;
  who: string;
  /** Names the dataset's event file; new for every creation of a name. */
  storageKey: string;
}

export interface FieldRecord {
  dataset: string;
  name: string;
  description: string;
  type: string;
  unit: string;
  hidden: boolean;
}

export type MonitorType = "Threshold" | "MatchEvent" | "AnomalyDetection";
export type MonitorOperator = "Below" | "BelowOrEqual" | "Above" | "AboveOrEqual" | "AboveOrBelow";

/** A monitor exactly as the wire shows it (every field filled, server fields included). */
export interface MonitorRecord {
  id: string;
  name: string;
  type: MonitorType;
  description: string;
  aplQuery: string;
  /** "" when not sent (a match monitor compares nothing; an anomaly monitor then looks both ways). */
  operator: MonitorOperator | "";
  threshold: number;
  intervalMinutes: number;
  rangeMinutes: number;
  secondDelay: number;
  alertOnNoData: boolean;
  notifyByGroup: boolean;
  notifyEveryRun: boolean;
  resolvable: boolean;
  skipResolved: boolean;
  disabled: boolean;
  disabledUntil: string;
  notifierIds: string[];
  triggerAfterNPositiveResults: number;
  triggerFromNRuns: number;
  compareDays: number;
  tolerance: number;
  columnName: string;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
}

/** One change of a monitor's state; keyed by `<checkId>/<n>` (a run may change several groups). */
export interface MonitorHistoryRecord {
  monitorId: string;
  checkId: string;
  name: string;
  /**
   * "open" and "closed" as the service records them; "error" (the emulator's): a run
   * whose query was stopped at its time limit, or a delivery refused, with `message`.
   */
  state: "open" | "closed" | "error";
  timestamp: string;
  message?: string;
}

/** An open alert of one group ("" when the monitor is not grouped). */
export interface OpenAlert {
  since: string;
  checkId: string;
  groupKeys: string[];
  groupValues: string[];
}

/**
 * What the scheduler remembers of a monitor between runs, kept apart from the monitor
 * so that a PUT of the same monitor does not forget that it is in alert.
 */
export interface MonitorStateRecord {
  id: string;
  /** The monitor's type when this state began: a change of type starts afresh. */
  type: string;
  /** Numbers the monitor's history entries (`<monitorId>/<seq>`); the oldest are dropped. */
  historySeq: number;
  /** When the last run was due (ms); runs are due at multiples of the interval. */
  lastRunMs: number;
  /** Per group: whether each of the last triggerFromNRuns runs crossed (newest last). */
  recent: Record<string, boolean[]>;
  open: Record<string, OpenAlert>;
  /** Match monitors: events before this time (ms) were already looked at. */
  matchedUntilMs: number;
  /** Match monitors' caps: notifications in the current minute and UTC day. */
  minute: { key: number; count: number };
  day: { key: number; count: number };
  /** Matches left undelivered because of the caps. */
  suppressed: number;
  /** Why the last run could not evaluate its query ("" when it could). */
  lastError: string;
  /** Runs in a row whose query was stopped at its time limit (absent in states written before). */
  timeouts?: number;
  /** Runs due before this time (ms) are skipped: the backoff after timeouts. */
  backoffUntilMs?: number;
}

/** One query run saved with `saveAsKind` on POST /v1/datasets/_apl. */
export interface QueryHistoryRecord {
  id: string;
  dataset: string;
  kind: string;
  apl: string;
  startTime: string;
  endTime: string;
  who: string;
  at: string;
}

export interface EmulatorState extends Collections {
  orgs: Map<string, OrgRecord>;
  users: Map<string, UserRecord>;
  tokens: Map<string, TokenRecord>;
  roles: Map<string, RoleRecord>;
  notifiers: Map<string, NotifierRecord>;
  vfields: Map<string, VirtualFieldRecord>;
  starredQueries: Map<string, StarredQueryRecord>;
  datasets: Map<string, DatasetRecord>;
  /** Keyed by `<dataset>/<field>`: dataset names cannot contain "/". */
  fields: Map<string, FieldRecord>;
  queryHistory: Map<string, QueryHistoryRecord>;
  views: Map<string, ViewRecord>;
  /** Keyed by uid, the key of every dashboard route. */
  dashboards: Map<string, DashboardRecord>;
  annotations: Map<string, AnnotationRecord>;
  monitors: Map<string, MonitorRecord>;
  monitorHistory: Map<string, MonitorHistoryRecord>;
  monitorStates: Map<string, MonitorStateRecord>;
}

export function emptyState(): EmulatorState {
  return {
    orgs: new Map(),
    users: new Map(),
    tokens: new Map(),
    roles: new Map(),
    notifiers: new Map(),
    vfields: new Map(),
    starredQueries: new Map(),
    datasets: new Map(),
    fields: new Map(),
    queryHistory: new Map(),
    views: new Map(),
    dashboards: new Map(),
    annotations: new Map(),
    monitors: new Map(),
    monitorHistory: new Map(),
    monitorStates: new Map(),
  };
}

export function fieldKey(dataset: string, field: string): string {
  return `${dataset}/${field}`;
}
