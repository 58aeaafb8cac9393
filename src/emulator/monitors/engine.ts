// The scheduler: runs every enabled monitor when it is due, turns each run's verdicts
// into state changes (open, closed), records them in the history, and hands
// notifications to the delivery queue.
//
// A monitor is due at every multiple of its interval (since the epoch, UTC) after it
// was last written or last run. On the real clock a tick each second runs what is due
// (only the latest due run when several were missed, e.g. while the emulator was
// stopped). On the manual clock, moving the clock runs every due run in time order,
// with the clock standing at each run's time while it runs.
import { newId, type EmulatorCore } from "../core";
import { badRequest } from "../errors";
import type { MonitorHistoryRecord, MonitorRecord, MonitorStateRecord, OpenAlert } from "../model";
import { nowIso } from "../time";
import { ManualClock } from "./clock";
import type { DeliveryQueue, Notification } from "./delivery";
import { anomalyVerdicts, thresholdVerdicts, type GroupNumbers, type Verdict } from "./evaluate";
import { runMonitorQuery, type QueryRun, type Window } from "./run-query";

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** The group of a no-data alert: no real group's id (JSON text or "") can look like it. */
export const NO_DATA_GROUP = "\u0000no data";
export const MATCH_PER_MINUTE = 10;
export const MATCH_PER_DAY = 500;
/** History entries kept per monitor. */
export const HISTORY_PER_MONITOR = 10_000;
/** Most monitor runs one clock move may cause; larger moves are refused (move in steps). */
export const MAX_RUNS_PER_MOVE = 200_000;

function intervalMs(m: MonitorRecord): number {
  return m.intervalMinutes * MINUTE_MS;
}

function freshState(m: MonitorRecord): MonitorStateRecord {
  return {
    id: m.id,
    type: m.type,
    historySeq: 0,
    lastRunMs: 0,
    recent: {},
    open: {},
    matchedUntilMs: 0,
    minute: { key: 0, count: 0 },
    day: { key: 0, count: 0 },
    suppressed: 0,
    lastError: "",
  };
}

function iso(ms: number): string {
  return nowIso(ms);
}

/** What one monitor's run writes (history entries) and sends. */
interface Batch {
  /** New history entries with the number each is stored under (`<monitorId>/<seq>`). */
  history: { seq: number; entry: MonitorHistoryRecord }[];
  outgoing: { monitor: MonitorRecord; notification: Notification }[];
}

export class MonitorEngine {
  private timer: NodeJS.Timeout | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly core: EmulatorCore,
    private readonly delivery: DeliveryQueue,
  ) {}

  /** On the real clock: checks each second for due monitors. The timer never keeps the process alive. */
  start(): void {
    if (this.core.clock.mode !== "real" || this.timer) return;
    this.timer = setInterval(() => {
      void this.exclusive(() => this.runRealDue()).catch(reportEngineError);
    }, 1000);
    this.timer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.idle();
  }

  /** Resolves when the engine has no work under way (for tests that drive its timer). */
  async idle(): Promise<void> {
    await this.queue.catch(() => undefined);
  }

  /** Runs `work` after every earlier piece of engine work: runs never overlap. */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** When `m` is next due, or Infinity when it never runs (disabled). */
  nextDue(m: MonitorRecord): number {
    if (m.disabled) return Infinity;
    const state = this.stateOf(m);
    const anchor = Math.max(state.lastRunMs, Date.parse(m.updatedAt));
    const every = intervalMs(m);
    return Math.floor(anchor / every) * every + every;
  }

  private stateOf(m: MonitorRecord): MonitorStateRecord {
    const stored = this.core.state.monitorStates.get(m.id);
    return stored && stored.type === m.type ? stored : freshState(m);
  }

  /** Monitors in a stable order: the order they were created in. */
  private monitors(): MonitorRecord[] {
    return [...this.core.state.monitors.values()].sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : 1));
  }

  /**
   * Moves a manual clock to `target`, running every monitor run due on the way, in time
   * order. Answers how many runs were made.
   */
  advanceTo(target: number): Promise<number> {
    return this.exclusive(async () => {
      const clock = this.core.clock;
      if (!(clock instanceof ManualClock)) throw badRequest("only a manual clock can be moved");
      if (target < clock.now()) clock.moveTo(target); // throws the clock's own message
      let planned = 0;
      for (const m of this.monitors()) {
        const due = this.nextDue(m);
        if (due <= target) planned += Math.floor((target - due) / intervalMs(m)) + 1;
      }
      if (planned > MAX_RUNS_PER_MOVE) {
        throw badRequest(`moving the clock there would make ${planned} monitor runs (at most ${MAX_RUNS_PER_MOVE} per move); move it in smaller steps`);
      }
      let runs = 0;
      // Each batch moves its monitors' next run past `next`; the bound only guards that promise.
      for (let batches = 0; batches <= MAX_RUNS_PER_MOVE; batches++) {
        let next = Infinity;
        const monitors = this.monitors();
        for (const m of monitors) next = Math.min(next, this.nextDue(m));
        if (next > target) break;
        clock.moveTo(next);
        const due = monitors.filter((m) => this.nextDue(m) === next);
        await this.runBatch(next, due);
        runs += due.length;
      }
      clock.moveTo(target);
      return runs;
    });
  }

  /** Real clock: every monitor that is due runs once, at its latest due time. */
  private async runRealDue(): Promise<void> {
    if (this.closed) return;
    const now = this.core.clock.now();
    const byTime = new Map<number, MonitorRecord[]>();
    for (const m of this.monitors()) {
      if (this.nextDue(m) > now) continue;
      const at = Math.floor(now / intervalMs(m)) * intervalMs(m);
      byTime.set(at, [...(byTime.get(at) ?? []), m]);
    }
    for (const at of [...byTime.keys()].sort((a, b) => a - b)) await this.runBatch(at, byTime.get(at)!);
  }

  /**
   * Runs `monitors` at `runAt`, commits their state and history at once, then sends
   * their notifications. Between two monitors the API gets its turn: a round of many
   * monitors must not stall requests. A monitor deleted meanwhile leaves no trace.
   */
  async runBatch(runAt: number, monitors: readonly MonitorRecord[]): Promise<void> {
    // The monitors' queries run at once on the query pool: one whose query is stuck until
    // its time limit holds up no other (each works on its own copy of its state).
    const results = await Promise.all(
      monitors.map(async (m) => {
        // A copy: the stored state changes only when the batch commits. JSON is its journal form anyway.
        const state = JSON.parse(JSON.stringify(this.stateOf(m))) as MonitorStateRecord;
        state.lastRunMs = runAt;
        const run: Batch = { history: [], outgoing: [] };
        const disabled = m.disabledUntil !== "" && Date.parse(m.disabledUntil) > runAt;
        if (!disabled && !((state.backoffUntilMs ?? 0) > runAt)) {
          try {
            await this.runOne(m, state, runAt, run);
          } catch (err) {
            // One monitor's failure must not stop the others, nor the emulator.
            state.lastError = `internal error: ${err instanceof Error ? err.message : String(err)}`;
          }
        }
        return { m, state, run };
      }),
    );
    const tx = this.core.store.tx();
    const kept = results.filter(({ m }) => this.core.state.monitors.has(m.id));
    for (const { m, state, run } of kept) {
      tx.put("monitorStates", m.id, state);
      for (const { seq, entry } of run.history) {
        tx.put("monitorHistory", `${m.id}/${seq}`, entry);
        const dropped = seq - HISTORY_PER_MONITOR;
        if (dropped > 0 && this.core.state.monitorHistory.has(`${m.id}/${dropped}`)) tx.delete("monitorHistory", `${m.id}/${dropped}`);
      }
    }
    await tx.commit();
    for (const { run } of kept) for (const { monitor, notification } of run.outgoing) this.dispatch(monitor, notification, runAt);
  }

  private async runOne(m: MonitorRecord, state: MonitorStateRecord, runAt: number, batch: Batch): Promise<void> {
    const end = runAt - m.secondDelay * 1000;
    const window: Window = { startMs: end - m.rangeMinutes * MINUTE_MS, endMs: end };
    switch (m.type) {
      case "Threshold": {
        const groups = await this.groupsOver(m, state, window, runAt, batch);
        const verdicts = groups ? thresholdVerdicts(m, groups) : new Map<string, Verdict>();
        this.applyVerdicts(m, state, runAt, window, verdicts, !groups || groups.size === 0, batch);
        break;
      }
      case "AnomalyDetection": {
        const groups = await this.groupsOver(m, state, window, runAt, batch);
        const earlier: Map<string, GroupNumbers>[] = [];
        for (let d = 1; groups && d <= m.compareDays; d++) {
          const past = await this.groupsOver(m, state, { startMs: window.startMs - d * DAY_MS, endMs: window.endMs - d * DAY_MS }, runAt, batch);
          if (past) earlier.push(past);
        }
        const verdicts = groups ? anomalyVerdicts(m, groups, earlier) : new Map<string, Verdict>();
        this.applyVerdicts(m, state, runAt, window, verdicts, !groups || groups.size === 0, batch);
        break;
      }
      case "MatchEvent":
        await this.runMatch(m, state, runAt, window, batch);
        break;
    }
  }

  /** The query's groups over `window`, or undefined (and the reason in the state) when it could not run. */
  private async groupsOver(m: MonitorRecord, state: MonitorStateRecord, window: Window, runAt: number, batch: Batch): Promise<Map<string, GroupNumbers> | undefined> {
    const run = await runMonitorQuery(this.core, m.aplQuery, window, runAt, "groups", m.columnName);
    if (!this.noteOutcome(m, state, run, runAt, batch) || !run.ok || run.answer.want !== "groups") return undefined;
    const extracted = run.answer.extracted;
    if (!extracted.ok) {
      state.lastError = extracted.error;
      return undefined;
    }
    state.lastError = "";
    return extracted.groups;
  }

  private applyVerdicts(m: MonitorRecord, state: MonitorStateRecord, runAt: number, window: Window, verdicts: Map<string, Verdict>, noData: boolean, batch: Batch): void {
    if (m.alertOnNoData) {
      verdicts.set(NO_DATA_GROUP, { crossing: noData, value: 0, keys: [], values: [], body: noData ? "the query returned no data" : "the query returns data again" });
    }
    const checkId = newId("chk");
    const ids = new Set([...verdicts.keys(), ...Object.keys(state.open), ...Object.keys(state.recent)]);
    for (const id of ids) {
      const open: OpenAlert | undefined = state.open[id];
      // A group that stopped reporting counts as 0, and as not crossing.
      const v = verdicts.get(id) ?? {
        crossing: false,
        value: 0,
        keys: open?.groupKeys ?? [],
        values: open?.groupValues ?? [],
        body: id === NO_DATA_GROUP ? "" : "no value in this run (the series stopped reporting)",
      };
      const recent = [...(state.recent[id] ?? []), v.crossing].slice(-m.triggerFromNRuns);
      const positive = recent.filter(Boolean).length >= m.triggerAfterNPositiveResults;
      const notification = (action: Notification["action"]): Notification => ({
        action,
        monitorId: m.id,
        title: m.name,
        description: m.description,
        body: v.body,
        value: v.value,
        timestamp: iso(runAt),
        queryStartTime: iso(window.startMs),
        queryEndTime: iso(window.endMs),
        matchedEvent: null,
        groupKeys: v.keys,
        groupValues: v.values,
      });
      if (positive && !open) {
        state.open[id] = { since: iso(runAt), checkId, groupKeys: v.keys, groupValues: v.values };
        this.record(m, state, checkId, "open", runAt, batch);
        batch.outgoing.push({ monitor: m, notification: notification("Open") });
      } else if (positive && open && m.notifyEveryRun) {
        batch.outgoing.push({ monitor: m, notification: notification("Open") });
      } else if (!positive && open) {
        delete state.open[id];
        this.record(m, state, checkId, "closed", runAt, batch);
        // A no-data alert says so when data returns; other alerts only when resolvable.
        const tell = !m.skipResolved && (id === NO_DATA_GROUP || m.resolvable);
        if (tell) batch.outgoing.push({ monitor: m, notification: notification("Closed") });
      }
      if (!state.open[id] && !recent.some(Boolean)) delete state.recent[id];
      else state.recent[id] = recent;
    }
  }

  private async runMatch(m: MonitorRecord, state: MonitorStateRecord, runAt: number, window: Window, batch: Batch): Promise<void> {
    // Events already looked at by an earlier run are not matched twice.
    const from = Math.max(window.startMs, state.matchedUntilMs);
    state.matchedUntilMs = Math.max(state.matchedUntilMs, window.endMs);
    if (from >= window.endMs) return;
    const run = await runMonitorQuery(this.core, m.aplQuery, { startMs: from, endMs: window.endMs }, runAt, "matches");
    if (!this.noteOutcome(m, state, run, runAt, batch) || !run.ok || run.answer.want !== "matches") return;
    state.lastError = "";
    const minuteKey = Math.floor(runAt / MINUTE_MS);
    const dayKey = Math.floor(runAt / DAY_MS);
    if (state.minute.key !== minuteKey) state.minute = { key: minuteKey, count: 0 };
    if (state.day.key !== dayKey) state.day = { key: dayKey, count: 0 };
    const checkId = newId("chk");
    // The scan answers newest first; alerts go out in the order the events happened.
    const events = run.answer.events.slice().reverse();
    for (const event of events) {
      if (state.minute.count >= MATCH_PER_MINUTE || state.day.count >= MATCH_PER_DAY) {
        state.suppressed++;
        continue;
      }
      state.minute.count++;
      state.day.count++;
      this.record(m, state, checkId, "open", runAt, batch);
      batch.outgoing.push({
        monitor: m,
        notification: {
          action: "Open",
          monitorId: m.id,
          title: m.name,
          description: m.description,
          body: JSON.stringify(event),
          value: 0,
          timestamp: iso(runAt),
          queryStartTime: iso(from),
          queryEndTime: iso(window.endMs),
          matchedEvent: event,
          groupKeys: [],
          groupValues: [],
        },
      });
    }
  }

  private record(m: MonitorRecord, state: MonitorStateRecord, checkId: string, change: MonitorHistoryRecord["state"], runAt: number, batch: Batch, message?: string): void {
    state.historySeq++;
    const entry: MonitorHistoryRecord = { monitorId: m.id, checkId, name: m.name, state: change, timestamp: iso(runAt), ...(message !== undefined ? { message } : {}) };
    batch.history.push({ seq: state.historySeq, entry });
  }

  /**
   * Keeps the outcome of a run's query in the state; false when it did not answer. A
   * query stopped at its time limit is written to the history, and the monitor skips
   * its runs for twice as long after each stop in a row (from one interval up to a day),
   * so that a query that cannot finish costs the pool less and less.
   */
  private noteOutcome(m: MonitorRecord, state: MonitorStateRecord, run: QueryRun, runAt: number, batch: Batch): boolean {
    if (run.ok) {
      state.timeouts = 0;
      state.backoffUntilMs = 0;
      return true;
    }
    state.lastError = run.error;
    if (run.timedOut) {
      const stops = (state.timeouts ?? 0) + 1;
      state.timeouts = stops;
      const pause = Math.min(DAY_MS, intervalMs(m) * 2 ** Math.min(stops - 1, 20));
      state.backoffUntilMs = runAt + pause;
      this.record(m, state, newId("chk"), "error", runAt, batch, `${run.error}; runs skipped until ${iso(runAt + pause)} (${stops} stop(s) in a row)`);
    }
    return false;
  }

  /** A delivery refused before any connection (deliver-to.ts): written to the monitor's history. */
  recordRefusal(refusal: { monitorId: string; notifierId: string; reason: string; at: string }): Promise<void> {
    return this.exclusive(async () => {
      const m = this.core.state.monitors.get(refusal.monitorId);
      if (!m || this.closed) return;
      const state = JSON.parse(JSON.stringify(this.stateOf(m))) as MonitorStateRecord;
      const batch: Batch = { history: [], outgoing: [] };
      this.record(m, state, newId("chk"), "error", Date.parse(refusal.at), batch, `delivery to notifier ${refusal.notifierId} refused: ${refusal.reason}`);
      const tx = this.core.store.tx().put("monitorStates", m.id, state);
      for (const { seq, entry } of batch.history) tx.put("monitorHistory", `${m.id}/${seq}`, entry);
      await tx.commit();
    });
  }

  /** To every notifier of the monitor that exists and is not disabled at `runAt`. */
  private dispatch(m: MonitorRecord, n: Notification, runAt: number): void {
    const at = iso(runAt);
    for (const notifierId of m.notifierIds) {
      const notifier = this.core.state.notifiers.get(notifierId);
      if (!notifier) {
        this.delivery.skip(m.id, notifierId, n.action, "the notifier no longer exists", at);
      } else if (notifier.disabledUntil !== "" && Date.parse(notifier.disabledUntil) > runAt) {
        this.delivery.skip(m.id, notifierId, n.action, `the notifier is disabled until ${notifier.disabledUntil}`, at);
      } else {
        this.delivery.send(notifier, n, at, () => iso(this.core.clock.now()));
      }
    }
  }
}

function reportEngineError(err: unknown): void {
  // Reported without detail that could carry a secret (queries and names only reach here).
  process.stderr.write(`ods emulator: monitor scheduler error: ${err instanceof Error ? err.message : String(err)}\n`);
}
