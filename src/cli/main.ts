import { Command, CommanderError } from "commander";
import { registerAnnotateCommand } from "./annotate";
import { registerCompareCommand } from "./compare-command";
import { registerDemoCommand } from "./demo";
import { registerEmulatorCommand } from "./emulator-command";
import { registerExportCommand } from "./export-command";
import { registerInitCommand } from "./init-command";
import { registerQueryCommand } from "./query-command";
import { registerReconcileCommands } from "./reconcile-commands";
import { registerSloCommand } from "./slo-command";
import { registerTerraformCommand } from "./terraform-command";
import { registerTestCommand } from "./test-command";
import { registerWatchCommand } from "./watch-command";

/** Exit code for a failed command: terraform's convention (0 ok, 1 error, 2 changes). */
export const EXIT_ERROR = 1;

/**
 * Builds the `ods` program. Each command lives in its own module and registers
 * itself here, so adding a command touches one line of this file.
 */
export function buildProgram(setExitCode: (code: number) => void): Command {
  const program = new Command("ods")
    .description("Plan and apply Observability Data Service configuration; run a local emulator.")
    .showHelpAfterError()
    .exitOverride();
  registerEmulatorCommand(program, setExitCode);
  registerReconcileCommands(program, setExitCode);
  registerDemoCommand(program, setExitCode);
  registerTerraformCommand(program);
  registerQueryCommand(program);
  registerExportCommand(program);
  registerCompareCommand(program, setExitCode);
  registerAnnotateCommand(program);
  registerTestCommand(program, setExitCode);
  registerSloCommand(program, setExitCode);
  registerInitCommand(program);
  registerWatchCommand(program, setExitCode);
  return program;
}

/** Runs the CLI and resolves to the process exit code. */
export async function main(argv: string[]): Promise<number> {
  let exitCode = 0;
  const program = buildProgram((code) => {
    exitCode = code;
  });
  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      // --help and --version exit with 0; usage errors are already printed.
      return err.exitCode === 0 ? 0 : EXIT_ERROR;
    }
    throw err;
  }
  return exitCode;
}
