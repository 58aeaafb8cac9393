// Runs a monitor's backtest against the service's public query endpoint: one binned
// query over the range (split in two when the service cuts the answer), then the replay.
import { tabularRows, type OdsClient } from "../../api";
import { sharedRead } from "../kind";
import { BacktestUnsupported, binnedQuery, type BacktestMonitor, type BinnedQuery } from "./binned-query";
import { evaluate, type BacktestResult, type BinnedGroup, type Row } from "./evaluate";

export interface BacktestOptions {
  days: number;
  /** The end of the range (now, unless a test fixes it). */
  nowMs: number;
  /**
   * Answers shared by the backtests of one plan: a changed threshold leaves the query as it
   * was, so the live definition's replay reads the same rows as the new one's.
   */
  answers?: Map<string, Promise<unknown>>;
}

/** Most queries one backtest may spend when the service cuts answers short. */
export const MAX_BACKTEST_QUERIES = 4;

export type BacktestOutcome = { ok: true; result: BacktestResult } | { ok: false; reason: string };

type Binned = { groups: BinnedGroup[]; queries: number } | string;

const DAY = 86_400_000;

/** The answer's groups: each row's key columns and its list of points (see BinnedQuery.apl). */
function groupsOf(groupRows: Row[]): BinnedGroup[] {
  const groups: BinnedGroup[] = [];
  for (const g of groupRows) {
    const { __bt_points: points, ...keys } = g;
    if (Array.isArray(points)) groups.push({ keys, points });
  }
  return groups;
}

/** Reads the binned groups of [from, to]; a cut answer splits its piece in two. Answers a reason on failure. */
async function readBinned(client: OdsClient, query: BinnedQuery, fromMs: number, toMs: number): Promise<Binned> {
  const groups: BinnedGroup[] = [];
  let queries = 0;
  const pending: [number, number][] = [[fromMs, toMs]];
  while (pending.length > 0) {
    const [from, to] = pending.shift() as [number, number];
    if (queries >= MAX_BACKTEST_QUERIES) return `the service cut the answers short after ${queries} queries`;
    queries++;
    const answer = await client.queryAplTabular({ apl: query.apl, startTime: new Date(from).toISOString(), endTime: new Date(to).toISOString() });
    if (answer.status.isPartial) {
      const grid = query.binSeconds * 1000;
      const mid = Math.floor((from + to) / 2 / grid) * grid;
      if (mid <= from || mid >= to) return "the service cut the answer short";
      pending.unshift([from, mid], [mid, to]);
      continue;
    }
    const table = answer.tables[0];
    if (table) groups.push(...groupsOf(tabularRows(table)));
  }
  return { groups, queries };
}

/** Replays `monitor` over the last `days` days; never throws for a monitor it cannot replay. */
export async function runBacktest(client: OdsClient, monitor: BacktestMonitor, options: BacktestOptions): Promise<BacktestOutcome> {
  let query: BinnedQuery;
  try {
    query = binnedQuery(monitor);
  } catch (err) {
    if (err instanceof BacktestUnsupported) return { ok: false, reason: err.message };
    throw err;
  }
  const endMs = options.nowMs;
  const startMs = endMs - options.days * DAY;
  const lookBack =
    (monitor.secondDelay ?? 0) * 1000 + monitor.rangeMinutes * 60_000 + (monitor.type === "AnomalyDetection" ? Math.max(1, monitor.compareDays ?? 1) * DAY : 0);
  const key = JSON.stringify([query.apl, startMs - lookBack, endMs]);
  const shared = options.answers?.has(key) === true;
  const answer = await sharedRead(options.answers, key, () => readBinned(client, query, startMs - lookBack, endMs));
  if (typeof answer === "string") return { ok: false, reason: answer };
  // Queries are counted where they were spent: a shared answer cost this backtest nothing.
  const queries = shared ? 0 : answer.queries;
  return { ok: true, result: evaluate(monitor, query, answer.groups, { startMs, endMs, days: options.days, queries }) };
}
