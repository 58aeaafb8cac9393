// `ods test`: alert unit tests, the way `promtool test rules` tests alerting rules. Each
// test file (YAML) gives events and the alerts its monitors must raise; each test runs
// against an embedded emulator on a manual clock. Exit 0: every test passed; 1: a test
// failed (or could not run); 2: a test file is invalid or expects the impossible (a
// monitor the stack lacks, an alert closing before it opens), its line named.
import { Command } from "commander";
import * as fs from "node:fs";
import * as path from "node:path";
import { secretForms } from "../reconcile/redact";
import { findStackFile, loadStack, type LoadedStack } from "../reconcile/stack";
import { variableDeclarations, type VariableAssignment } from "../reconcile/variables";
import { AlertTestFileError, readAlertTestFile, type AlertTestFile } from "./alert-tests/test-file";
import { missingMonitor, monitorUnderTest, runAlertTest, type TestResult } from "./alert-tests/run";
import { sloMonitors } from "./slo-alert-tests";
import { addSecrets } from "./redact-output";
import { renderReport } from "./alert-tests/report";
import { synth, synthWarnings } from "./synth";
import { failsForWarnings, type WarningsOpts } from "./warnings-as-errors";
import { noteStaleStacks } from "./stack-selection";

export const EXIT_INVALID_TEST_FILE = 2;
const DEFAULT_PATTERN = /\.alerts\.ya?ml$/;

/**
 * A test needs the stack's monitors, not its secrets or target: a variable with no value
 * gets a placeholder (the emulator never sends anything with it), and the report says so.
 */
function placeholders(stackFile: string): { assignments: VariableAssignment[]; names: string[] } {
  const json = JSON.parse(fs.readFileSync(stackFile, "utf8")) as { variable?: Record<string, unknown> };
  const missing = variableDeclarations(json.variable).filter((d) => !d.hasDefault && process.env[`TF_VAR_${d.name}`] === undefined && (d.type === undefined || d.type === "string"));
  return {
    names: missing.map((d) => d.name),
    assignments: missing.map((d) => ({ name: d.name, value: /url$/i.test(d.name) ? "https://ods-test.invalid" : `ods-test-${d.name}`, source: "ods test placeholder" })),
  };
}

export function registerTestCommand(program: Command, setExit: (code: number) => void): void {
  const testCommand = program
    .command("test [files...]")
    .description("Run alert unit tests: events in, expected alerts out, against an embedded emulator on a manual clock (default files: *.alerts.yaml).")
    .option("--stack <name>", "the stack whose monitors are tested (default: the file's `stack`, or the only stack)")
    .option("--out-dir <dir>", "cdktf output directory", "cdktf.out")
    .option("--app <command>", "app command (default: the app of cdktf.json)")
    .option("--no-synth", "use the stacks already synthesized in --out-dir")
    .option("--warnings-as-errors", "treat any warning as an error: exit 1 after printing it");
  testCommand.action(async (names: string[], o: WarningsOpts & { stack?: string; outDir: string; app?: string; synth: boolean }) => {
      const files = names.length > 0 ? names : fs.readdirSync(process.cwd()).filter((f) => DEFAULT_PATTERN.test(f)).sort();
      if (files.length === 0) {
        process.stderr.write("ods test: no test files given and no *.alerts.yaml in this directory\n");
        setExit(EXIT_INVALID_TEST_FILE);
        return;
      }
      const parsed: AlertTestFile[] = [];
      for (const f of files) {
        try {
          parsed.push(readAlertTestFile(f));
        } catch (err) {
          if (!(err instanceof AlertTestFileError) && !(err as NodeJS.ErrnoException).code) throw err;
          process.stderr.write(`ods test: ${(err as Error).message}\n`);
          setExit(EXIT_INVALID_TEST_FILE);
          return;
        }
      }
      let warnings = 0;
      if (o.synth) {
        process.stderr.write(`Synthesizing ${o.app ?? "the app of cdktf.json"} into ${o.outDir} ...\n`);
        await synth({ app: o.app, out: o.outDir });
        warnings += synthWarnings(o.outDir).length;
      }
      // Every file is checked against its stack before any test runs: an expectation
      // naming a monitor the stack lacks is a mistake in the file (exit 2), not a failure.
      noteStaleStacks(o.outDir);
      const runs: { file: AlertTestFile; stack: LoadedStack; placeholders: string[] }[] = [];
      for (const file of parsed) {
        const stackFile = findStackFile(o.outDir, o.stack ?? file.stack);
        const filled = placeholders(stackFile);
        const stack = loadStack(stackFile, { variables: { env: process.env, assignments: filled.assignments } });
        addSecrets(stack.sensitiveValues.flatMap(secretForms));
        for (const w of stack.warnings) process.stderr.write(`Warning: ${w}\n`);
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
        if (problems.length > 0) {
          for (const p of problems) process.stderr.write(`ods test: ${p}\n`);
          setExit(EXIT_INVALID_TEST_FILE);
          return;
        }
        runs.push({ file, stack, placeholders: filled.names });
      }
      let failed = false;
      for (const { file, stack, placeholders: names } of runs) {
        process.stdout.write(`${path.basename(file.path)} (stack ${stack.name})\n`);
        if (names.length > 0) process.stdout.write(`  placeholders for the variables without a value: ${names.join(", ")}\n`);
        const results: TestResult[] = [];
        for (const test of file.tests) results.push(await runAlertTest(test, stack));
        process.stdout.write(renderReport(file.path, results, stack.sensitiveValues.flatMap(secretForms)));
        if (results.some((r) => !r.passed)) failed = true;
      }
      if (failed) setExit(1);
      if (failsForWarnings(o, warnings, "while testing")) setExit(1);
    });
}
