// The organization's license bounds what an apply can create (docs/service-contract.md,
// "License limits"). A plan reads the license once and counts what the organization will
// hold after the apply: objects of each counted kind (the live list, which holds other
// stacks' objects too, plus creates, minus deletes), the fields of each dataset (ingested
// and virtual), and the data window of each query the plan writes or backtests. Anything
// over a limit refuses the plan before any write, naming the limit, the count and the
// objects, rather than failing halfway through the apply.
import { OdsApiError, type License, type OdsClient } from "../api";
import { RESOURCE_KINDS, resourceKind, type CountedLimit, type LicenseUse, type ResourceKind, type Values } from "../resources";
import type { LiveIndex } from "./live-index";
import { scopeOf } from "./values";

/** What the check needs of a planned change (both engines' plans have it). */
export interface LicensedChange {
  address: string;
  typeName: string;
  constructPath?: string;
  action: string;
  before: Values | null;
  after: Values | null;
}

export interface LicenseCheckOptions {
  orgId?: string;
  /** The license when the caller has it already (the organization's record was read for the target). */
  license?: License;
  /** Days of the plan's backtests (unset: none run). */
  insightDays?: number;
}

export interface LicenseCheck {
  problems: string[];
  warnings: string[];
}

const NOUNS: Record<CountedLimit, string> = { maxDatasets: "datasets", maxMonitors: "monitors", maxUsers: "users" };
/** Objects named in one refusal; the rest are counted. */
const NAMED = 10;

const adds = (c: LicensedChange): boolean => c.action === "create";
const removes = (c: LicensedChange): boolean => c.action === "delete";
/** Actions that write a change's values (and so its query's window). */
const writes = (c: LicensedChange): boolean => ["create", "update", "replace", "adopt", "rotate"].includes(c.action);

function named(addresses: readonly string[]): string {
  const shown = addresses.slice(0, NAMED).join(", ");
  return addresses.length > NAMED ? `${shown} and ${addresses.length - NAMED} more` : shown;
}

function where(c: LicensedChange): string {
  return c.constructPath ? `[${c.constructPath}] ${c.address}` : c.address;
}

/** The organization's license, read once: by id, or the first organization the token sees. */
async function readLicense(client: OdsClient, orgId: string | undefined): Promise<License | undefined> {
  const org = orgId ? await client.getOrganization(orgId) : (await client.listOrganizations())[0];
  return org?.license;
}

/**
 * Checks the plan's CHANGES against the organization's license. Reads nothing when no
 * change can reach a limit; a license that cannot be read is a warning (the service still
 * refuses what passes a limit, at apply).
 */
export async function checkLicense(client: OdsClient, live: LiveIndex, changes: readonly LicensedChange[], opts: LicenseCheckOptions = {}): Promise<LicenseCheck> {
  const out: LicenseCheck = { problems: [], warnings: [] };
  const kindOf = (c: LicensedChange): ResourceKind | undefined => resourceKind(c.typeName);
  const relevant = changes.filter((c) => {
    const use = kindOf(c)?.license;
    if (!use) return false;
    return (adds(c) && (use.counts || use.fieldOf)) || (writes(c) && (use.queryWindowSeconds || (use.insightWindowSeconds && opts.insightDays)));
  });
  if (relevant.length === 0) return out;
  let license: License | undefined;
  try {
    license = opts.license ?? (await readLicense(client, opts.orgId));
  } catch (err) {
    out.warnings.push(`the organization's license could not be read (${(err as Error).message}); its limits were not checked`);
    return out;
  }
  if (!license) return out;
  try {
    await countAgainst(client, live, changes, license, opts, out);
  } catch (err) {
    // A token that may not list what is counted: the service still refuses at apply.
    if (!(err instanceof OdsApiError && (err.status === 401 || err.status === 403))) throw err;
    out.warnings.push(`the license limits were not checked: ${err.message}`);
  }
  return out;
}

async function countAgainst(client: OdsClient, live: LiveIndex, changes: readonly LicensedChange[], license: License, opts: LicenseCheckOptions, out: LicenseCheck): Promise<void> {
  const kindOf = (c: LicensedChange): ResourceKind | undefined => resourceKind(c.typeName);
  // Objects per counted limit: live now, plus creates, minus deletes.
  const byLimit = new Map<CountedLimit, { kind: ResourceKind; created: string[]; deleted: number }>();
  for (const c of changes) {
    const kind = kindOf(c);
    const limit = kind?.license?.counts;
    if (!kind || !limit || !(adds(c) || removes(c))) continue;
    const entry = byLimit.get(limit) ?? { kind, created: [], deleted: 0 };
    byLimit.set(limit, entry);
    if (adds(c)) entry.created.push(c.address);
    else entry.deleted++;
  }
  for (const [limit, { kind, created, deleted }] of byLimit) {
    const allowed = license[limit];
    if (typeof allowed !== "number" || created.length === 0) continue;
    const problem = countProblem(limit, (await live.load(client, kind)).length, created, deleted, allowed);
    if (problem) out.problems.push(problem);
  }

  // Fields per dataset: what its fieldOf kinds list under it now, plus the fields created.
  const maxFields = license.maxFields;
  if (typeof maxFields === "number") {
    const createdIn = new Map<string, string[]>();
    const deletedIn = new Map<string, number>();
    for (const c of changes) {
      const kind = kindOf(c);
      const attribute = kind?.license?.fieldOf;
      if (!kind || !attribute) continue;
      if (kind.creation !== "create") continue; // a claimed field exists already: claiming adds none
      const dataset = (c.after ?? c.before)?.[attribute];
      if (typeof dataset !== "string") continue;
      if (adds(c)) createdIn.set(dataset, [...(createdIn.get(dataset) ?? []), c.address]);
      else if (removes(c)) deletedIn.set(dataset, (deletedIn.get(dataset) ?? 0) + 1);
    }
    for (const [dataset, created] of createdIn) {
      const problem = fieldsProblem(dataset, await liveFieldCount(client, live, dataset), created, deletedIn.get(dataset) ?? 0, maxFields);
      if (problem) out.problems.push(problem);
    }
  }

  // Data windows: each written query, and each backtest the plan runs.
  const maxWindow = license.maxQueryWindowSeconds;
  if (typeof maxWindow === "number") {
    for (const c of changes) {
      const use = kindOf(c)?.license;
      if (!use || !c.after || !writes(c)) continue;
      out.problems.push(...windowProblems(where(c), use, c.after, maxWindow, opts.insightDays));
    }
  }
}

/** Fields a dataset holds now: the objects of every kind whose objects are its fields (declared or not). */
async function liveFieldCount(client: OdsClient, live: LiveIndex, dataset: string): Promise<number> {
  let now = 0;
  for (const kind of RESOURCE_KINDS) {
    const attribute = kind.license?.fieldOf;
    if (attribute) now += (await live.load(client, kind, scopeOf(kind, { [attribute]: dataset }))).length;
  }
  return now;
}

function countProblem(limit: CountedLimit, now: number, created: readonly string[], deleted: number, allowed: number): string | undefined {
  const after = now + created.length - deleted;
  if (after <= allowed) return undefined;
  return `license limit ${limit}: after this apply the organization would hold ${after} ${NOUNS[limit]} (${now} now, ${created.length} created${deleted ? `, ${deleted} deleted` : ""}); the license allows ${allowed}. Created: ${named(created)}. Remove ${Math.min(after - allowed, created.length)} of them, delete others, or raise the license`;
}

function fieldsProblem(dataset: string, now: number, created: readonly string[], deleted: number, allowed: number): string | undefined {
  const after = now + created.length - deleted;
  if (after <= allowed) return undefined;
  return `license limit maxFields: after this apply dataset "${dataset}" would hold ${after} fields, ingested and virtual (${now} now, ${created.length} created); the license allows ${allowed}. Created: ${named(created)}`;
}

/** The query window of VALUES, and of its backtest over DAYS days, against maxQueryWindowSeconds. */
function windowProblems(where: string, use: LicenseUse, values: Values, maxWindow: number, days: number | undefined): string[] {
  const seconds = use.queryWindowSeconds?.(values);
  if (seconds !== undefined && seconds > maxWindow) {
    return [`${where}: license limit maxQueryWindowSeconds: its query reads ${Math.round(seconds)} s of data; the license allows ${maxWindow} (${Math.floor(maxWindow / 60)} min)`];
  }
  const backtest = days ? use.insightWindowSeconds?.(values, days) : undefined;
  if (backtest === undefined || backtest <= maxWindow) return [];
  const fit = Math.floor((maxWindow - (backtest - days! * 86_400)) / 86_400);
  return [
    `${where}: license limit maxQueryWindowSeconds: its backtest over ${days} days reads ${Math.round(backtest)} s of data in one query; the license allows ${maxWindow}. Plan with ${fit > 0 ? `--backtest-days ${fit}` : "--no-backtest"}`,
  ];
}

/** Reads an organization's license once per holder (a provider process) and keeps it. */
export class LicenseReader {
  private read?: Promise<License | undefined>;

  constructor(
    private readonly client: () => OdsClient,
    private readonly orgId: () => string | undefined,
  ) {}

  /** The license, or undefined when the token may not read it (the service still refuses at apply). */
  license(): Promise<License | undefined> {
    this.read ??= readLicense(this.client(), this.orgId()).catch(() => undefined);
    return this.read;
  }
}

/**
 * One object's license problems as Terraform's per-resource plan can see them: the live
 * counts plus this object when it is created, and its query windows. WHAT names it.
 */
export async function objectLicenseProblems(
  client: OdsClient,
  live: LiveIndex,
  kind: ResourceKind,
  values: Values,
  opts: { creating: boolean; what: string; license: License | undefined; backtestDays?: number },
): Promise<string[]> {
  const use = kind.license;
  const license = opts.license;
  if (!use || !license) return [];
  const problems: string[] = [];
  const allowed = use.counts ? license[use.counts] : undefined;
  if (opts.creating && use.counts && typeof allowed === "number") {
    const problem = countProblem(use.counts, (await live.load(client, kind)).length, [opts.what], 0, allowed);
    if (problem) problems.push(problem);
  }
  const dataset = use.fieldOf ? values[use.fieldOf] : undefined;
  if (opts.creating && kind.creation === "create" && typeof dataset === "string" && typeof license.maxFields === "number") {
    const problem = fieldsProblem(dataset, await liveFieldCount(client, live, dataset), [opts.what], 0, license.maxFields);
    if (problem) problems.push(problem);
  }
  if (typeof license.maxQueryWindowSeconds === "number") problems.push(...windowProblems(opts.what, use, values, license.maxQueryWindowSeconds, opts.backtestDays));
  return problems;
}
