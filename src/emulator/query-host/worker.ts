// A query worker (a thread of the pool in pool.ts): runs one job at a time. It reads a
// dataset's columns where the request thread built them (shared memory), and parses
// the dataset's file only for a query that needs the events themselves.
import * as fs from "node:fs";
import * as os from "node:os";
import { parentPort } from "node:worker_threads";
import { Columns, ColumnsTimeIndex, newDictionaryCache, type DictionaryCache } from "../query/columns";
import { QueryError, type QueryDataset, type StoredEvent } from "../query/types";
import { runJob, type DatasetDescriptor, type JobAnswer, type QueryJob } from "./jobs";
import { readNewEvents } from "./shared-log";

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

/**
 * What the worker keeps of a dataset between jobs: its decoded dictionaries, and its
 * events read from the dataset's file, only once a query has needed them.
 */
interface Kept {
  dictionaries: DictionaryCache;
  events: StoredEvent[];
  at: { offset: number };
}

/** Datasets kept; the least recently used goes first (a dropped dataset is never used again). */
const KEEP_DATASETS = 64;
const kept = new Map<string, Kept>();

function materialize(d: DatasetDescriptor): QueryDataset {
  let k = kept.get(d.storageKey);
  if (k) kept.delete(d.storageKey);
  else k = { dictionaries: newDictionaryCache(), events: [], at: { offset: 0 } };
  kept.set(d.storageKey, k);
  if (kept.size > KEEP_DATASETS) kept.delete(kept.keys().next().value!);
  const own = k;
  const { columns: view, file } = d.events;
  const rows = view.rows;
  // The events of this view: read on first use, and then only what was appended since.
  const events = (): StoredEvent[] => {
    if (own.events.length < rows) {
      if (!file) throw new QueryError(500, `the events of dataset ${d.name} cannot be read back after a failed write to its file; restart the emulator`);
      try {
        readNewEvents(file, own.at, own.events);
      } catch (err) {
        // Deleted while this job waited: as if the query had come after the deletion.
        if ((err as NodeJS.ErrnoException).code === "ENOENT") throw new QueryError(404, `dataset ${d.name} was deleted while the query ran`);
        throw err;
      }
    }
    return own.events;
  };
  const columns = new Columns(view, own.dictionaries, view.positionalRowIds ? undefined : (i) => events()[i]!._rowId);
  return {
    name: d.name,
    // Rows past the view's (appended since it was taken) are not part of this query.
    get events() {
      const all = events();
      return all.length === rows ? all : all.slice(0, rows);
    },
    timeIndex: new ColumnsTimeIndex(columns, events),
    columns,
    fields: d.fields,
    virtualFields: d.virtualFields,
  };
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
