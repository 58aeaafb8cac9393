// Pieces both result layouts share: status counters and field metadata.

import type { Outcome, QueryMessage } from "./execute";
import { formatIsoTime } from "./time";
import type { QueryDataset, QueryFieldMeta } from "./types";

/** The emulator keeps no blocks; it reports one block per this many rows examined. */
const ROWS_PER_BLOCK = 1000;

/** `cacheStatus` the service reports for a query answered from storage, not from its cache. */
const CACHE_STATUS_UNCACHED = 1;

export interface CommonStatus {
  elapsedTime: number;
  blocksExamined: number;
  rowsExamined: number;
  rowsMatched: number;
  numGroups: number;
  isPartial: boolean;
  cacheStatus: number;
  minBlockTime: string;
  maxBlockTime: string;
  minCursor: string;
  maxCursor: string;
  messages: QueryMessage[];
  /**
   * The emulator's own (the service has no such field): dataset scans this query ran
   * over columns, and scans that fell back to rows (query/vectorized.ts).
   */
  emulatorExecution: { vectorized: number; rowFallbacks: number };
}

export function commonStatus(out: Outcome): CommonStatus {
  return {
    elapsedTime: out.elapsedMicros,
    blocksExamined: Math.ceil(out.rowsExamined / ROWS_PER_BLOCK),
    rowsExamined: out.rowsExamined,
    rowsMatched: out.rowsMatched,
    numGroups: out.numGroups,
    isPartial: out.isPartial,
    cacheStatus: CACHE_STATUS_UNCACHED,
    minBlockTime: formatIsoTime(out.minTimeMs ?? out.range.startMs),
    maxBlockTime: formatIsoTime(out.maxTimeMs ?? out.range.endMs),
    minCursor: out.minCursor,
    maxCursor: out.maxCursor,
    messages: out.messages,
    emulatorExecution: out.execution,
  };
}

export function blocksMatched(out: Outcome): number {
  return Math.ceil(out.rowsMatched / ROWS_PER_BLOCK);
}

/** A dataset's field metadata as results carry it (`fieldsMeta`, `fieldsMetaMap`). */
export function fieldsMeta(dataset: QueryDataset): QueryFieldMeta[] {
  return dataset.fields.map((f) => ({ name: f.name, type: f.type, unit: f.unit, description: f.description, hidden: f.hidden }));
}

/** `fieldsMetaMap`: each dataset the result draws on, by name. */
export function fieldsMetaMap(datasets: readonly QueryDataset[]): Record<string, QueryFieldMeta[]> {
  return Object.fromEntries(datasets.map((d) => [d.name, fieldsMeta(d)]));
}
