// One log line per round and stack, as text (key=value, for people) or JSON (one object
// per line, for log pipelines). Drift details follow a text line as indented lines; in
// JSON they are part of the line.
import { driftLines, type DriftedObject } from "./drift";
import type { RoundResult } from "./status";

export type LogFormat = "text" | "json";

export interface StackLine {
  stack: string;
  revision: string;
  result: RoundResult;
  durationSeconds: number;
  requests: number;
  /** Objects the plan changes (or changed, once applied). */
  changes: number;
  drifted: DriftedObject[];
  message?: string;
  planFile?: string;
}

export function formatStackLine(format: LogFormat, line: StackLine, at = new Date()): string {
  if (format === "json") {
    return JSON.stringify({
      time: at.toISOString(),
      level: line.result === "failed" ? "error" : line.drifted.length > 0 ? "warn" : "info",
      event: "reconcile",
      ...line,
      durationSeconds: round3(line.durationSeconds),
    });
  }
  const fields = [
    at.toISOString(),
    `stack=${line.stack}`,
    `revision=${line.revision.slice(0, 12)}`,
    `result=${line.result}`,
    `changes=${line.changes}`,
    `drifted=${line.drifted.length}`,
    `requests=${line.requests}`,
    `duration=${round3(line.durationSeconds)}s`,
    ...(line.planFile ? [`plan=${line.planFile}`] : []),
    ...(line.message ? [`message=${JSON.stringify(line.message)}`] : []),
  ];
  const details = line.drifted.length > 0 ? driftLines(line.drifted).map((l) => `  drift: ${l}`) : [];
  return [fields.join(" "), ...details].join("\n");
}

/** A line about the watcher itself (start, fetch failure, waiting for a lock, stop). */
export function formatEvent(format: LogFormat, event: string, message: string, extra: Record<string, unknown> = {}, at = new Date()): string {
  if (format === "json") return JSON.stringify({ time: at.toISOString(), level: event.endsWith("failed") ? "error" : "info", event, message, ...extra });
  const fields = Object.entries(extra).map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`);
  return [at.toISOString(), `event=${event}`, ...fields, `message=${JSON.stringify(message)}`].join(" ");
}

function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}
