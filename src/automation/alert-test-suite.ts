// Alert tests (`ods test`, the automation API's test()): each test file's events run
// against an embedded emulator on a manual clock, and the alerts its monitors raised are
// compared with the file's. Every file is checked against its stack before any test runs:
// an expectation naming a monitor the stack lacks is a mistake in the file, not a failure.
import * as fs from "node:fs";
import { secretForms } from "../reconcile/redact";
import { findStackFile, loadStack, type LoadedStack } from "../reconcile/stack";
import { variableDeclarations, type VariableAssignment } from "../reconcile/variables";
import { AlertTestFileError, readAlertTestFile, type AlertTestFile } from "./alert-tests/test-file";
import { missingMonitor, monitorUnderTest, runAlertTest, type TestResult } from "./alert-tests/run";
import { sloMonitors } from "./slo-alert-tests";

/** Files that name alert tests when none are given. */
export const ALERT_TEST_FILE = /\.alerts\.ya?ml$/;

/**
 * A test needs the stack's monitors, not its secrets or target: a variable with no value
 * gets a placeholder (the emulator never sends anything with it), and the report says so.
 */
function placeholders(stackFile: string, env: NodeJS.ProcessEnv): { assignments: VariableAssignment[]; names: string[] } {
  const json = JSON.parse(fs.readFileSync(stackFile, "utf8")) as { variable?: Record<string, unknown> };
  const missing = variableDeclarations(json.variable).filter((d) => !d.hasDefault && env[`TF_VAR_${d.name}`] === undefined && (d.type === undefined || d.type === "string"));
  return {
    names: missing.map((d) => d.name),
    assignments: missing.map((d) => ({ name: d.name, value: /url$/i.test(d.name) ? "https://ods-test.invalid" : `ods-test-${d.name}`, source: "ods test placeholder" })),
  };
}

export interface SuiteOptions {
  /** The cdktf output directory (already synthesized). */
  outDir: string;
  /** The stack whose monitors are tested (default: the file's `stack`, or the only one). */
  stack?: string;
  env: NodeJS.ProcessEnv;
  /** Told every sensitive value a stack carries. */
  hide: (values: readonly string[]) => void;
  warn: (line: string) => void;
}

/** One file's stack, loaded, ready to run. */
export interface SuiteRun {
  file: AlertTestFile;
  stack: LoadedStack;
  /** Variables given a placeholder. */
  placeholders: string[];
}

/** Why a suite cannot run: a file that does not parse, or expects what its stack lacks. */
export class InvalidAlertTests extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join("\n"));
    this.name = "InvalidAlertTests";
  }
}

/** Reads every file (before anything is synthesized); throws InvalidAlertTests naming the first that does not parse. */
export function readSuiteFiles(files: readonly string[]): AlertTestFile[] {
  const parsed: AlertTestFile[] = [];
  for (const f of files) {
    try {
      parsed.push(readAlertTestFile(f));
    } catch (err) {
      if (!(err instanceof AlertTestFileError) && !(err as NodeJS.ErrnoException).code) throw err;
      throw new InvalidAlertTests([(err as Error).message]);
    }
  }
  return parsed;
}

/** Checks every file against its stack; throws InvalidAlertTests naming each problem (file and line). */
export function prepareSuite(parsed: readonly AlertTestFile[], o: SuiteOptions): { runs: SuiteRun[]; warnings: number } {
  let warnings = 0;
  const runs: SuiteRun[] = [];
  for (const file of parsed) {
    const stackFile = findStackFile(o.outDir, o.stack ?? file.stack);
    const filled = placeholders(stackFile, o.env);
    const stack = loadStack(stackFile, { variables: { env: o.env, assignments: filled.assignments } });
    o.hide(stack.sensitiveValues.flatMap(secretForms));
    for (const w of stack.warnings) o.warn(`Warning: ${w}`);
    warnings += stack.warnings.length;
    const problems = file.tests.flatMap((t, i) =>
      t.expect.flatMap((x, j) => {
        if (x.slo) {
          const found = sloMonitors(stack.name, stack.resources, x.slo);
          return typeof found === "string" ? [`${file.path}:${x.line}: tests.${i}.expect.${j}.slo: ${found}`] : [];
        }
        return monitorUnderTest(stack, x.monitor) ? [] : [`${file.path}:${x.line}: tests.${i}.expect.${j}.monitor: ${missingMonitor(stack, x.monitor)}`];
      }),
    );
    if (problems.length > 0) throw new InvalidAlertTests(problems);
    runs.push({ file, stack, placeholders: filled.names });
  }
  return { runs, warnings };
}

/** Runs one file's tests, one after another, each on its own emulator. */
export async function runSuiteFile(run: SuiteRun): Promise<TestResult[]> {
  const results: TestResult[] = [];
  for (const test of run.file.tests) results.push(await runAlertTest(test, run.stack));
  return results;
}
