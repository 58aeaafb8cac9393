// The everyday commands: plan in a pull request, apply on merge, and the state tools.
import { Command, Option } from "commander";
import * as fs from "node:fs";
import * as readline from "node:readline/promises";
import { changedAttributes, resourceKind, type Values } from "../resources";
import { applyPlan, type ApplyEvent, type ApplySummary } from "../reconcile/apply";
import { hasChanges, liveValues, makePlan, type Plan } from "../reconcile/plan";
import { planJson, renderPlan, displayValue } from "../reconcile/render";
import { readSavedPlan, staleReason, toSavedPlan } from "../reconcile/saved-plan";
import { acquireLock, readState, writeState } from "../reconcile/state";
import { LiveIndex } from "../reconcile/world";
import { importedState } from "../lifecycle";
import { openWorkspace, type Workspace, type WorkspaceFlags } from "./workspace";
import { synth } from "./synth";

export const EXIT_OK = 0;
export const EXIT_ERROR = 1;
export const EXIT_CHANGES = 2;

type SetExit = (code: number) => void;
const out = (text: string): void => {
  process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
};
const err = (text: string): void => {
  process.stderr.write(text.endsWith("\n") ? text : `${text}\n`);
};

function withWorkspaceOptions(cmd: Command): Command {
  return cmd
    .option("--stack <name>", "stack to use when the app has several")
    .option("--out-dir <dir>", "cdktf output directory", "cdktf.out")
    .option("--state <file>", "state file (default: .ods/state/<stack>.json)")
    .option("--app <command>", "app command (default: the app of cdktf.json)")
    .option("--no-synth", "use the stack already synthesized in --out-dir")
    .option("--url <url>", "service URL (default: ODS_URL, then the provider block)")
    .addOption(new Option("--token <token>", "API token (default: ODS_TOKEN, then the provider block)").hideHelp(false))
    .option("--org-id <id>", "organization id (default: ODS_ORG_ID)")
    .option("--no-check-queries", "do not compile changed starred queries and virtual fields on the service while planning");
}

interface CommonOpts {
  stack?: string;
  outDir: string;
  state?: string;
  app?: string;
  synth: boolean;
  url?: string;
  token?: string;
  orgId?: string;
  checkQueries?: boolean;
}

function flagsOf(o: CommonOpts): WorkspaceFlags {
  return { stack: o.stack, outDir: o.outDir, state: o.state, app: o.app, synth: o.synth, url: o.url, token: o.token, orgId: o.orgId };
}

async function prepare(o: CommonOpts): Promise<Workspace> {
  const ws = await openWorkspace(flagsOf(o), err);
  await ws.client.useOrganizationRateLimit().catch(() => undefined);
  return ws;
}

/** One line per resource as apply goes; failures to stderr. */
export function progress(event: ApplyEvent): void {
  const id = event.id ? ` [id=${event.id}]` : "";
  if (event.phase === "start") out(`${event.address}: ${event.action} ...`);
  else if (event.phase === "done") out(`${event.address}: ${event.action} complete${id}`);
  else if (event.phase === "failed") err(`${event.address}: ${event.action} FAILED: ${event.message ?? ""}`);
  else out(`${event.address}: ${event.message ?? "skipped"}`);
}

export function summaryLine(s: ApplySummary): string {
  return `Apply complete: ${s.created} created, ${s.updated} updated, ${s.replaced} replaced, ${s.rotated} rotated, ${s.deleted} deleted, ${s.adopted} adopted, ${s.forgotten} forgotten, ${s.failed} failed${s.skipped ? `, ${s.skipped} skipped` : ""}.`;
}

async function confirm(question: string): Promise<boolean> {
  if (!process.stdin.isTTY) {
    throw new Error("not on a terminal: pass --auto-approve to apply without confirmation");
  }
  const rl = readline.createInterface({ input: process.stdin, output: process.stdout });
  try {
    return (await rl.question(`${question} Only 'yes' will be accepted: `)).trim() === "yes";
  } finally {
    rl.close();
  }
}

async function runApply(ws: Workspace, plan: Plan, opts: { autoApprove?: boolean; parallelism: number }, setExit: SetExit): Promise<void> {
  out(renderPlan(plan));
  if (!hasChanges(plan)) {
    // Nothing to call, but engine-only settings and outputs still land in state.
    const state = readState(ws.stateFile);
    await applyPlan({ client: ws.client, stack: ws.stack, state, stateFile: ws.stateFile, plan, orgId: ws.orgId, parallelism: opts.parallelism });
    return;
  }
  if (!opts.autoApprove && !(await confirm("Do you want to perform these actions?"))) {
    out("Apply cancelled.");
    setExit(EXIT_ERROR);
    return;
  }
  const state = readState(ws.stateFile);
  const summary = await applyPlan({
    client: ws.client, stack: ws.stack, state, stateFile: ws.stateFile, plan, orgId: ws.orgId, parallelism: opts.parallelism, onEvent: progress,
  });
  for (const w of summary.warnings) err(`Warning: ${w}`);
  for (const e of summary.errors) err(`Error: ${e}`);
  out(summaryLine(summary));
  if (summary.failed > 0) setExit(EXIT_ERROR);
}

function parseParallelism(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 64) throw new Error(`--parallelism expects a whole number from 1 to 64, got "${v}"`);
  return n;
}

export function registerReconcileCommands(program: Command, setExit: SetExit): void {
  program
    .command("synth")
    .description("Synthesize the CDKTF app (the app command of cdktf.json) into --out.")
    .option("--app <command>", "app command (default: the app of cdktf.json)")
    .option("--out <dir>", "output directory", "cdktf.out")
    .action(async (o: { app?: string; out: string }) => {
      const dir = await synth({ app: o.app, out: o.out });
      out(`Synthesized into ${dir}`);
    });

  withWorkspaceOptions(program.command("plan"))
    .description("Show what apply would change. Exit 0 no changes, 1 error, 2 changes (with --detailed-exitcode).")
    .option("--json", "print the plan in its machine form")
    .option("--out <file>", "save the plan for `ods apply FILE`")
    .option("--detailed-exitcode", "exit 2 when there are changes")
    .action(async (o: CommonOpts & { json?: boolean; out?: string; detailedExitcode?: boolean }) => {
      const ws = await prepare(o);
      const plan = await makePlan({ client: ws.client, stack: ws.stack, state: readState(ws.stateFile), orgId: ws.orgId, checkQueries: o.checkQueries });
      out(o.json ? JSON.stringify(planJson(plan), null, 2) : renderPlan(plan));
      if (o.out) {
        fs.writeFileSync(o.out, `${JSON.stringify(toSavedPlan(plan, ws.stackFile), null, 2)}\n`, { mode: 0o600 });
        err(`Saved the plan to ${o.out}; apply it with: ods apply ${o.out}`);
      }
      if (o.detailedExitcode && hasChanges(plan)) setExit(EXIT_CHANGES);
    });

  withWorkspaceOptions(program.command("apply [planfile]"))
    .description("Apply the configuration (or a saved plan) to the service.")
    .option("--auto-approve", "do not ask for confirmation")
    .option("--parallelism <n>", "concurrent calls", parseParallelism, 4)
    .action(async (planfile: string | undefined, o: CommonOpts & { autoApprove?: boolean; parallelism: number }) => {
      const saved = planfile ? readSavedPlan(planfile) : undefined;
      const ws = await prepare({ ...o, synth: saved ? false : o.synth });
      const release = acquireLock(ws.stateFile, "ods apply");
      try {
        const plan = await makePlan({ client: ws.client, stack: ws.stack, state: readState(ws.stateFile), orgId: ws.orgId, checkQueries: o.checkQueries });
        if (saved) {
          const reason = staleReason(saved, plan, ws.stackFile);
          if (reason) throw new Error(`the saved plan ${planfile} is stale: ${reason}; make a new plan`);
        }
        await runApply(ws, plan, { autoApprove: o.autoApprove || saved !== undefined, parallelism: o.parallelism }, setExit);
      } finally {
        release();
      }
    });

  withWorkspaceOptions(program.command("destroy"))
    .description("Delete everything this stack manages.")
    .option("--auto-approve", "do not ask for confirmation")
    .option("--parallelism <n>", "concurrent calls", parseParallelism, 4)
    .action(async (o: CommonOpts & { autoApprove?: boolean; parallelism: number }) => {
      const ws = await prepare(o);
      const release = acquireLock(ws.stateFile, "ods destroy");
      try {
        const plan = await makePlan({ client: ws.client, stack: ws.stack, state: readState(ws.stateFile), orgId: ws.orgId, destroy: true });
        await runApply(ws, plan, o, setExit);
      } finally {
        release();
      }
    });

  withWorkspaceOptions(program.command("drift"))
    .description("Refresh only: list what changed outside this stack. Exit 2 when something did.")
    .action(async (o: CommonOpts) => {
      const ws = await prepare(o);
      const state = readState(ws.stateFile);
      const live = new LiveIndex();
      const lines: string[] = [];
      for (const [address, entry] of Object.entries(state.resources)) {
        const kind = resourceKind(entry.typeName);
        if (!kind) continue;
        const dataset = typeof entry.values.dataset === "string" ? entry.values.dataset : undefined;
        const obj = (await live.load(ws.client, kind, dataset)).find((x) => kind.api.idOf(x) === entry.id);
        if (!obj) {
          lines.push(`  - ${address} (id ${entry.id}) was deleted outside this stack`);
          continue;
        }
        const now = liveValues(kind, obj, entry.values);
        const drifted = changedAttributes(kind.attributes, entry.values as Values, now);
        for (const name of drifted) {
          const hidden = kind.attributes[name]?.sensitive;
          lines.push(`  ~ ${address}.${name}: ${hidden ? "(sensitive)" : displayValue(entry.values[name])} -> ${hidden ? "(sensitive)" : displayValue(now[name])}`);
        }
      }
      if (lines.length === 0) {
        out("No drift: every managed object is as the last apply left it.");
        return;
      }
      out(`Drift detected (${lines.length}):\n${lines.join("\n")}\nRun "ods apply" to restore the configuration.`);
      setExit(EXIT_CHANGES);
    });

  withWorkspaceOptions(program.command("import <address> <id>"))
    .description("Bring an existing object under management: ods import ods_notifier.oncall ID")
    .action(async (address: string, id: string, o: CommonOpts) => {
      const ws = await prepare(o);
      const decl = ws.stack.resources.find((r) => r.address === address);
      if (!decl) throw new Error(`${address} is not declared in stack ${ws.stack.name}; declare it first, then import`);
      const release = acquireLock(ws.stateFile, "ods import");
      try {
        const state = readState(ws.stateFile);
        if (state.resources[address]) throw new Error(`${address} is already managed (id ${state.resources[address].id}); "ods state rm ${address}" first`);
        const live = await decl.kind.api.read(ws.client, id);
        if (!live) throw new Error(`no ${decl.typeName} with id "${id}" (expected ${decl.kind.importIdFormat})`);
        // The same normalization as `terraform import` (src/lifecycle/values.ts).
        const imported = importedState(decl.kind, live);
        state.resources[address] = {
          typeName: decl.typeName,
          ...imported,
          secretFingerprints: {},
          dependsOn: decl.dependsOn.filter((a) => !a.startsWith("data.")),
        };
        writeState(ws.stateFile, state);
        out(`Imported ${address} (id ${id}). Run "ods plan" to see how it differs from the configuration.`);
      } finally {
        release();
      }
    });

  const state = program.command("state").description("Inspect or edit the state file.");
  withWorkspaceOptions(state.command("list")).action(async (o: CommonOpts) => {
    const ws = await openWorkspace({ ...flagsOf(o), synth: false }, err);
    for (const [address, r] of Object.entries(readState(ws.stateFile).resources)) out(`${address}\t${r.id}`);
  });
  withWorkspaceOptions(state.command("show <address>")).action(async (address: string, o: CommonOpts) => {
    const ws = await openWorkspace({ ...flagsOf(o), synth: false }, err);
    const r = readState(ws.stateFile).resources[address];
    if (!r) throw new Error(`${address} is not in the state`);
    const kind = resourceKind(r.typeName);
    out(`# ${address}\nid = ${JSON.stringify(r.id)}`);
    // Sensitive in the schema, or marked for a sensitive value it took through a reference.
    const marked = new Set(r.marked ?? []);
    for (const [k, v] of Object.entries({ ...r.values, ...r.engineValues })) {
      if (k === "id" || v === null) continue;
      out(`${k} = ${kind?.attributes[k]?.sensitive || marked.has(k) ? "(sensitive)" : displayValue(v)}`);
    }
    for (const k of Object.keys(r.sensitive ?? {})) out(`${k} = (sensitive)`);
  });
  withWorkspaceOptions(state.command("rm <address>")).action(async (address: string, o: CommonOpts) => {
    const ws = await openWorkspace({ ...flagsOf(o), synth: false }, err);
    const release = acquireLock(ws.stateFile, "ods state rm");
    try {
      const s = readState(ws.stateFile);
      if (!s.resources[address]) throw new Error(`${address} is not in the state`);
      delete s.resources[address];
      writeState(ws.stateFile, s);
      out(`Removed ${address} from the state; the live object was not touched.`);
    } finally {
      release();
    }
  });

  withWorkspaceOptions(program.command("output [name]"))
    .description("Show the stack's outputs; sensitive ones only with --show-sensitive.")
    .option("--show-sensitive", "print sensitive values")
    .option("--json", "print as JSON")
    .action(async (name: string | undefined, o: CommonOpts & { showSensitive?: boolean; json?: boolean }) => {
      const ws = await openWorkspace({ ...flagsOf(o), synth: false }, err);
      const outputs = readState(ws.stateFile).outputs;
      const names = name ? [name] : Object.keys(outputs).sort();
      if (name && !outputs[name]) throw new Error(`no output "${name}"; outputs: ${Object.keys(outputs).join(", ") || "none (apply first)"}`);
      const shown: Record<string, unknown> = {};
      for (const n of names) shown[n] = outputs[n].sensitive && !o.showSensitive ? "(sensitive)" : outputs[n].value;
      if (o.json) out(JSON.stringify(name ? shown[name] : shown, null, 2));
      else if (name) out(typeof shown[name] === "string" ? String(shown[name]) : JSON.stringify(shown[name]));
      else for (const n of names) out(`${n} = ${typeof shown[n] === "string" ? String(shown[n]) : JSON.stringify(shown[n])}`);
    });
}
