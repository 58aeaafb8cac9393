// Prints every stack's pending changes as JSON: what a portal shows each team, or a
// pull-request bot posts. The automation API runs the plan in this process (no `ods`
// process, no output to parse); only the project's app is run, to synthesize.
//
//   node examples/automation/print-pending.js [PROJECT_DIR] [--no-synth]
//
// The service comes from the stacks' provider blocks, then ODS_URL / ODS_TOKEN. Exit 0:
// nothing pending; 2: changes pending; 1: a stack could not be planned (in "errors").
// In your own project, import from "cdktf-provider-ods/automation" instead of "../../lib/automation".
import { Workspace, type PlanResult } from "../../lib/automation";

interface Pending {
  stack: string;
  changes: { address: string; action: string; attributes: string[]; movedFrom?: string; refused?: string }[];
}

function pendingOf(plan: PlanResult): Pending[] {
  return plan.stacks.map((s) => ({
    stack: s.stack,
    changes: s.plans
      .flatMap((part) => part.resource_changes)
      .filter((c) => c.action !== "noop" || c.previous_address !== undefined)
      .map((c) => ({
        address: c.address,
        action: c.action,
        attributes: c.changed_attributes,
        ...(c.previous_address !== undefined ? { movedFrom: c.previous_address } : {}),
        ...(c.apply_refuses !== undefined ? { refused: c.apply_refuses } : {}),
      })),
  }));
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const dir = args.find((a) => !a.startsWith("--")) ?? process.cwd();
  const workspace = new Workspace({ dir, allStacks: true, synth: !args.includes("--no-synth") });
  const plan = await workspace.plan({ backtestDays: false });
  process.stdout.write(`${JSON.stringify({ pending: pendingOf(plan), errors: plan.errors }, null, 2)}\n`);
  if (plan.errors.length > 0) return 1;
  return plan.has_changes ? 2 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}\n`);
    process.exitCode = 1;
  },
);
