// Runs a monitor's query over one window on the query pool, as the monitor's
// organization: the creator's grants were checked when the monitor was written (see
// docs/guides/monitors-emulator.md, "Who a monitor reads as").
import type { EmulatorCore } from "../core";
import type { MonitorAnswer, Reader } from "../query-host/jobs";

export interface Window {
  startMs: number;
  endMs: number;
}

export type QueryRun = { ok: true; answer: MonitorAnswer } | { ok: false; error: string; timedOut: boolean };

const ORGANIZATION: Reader = { kind: "organization" };

/**
 * The query's result over [startMs, endMs), or why it could not run. A query that names
 * a dataset or field no event has brought yet cannot compile; to a monitor that is "no
 * data", not a failure of the emulator. A query stopped at its time limit says so.
 */
export async function runMonitorQuery(
  core: EmulatorCore,
  apl: string,
  window: Window,
  nowMs: number,
  want: MonitorAnswer["want"],
  columnName = "",
  reader: Reader = ORGANIZATION,
): Promise<QueryRun> {
  const answer = await core.runQuery({ kind: "monitor", apl, window, want, columnName, reader, nowMs });
  if (!answer.ok) return { ok: false, error: answer.error.message, timedOut: answer.error.status === 408 };
  return { ok: true, answer: ("json" in answer ? JSON.parse(answer.json) : answer.value) as MonitorAnswer };
}
