// cdktf-provider-ods/automation: plan, apply, drift, destroy, saved plans and watch from
// code, with typed results, events and errors; the emulator in the caller's process for
// tests of a stack's monitors (startEmulator). See docs/guides/automation.md.
export { Workspace, type ApplyOptions, type CompareOptions, type PlanOptions, type WatchHandle, type WatchOptions, type WatchRound, type WorkspaceOptions } from "./workspace";
export { AutomationError, LockHeld, Refusal, ServiceError, StackProblem } from "./errors";
export type { AutomationEvent, ChangeEvent, MessageEvent, PlanEvent, SummaryEvent, TargetEvent } from "./events";
export type {
  AlertTestCase,
  AlertTestFileResult,
  AlertTestMonitor,
  AlertTestResult,
  ApplyCounts,
  ApplyResult,
  BacktestFigures,
  ChangeAction,
  CompareAttribute,
  CompareDifference,
  CompareResult,
  DocumentChange,
  DriftResult,
  DriftedAttribute,
  DriftedObject,
  Json,
  OutputChange,
  PartPlan,
  PlanResult,
  PlanTarget,
  ResourceChange,
  SloFigures,
  SloReportResult,
  StackApplyResult,
  StackDriftResult,
  StackFailure,
  StackPlanResult,
} from "./results";
export type { WatchStatus } from "../reconcile/watch";
export {
  startEmulator,
  EmulatorOptionError,
  type CreateTokenOptions,
  type CreatedToken,
  type DeliveriesOptions,
  type EmulatorInstance,
  type FaultSpec,
  type LicenseSettings,
  type StartEmulatorOptions,
  type WebhookDelivery,
} from "./emulator";
export type { Capabilities, IngestEvent, IngestResult } from "../api";
