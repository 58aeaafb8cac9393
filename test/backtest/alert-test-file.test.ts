// The alert test file: what a user writes, what ods test reads, and the line a mistake is on.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AlertTestFileError, parseDuration, readAlertTestFile } from "../../src/automation/alert-tests/test-file";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ods-alert-file-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

/** The error reading FILE throws (the test fails when it reads). */
function refusal(file: string): AlertTestFileError {
  let error: unknown;
  try {
    readAlertTestFile(file);
  } catch (err) {
    error = err;
  }
  expect(error).toBeInstanceOf(AlertTestFileError);
  return error as AlertTestFileError;
}

const VALID = `tests:
  - name: api errors open and close
    duration: 1h
    events:
      - { dataset: web, at: 2m, fields: { status: 500 } }
    series:
      - dataset: web
        fields: { status: 500, service: api }
        every: 1m
        from: 10m
        to: 12m
        count: 2
    expect:
      - monitor: ods_monitor.api_errors
        tolerance: 1m
        alerts:
          - opens: 15m
            closes: 25m
            group: { service: api }
            notification: { contains: [Open] }
`;

describe("alert test file", () => {
  it("reads events, compact series and expected alerts", () => {
    const file = readAlertTestFile(write("ok.yaml", VALID));
    const [test] = file.tests;
    expect(test.name).toBe("api errors open and close");
    expect(test.durationMs).toBe(3_600_000);
    // 1 explicit event + 3 steps (10m, 11m, 12m) of 2 events each.
    expect(test.events).toHaveLength(7);
    expect(test.events[0]).toEqual({ dataset: "web", atMs: 120_000, fields: { status: 500 } });
    expect(test.expect[0]).toEqual({
      monitor: "ods_monitor.api_errors",
      toleranceMs: 60_000,
      alerts: [{ opensMs: 900_000, closesMs: 1_500_000, group: { service: "api" }, notificationContains: ["Open"] }],
      line: 14,
    });
  });

  it.each([
    ["a bad duration", VALID.replace("every: 1m", "every: soon"), 9, "tests.0.series.0.every"],
    ["an unknown key", VALID.replace("        tolerance: 1m", "        tolerence: 1m"), 15, "tests.0.expect.0.tolerence"],
    ["an address that is not a monitor", VALID.replace("ods_monitor.api_errors", "ods_notifier.x"), 14, "tests.0.expect.0.monitor"],
    ["a monitor named neither by address nor by construct path", VALID.replace("ods_monitor.api_errors", "errors"), 14, "tests.0.expect.0.monitor"],
    ["broken YAML", VALID.replace("    duration: 1h", "    duration: 1h: 2m"), 3, ""],
  ])("refuses %s, naming the line", (_what, text, line, where) => {
    const file = write("bad.yaml", text);
    const e = refusal(file);
    expect(e.line).toBe(line);
    expect(e.message).toContain(`${file}:${line}:`);
    expect(e.message).toContain(where);
  });

  it("reports every problem with its line, not only the first", () => {
    const text = VALID.replace("every: 1m", "every: soon")
      .replace("        tolerance: 1m", "        tolerence: 1m")
      .replace("          - opens: 15m\n            closes: 25m", "          - opens: 15m\n            closes: 5m")
      .concat(`  - name: second test
    duration: forever
    expect:
      - monitor: errors
`);
    const file = write("many.yaml", text);
    const e = refusal(file);
    expect(e.message.split("\n")).toEqual([
      `${file}:9: tests.0.series.0.every: expected a duration like "15m" or "1h30m", got "soon"`,
      `${file}:15: tests.0.expect.0.tolerence: unknown key; expected one of monitor, slo, severity, tolerance, alerts`,
      `${file}:18: tests.0.expect.0.alerts.0.closes: an alert cannot close (at 5m) before it opens (at 15m); expected \`closes\` after \`opens\``,
      `${file}:22: tests.1.duration: expected a duration like "15m" or "1h30m", got "forever"`,
      `${file}:24: tests.1.expect.0.monitor: expected a monitor's address like "ods_monitor.api_errors" or its construct path like "observability/errors", got "errors"`,
    ]);
    expect(e.line).toBe(9);
  });

  it("reads durations the way the monitors' fields are written", () => {
    expect(parseDuration("90s")).toBe(90_000);
    expect(parseDuration("1h30m")).toBe(5_400_000);
    expect(parseDuration("15")).toBeUndefined();
    expect(parseDuration("5 m")).toBeUndefined();
  });
});
