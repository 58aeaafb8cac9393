// A query worker (a thread of the pool in pool.ts): runs one job at a time. It keeps the
// events it has parsed per dataset storage key, and on each job parses only what was
// appended since.
import * as fs from "node:fs";
import * as os from "node:os";
import { parentPort } from "node:worker_threads";
import { EventTimeIndex } from "../event-index";
import { ColumnStore } from "../query/columns";
import type { QueryDataset, StoredEvent } from "../query/types";
import { runJob, type DatasetDescriptor, type JobAnswer, type QueryJob } from "./jobs";
import { readNewLines, type ReadPosition } from "./shared-log";

/**
 * Queries yield the CPU to the request thread: on Linux a thread's nice value is its own
 * (setpriority on its thread id), so this worker runs at nice 10 and the thread that
 * answers requests keeps its turn on a busy machine. Elsewhere, nothing changes.
 */
function lowerPriority(): void {
  try {
    const tid = Number(fs.readlinkSync("/proc/thread-self").split("/").pop());
    if (Number.isInteger(tid) && tid > 0) os.setPriority(tid, Math.max(os.getPriority(tid), 10));
  } catch {
    // Not Linux, or not allowed: the worker keeps the process's priority.
  }
}
lowerPriority();

interface Parsed {
  events: StoredEvent[];
  index: EventTimeIndex;
  /** The same events as columns, for the vectorized path (query/vectorized.ts). */
  columns: ColumnStore;
  at: ReadPosition;
}

/** Datasets kept parsed; the least recently used goes first (a dropped dataset is never used again). */
const KEEP_DATASETS = 64;
const parsed = new Map<string, Parsed>();

function materialize(d: DatasetDescriptor): QueryDataset {
  let p = parsed.get(d.storageKey);
  if (p) parsed.delete(d.storageKey);
  else {
    const events: StoredEvent[] = [];
    p = { events, index: new EventTimeIndex(events), columns: new ColumnStore(events), at: { chunk: 0, offset: 0 } };
  }
  parsed.set(d.storageKey, p);
  if (parsed.size > KEEP_DATASETS) parsed.delete(parsed.keys().next().value!);
  const fresh = readNewLines(d.log, p.at) as StoredEvent[];
  for (const e of fresh) p.events.push(e);
  p.index.catchUp();
  p.columns.catchUp();
  return { name: d.name, events: p.events, timeIndex: p.index, columns: p.columns, fields: d.fields, virtualFields: d.virtualFields };
}

/** What the pool posts, and what the worker answers. */
export interface JobMessage {
  id: number;
  job: QueryJob;
}
export type JobReply = { id: number; answer: JobAnswer } | { id: number; internalError: string };

parentPort?.on("message", ({ id, job }: JobMessage) => {
  let reply: JobReply;
  try {
    reply = { id, answer: runJob(job, materialize) };
  } catch (err) {
    reply = { id, internalError: err instanceof Error ? (err.stack ?? err.message) : String(err) };
  }
  parentPort!.postMessage(reply);
});
