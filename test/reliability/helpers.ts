// Shared by the reliability suite. A bounded subset runs in `npm test`; with
// ODS_RELIABILITY=full (npm run test:reliability) sizes and trial counts grow, and each
// file adds its counts to bench/results/reliability.json.
import * as fs from "node:fs";
import * as path from "node:path";
import { OdsClient } from "../../src/api";
import type { EmulatorHandle } from "../../src/emulator";
import { datasetName, layoutOf, sampleEvents, type GeneratedStack } from "../../bench/stack-gen";
import { readStateFile, ROOT, type StackSpec } from "../helpers/ods-cli";
import type { StateFile } from "../../src/reconcile/state";

export const FULL = process.env.ODS_RELIABILITY === "full";

/** The generated stack in the form writeStack takes. */
export function asSpec(stack: GeneratedStack): StackSpec {
  return { resource: stack.resource };
}

/** Creates the stack's datasets and ingests a few events into each (fields to claim). */
export async function prepareDatasets(admin: OdsClient, prefix: string, n: number): Promise<void> {
  const layout = layoutOf(n);
  for (let d = 0; d < layout.datasets; d++) {
    const name = datasetName(prefix, d);
    await admin.createDataset({ name, description: `bench dataset ${d}` });
    await admin.ingest(name, sampleEvents(layout));
  }
}

export interface DuplicateReport {
  /** Objects beyond the first per natural key, over every kind. */
  duplicates: number;
  /** "kind key x count" for each duplicated key. */
  details: string[];
  /** Live objects per kind whose natural key carries the prefix. */
  counts: Record<string, number>;
}

/**
 * Lists every kind and counts live objects by natural key among those whose name carries
 * the prefix. Generated stacks declare no token expiry, so a token with an expiresAt was
 * retired by a rotation (an adoption rotates, since a token's secret cannot be read back)
 * and stops working after the grace period: it is not counted.
 */
export async function findDuplicates(admin: OdsClient, prefix: string, datasets: string[]): Promise<DuplicateReport> {
  const keys = new Map<string, number>();
  const counts: Record<string, number> = {};
  const add = (kind: string, key: string): void => {
    keys.set(`${kind} ${key}`, (keys.get(`${kind} ${key}`) ?? 0) + 1);
    counts[kind] = (counts[kind] ?? 0) + 1;
  };
  const mine = (name: string): boolean => name.startsWith(`${prefix}-`);
  for (const d of await admin.listDatasets()) if (mine(d.name)) add("ods_dataset", d.name);
  for (const n of await admin.listNotifiers()) if (mine(n.name)) add("ods_notifier", n.name);
  for (const m of await admin.listMonitors()) if (mine(m.name)) add("ods_monitor", m.name);
  for (const r of await admin.listRoles()) if (mine(r.name)) add("ods_role", r.name);
  for (const t of await admin.listTokens()) if (mine(t.name) && !t.expiresAt) add("ods_api_token", t.name);
  for (const u of await admin.listUsers()) if (mine(u.email)) add("ods_user", u.email);
  for (const ds of datasets) {
    for (const v of await admin.listVirtualFields(ds)) add("ods_virtual_field", `${ds}/${v.name}`);
    for (const q of await admin.listAllStarredQueries({ dataset: ds, who: "all" })) add("ods_starred_query", `${ds}/${q.name}`);
  }
  const details = [...keys].filter(([, c]) => c > 1).map(([k, c]) => `${k} x ${c}`);
  return { duplicates: [...keys.values()].reduce((sum, c) => sum + c - 1, 0), details, counts };
}

/** Expected live objects per kind for a generated stack. */
export function expectedCounts(stack: GeneratedStack): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [type, byName] of Object.entries(stack.resource)) if (type !== "ods_dataset_field") out[type] = Object.keys(byName).length;
  return out;
}

export type StateShape = StateFile;

/** The state file as the engine reads it: one reader for every suite. */
export { readStateFile };

/** Token secrets kept in state, by address; the addresses of declared tokens without one. */
export function tokenSecrets(state: StateShape, stack: GeneratedStack): { secrets: string[]; missing: string[] } {
  const secrets: string[] = [];
  const missing: string[] = [];
  for (const name of Object.keys(stack.resource.ods_api_token ?? {})) {
    const token = state.resources[`ods_api_token.${name}`]?.sensitive?.token;
    if (token) secrets.push(token);
    else missing.push(`ods_api_token.${name}`);
  }
  return { secrets, missing };
}

/** Faults the emulator injected, from its request log. */
export function faultsInjected(emu: EmulatorHandle): { status5xx: number; status429: number; dropped: number } {
  const log = emu.requests();
  return {
    status5xx: log.filter((r) => r.status >= 500).length,
    status429: log.filter((r) => r.status === 429).length,
    dropped: log.filter((r) => r.status === 0).length,
  };
}

/** Requests that change something: not reads, and not queries (a plan-time check POSTs a query, which writes nothing). */
export function writesIn(emu: EmulatorHandle): string[] {
  const isQuery = (path: string): boolean => path.split("?")[0] === "/v1/datasets/_apl";
  return emu.requests().filter((r) => r.method !== "GET" && !isQuery(r.path)).map((r) => `${r.method} ${r.path} -> ${r.status}`);
}

/** A seeded generator (mulberry32), so that every trial can be replayed. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface SuiteCounts {
  trials: number;
  faults: { status5xx: number; status429: number; dropped: number };
  duplicates: number;
  secretsLeaked: number;
  failures: string[];
}

export function emptyCounts(): SuiteCounts {
  return { trials: 0, faults: { status5xx: 0, status429: 0, dropped: 0 }, duplicates: 0, secretsLeaked: 0, failures: [] };
}

const RESULTS_DIR = path.join(ROOT, "bench/results");

/**
 * In a full run: writes this suite's counts to bench/results/reliability/<suite>.json,
 * then totals every suite's file into bench/results/reliability.json and prints it.
 */
export function recordSuite(suite: string, counts: SuiteCounts): void {
  if (!FULL) return;
  const dir = path.join(RESULTS_DIR, "reliability");
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${suite}.json`), `${JSON.stringify({ suite, at: new Date().toISOString(), ...counts }, null, 2)}\n`);
  const suites = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")) as SuiteCounts & { suite: string; at: string });
  const total = {
    trials: suites.reduce((s, x) => s + x.trials, 0),
    faultsInjected: {
      status5xx: suites.reduce((s, x) => s + x.faults.status5xx, 0),
      status429: suites.reduce((s, x) => s + x.faults.status429, 0),
      dropped: suites.reduce((s, x) => s + x.faults.dropped, 0),
    },
    duplicatesFound: suites.reduce((s, x) => s + x.duplicates, 0),
    secretsLeaked: suites.reduce((s, x) => s + x.secretsLeaked, 0),
    failures: suites.flatMap((x) => x.failures.map((f) => `${x.suite}: ${f}`)),
  };
  const text = `${JSON.stringify({ total, suites }, null, 2)}\n`;
  // Written atomically: suites finish in parallel workers.
  const tmp = path.join(RESULTS_DIR, `reliability.json.${process.pid}.tmp`);
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, path.join(RESULTS_DIR, "reliability.json"));
  process.stdout.write(`reliability (${suite} done; totals so far): ${JSON.stringify(total)}\n`);
}
