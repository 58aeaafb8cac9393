// `ods watch`: continuous reconciliation from a git branch (see docs/guides/gitops-pull-mode.md).
export { roundRate } from "./budget";
export { classifyChanges } from "./classify";
export { driftedObjects, type DriftedObject } from "./drift";
export { GitSource, describeSource, redactSourceIn } from "./git-source";
export { formatEvent, type LogFormat } from "./log";
export { WatchMetrics } from "./metrics";
export { reconcileStack, type ApplyOutcome, type StackPlanning, type WatchedStack } from "./reconcile-stack";
export { parseDuration, parseShare, type Schedule } from "./schedule";
export { exposureWarning, isLoopback, parseListen, startWatchServer, type WatchServer } from "./server";
export { renderStatusPage, STATUS_PAGE_CSP } from "./status-page";
export type { LastReconcile, PendingPlan, StackStatus, WatchStatus } from "./status";
export { parseSynthEnvNames, synthEnvironment, SynthEnvError } from "./synth-env";
export { Watcher, abortableSleep, type OpenedRound, type RoundSource } from "./watcher";
