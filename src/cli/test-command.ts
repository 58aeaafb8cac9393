// `ods test`: alert unit tests, the way `promtool test rules` tests alerting rules. Each
// test file (YAML) gives events and the alerts its monitors must raise; each test runs
// against an embedded emulator on a manual clock. Exit 0: every test passed; 1: a test
// failed (or could not run); 2: a test file is invalid or expects the impossible (a
// monitor the stack lacks, an alert closing before it opens), its line named. The suite
// itself is src/automation/alert-test-suite.ts (shared with the automation API's test()).
import { Command } from "commander";
import * as fs from "node:fs";
import * as path from "node:path";
import { secretForms } from "../reconcile/redact";
import { ALERT_TEST_FILE, InvalidAlertTests, prepareSuite, readSuiteFiles, runSuiteFile, type SuiteRun } from "../automation/alert-test-suite";
import type { AlertTestFile } from "../automation/alert-tests/test-file";
import { addSecrets } from "./redact-output";
import { renderReport } from "../automation/alert-tests/report";
import { synth, synthWarnings } from "../reconcile/synth";
import { failsForWarnings, type WarningsOpts } from "./warnings-as-errors";
import { noteStaleStacks } from "../reconcile/stack-selection";

export const EXIT_INVALID_TEST_FILE = 2;
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
      const files = names.length > 0 ? names : fs.readdirSync(process.cwd()).filter((f) => ALERT_TEST_FILE.test(f)).sort();
      if (files.length === 0) {
        process.stderr.write("ods test: no test files given and no *.alerts.yaml in this directory\n");
        setExit(EXIT_INVALID_TEST_FILE);
        return;
      }
      let parsed: AlertTestFile[];
      try {
        parsed = readSuiteFiles(files);
      } catch (err) {
        if (!(err instanceof InvalidAlertTests)) throw err;
        process.stderr.write(`ods test: ${err.message}\n`);
        setExit(EXIT_INVALID_TEST_FILE);
        return;
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
      let runs: SuiteRun[];
      try {
        const prepared = prepareSuite(parsed, { outDir: o.outDir, stack: o.stack, env: process.env, hide: addSecrets, warn: (line) => process.stderr.write(`${line}\n`) });
        runs = prepared.runs;
        warnings += prepared.warnings;
      } catch (err) {
        if (!(err instanceof InvalidAlertTests)) throw err;
        for (const p of err.problems) process.stderr.write(`ods test: ${p}\n`);
        setExit(EXIT_INVALID_TEST_FILE);
        return;
      }
      let failed = false;
      for (const { file, stack, placeholders: names } of runs) {
        process.stdout.write(`${path.basename(file.path)} (stack ${stack.name})\n`);
        if (names.length > 0) process.stdout.write(`  placeholders for the variables without a value: ${names.join(", ")}\n`);
        const results = await runSuiteFile({ file, stack, placeholders: names });
        process.stdout.write(renderReport(file.path, results, stack.sensitiveValues.flatMap(secretForms)));
        if (results.some((r) => !r.passed)) failed = true;
      }
      if (failed) setExit(1);
      if (failsForWarnings(o, warnings, "while testing")) setExit(1);
    });
}
