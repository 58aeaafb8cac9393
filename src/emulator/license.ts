// The organization's license limits, enforced as the service enforces them (each route's
// answer is in docs/service-contract.md, "License limits"). Every refusal is 403 and
// names the limit, what the organization holds and what the license allows, so that a
// client (and a person reading its error) can tell a license limit from a missing grant.
//
// Counted limits refuse the create that would pass them; usage limits (monthly ingest,
// storage, query GB-hours) refuse the request once the period's usage has reached them.
// `ods emulator --license KEY=VALUE[,...]` sets any numeric field of the record.
import { HttpError } from "./errors";
import type { EmulatorCore } from "./core";
import type { LicenseRecord } from "./model";
import { parseTimeBound } from "./query/time";

/** The license's numeric fields: what `--license` may set. */
export const NUMERIC_LICENSE_KEYS = [
  "apiRateLimitPerSecond",
  "maxAuditWindowSeconds",
  "maxDatasets",
  "maxEndpoints",
  "maxFields",
  "maxMonitors",
  "maxQueryWindowSeconds",
  "maxUsers",
  "monthlyIngestGb",
  "monthlyQueryGbHours",
  "storageAllowanceGB",
] as const;
export type NumericLicenseKey = (typeof NUMERIC_LICENSE_KEYS)[number];
export type LicenseSettings = Partial<Pick<LicenseRecord, NumericLicenseKey>>;

export class LicenseSettingsError extends Error {}

/** Parses `KEY=VALUE[,KEY=VALUE...]` (whole numbers, keys as the license record spells them). */
export function parseLicenseSettings(text: string): LicenseSettings {
  const out: LicenseSettings = {};
  for (const part of text.split(",").map((p) => p.trim()).filter((p) => p !== "")) {
    const eq = part.indexOf("=");
    const key = eq < 0 ? part : part.slice(0, eq).trim();
    const value = eq < 0 ? "" : part.slice(eq + 1).trim();
    if (!(NUMERIC_LICENSE_KEYS as readonly string[]).includes(key)) {
      throw new LicenseSettingsError(`--license: unknown limit ${JSON.stringify(key)}; one of ${NUMERIC_LICENSE_KEYS.join(", ")}`);
    }
    if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) {
      throw new LicenseSettingsError(`--license: ${key} must be a whole number >= 0, got ${JSON.stringify(value)}`);
    }
    out[key as NumericLicenseKey] = Number(value);
  }
  if (Object.keys(out).length === 0) throw new LicenseSettingsError("--license: expected KEY=VALUE[,KEY=VALUE...], e.g. maxMonitors=10");
  return out;
}

/** 403 naming the limit, the organization's count and the license's bound. */
function overLimit(limit: NumericLicenseKey, what: string, allowed: number): HttpError {
  return new HttpError(403, `license limit ${limit} reached: ${what}; the license allows ${allowed}`);
}

/** Refuses a create that would take the organization past a counted limit. */
export function requireRoomFor(core: EmulatorCore, limit: "maxDatasets" | "maxMonitors" | "maxUsers", noun: string): void {
  const allowed = core.org.license[limit];
  const held = { maxDatasets: core.state.datasets.size, maxMonitors: core.state.monitors.size, maxUsers: core.state.users.size }[limit];
  if (held >= allowed) throw overLimit(limit, `the organization holds ${held} ${noun}`, allowed);
}

/** Fields of a dataset as maxFields counts them: ingested fields and virtual fields. */
export function fieldCount(core: EmulatorCore, dataset: string): number {
  return core.fieldsOf(dataset).length + core.virtualFieldsOf(dataset).length;
}

/** Refuses a new virtual field in a dataset already holding maxFields fields. */
export function requireFieldRoom(core: EmulatorCore, dataset: string): void {
  const allowed = core.org.license.maxFields;
  const held = fieldCount(core, dataset);
  if (held >= allowed) throw overLimit("maxFields", `dataset "${dataset}" holds ${held} fields (ingested and virtual)`, allowed);
}

/** How many new fields an ingest may add to a dataset before maxFields. */
export function fieldRoom(core: EmulatorCore, dataset: string): number {
  return Math.max(0, core.org.license.maxFields - fieldCount(core, dataset));
}

/** The maxFields refusal of one ingested event, as its `failures` entry says it. */
export function fieldLimitFailure(core: EmulatorCore, dataset: string, field: string): string {
  return `license limit maxFields reached: field "${field}" would be field ${core.org.license.maxFields + 1} of dataset "${dataset}"; the license allows ${core.org.license.maxFields}`;
}

/** Seconds from START to END (request bounds: ISO 8601, `now`, `now-1h`; `qr-now-1h` as starred queries spell them). */
export function windowSeconds(start: string | undefined, end: string | undefined, nowMs: number): number | undefined {
  const bound = (t: string | undefined): number | undefined => (t === undefined || t === "" ? undefined : parseTimeBound(t.replace(/^qr-/, ""), nowMs));
  const s = bound(start);
  if (s === undefined) return undefined;
  const e = bound(end) ?? nowMs;
  return Math.max(0, (e - s) / 1000);
}

/** Refuses a query window (or a monitor's range) longer than maxQueryWindowSeconds. */
export function requireQueryWindow(core: EmulatorCore, seconds: number | undefined, what: string): void {
  const allowed = core.org.license.maxQueryWindowSeconds;
  if (seconds !== undefined && seconds > allowed) throw overLimit("maxQueryWindowSeconds", `${what} spans ${Math.round(seconds)} s`, allowed);
}

const GB = 1e9;

/**
 * Usage in the current billing period, kept in memory: the emulator counts from its start
 * (a restart begins a new count), which is enough for a test to pass a limit.
 */
interface Usage {
  period: string;
  ingestBytes: number;
  queryGbHours: number;
}
const usageOf = new WeakMap<EmulatorCore, Usage>();

function usage(core: EmulatorCore): Usage {
  const period = core.org.license.billingPeriodStart;
  let u = usageOf.get(core);
  if (!u || u.period !== period) {
    u = { period, ingestBytes: 0, queryGbHours: 0 };
    usageOf.set(core, u);
  }
  return u;
}

/** Refuses an ingest past monthlyIngestGb or storageAllowanceGB; counts it when allowed. */
export function chargeIngest(core: EmulatorCore, bytes: number, storedBytes: number): void {
  const { monthlyIngestGb, storageAllowanceGB } = core.org.license;
  const u = usage(core);
  if (u.ingestBytes + bytes > monthlyIngestGb * GB) {
    throw overLimit("monthlyIngestGb", `this period's ingest would reach ${((u.ingestBytes + bytes) / GB).toFixed(3)} GB`, monthlyIngestGb);
  }
  if (storedBytes + bytes > storageAllowanceGB * GB) {
    throw overLimit("storageAllowanceGB", `the organization's stored events would reach ${((storedBytes + bytes) / GB).toFixed(3)} GB`, storageAllowanceGB);
  }
  u.ingestBytes += bytes;
}

/** Refuses a query once this period's query GB-hours have reached monthlyQueryGbHours. */
export function requireQueryAllowance(core: EmulatorCore): void {
  const allowed = core.org.license.monthlyQueryGbHours;
  const used = usage(core).queryGbHours;
  if (used >= allowed) throw overLimit("monthlyQueryGbHours", `this period's queries used ${used.toFixed(6)} GB-hours`, allowed);
}

/**
 * Counts one query's GB-hours: the emulator does not measure a query's memory, so each is
 * charged as holding 1 GB for its run time.
 */
export function chargeQuery(core: EmulatorCore, elapsedMs: number): void {
  usage(core).queryGbHours += Math.max(elapsedMs, 1) / 3_600_000;
}
