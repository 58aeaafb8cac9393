// The alert test file `ods test` reads (YAML, like promtool's rule tests): input events,
// the monitors under test by address, and the alerts expected. A malformed file is
// refused with every problem and its line, before anything runs.
import * as fs from "node:fs";
import { offsetText } from "./report";
import { LineCounter, parseDocument, isNode } from "./yaml-parser";
import { reservedKeyPath, reservedKeyReason } from "../../resources/reserved-keys";
import { attempt, problemLines, Skipped, type FileProblem } from "../file-problems";
import { sloTarget, type SloExpectationTarget } from "../slo-alert-tests";

export interface TestEvent {
  dataset: string;
  /** Offset from the test's start, milliseconds. */
  atMs: number;
  fields: Record<string, unknown>;
}

export interface ExpectedAlert {
  opensMs: number;
  closesMs?: number;
  group?: Record<string, unknown>;
  /** Texts the notification sent on opening must contain. */
  notificationContains: string[];
}

export interface MonitorExpectation {
  /** The monitor's address in the synthesized stack (`ods_monitor.api_errors`) or its construct path (`observability/errors`, from the stack). */
  monitor: string;
  /** Set when the expectation names an SLO's alerts of one severity instead of a monitor (`monitor` then reads "PATH (severity)"). */
  slo?: SloExpectationTarget;
  toleranceMs: number;
  alerts: ExpectedAlert[];
  /** The line of its `monitor`, for a refusal naming a monitor the stack lacks. */
  line: number;
}

export interface AlertTest {
  name: string;
  /** Where offsets count from, epoch milliseconds. */
  startMs: number;
  durationMs: number;
  events: TestEvent[];
  expect: MonitorExpectation[];
  /** The line the test starts on, for reports. */
  line: number;
}

export interface AlertTestFile {
  path: string;
  stack?: string;
  tests: AlertTest[];
}

export class AlertTestFileError extends Error {
  /** The first problem's line and text. */
  readonly line: number;
  readonly problem: string;

  constructor(
    readonly file: string,
    /** Every problem, in the order of the file. */
    readonly problems: readonly FileProblem[],
  ) {
    super(problemLines(file, problems));
    this.name = "AlertTestFileError";
    const first = [...problems].sort((a, b) => a.line - b.line)[0];
    this.line = first.line;
    this.problem = first.problem;
  }
}

const DEFAULT_START = "2026-01-01T00:00:00Z";
/** Bounds that keep one test's run finite and its emulator small. */
const MAX_DURATION_MS = 31 * 86_400_000;
const MAX_EVENTS = 200_000;

type Path = (string | number)[];

/** `90s`, `15m`, `1h30m`, `2d`: milliseconds, or undefined when not a duration. */
export function parseDuration(text: unknown): number | undefined {
  if (typeof text !== "string") return undefined;
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/gy;
  let total = 0;
  let matched = 0;
  for (let m = re.exec(text.trim()); m; m = re.exec(text.trim())) {
    total += Number(m[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as "ms"];
    matched = re.lastIndex;
  }
  return matched > 0 && matched === text.trim().length ? total : undefined;
}

/** Reads and checks an alert test file; throws AlertTestFileError naming the line. */
export function readAlertTestFile(file: string): AlertTestFile {
  const text = fs.readFileSync(file, "utf8");
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  if (doc.errors.length > 0) {
    throw new AlertTestFileError(file, doc.errors.map((e) => ({ line: lines.linePos(e.pos[0]).line, problem: e.message.split("\n")[0] })));
  }
  const lineOf = (path: Path): number => {
    for (let p = path; ; p = p.slice(0, -1)) {
      const node = p.length === 0 ? doc.contents : doc.getIn(p, true);
      if (isNode(node) && node.range) return lines.linePos(node.range[0]).line;
      if (p.length === 0) return 1;
    }
  };
  const problems: FileProblem[] = [];
  const fail = (path: Path, problem: string): never => {
    problems.push({ line: lineOf(path), problem: `${path.length ? path.join(".") : "the file"}: ${problem}` });
    throw new Skipped();
  };
  const value = doc.toJS() as unknown;
  const reserved = reservedKeyPath(value);
  const checked = reserved
    ? attempt(() => fail([...reserved], reservedKeyReason(reserved[reserved.length - 1])), undefined)
    : attempt(() => checkFile(value, file, fail, lineOf), undefined);
  if (problems.length > 0 || !checked) throw new AlertTestFileError(file, problems);
  return checked;
}

type Fail = (path: Path, problem: string) => never;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Records each unknown key; the known ones are still checked. */
function known(value: Record<string, unknown>, path: Path, keys: string[], fail: Fail): void {
  for (const k of Object.keys(value)) if (!keys.includes(k)) attempt(() => fail([...path, k], `unknown key; expected one of ${keys.join(", ")}`), undefined);
}

function duration(value: unknown, path: Path, fail: Fail): number {
  const ms = parseDuration(value);
  if (ms === undefined) fail(path, `expected a duration like "15m" or "1h30m", got ${JSON.stringify(value)}`);
  return ms as number;
}

function text(value: unknown, path: Path, fail: Fail): string {
  if (typeof value !== "string" || value === "") fail(path, `expected a non-empty string, got ${JSON.stringify(value)}`);
  return value as string;
}

function fields(value: unknown, path: Path, fail: Fail): Record<string, unknown> {
  if (value === undefined) return {};
  if (!isObject(value)) fail(path, "expected a map of field names to values");
  return value as Record<string, unknown>;
}

function list(value: unknown, path: Path, fail: Fail): unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) fail(path, "expected a list");
  return value as unknown[];
}

function checkFile(raw: unknown, file: string, fail: Fail, lineOf: (p: Path) => number): AlertTestFile {
  if (!isObject(raw)) fail([], "expected a map with a `tests` list");
  const top = raw as Record<string, unknown>;
  known(top, [], ["stack", "tests"], fail);
  const tests = list(top.tests, ["tests"], fail);
  if (tests.length === 0) fail(["tests"], "expected at least one test");
  const stack = top.stack !== undefined ? attempt(() => text(top.stack, ["stack"], fail), undefined) : undefined;
  // Each test is checked whatever the others hold.
  const checked = tests.map((t, i) => attempt(() => checkTest(t, ["tests", i], fail, lineOf), undefined));
  return {
    path: file,
    ...(stack !== undefined ? { stack } : {}),
    tests: checked.filter((t): t is AlertTest => t !== undefined),
  };
}

function checkTest(raw: unknown, path: Path, fail: Fail, lineOf: (p: Path) => number): AlertTest {
  if (!isObject(raw)) fail(path, "expected a map (name, duration, events, series, expect)");
  const t = raw as Record<string, unknown>;
  known(t, path, ["name", "start", "duration", "events", "series", "expect"], fail);
  const startText = t.start === undefined ? DEFAULT_START : t.start;
  const startMs = typeof startText === "string" ? Date.parse(startText) : NaN;
  if (!Number.isFinite(startMs)) attempt(() => fail([...path, "start"], `expected an RFC 3339 time, got ${JSON.stringify(startText)}`), undefined);
  const name = attempt(() => text(t.name, [...path, "name"], fail), "");
  // Without a duration, the events and alerts are still checked (against no bound).
  const durationMs = attempt(() => {
    const ms = duration(t.duration, [...path, "duration"], fail);
    if (ms <= 0 || ms > MAX_DURATION_MS) fail([...path, "duration"], "expected a duration above 0 and at most 31d");
    return ms;
  }, Infinity);

  const events: TestEvent[] = [];
  attempt(() => list(t.events, [...path, "events"], fail), []).forEach((e, i) => attempt(() => {
    const at = [...path, "events", i];
    if (!isObject(e)) fail(at, "expected a map (dataset, at, fields)");
    const ev = e as Record<string, unknown>;
    known(ev, at, ["dataset", "at", "fields"], fail);
    const dataset = attempt(() => text(ev.dataset, [...at, "dataset"], fail), undefined);
    const atMs = attempt(() => duration(ev.at, [...at, "at"], fail), undefined);
    const f = fields(ev.fields, [...at, "fields"], fail);
    if (dataset === undefined || atMs === undefined) return;
    if (atMs > durationMs) fail(at, `an event at ${atMs / 60_000}m falls after the test's duration`);
    events.push({ dataset, atMs, fields: f });
  }, undefined));
  attempt(() => list(t.series, [...path, "series"], fail), []).forEach((s, i) => attempt(() => {
    const at = [...path, "series", i];
    if (!isObject(s)) fail(at, "expected a map (dataset, fields, every, from, to, count)");
    const se = s as Record<string, unknown>;
    known(se, at, ["dataset", "fields", "every", "from", "to", "count"], fail);
    const every = duration(se.every, [...at, "every"], fail);
    if (every <= 0) fail([...at, "every"], "expected a duration above 0");
    const from = duration(se.from ?? "0m", [...at, "from"], fail);
    const to = duration(se.to, [...at, "to"], fail);
    if (to < from) fail([...at, "to"], "expected `to` at or after `from`");
    const count = se.count ?? 1;
    if (typeof count !== "number" || !Number.isInteger(count) || count < 1) fail([...at, "count"], `expected a whole number of events per step, at least 1, got ${JSON.stringify(count)}`);
    const dataset = text(se.dataset, [...at, "dataset"], fail);
    const f = fields(se.fields, [...at, "fields"], fail);
    if (to > durationMs) fail([...at, "to"], `events up to ${to / 60_000}m fall after the test's duration`);
    for (let offset = from; offset <= to; offset += every) {
      for (let n = 0; n < (count as number); n++) events.push({ dataset, atMs: offset, fields: f });
      if (events.length > MAX_EVENTS) fail(at, `expected at most ${MAX_EVENTS} events in one test`);
    }
  }, undefined));

  const expectations = attempt(() => list(t.expect, [...path, "expect"], fail), []);
  if (expectations.length === 0) attempt(() => fail([...path, "expect"], "expected at least one monitor under test"), undefined);
  const expect = expectations.map((x, i) => attempt(() => checkExpectation(x, [...path, "expect", i], fail, lineOf, durationMs), undefined));
  return {
    name,
    startMs,
    durationMs,
    events: events.sort((a, b) => a.atMs - b.atMs),
    expect: expect.filter((x): x is MonitorExpectation => x !== undefined),
    line: lineOf(path),
  };
}

function checkExpectation(raw: unknown, path: Path, fail: Fail, lineOf: (p: Path) => number, testDurationMs: number): MonitorExpectation {
  if (!isObject(raw)) fail(path, "expected a map (monitor, tolerance, alerts)");
  const x = raw as Record<string, unknown>;
  known(x, path, ["monitor", "slo", "severity", "tolerance", "alerts"], fail);
  const slo = sloTarget(x, (key, problem) => fail([...path, key], problem));
  const monitor = slo ? `${slo.path} (${slo.severity})` : text(x.monitor, [...path, "monitor"], fail);
  if (!slo && !/^ods_monitor\.[A-Za-z0-9_-]+$/.test(monitor) && !monitor.includes("/")) {
    fail([...path, "monitor"], `expected a monitor's address like "ods_monitor.api_errors" or its construct path like "observability/errors", got ${JSON.stringify(monitor)}`);
  }
  const toleranceMs = x.tolerance === undefined ? 0 : attempt(() => duration(x.tolerance, [...path, "tolerance"], fail), 0);
  const alerts = list(x.alerts, [...path, "alerts"], fail).map((a, i) => attempt((): ExpectedAlert => {
    const at = [...path, "alerts", i];
    if (!isObject(a)) fail(at, "expected a map (opens, closes, group, notification)");
    const al = a as Record<string, unknown>;
    known(al, at, ["opens", "closes", "group", "notification"], fail);
    const out: ExpectedAlert = { opensMs: duration(al.opens, [...at, "opens"], fail), notificationContains: [] };
    // An expectation no run could meet is a mistake in the file, not a failing monitor.
    if (out.opensMs - toleranceMs > testDurationMs) {
      fail([...at, "opens"], `an alert opening at ${al.opens as string} cannot be seen: the test lasts ${offsetText(testDurationMs)}`);
    }
    if (al.closes !== undefined) {
      out.closesMs = duration(al.closes, [...at, "closes"], fail);
      if (out.closesMs <= out.opensMs) fail([...at, "closes"], `an alert cannot close (at ${al.closes as string}) before it opens (at ${al.opens as string}); expected \`closes\` after \`opens\``);
    }
    if (al.group !== undefined) out.group = fields(al.group, [...at, "group"], fail);
    if (al.notification !== undefined) {
      const n = al.notification;
      if (!isObject(n)) fail([...at, "notification"], "expected a map with `contains`");
      known(n as Record<string, unknown>, [...at, "notification"], ["contains"], fail);
      out.notificationContains = list((n as Record<string, unknown>).contains, [...at, "notification", "contains"], fail).map((c, j) =>
        text(c, [...at, "notification", "contains", j], fail),
      );
    }
    return out;
  }, undefined)).filter((a): a is ExpectedAlert => a !== undefined);
  return { monitor, ...(slo ? { slo } : {}), toleranceMs, alerts, line: lineOf([...path, slo ? "slo" : "monitor"]) };
}
