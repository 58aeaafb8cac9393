// --warnings-as-errors (plan, apply, test, drift, watch): for CI, any warning fails the
// command, after it was printed, with one line saying why the command failed.
import type { Command } from "commander";

export interface WarningsOpts {
  warningsAsErrors?: boolean;
}

export function withWarningsAsErrors(cmd: Command): Command {
  return cmd.option("--warnings-as-errors", "treat any warning as an error: the command fails (exit 1; for watch, the round fails) after printing it");
}

/** The line that fails a command for its warnings. */
export function warningsFailure(count: number, what: string): string {
  return `--warnings-as-errors: ${count} warning${count === 1 ? "" : "s"} ${what}`;
}

/** Whether the command fails for `count` warnings; says so on stderr when it does. */
export function failsForWarnings(o: WarningsOpts, count: number, what: string): boolean {
  if (!o.warningsAsErrors || count === 0) return false;
  process.stderr.write(`Error: ${warningsFailure(count, what)}\n`);
  return true;
}
