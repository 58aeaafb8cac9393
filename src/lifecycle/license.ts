// The organization's license bounds what an apply can create (docs/service-contract.md,
// "License limits"). A plan reads the license once and counts what the organization will
// hold after the apply: objects of each counted kind (the live list, which holds other
// stacks' objects too, plus creates, minus deletes), the fields of each dataset (ingested
// and virtual), and the data window of each query the plan writes or backtests. Anything
// over a limit refuses the plan before any write, naming the limit, the count and the
// objects, rather than failing halfway through the apply.
import type { OdsClient, License } from "../api";
import { RESOURCE_KINDS, resourceKind, type CountedLimit, type ResourceKind, type Values } from "../resources";
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
    const now = (await live.load(client, kind)).length;
    const after = now + created.length - deleted;
    if (after > allowed) {
      out.problems.push(
        `license limit ${limit}: after this apply the organization would hold ${after} ${NOUNS[limit]} (${now} now, ${created.length} created${deleted ? `, ${deleted} deleted` : ""}); the license allows ${allowed}. Created: ${named(created)}. Remove ${after - allowed} of them, delete others, or raise the license`,
      );
    }
  }

  // Fields per dataset: what its fieldOf kinds list under it now, plus the fields created.
  const maxFields = license.maxFields;
  if (typeof maxFields === "number") {
    // Every kind whose objects are fields: those the stack does not declare count too.
    const fieldKinds = RESOURCE_KINDS.filter((k) => k.license?.fieldOf);
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
      let now = 0;
      for (const kind of fieldKinds) now += (await live.load(client, kind, scopeOf(kind, { [kind.license!.fieldOf!]: dataset }))).length;
      const after = now + created.length - (deletedIn.get(dataset) ?? 0);
      if (after > maxFields) {
        out.problems.push(
          `license limit maxFields: after this apply dataset "${dataset}" would hold ${after} fields, ingested and virtual (${now} now, ${created.length} created); the license allows ${maxFields}. Created: ${named(created)}`,
        );
      }
    }
  }

  // Data windows: each written query, and each backtest the plan runs.
  const maxWindow = license.maxQueryWindowSeconds;
  if (typeof maxWindow === "number") {
    for (const c of changes) {
      const use = kindOf(c)?.license;
      if (!use || !c.after || !writes(c)) continue;
      const seconds = use.queryWindowSeconds?.(c.after);
      if (seconds !== undefined && seconds > maxWindow) {
        out.problems.push(`${where(c)}: license limit maxQueryWindowSeconds: its query reads ${Math.round(seconds)} s of data; the license allows ${maxWindow} (${Math.floor(maxWindow / 60)} min)`);
        continue;
      }
      const backtest = opts.insightDays ? use.insightWindowSeconds?.(c.after, opts.insightDays) : undefined;
      if (backtest !== undefined && backtest > maxWindow) {
        const days = Math.floor((maxWindow - (seconds ?? 0)) / 86_400);
        out.problems.push(
          `${where(c)}: license limit maxQueryWindowSeconds: its backtest over ${opts.insightDays} days reads ${Math.round(backtest)} s of data in one query; the license allows ${maxWindow}. Plan with ${days > 0 ? `--backtest-days ${days}` : "--no-backtest"}`,
        );
      }
    }
  }
  return out;
}
