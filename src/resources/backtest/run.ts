// Runs a monitor's backtest against the service's public query endpoint: one binned
// query over the range (split in two when the service cuts the answer), then the replay.
import { tabularRows, type OdsClient } from "../../api";
import { BacktestUnsupported, binnedQuery, type BacktestMonitor } from "./binned-query";
import { evaluate, type BacktestResult, type Row } from "./evaluate";

export interface BacktestOptions {
  days: number;
  /** The end of the range (now, unless a test fixes it). */
  nowMs: number;
}

/** Most queries one backtest may spend when the service cuts answers short. */
export const MAX_BACKTEST_QUERIES = 4;

export type BacktestOutcome = { ok: true; result: BacktestResult } | { ok: false; reason: string };

const DAY = 86_400_000;

/** One row per bin again, from the answer's one row per group with its list of points. */
function unpack(groupRows: Row[], pointColumns: string[]): Row[] {
  const rows: Row[] = [];
  for (const g of groupRows) {
    const { __bt_points: points, ...keys } = g;
    if (!Array.isArray(points)) continue;
    for (const p of points) {
      if (!Array.isArray(p)) continue;
      const row: Row = { ...keys, _time: p[0] };
      pointColumns.forEach((c, i) => (row[c] = p[i + 1]));
      rows.push(row);
    }
  }
  return rows;
}

/** Replays `monitor` over the last `days` days; never throws for a monitor it cannot replay. */
export async function runBacktest(client: OdsClient, monitor: BacktestMonitor, options: BacktestOptions): Promise<BacktestOutcome> {
  let query;
  try {
    query = binnedQuery(monitor);
  } catch (err) {
    if (err instanceof BacktestUnsupported) return { ok: false, reason: err.message };
    throw err;
  }
  const endMs = options.nowMs;
  const startMs = endMs - options.days * DAY;
  const lookBack = (monitor.secondDelay ?? 0) * 1000 + monitor.rangeMinutes * 60_000 + (monitor.type === "AnomalyDetection" ? Math.max(1, monitor.compareDays ?? 1) * DAY : 0);
  const rows: Row[] = [];
  let queries = 0;
  // Pieces of the range still to read; a cut answer splits its piece in two.
  const pending: [number, number][] = [[startMs - lookBack, endMs]];
  while (pending.length > 0) {
    const [from, to] = pending.shift() as [number, number];
    if (queries >= MAX_BACKTEST_QUERIES) return { ok: false, reason: `the service cut the answers short after ${queries} queries` };
    queries++;
    const answer = await client.queryAplTabular({ apl: query.apl, startTime: new Date(from).toISOString(), endTime: new Date(to).toISOString() });
    const table = answer.tables[0];
    if (answer.status.isPartial) {
      const grid = query.binSeconds * 1000;
      const mid = Math.floor((from + to) / 2 / grid) * grid;
      if (mid <= from || mid >= to) return { ok: false, reason: "the service cut the answer short" };
      pending.unshift([from, mid], [mid, to]);
      continue;
    }
    if (table) rows.push(...unpack(tabularRows(table), query.pointColumns));
  }
  return { ok: true, result: evaluate(monitor, query, rows, { startMs, endMs, days: options.days, queries }) };
}
