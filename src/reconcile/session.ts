// A session: the stacks one run works on. It synthesizes (when asked), selects the
// stacks, reads the variables, loads each stack with its targets and state store, asks
// each target which organization it reaches, and closes every store at the end. The
// CLI's plan/apply/drift/destroy, `ods watch` and the automation API all open one here.
import { StackError, findStackFile } from "./stack";
import { VariableError, type VariableInputs } from "./variables";
import { inputsOfStack } from "./variable-inputs";
import { listStacks, selectStacks } from "./stack-selection";
import { synth, synthWarnings } from "./synth";
import { projectRoot, stateStoreFor } from "./state-location";
import { describeTargets, openStack, type StackUnit, type StateOf } from "./stack-unit";
import { targetLine, type TargetFlags } from "./target";
import { savedStacks, type PlannedPart, type SavedPlan } from "./saved-plan";
import type { StackPlan } from "./stack-plan";
import type { ProviderConfiguration } from "./stack";
import type { StateStore } from "./state";

/** Which stacks, from where, against which service. */
export interface SessionOptions extends TargetFlags {
  /** Stacks by name (none: the only one). */
  stack: readonly string[];
  allStacks?: boolean;
  /** The cdktf output directory. */
  outDir: string;
  /** A local state file instead of the stack's backend (one stack only). */
  state?: string;
  /** The app command (default: cdktf.json's). */
  app?: string;
  /** Run the app first. */
  synth: boolean;
  /** The directory the app runs in (default: the process's). */
  cwd?: string;
}

/** A service the provider configurations that name none are pointed at (the project's emulator). */
export interface TargetEnvironment {
  envFor: (provider: ProviderConfiguration) => Promise<NodeJS.ProcessEnv>;
  close: () => Promise<void>;
}

/** What a session tells its caller, and what the caller provides. */
export interface SessionHooks {
  /** The target lines, printed before anything else. */
  print: (line: string) => void;
  /** Notices (synthesizing, a legacy state converted, a stale stack directory). */
  log: (line: string) => void;
  /** Told every sensitive value a stack carries: the caller hides it in what it shows. */
  hide: (values: readonly string[]) => void;
  /** The variables (--var, --var-file, or the API's), given the stacks there are. */
  variables: (knownStacks: readonly string[]) => Promise<VariableInputs>;
  /** The project's own service for configurations that name none (the CLI's embedded emulator). */
  environment?: (projectRoot: string, flags: TargetFlags) => TargetEnvironment | undefined;
  /** The environment targets read (ODS_URL, ODS_TOKEN, ...): the process's unless given. */
  env?: NodeJS.ProcessEnv;
}

export interface Session {
  units: StackUnit[];
  /** How many warnings the synthesis printed (none without a synthesis). */
  synthWarnings: number;
  /** Another stack's state, for its outputs. */
  stateOf: StateOf;
  /** Closes every stack's state store (locks released, connections ended). */
  close: () => Promise<void>;
}

/** Runs work on a session, closing its state stores whatever happens. */
export async function withSession<T>(o: SessionOptions, hooks: SessionHooks, fn: (session: Session) => Promise<T>): Promise<T> {
  const session = await openSession(o, hooks);
  try {
    return await fn(session);
  } finally {
    await session.close();
  }
}

/**
 * Synthesizes, selects the stacks, reads variables, loads each stack and asks each
 * target which organization it reaches, then prints the targets: before anything else.
 * `prepare` is a caller's own setup of each stack (ods watch: its clients), before any call.
 */
export async function openSession(o: SessionOptions, hooks: SessionHooks, prepare?: (unit: StackUnit) => Promise<void>): Promise<Session> {
  let synthWarningCount = 0;
  if (o.synth) {
    hooks.log(`Synthesizing ${o.app ?? "the app of cdktf.json"} into ${o.outDir} ...`);
    await synth({ app: o.app, out: o.outDir, ...(o.cwd ? { cwd: o.cwd } : {}), ...(hooks.env ? { env: hooks.env } : {}), warn: (text) => hooks.log(text.replace(/\n$/, "")) });
    synthWarningCount = synthWarnings(o.outDir).length;
  }
  const selected = selectStacks(o.outDir, o.stack, o.allStacks === true, hooks.log);
  if (o.state && selected.length > 1) throw new StackError([`--state names one state file, but ${selected.length} stacks were selected; each stack keeps its own state (through its backend)`]);
  const variables = await hooks.variables(listStacks(o.outDir).map((s) => s.name));
  const units: StackUnit[] = [];
  const flags: TargetFlags = { url: o.url, token: o.token, orgId: o.orgId };
  const environment = hooks.environment?.(projectRoot(o.outDir), flags);
  const close = async (): Promise<void> => {
    for (const u of units) await u.store.close();
    await environment?.close();
  };
  const stateOf: StateOf = async (name) => {
    const unit = units.find((u) => u.name === name);
    if (unit) return unit.store.read();
    let file: string;
    try {
      file = findStackFile(o.outDir, name);
    } catch {
      return undefined; // not synthesized: no outputs yet
    }
    const store = stateStoreFor(file, name, o.outDir, undefined, hooks.log);
    try {
      return await store.read();
    } finally {
      await store.close();
    }
  };
  try {
    for (const s of selected) {
      units.push(
        await openStack(s, {
          variables: inputsOfStack(variables, s.name),
          flags,
          ...(hooks.env ? { env: hooks.env } : {}),
          envFor: environment?.envFor,
          storeOf: (x) => stateStoreFor(x.file, x.name, o.outDir, o.state, hooks.log),
          hide: hooks.hide,
        }),
      );
      await prepare?.(units[units.length - 1]);
    }
    await checkSession(units, variables, hooks.print);
  } catch (e) {
    await close();
    throw e;
  }
  return { units, stateOf, close, synthWarnings: synthWarningCount };
}

async function checkSession(units: StackUnit[], variables: VariableInputs, print: (line: string) => void): Promise<void> {
  // As Terraform: a value for a variable no selected stack declares is a mistake (a typo?).
  const declared = new Set(units.flatMap((u) => u.loaded.variables));
  const undeclared = [...new Set(variables.assignments.filter((a) => a.source === "--var" && !declared.has(a.name)).map((a) => a.name))];
  if (undeclared.length > 0) {
    throw new VariableError(undeclared.map((n) => `--var ${n}=...: no selected stack declares a variable "${n}"${declared.size > 0 ? `; declared: ${[...declared].sort().join(", ")}` : ""}`));
  }
  // The same for a stack's own --var: that stack must declare it.
  const problems: string[] = [];
  for (const a of variables.assignments) {
    const unit = a.stack !== undefined && a.source.startsWith("--var ") ? units.find((u) => u.name === a.stack) : undefined;
    if (unit && !unit.loaded.variables.includes(a.name)) {
      problems.push(`${a.source}=...: stack ${unit.name} declares no variable "${a.name}"${unit.loaded.variables.length > 0 ? `; it declares: ${[...unit.loaded.variables].sort().join(", ")}` : ""}`);
    }
  }
  if (problems.length > 0) throw new VariableError([...new Set(problems)]);
  for (const unit of units) {
    await describeTargets(unit);
    for (const target of unit.targets.values()) print(targetLine(unit.name, target));
  }
}

/**
 * The state store of the one selected stack, without loading the stack (no variables
 * needed): --state FILE, else the stack's backend.
 */
export function storeOnly(o: SessionOptions, log: (line: string) => void): StateStore {
  const selected = selectStacks(o.outDir, o.stack, o.allStacks === true, log);
  if (selected.length !== 1) throw new StackError([`this command works on one stack; ${selected.length} were selected`]);
  return stateStoreFor(selected[0].file, selected[0].name, o.outDir, o.state, log);
}

/** Each stack's plan for each provider configuration, as a plan file saves them. */
export function plannedParts(plans: readonly StackPlan[]): PlannedPart[] {
  return plans.flatMap((sp) => sp.parts.map((p) => ({ stack: sp.unit.name, stackFile: sp.unit.file, provider: p.provider, plan: p.plan })));
}

/**
 * A saved plan runs the stacks it was planned for, no more, no fewer: --stack or
 * --all-stacks may repeat that choice but not change it.
 */
export function savedSelection<T extends SessionOptions>(file: string, saved: readonly SavedPlan[], o: T): T {
  const stacks = savedStacks(saved);
  const asked = o.allStacks ? listStacks(o.outDir).map((s) => s.name) : o.stack;
  if (asked.length > 0 && [...asked].sort().join("\n") !== [...stacks].sort().join("\n")) {
    throw new StackError([`${file} is the plan of stack${stacks.length > 1 ? "s" : ""} ${stacks.join(", ")}, not of ${asked.join(", ")}: apply it without --stack, or make a new plan of those stacks`]);
  }
  return { ...o, stack: stacks, allStacks: false };
}
