// The everyday commands: plan in a pull request, apply on merge, and the state tools.
// plan, apply, drift and destroy run one or several stacks (--stack, repeatable, or
// --all-stacks), each against the targets of its provider configurations, printed first.
import { Command, InvalidArgumentError, Option } from "commander";
import { annotateApply, type AppliedChange } from "./annotate";
import * as fs from "node:fs";
import * as readline from "node:readline/promises";
import { resourceKind } from "../resources";
import type { ApplyEvent } from "../reconcile/apply";
import { odsCommand } from "../reconcile/plan";
import { renderPlan, displayValue, nestedAttributes } from "../reconcile/render";
import { readSavedParts, savedPlanFile } from "../reconcile/saved-plan";
import { applyMoves, stateMove } from "../reconcile/moves";
import { secretForms } from "../reconcile/redact";
import { emptyState, parseState, secretValuesIn, serializeState, setStateOrganization, type StateFile, type StateStore } from "../reconcile/state";
import { StackError } from "../reconcile/stack";
import { variableInputs, withVariableOptions, type VariableOpts } from "./variable-options";
import { importedState } from "../lifecycle";
import { providerAddress, providerKey } from "../reconcile/provider-address";
import { markdownPlan, markdownPlanOptions, planCounts } from "./plan-markdown";
import { checkStateBelongs, type StackUnit } from "../reconcile/stack-unit";
import { planWarnings, stackHasChanges, type StackPlan } from "../reconcile/stack-plan";
import { openSession, plannedParts, savedSelection, storeOnly, withSession, type Session, type SessionHooks } from "../reconcile/session";
import { planSession, isStackProblem } from "../reconcile/session-plan";
import { applySession, summaryLine, type StackApplyOutcome } from "../reconcile/session-apply";
import { driftLines, driftOfStack, type StackDrift } from "../reconcile/session-drift";
import { driftResult, planJsonDocument, planResult } from "../automation/serialize";
import { synth } from "../reconcile/synth";
import { failsForWarnings, withWarningsAsErrors, type WarningsOpts } from "./warnings-as-errors";
import { catchInterrupts, EXIT_INTERRUPTED } from "./interrupt";
import { projectEmulator } from "./project-emulator";
import { addSecrets } from "./redact-output";

export { isStackProblem, summaryLine, type Session };

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

export function withWorkspaceOptions(cmd: Command): Command {
  return withVariableOptions(cmd
    .option("--stack <name>", "stack to use (repeat for several)", (v: string, prev: string[]) => [...prev, v], [] as string[])
    .option("--all-stacks", "every stack of cdktf.out/manifest.json, in dependency order")
    .option("--out-dir <dir>", "cdktf output directory", "cdktf.out")
    .option("--state <file>", "a local state file to use instead of the stack's backend (only with one stack)")
    .option("--app <command>", "app command (default: the app of cdktf.json)")
    .option("--no-synth", "use the stacks already synthesized in --out-dir")
    .option("--url <url>", "service URL for a stack with one provider configuration (default: the provider block, then ODS_URL)")
    .addOption(new Option("--token <token>", "API token for a stack with one provider configuration (default: the provider block, then ODS_TOKEN)"))
    .option("--org-id <id>", "organization id for a stack with one provider configuration (default: the provider block, then ODS_ORG_ID)")
  )
    .option("--no-check-queries", "do not compile changed starred queries and virtual fields on the service while planning")
    .option("--backtest-days <days>", "replay each created or changed monitor over this many past days (1 to 30)", parseBacktestDays, 7)
    .option("--no-backtest", "do not backtest created or changed monitors");
}

const MOVE_DETECTION_HELP =
  "do not turn a delete and a create of one natural key into a move; such a plan is refused instead (as terraform plan refuses it)";

function parseBacktestDays(text: string): number {
  const days = Number(text);
  if (!Number.isInteger(days) || days < 1 || days > 30) throw new InvalidArgumentError(`expected a whole number of days from 1 to 30, got "${text}"`);
  return days;
}

/** The plan insights a command asks for: a monitor's backtest, unless --no-backtest. */
function insightsOf(o: CommonOpts): { days: number } | undefined {
  return o.backtest === false ? undefined : { days: o.backtestDays ?? 7 };
}

export interface CommonOpts extends VariableOpts {
  stack: string[];
  allStacks?: boolean;
  outDir: string;
  state?: string;
  app?: string;
  synth: boolean;
  url?: string;
  token?: string;
  orgId?: string;
  checkQueries?: boolean;
  /** --no-move-detection (plan and apply) sets it false. */
  moveDetection?: boolean;
  backtest?: boolean;
  backtestDays?: number;
}

/** The session hooks of the CLI: target lines to `print`, notices to stderr, secrets hidden in all output. */
function cliHooks(o: CommonOpts, print: (line: string) => void): SessionHooks {
  return {
    print,
    log: err,
    hide: addSecrets,
    variables: (known) => variableInputs(o, known),
    environment: (root, flags) => projectEmulator(root, flags, err),
  };
}

/** Runs a command's work on a session, closing its state stores whatever happens. */
function withCliSession<T>(o: CommonOpts, print: (line: string) => void, fn: (session: Session) => Promise<T>): Promise<T> {
  return withSession(o, cliHooks(o, print), fn);
}

/**
 * Synthesizes, selects the stacks, reads variables, loads each stack and asks each
 * target which organization it reaches, then prints the targets: before anything else.
 */
export function openCliSession(o: CommonOpts, print: (line: string) => void, prepare?: (unit: StackUnit) => Promise<void>): Promise<Session> {
  return openSession(o, cliHooks(o, print), prepare);
}

/** One line per resource as apply goes; failures to stderr. */
export function progress(event: ApplyEvent): void {
  const id = event.id ? ` [id=${event.id}]` : "";
  if (event.phase === "start") out(`${event.address}: ${event.action} ...`);
  else if (event.phase === "done") out(`${event.address}: ${event.action} complete${id}`);
  else if (event.phase === "failed") err(`${event.address}: ${event.action} FAILED: ${event.message ?? ""}`);
  else out(`${event.address}: ${event.message ?? "skipped"}`);
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

export function parseParallelism(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 64) throw new Error(`--parallelism expects a whole number from 1 to 64, got "${v}"`);
  return n;
}

/** The plan of a stack as text: one section per provider configuration when it has several. */
function renderStackPlan(sp: StackPlan): string {
  if (sp.parts.length === 1) return renderPlan(sp.parts[0].plan);
  return sp.parts.map((p) => `-- provider ${p.provider} (${p.target.url}) --\n${renderPlan(p.plan)}`).join("\n");
}

interface StackOutcome {
  stack: string;
  line: string;
  failed: boolean;
}

function printSummary(outcomes: StackOutcome[], several: boolean): void {
  if (!several) return;
  out(`\nSummary (${outcomes.length} stacks):`);
  for (const o of outcomes) out(`  ${o.stack}: ${o.line}`);
}

/**
 * `--annotate`: one config-change annotation per dataset the applied changes touched, per
 * organization. `only` limits it to some addresses (ods watch: the drifted ones).
 */
export async function annotateStack(sp: StackPlan, startedAt: Date | undefined, o: { by?: string; only?: ReadonlySet<string>; info?: (text: string) => void } = {}): Promise<void> {
  for (const part of sp.parts) {
    const changes: AppliedChange[] = part.plan.changes
      .filter((c) => c.action !== "noop" && (!o.only || o.only.has(c.address)))
      .map((c) => ({
        address: c.address,
        typeName: c.typeName,
        action: c.action,
        // After the apply the state holds the values as the service answered them (references resolved).
        values: c.action === "delete" || c.action === "forget" ? c.before : (part.view.resources[c.address]?.values ?? c.after),
      }));
    await annotateApply(part.target.client, changes, { ...(startedAt ? { startedAt } : {}), env: process.env, ...(o.by ? { by: o.by } : {}), warn: (t) => err(`Warning: ${t}`), info: o.info ?? out });
  }
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

  const planCommand = withWorkspaceOptions(program.command("plan"))
    .description("Show what apply would change. Exit 0 no changes, 1 error, 2 changes (with --detailed-exitcode).")
    .addOption(new Option("--format <format>", "text, json, markdown (a pull-request comment) or html (one self-contained page with charts)").choices(["text", "json", "markdown", "html"]).default("text"))
    .option("--json", "same as --format json")
    .option("--out <file>", "save the plan of every selected stack for `ods apply FILE`, which applies exactly those stacks")
    .option("--detailed-exitcode", "exit 2 when there are changes")
    .option("--parallelism <n>", "concurrent calls", parseParallelism, 10)
    .option("--no-move-detection", MOVE_DETECTION_HELP)
    .option("--html-url <url>", "with --format markdown: link the HTML plan CI saved at the top of the comment (default: ODS_PLAN_HTML_URL)");
  withWarningsAsErrors(planCommand)
    .action(async (o: CommonOpts & WarningsOpts & { format: string; json?: boolean; out?: string; detailedExitcode?: boolean; parallelism: number; htmlUrl?: string }) => {
      const format = o.json ? "json" : o.format;
      const markdownOptions = markdownPlanOptions(format, o.htmlUrl, process.env);
      // Text goes to the terminal as is; JSON and markdown keep stdout for the document.
      await withCliSession(o, format === "text" ? out : err, async (session) => {
      const several = session.units.length > 1;
      const outcomes: StackOutcome[] = [];
      const { plans, failures } = await planSession(session, { checkQueries: o.checkQueries, parallelism: o.parallelism, insights: insightsOf(o), moveDetection: o.moveDetection }, {
        planned: (sp) => {
          if (format === "text") out(`${several ? `\n== Stack ${sp.unit.name} ==\n` : ""}${renderStackPlan(sp)}`);
          outcomes.push({ stack: sp.unit.name, line: stackHasChanges(sp) ? planCounts(sp) : "no changes", failed: false });
        },
        failed: (f) => {
          err(`Error in stack ${f.stack}: ${f.error}`);
          outcomes.push({ stack: f.stack, line: "ERROR (see above)", failed: true });
        },
      });
      if (format === "markdown") out(markdownPlan(plans, failures, markdownOptions));
      // Loaded for this format only: the page draws with ECharts (1.2 MB), which would cost every ods command ~130 ms at start.
      else if (format === "html") out((await import("../reconcile/html/plan-page")).htmlPlan(plans, failures, { counts: planCounts }));
      else if (format === "json") out(JSON.stringify(planJsonDocument(planResult(plans, failures)), null, 2));
      if (o.out) {
        // A plan file that left out a stack would apply as if that stack had nothing to do.
        if (failures.length > 0) throw new StackError([`the plan was not saved to ${o.out}: stack${failures.length > 1 ? "s" : ""} ${failures.map((f) => f.stack).join(", ")} could not be planned`]);
        fs.writeFileSync(o.out, `${JSON.stringify(savedPlanFile(plannedParts(plans)), null, 2)}\n`, { mode: 0o600 });
        err(`Saved the plan${several ? ` of stacks ${plans.map((p) => p.unit.name).join(", ")}` : ""} to ${o.out}; apply it with: ods apply ${o.out}`);
      }
      if (format === "text") printSummary(outcomes, several);
      if (failures.length > 0) setExit(EXIT_ERROR);
      else if (o.detailedExitcode && plans.some(stackHasChanges)) setExit(EXIT_CHANGES);
      const warnings = session.synthWarnings + plans.reduce((n, sp) => n + planWarnings(sp).length, 0);
      if (failsForWarnings(o, warnings, "in the plan")) setExit(EXIT_ERROR);
      });
    });

  const applyLike = (name: "apply" | "destroy", description: string): Command => {
    const cmd = withWorkspaceOptions(program.command(name === "apply" ? "apply [planfile]" : "destroy"))
      .description(description)
      .option("--auto-approve", "do not ask for confirmation")
      .option("--parallelism <n>", "concurrent calls", parseParallelism, 10);
    if (name === "apply") {
      cmd.option("--no-move-detection", MOVE_DETECTION_HELP);
      cmd.option("--allow-empty", "apply even when a stack declares nothing while its state manages objects (deletes them all)");
      cmd.option("--annotate", "after a successful apply, annotate each dataset its changes touched (type config-change)");
      withWarningsAsErrors(cmd);
    }
    return cmd;
  };

  const runApplyCommand = async (
    destroy: boolean,
    planfile: string | undefined,
    o: CommonOpts & WarningsOpts & { autoApprove?: boolean; parallelism: number; allowEmpty?: boolean; annotate?: boolean },
  ): Promise<void> => {
    const saved = planfile ? readSavedParts(planfile) : undefined;
    const selection = saved ? savedSelection(planfile!, saved, o) : o;
    await withCliSession({ ...selection, synth: saved ? false : o.synth }, out, async (session) => {
    const several = session.units.length > 1;
    // From here on SIGINT/SIGTERM stop the apply gently (the state saved, exit 130); a second forces.
    // A forced stop still gives the lock up (bounded: a state server that hangs does not hold the exit).
    let holding: StateStore | undefined;
    const interrupt = catchInterrupts({
      say: err,
      force: (code) => {
        const release = holding ? holding.unlock().catch(() => undefined) : Promise.resolve();
        void Promise.race([release, new Promise((resolve) => setTimeout(resolve, 2000).unref())]).finally(() => process.exit(code));
      },
    });
    let outcomes: StackApplyOutcome[];
    try {
      outcomes = await applySession(
        session,
        {
          destroy,
          ...(saved ? { saved: { file: planfile!, parts: saved } } : {}),
          checkQueries: o.checkQueries,
          parallelism: o.parallelism,
          insights: insightsOf(o),
          moveDetection: o.moveDetection,
          autoApprove: o.autoApprove,
          allowEmpty: o.allowEmpty,
          warningsAsErrors: o.warningsAsErrors,
          stop: interrupt.signal,
        },
        {
          print: out,
          warn: err,
          showPlan: (sp) => out(renderStackPlan(sp)),
          confirm,
          onEvent: progress,
          ...(o.annotate ? { applied: (sp: StackPlan, startedAt: Date) => annotateStack(sp, startedAt) } : {}),
          holding: (store) => {
            holding = store;
          },
        },
      );
    } finally {
      interrupt.dispose();
    }
    printSummary(outcomes, several);
    if (interrupt.signal.aborted) setExit(EXIT_INTERRUPTED);
    else if (outcomes.some((x) => x.failed)) setExit(EXIT_ERROR);
    });
  };

  applyLike("apply", "Apply the configuration (or a saved plan) to the service.").action(
    async (planfile: string | undefined, o: CommonOpts & { autoApprove?: boolean; parallelism: number; allowEmpty?: boolean; annotate?: boolean }) =>
      runApplyCommand(false, planfile, o),
  );
  applyLike("destroy", "Delete everything the selected stacks manage (dependent stacks first).").action(
    async (o: CommonOpts & { autoApprove?: boolean; parallelism: number }) => runApplyCommand(true, undefined, o),
  );

  withWarningsAsErrors(withWorkspaceOptions(program.command("drift")))
    .description("Refresh only: list what changed outside the selected stacks. Exit 2 when something did.")
    .option("--json", "print the drift as JSON (the automation API's drift result)")
    .action(async (o: CommonOpts & WarningsOpts & { json?: boolean }) => {
      // With --json, stdout keeps the document: the target lines go to stderr.
      await withCliSession(o, o.json ? err : out, async (session) => {
      const several = session.units.length > 1;
      const outcomes: StackOutcome[] = [];
      let drifted = false;
      let warnings = session.synthWarnings;
      const reports: StackDrift[] = [];
      for (const unit of session.units) {
        // What loading the stack found (as the plan prints it first).
        for (const w of unit.loaded.warnings) err(`Warning: ${w}`);
        warnings += unit.loaded.warnings.length;
        const report = await driftOfStack(unit);
        reports.push(report);
        const { lines, advice } = driftLines(report);
        const prefix = several ? `Stack ${unit.name}: ` : "";
        if (lines.length === 0) {
          if (!o.json) out(`${prefix}No drift: every managed object is as the last apply left it.`);
          outcomes.push({ stack: unit.name, line: "no drift", failed: false });
        } else {
          drifted = true;
          const restore = advice.length > 0 ? `Run "ods apply" to restore the configuration, but first:\n${advice.join("\n")}` : 'Run "ods apply" to restore the configuration.';
          if (!o.json) out(`${prefix}Drift detected (${lines.length}):\n${lines.join("\n")}\n${restore}`);
          outcomes.push({ stack: unit.name, line: `${lines.length} drifted`, failed: false });
        }
      }
      if (o.json) out(JSON.stringify(driftResult(reports), null, 2));
      else printSummary(outcomes, several);
      if (drifted) setExit(EXIT_CHANGES);
      if (failsForWarnings(o, warnings, "while looking for drift")) setExit(EXIT_ERROR);
      });
    });

  withWorkspaceOptions(program.command("import <address> <id>"))
    .description("Bring an existing object under management: ods import ods_notifier.oncall ID")
    .action(async (address: string, id: string, o: CommonOpts) => {
      await withCliSession(o, out, async (session) => {
      const unit = onlyUnit(session.units, "import");
      const decl = unit.loaded.resources.find((r) => r.address === address);
      if (!decl) throw new Error(`${address} is not declared in stack ${unit.name}; declare it first, then import`);
      const target = unit.targets.get(decl.provider)!;
      // Locked until the session closes its stores.
      await unit.store.lock("ods import");
      {
        const state = await unit.store.read();
        checkStateBelongs(unit, state);
        if (state.resources[address]) throw new Error(`${address} is already managed (id ${state.resources[address].id}); "${odsCommand(unit.name, `state rm ${address}`)}" first`);
        const live = await decl.kind.api.read(target.client, id);
        if (!live) throw new Error(`no ${decl.typeName} with id "${id}" (expected ${decl.kind.importIdFormat})`);
        // The same normalization as `terraform import` (src/lifecycle/values.ts).
        const imported = importedState(decl.kind, live);
        state.resources[address] = {
          typeName: decl.typeName,
          ...imported,
          secretFingerprints: {},
          dependsOn: decl.dependsOn.filter((a) => !a.startsWith("data.")),
          ...(decl.provider !== "ods" ? { provider: providerAddress(decl.provider) } : {}),
          ...(decl.sensitiveAttributes.length > 0 ? { sensitiveAttributes: decl.sensitiveAttributes } : {}),
        };
        if (target.organization) setStateOrganization(state, decl.provider, target.organization);
        await unit.store.write(state);
        out(`Imported ${address} (id ${id}). Run "ods plan" to see how it differs from the configuration.`);
      }
      });
    });

  const state = program.command("state").description("Inspect or edit the state (through the stack's backend, or --state FILE).");
  withWorkspaceOptions(state.command("list")).action(async (o: CommonOpts) => {
    for (const [address, r] of Object.entries((await readOnly(o)).resources)) out(`${address}\t${r.id}`);
  });
  withWorkspaceOptions(state.command("show <address>")).action(async (address: string, o: CommonOpts) => {
    const r = (await readOnly(o)).resources[address];
    if (!r) throw new Error(`${address} is not in the state`);
    const kind = resourceKind(r.typeName);
    // Sensitive in the schema, carrying a sensitive variable's value, or marked for a
    // sensitive value it took through a reference.
    const hiddenByVar = new Set([...(r.sensitiveAttributes ?? []), ...(r.marked ?? [])]);
    out(`# ${address}${providerKey(r.provider) !== "ods" ? ` (provider ${providerKey(r.provider)})` : ""}\nid = ${JSON.stringify(r.id)}`);
    for (const [k, v] of Object.entries({ ...r.values, ...r.engineValues })) {
      if (k === "id" || v === null) continue;
      out(`${k} = ${kind?.attributes[k]?.sensitive || hiddenByVar.has(k) ? "(sensitive)" : displayValue(v, nestedAttributes(kind?.attributes[k]))}`);
    }
    for (const k of Object.keys(r.sensitive ?? {})) out(`${k} = (sensitive)`);
  });
  withWorkspaceOptions(state.command("rm <address>")).action(async (address: string, o: CommonOpts) => {
    const store = cliStoreOnly(o);
    await withState(store, "ods state rm", async () => {
      const s = await store.read();
      if (!s.resources[address]) throw new Error(`${address} is not in the state`);
      delete s.resources[address];
      await store.write(s);
      out(`Removed ${address} from the state; the live object was not touched.`);
    });
  });
  withWorkspaceOptions(state.command("mv <source> <destination>"))
    .description("Move an object to another address in the state, keeping its id (and a token's secret), like terraform state mv; the service is not called.")
    .option("--dry-run", "say what would move, and change nothing")
    .action(async (source: string, destination: string, o: CommonOpts & { dryRun?: boolean }) => {
      const store = cliStoreOnly(o);
      await withState(store, o.dryRun ? undefined : "ods state mv", async () => {
        const s = await store.read();
        const move = stateMove(s, source, destination);
        if (o.dryRun) {
          out(`Would move ${move.from} to ${move.to} (id ${move.id}); nothing was changed.`);
          return;
        }
        applyMoves(s, [move]);
        await store.write(s);
        out(`Moved ${move.from} to ${move.to} (id ${move.id}); the live object was not touched.`);
      });
    });
  registerStateTransferCommands(state);

  withWorkspaceOptions(program.command("output [name]"))
    .description("Show the stack's outputs; sensitive ones only with --show-sensitive.")
    .option("--show-sensitive", "print sensitive values")
    .option("--json", "print as JSON")
    .action(async (name: string | undefined, o: CommonOpts & { showSensitive?: boolean; json?: boolean }) => {
      const state = await readOnly(o);
      const outputs = state.outputs;
      const names = name ? [name] : Object.keys(outputs).sort();
      if (name && !outputs[name]) throw new Error(`no output "${name}"; outputs: ${Object.keys(outputs).join(", ") || "none (apply first)"}`);
      const secrets = new Set(secretForms(secretValuesIn(state)));
      const carriesSecret = (value: unknown): boolean => secretForms(value).some((f) => secrets.has(f));
      const shown: Record<string, unknown> = {};
      for (const n of names) shown[n] = (outputs[n].sensitive || carriesSecret(outputs[n].value)) && !o.showSensitive ? "(sensitive)" : outputs[n].value;
      if (o.json) out(JSON.stringify(name ? shown[name] : shown, null, 2));
      else if (name) out(typeof shown[name] === "string" ? String(shown[name]) : JSON.stringify(shown[name]));
      else for (const n of names) out(`${n} = ${typeof shown[n] === "string" ? String(shown[n]) : JSON.stringify(shown[n])}`);
    });
}

/** The state store of the one selected stack, without loading the stack (no variables needed). */
function cliStoreOnly(o: CommonOpts): StateStore {
  return storeOnly(o, err);
}

/**
 * Runs `fn` with a state store, under its lock when `command` is given (it fails at
 * once, naming the holder, when another run holds it), and closes the store (lock
 * released, connections ended) whatever happens.
 */
async function withState<T>(store: StateStore, command: string | undefined, fn: () => Promise<T>): Promise<T> {
  try {
    if (command) await store.lock(command);
    return await fn();
  } finally {
    await store.close();
  }
}

/** The state of the one selected stack, read without a lock. */
async function readOnly(o: CommonOpts): Promise<StateFile> {
  const store = cliStoreOnly(o);
  return withState(store, undefined, () => store.read());
}

/**
 * `ods state pull`, `ods state push FILE` and `ods state unlock ID`, as Terraform's
 * `state pull`, `state push` and `force-unlock`.
 */
function registerStateTransferCommands(state: Command): void {
  withWorkspaceOptions(state.command("pull"))
    .description("Print the state as stored (Terraform's format), like terraform state pull.")
    .action(async (o: CommonOpts) => {
      const store = cliStoreOnly(o);
      const text = await withState(store, undefined, async () => {
        const stored = await store.readText(); // with the journal of a run that stopped early
        if (stored !== undefined) return stored;
        const s = await store.read(); // the previous ods format, converted on the fly
        return Object.keys(s.resources).length > 0 ? serializeState(s) : "";
      });
      if (text) process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
    });
  withWorkspaceOptions(state.command("push <file>"))
    .description("Replace the stored state with FILE, like terraform state push ('-' reads stdin).")
    .option("--force", "replace a state of another lineage, a higher serial, or one that is empty (lost)")
    .action(async (file: string, o: CommonOpts & { force?: boolean }) => {
      const text = fs.readFileSync(file === "-" ? 0 : file, "utf8");
      const pushed = parseState(text, file === "-" ? "standard input" : file);
      const store = cliStoreOnly(o);
      await withState(store, "ods state push", async () => {
        // With --force the stored state is not read: it may be the lost one being replaced.
        const current = o.force ? emptyState() : await store.read();
        if (!o.force && current.lineage && pushed.lineage && current.lineage !== pushed.lineage) {
          throw new Error(`cannot push: the stored state has lineage ${current.lineage} and ${file} has ${pushed.lineage}; they are different states. Pass --force to replace it anyway`);
        }
        if (!o.force && current.lineage && pushed.serial < current.serial) {
          throw new Error(`cannot push: ${file} has serial ${pushed.serial}, older than the stored state's ${current.serial}. Pass --force to replace it anyway`);
        }
        if (pushed.convertedFrom) {
          // The previous ods format: written in Terraform's, as any first write converts it.
          delete pushed.convertedFrom;
          await store.write(pushed);
        } else {
          await store.writeText(text);
        }
        out(`Pushed ${file} to the ${store.description}.`);
      });
    });
  withWorkspaceOptions(state.command("unlock <id>"))
    .description("Release a lock left by a crashed run, like terraform force-unlock.")
    .action(async (id: string, o: CommonOpts) => {
      const store = cliStoreOnly(o);
      await withState(store, undefined, () => store.backend.forceUnlock(id));
      out(`Released the lock ${id} of the ${store.description}.`);
    });
}

function onlyUnit(units: StackUnit[], what: string): StackUnit {
  if (units.length !== 1) throw new StackError([`${what} works on one stack; select it with --stack`]);
  return units[0];
}

