// Runs alert tests: for each test an embedded emulator on a manual clock, the stack
// applied to it, the test's events ingested, the schedule run to the test's end, and the
// alerts the monitors raised compared with the expected ones. Webhooks are captured,
// never sent: a test's notifiers name real endpoints.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { OdsApiError, OdsClient, type MonitorHistoryEntry } from "../../api";
import { startEmulator, type EmulatorHandle, type OutboxEntry } from "../../emulator";
import { applyPlan } from "../../reconcile/apply";
import { makePlan } from "../../reconcile/plan";
import type { LoadedStack, ManagedDeclaration } from "../../reconcile/stack";
import { emptyState, type StateFile } from "../../reconcile/state";
import type { AlertTest, ExpectedAlert, MonitorExpectation } from "./test-file";
import { asEpisodes, sloMonitors } from "../slo-alert-tests";

/** An alert a monitor raised, at offsets from the test's start. */
export interface ActualAlert {
  opensMs: number;
  closesMs?: number;
  group?: Record<string, string>;
  /** What its Open notification carried (the captured request body, or the notification itself). */
  notification?: string;
}

export interface MonitorResult {
  expectation: MonitorExpectation;
  actual: ActualAlert[];
  /** Expected alerts with no actual one that fits; actual alerts no expected one claims. */
  missing: ExpectedAlert[];
  unexpected: ActualAlert[];
  /** Expected alerts matched, whose notification lacks a text. */
  content: { expected: ExpectedAlert; actual: ActualAlert; lacking: string[] }[];
}

export interface TestResult {
  test: AlertTest;
  passed: boolean;
  monitors: MonitorResult[];
  /** A problem that kept the test from running (the stack did not apply, a monitor is missing). */
  error?: string;
}

async function post(em: EmulatorHandle, urlPath: string, body: unknown): Promise<void> {
  const res = await fetch(`${em.url}${urlPath}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${em.adminToken}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(600_000),
  });
  if (!res.ok) throw new Error(`${urlPath} answered ${res.status}: ${await res.text()}`);
}

/** Creates each dataset the events name (unless the emulator has it) and ingests the events, in batches. */
async function ingest(client: OdsClient, test: AlertTest): Promise<void> {
  const byDataset = new Map<string, Record<string, unknown>[]>();
  for (const e of test.events) {
    const rows = byDataset.get(e.dataset) ?? [];
    rows.push({ ...e.fields, _time: new Date(test.startMs + e.atMs).toISOString() });
    byDataset.set(e.dataset, rows);
  }
  for (const [name, rows] of byDataset) {
    try {
      await client.getDataset(name);
    } catch (err) {
      if (!(err instanceof OdsApiError) || err.status !== 404) throw err;
      await client.createDataset({ name, description: "ods test" });
    }
    for (let i = 0; i < rows.length; i += 10_000) await client.ingest(name, rows.slice(i, i + 10_000));
  }
}

/** Pairs each Open notification with the next Closed of the same group. */
function alertsFromNotifications(entries: OutboxEntry[], startMs: number): ActualAlert[] {
  const alerts: ActualAlert[] = [];
  const open = new Map<string, ActualAlert>();
  for (const e of entries) {
    const n = e.notification;
    const key = JSON.stringify(n.groupValues);
    const at = Date.parse(n.timestamp) - startMs;
    // A match monitor's every notification is an alert of its own: one per matching event.
    const match = n.matchedEvent !== null;
    if (n.action === "Open" && (match || !open.has(key))) {
      const group = n.groupKeys.length > 0 ? Object.fromEntries(n.groupKeys.map((k, i) => [k, n.groupValues[i] ?? ""])) : undefined;
      const alert: ActualAlert = { opensMs: at, notification: e.request?.body ?? JSON.stringify(n), ...(group ? { group } : {}) };
      alerts.push(alert);
      if (!match) open.set(key, alert);
    } else if (n.action === "Closed" && open.has(key)) {
      open.get(key)!.closesMs = at;
      open.delete(key);
    }
  }
  return alerts;
}

/** Without notifiers only the history tells: opens and closes in order, no groups. */
function alertsFromHistory(history: MonitorHistoryEntry[], startMs: number): ActualAlert[] {
  const alerts: ActualAlert[] = [];
  let current: ActualAlert | undefined;
  for (const h of [...history].sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp))) {
    const at = Date.parse(h.timestamp) - startMs;
    if (h.state === "open") alerts.push((current = { opensMs: at }));
    else if (h.state === "closed" && current && current.closesMs === undefined) current.closesMs = at;
  }
  return alerts;
}

function fits(expected: ExpectedAlert, actual: ActualAlert, toleranceMs: number): boolean {
  if (Math.abs(actual.opensMs - expected.opensMs) > toleranceMs) return false;
  if (expected.closesMs !== undefined && (actual.closesMs === undefined || Math.abs(actual.closesMs - expected.closesMs) > toleranceMs)) return false;
  if (expected.group) {
    for (const [k, v] of Object.entries(expected.group)) if (actual.group?.[k] !== String(v)) return false;
  }
  return true;
}

function compare(expectation: MonitorExpectation, actual: ActualAlert[]): MonitorResult {
  const unclaimed = [...actual];
  const missing: ExpectedAlert[] = [];
  const content: MonitorResult["content"] = [];
  for (const expected of expectation.alerts) {
    const i = unclaimed.findIndex((a) => fits(expected, a, expectation.toleranceMs));
    if (i < 0) {
      missing.push(expected);
      continue;
    }
    const [match] = unclaimed.splice(i, 1);
    const lacking = expected.notificationContains.filter((text) => !(match.notification ?? "").includes(text));
    if (lacking.length > 0) content.push({ expected, actual: match, lacking });
  }
  return { expectation, actual, missing, unexpected: unclaimed, content };
}

/** The monitor an expectation names, by address or construct path (with or without the stack's name). */
export function monitorUnderTest(stack: LoadedStack, wanted: string): ManagedDeclaration | undefined {
  return stack.resources.find((r) => r.typeName === "ods_monitor" && (r.address === wanted || r.constructPath === wanted || r.constructPath === `${stack.name}/${wanted}`));
}

/** Why `wanted` names no monitor of the stack, listing the ones it has. */
export function missingMonitor(stack: LoadedStack, wanted: string): string {
  const declared = stack.resources.filter((r) => r.typeName === "ods_monitor").map((r) => `${r.address} (${r.constructPath.replace(`${stack.name}/`, "")})`);
  return `${JSON.stringify(wanted)} is not a monitor of stack ${stack.name} (its monitors: ${declared.join(", ") || "none"})`;
}

/** Runs one test against a fresh embedded emulator; never throws for a failing test. */
export async function runAlertTest(test: AlertTest, stack: LoadedStack): Promise<TestResult> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ods-test-"));
  const em = await startEmulator({
    port: 0,
    dataDir,
    clock: "manual",
    clockStart: new Date(test.startMs).toISOString(),
    rateLimitPerSecond: 100_000,
    delivery: { captureWebhooks: true },
  });
  const client = new OdsClient({ url: em.url, token: em.adminToken });
  try {
    await ingest(client, test);
    let state: StateFile = emptyState();
    const plan = await makePlan({ client, stack, state });
    const summary = await applyPlan({ client, stack, state, plan, persist: async (s) => void (state = s) });
    if (summary.failed > 0) return { test, passed: false, monitors: [], error: `the stack did not apply: ${summary.errors.join("; ")}` };
    await post(em, "/_emulator/clock", { set: new Date(test.startMs + test.durationMs).toISOString() });
    const outbox = em.outbox();
    const monitors: MonitorResult[] = [];
    const actualOf = async (entry: { id: string; values: Record<string, unknown> }): Promise<ActualAlert[]> => {
      const notified = outbox.filter((e) => e.monitorId === entry.id);
      return notified.length > 0 || (entry.values.notifier_ids as unknown[] | undefined)?.length
        ? alertsFromNotifications(dedupeByNotification(notified), test.startMs)
        : alertsFromHistory(await client.getMonitorHistory(entry.id, { startTime: new Date(test.startMs).toISOString(), endTime: new Date(test.startMs + test.durationMs).toISOString() }), test.startMs);
    };
    for (const expectation of test.expect) {
      if (expectation.slo) {
        // An SLO's alerts of one severity: its monitors of that severity, as episodes.
        const found = sloMonitors(stack.name, stack.resources, expectation.slo);
        if (typeof found === "string") return { test, passed: false, monitors, error: found };
        const entries = found.map((d) => state.resources[d.address]).filter((e) => e !== undefined);
        monitors.push(compare(expectation, asEpisodes((await Promise.all(entries.map(actualOf))).flat())));
        continue;
      }
      const declaration = monitorUnderTest(stack, expectation.monitor);
      const entry = declaration ? state.resources[declaration.address] : undefined;
      // `ods test` refused a file naming a monitor the stack lacks; one that did not apply gets here.
      if (!entry) return { test, passed: false, monitors, error: `${expectation.monitor} was not created: ${missingMonitor(stack, expectation.monitor)}` };
      monitors.push(compare(expectation, await actualOf(entry)));
    }
    const passed = monitors.every((m) => m.missing.length === 0 && m.unexpected.length === 0 && m.content.length === 0);
    return { test, passed, monitors };
  } finally {
    await client.close();
    await em.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A notification sent to several notifiers (or channels) is one alert. */
function dedupeByNotification(entries: OutboxEntry[]): OutboxEntry[] {
  const seen = new Set<string>();
  return entries.filter((e) => {
    const n = e.notification;
    const key = JSON.stringify([n.action, n.timestamp, n.groupValues, n.matchedEvent]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
