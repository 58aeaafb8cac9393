// The automation API's entry point: a project directory and how to reach its service,
// with plan, apply, drift, destroy, saved plans and watch, in the caller's process. It
// runs the engine `ods` runs (src/reconcile: sessions, stack plans and applies, the
// watcher's rounds), never an `ods` process; only the project's app is run, to synthesize,
// as `ods` does.
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import type { ApplyEvent } from "../reconcile/apply";
import { renderPlan } from "../reconcile/render";
import { readSavedParts, savedPlanFile, type SavedPlan } from "../reconcile/saved-plan";
import { openSession, plannedParts, savedSelection, withSession, type Session, type SessionHooks, type SessionOptions } from "../reconcile/session";
import { applySession } from "../reconcile/session-apply";
import { driftOfStack } from "../reconcile/session-drift";
import { planSession } from "../reconcile/session-plan";
import { declaredSloNames, sloReport, sloReportJson } from "../reconcile/slo-report";
import { stackHasChanges, type StackPlan } from "../reconcile/stack-plan";
import { inputsOfStack, readVariableInputs, type VarInput } from "../reconcile/variable-inputs";
import type { VariableAssignment } from "../reconcile/variables";
import { redactText, secretForms } from "../reconcile/redact";
import { Watcher, WatchMetrics, abortableSleep, type OpenedRound, type WatchStatus } from "../reconcile/watch";
import { sessionStack } from "../reconcile/watch/session-stack";
import { synth } from "../reconcile/synth";
import { ALERT_TEST_FILE, InvalidAlertTests, prepareSuite, readSuiteFiles, runSuiteFile } from "./alert-test-suite";
import { renderReport } from "./alert-tests/report";
import { OdsClient, resolveClientConfig } from "../api";
import { compareTargets, renderComparison, type Target as CompareTarget } from "../compare/compare";
import { parseIgnoreRule } from "../compare/ignore";
import { organizationTarget, stackTarget } from "../compare/targets";
import { parseNameMapping } from "../export/name-mapping";
import { resolveKinds } from "../export/org-snapshot";
import { selectStacks } from "../reconcile/stack-selection";
import { StackProblem, typedError } from "./errors";
import type { AutomationEvent } from "./events";
import type { AlertTestResult, CompareResult, ApplyResult, DriftResult, Json, PlanResult, SloFigures, SloReportResult } from "./results";
import { applyResult, driftResult, planResult, redactResult } from "./serialize";

export interface WorkspaceOptions {
  /** The project directory: where cdktf.json is, and where the app runs. */
  dir: string;
  /** The cdktf output directory, relative to `dir` (default `cdktf.out`). */
  outDir?: string;
  /** Run the app before each operation, as `ods` does (default true); false: use what `outDir` holds. */
  synth?: boolean;
  /** The app command (default: cdktf.json's `app`). */
  app?: string;
  /** The stacks to work on (default: the only one). */
  stacks?: string[];
  /** Every stack, in dependency order. */
  allStacks?: boolean;
  /** Service URL, token and organization for stacks with one provider configuration (default: the provider block, then ODS_URL, ODS_TOKEN, ODS_ORG_ID of `env`). */
  url?: string;
  token?: string;
  orgId?: string;
  /** Values of the stacks' variables (as a .tfvars.json file holds them), for every stack; after `varFiles` and TF_VAR_*. */
  variables?: Record<string, unknown>;
  /** Variables files (.tfvars.json, .json, or .tfvars with @cdktf/hcl2json), `STACK=FILE` for one stack's. */
  varFiles?: string[];
  /** A local state file instead of the stack's backend (one stack only). */
  state?: string;
  /** The environment targets and variables are read from (ODS_*, TF_VAR_*): default the process's. */
  env?: NodeJS.ProcessEnv;
  /** Calls in flight at once (default 10). */
  parallelism?: number;
}

/** Options of a plan. */
export interface PlanOptions {
  /** Compile changed starred queries on the service while planning (default true). */
  checkQueries?: boolean;
  /** Replay created or changed monitors over this many past days (default 7); false: no backtest. */
  backtestDays?: number | false;
  /** Turn a delete and a create of one natural key into a move (default true). */
  moveDetection?: boolean;
  /** Told the targets, notices and each stack's plan text as the plan goes. */
  onEvent?: (event: AutomationEvent) => void;
}

/** Options of an apply or a destroy. */
export interface ApplyOptions {
  /** Told the targets, each stack's plan, every change as it starts and ends, warnings and the summary. */
  onEvent?: (event: AutomationEvent) => void;
  /** Aborting stops the apply as SIGINT stops `ods apply`: no new change starts, the calls in flight finish, the state is saved. */
  signal?: AbortSignal;
  /** Apply without asking (`confirm`); a plan given to apply() is its own approval. */
  autoApprove?: boolean;
  /** Asked before a stack with changes is applied, when not auto-approved. */
  confirm?: (question: string) => Promise<boolean>;
  /** Apply a stack that declares nothing while its state manages objects (deletes them all). */
  allowEmpty?: boolean;
  /** Any warning fails the stack (the plan's before any write). */
  warningsAsErrors?: boolean;
}

/** Options of watch(). */
export interface WatchOptions {
  /** Between rounds (default 60,000 ms). */
  intervalMs?: number;
  /** Drift (a change outside the stacks): reported, or corrected by an apply (default "report"). */
  onDrift?: "report" | "correct";
  /** Waiting for another run's lock, at most (default 30,000 ms). */
  lockTimeoutMs?: number;
}

/** What compare() compares the workspace's stack with. */
export interface CompareOptions {
  /** An organization's URL (http:// or https://), or another synthesized stack (its directory or file). */
  to: string;
  /** The token of the `to` organization (default: ODS_TOKEN of the workspace's env). */
  toToken?: string;
  /** Only these kinds (`notifier`, `ods_notifier`, ...). */
  kinds?: string[];
  /** Renamings of the stack's names to the other side's (`stg-=prod-`), tried in order. */
  map?: string[];
  /** What differs on purpose: KIND, KIND.ATTRIBUTE or ATTRIBUTE. */
  ignore?: string[];
  /** Names of calling tokens to leave out of an organization (default: the emulator's). */
  selfTokens?: string[];
}

/** One round of watch(): the watcher's status after it (the shape of `ods watch`'s /status). */
export interface WatchRound {
  round: number;
  ok: boolean;
  status: WatchStatus;
}

export interface WatchHandle extends AsyncIterable<WatchRound> {
  /** Ends the loop: the round running finishes first. */
  stop(): void;
}

/** A plan the API made, with what apply() needs to apply exactly it. */
const plansMade = new WeakMap<PlanResult, SavedPlan[]>();

export class Workspace {
  /** The project directory, absolute. */
  readonly dir: string;
  /** The cdktf output directory, absolute. */
  readonly outDir: string;
  private readonly secrets = new Set<string>();

  constructor(private readonly options: WorkspaceOptions) {
    if (!options || typeof options.dir !== "string" || options.dir === "") throw new TypeError("new Workspace({ dir }): dir must name the project directory");
    this.dir = path.resolve(options.dir);
    this.outDir = path.resolve(this.dir, options.outDir ?? "cdktf.out");
  }

  /** What `ods plan` shows, for every selected stack. A stack that cannot be planned is in `errors` (with several stacks) or thrown (StackProblem). */
  async plan(options: PlanOptions = {}): Promise<PlanResult> {
    return this.run(options.onEvent, {}, async (session) => {
      const { plans, failures } = await planSession(session, this.planRun(options), { planned: (sp) => this.told(options.onEvent, planEvent(sp)) });
      const result = this.clean(planResult(plans, failures));
      plansMade.set(result, this.savedParts(plans));
      return result;
    });
  }

  /** Plans and saves the plan to `file` (`ods plan --out FILE`): applySaved(file) applies exactly it, or refuses once anything moved. */
  async savePlan(file: string, options: PlanOptions = {}): Promise<PlanResult> {
    const result = await this.plan(options);
    if (result.errors.length > 0) throw typedError(new Error(`the plan was not saved to ${file}: stack${result.errors.length > 1 ? "s" : ""} ${result.errors.map((f) => f.stack).join(", ")} could not be planned`));
    const parts = plansMade.get(result)!;
    const body = parts.length === 1 ? parts[0] : { kind: "ods-plan-set", formatVersion: 1, plans: parts };
    fs.writeFileSync(file, `${JSON.stringify(body, null, 2)}\n`, { mode: 0o600 });
    return result;
  }

  /** Applies a saved plan (`ods apply FILE`): only while it still holds. */
  async applySaved(file: string, options: ApplyOptions = {}): Promise<ApplyResult> {
    const parts = readSavedParts(file);
    return this.applyWith({ file, parts }, options, false);
  }

  /**
   * Applies the configuration (a fresh plan, which needs `autoApprove` or `confirm`), or
   * exactly a plan this workspace made (refused once anything moved since).
   */
  async apply(planOrOptions?: PlanResult | (PlanOptions & ApplyOptions), options: ApplyOptions = {}): Promise<ApplyResult> {
    if (planOrOptions && isPlanResult(planOrOptions)) {
      const parts = plansMade.get(planOrOptions);
      if (!parts) throw new TypeError("apply(plan): the plan was not made by this API's plan() (a copy or a parsed JSON is not enough); pass the object plan() returned, or save it with savePlan()");
      return this.applyWith({ file: "given to apply()", parts }, options, false);
    }
    return this.applyWith(undefined, { ...planOrOptions, ...options }, false, planOrOptions);
  }

  /** Deletes everything the selected stacks manage (dependent stacks first). */
  async destroy(options: ApplyOptions = {}): Promise<ApplyResult> {
    return this.applyWith(undefined, options, true);
  }

  /** What changed outside the selected stacks since their last apply, per object and attribute (`ods drift`). */
  async drift(options: { onEvent?: (event: AutomationEvent) => void } = {}): Promise<DriftResult> {
    return this.run(options.onEvent, {}, async (session) => {
      const reports = [];
      for (const unit of session.units) reports.push(await driftOfStack(unit));
      return this.clean(driftResult(reports));
    });
  }

  /**
   * Compares the workspace's one stack (as synthesized) with an organization or another
   * stack, object by object, matched by natural key: `ods compare --from STACK --to ...`.
   */
  async compare(options: CompareOptions): Promise<CompareResult> {
    const o = this.options;
    const env = o.env ?? process.env;
    try {
      // Bad mappings and rules fail before anything is read.
      const mappings = (options.map ?? []).map(parseNameMapping);
      const ignore = (options.ignore ?? []).map(parseIgnoreRule);
      const kinds = options.kinds ? resolveKinds(options.kinds) : undefined;
      if (o.synth !== false) await synth({ app: o.app, out: this.outDir, cwd: this.dir, env, warn: () => undefined });
      const selected = selectStacks(this.outDir, o.stacks ?? [], o.allStacks === true, () => undefined);
      if (selected.length !== 1) throw new StackProblem([`compare works on one stack; ${selected.length} were selected`]);
      const variables = await this.hooks(undefined).variables(selectStacks(this.outDir, [], true, () => undefined).map((x) => x.name));
      // Stacks are named from the project directory, as `ods compare` run there names them.
      const relative = (t: CompareTarget, file: string): CompareTarget => ({ ...t, label: path.relative(this.dir, file) || file });
      const from = relative(stackTarget(selected[0].file, { ...(kinds ? { kinds } : {}), variables: inputsOfStack(variables, selected[0].name) }), selected[0].file);
      let to: CompareTarget;
      if (/^https?:\/\//.test(options.to)) {
        const token = options.toToken ?? env.ODS_TOKEN;
        if (!token) throw new StackProblem([`compare: no token for ${options.to}: pass toToken or set ODS_TOKEN`]);
        const client = new OdsClient(resolveClientConfig({ url: options.to, token }, {}));
        try {
          const orgs = await client.listOrganizations();
          const label = `${options.to}${orgs[0] ? ` (organization ${orgs[0].name ?? orgs[0].id})` : ""}`;
          to = await organizationTarget(client, label, { ...(kinds ? { kinds } : {}), selfTokenNames: options.selfTokens ?? ["emulator-admin"] });
        } finally {
          await client.close();
        }
      } else {
        const other = path.resolve(this.dir, options.to);
        to = relative(stackTarget(other, { ...(kinds ? { kinds } : {}), variables }), fs.statSync(other).isDirectory() ? path.join(other, "cdk.tf.json") : other);
      }
      const c = compareTargets(from, to, { mappings, ignore });
      const secrets = [...(from.sensitiveValues ?? []), ...(to.sensitiveValues ?? [])].flatMap(secretForms);
      for (const v of secrets) this.secrets.add(v);
      const hidden = (v: unknown, sensitive: boolean | undefined): Json => (sensitive ? "(sensitive)" : v === undefined ? null : (JSON.parse(JSON.stringify(v)) as Json));
      return this.clean({
        from: from.label,
        to: to.label,
        same: c.differences.length === 0,
        compared: c.compared,
        differing: c.differing,
        onlyFrom: c.onlyFrom,
        onlyTo: c.onlyTo,
        differences: c.differences.map((d) => ({
          type: d.typeName,
          key: d.key,
          ...(d.fromKey ? { fromKey: d.fromKey } : {}),
          ...(d.mappedBy !== undefined ? { mappedBy: d.mappedBy } : {}),
          kind: d.kind,
          attributes: d.attributes.map((a) => ({ path: a.path, from: hidden(a.from, a.sensitive), to: hidden(a.to, a.sensitive), ...(a.sensitive ? { sensitive: true } : {}), ...(a.item ? { item: a.item } : {}) })),
        })),
        text: redactText(renderComparison(from, to, c), secrets),
      });
    } catch (e) {
      throw typedError(e, { redact: (t) => this.redact(t) });
    }
  }

  /**
   * Runs alert tests (`ods test`): each file's events against an embedded emulator on a
   * manual clock, the alerts its monitors raised compared with the file's. Files default
   * to the project's `*.alerts.yaml`; the stack is the file's, else the workspace's only
   * one. A file that does not parse, or names a monitor its stack lacks, is a StackProblem.
   */
  async test(files?: string[], options: { onEvent?: (event: AutomationEvent) => void } = {}): Promise<AlertTestResult> {
    const names = (files ?? fs.readdirSync(this.dir).filter((f) => ALERT_TEST_FILE.test(f)).sort()).map((f) => path.resolve(this.dir, f));
    if (names.length === 0) throw new StackProblem([`no test files given and no *.alerts.yaml in ${this.dir}`]);
    const env = this.options.env ?? process.env;
    try {
      const parsed = readSuiteFiles(names);
      if (this.options.synth !== false) {
        this.told(options.onEvent, { type: "notice", text: `Synthesizing ${this.options.app ?? "the app of cdktf.json"} into ${this.outDir} ...` });
        await synth({ app: this.options.app, out: this.outDir, cwd: this.dir, env, warn: (text) => this.told(options.onEvent, { type: "notice", text: text.replace(/\n$/, "") }) });
      }
      const stack = this.options.stacks?.length === 1 ? this.options.stacks[0] : undefined;
      const { runs } = prepareSuite(parsed, {
        outDir: this.outDir,
        ...(stack !== undefined ? { stack } : {}),
        env,
        hide: (values) => {
          for (const v of values) this.secrets.add(v);
        },
        warn: (text) => this.told(options.onEvent, { type: "warning", text }),
      });
      const out: AlertTestResult = { files: [], passed: true };
      for (const run of runs) {
        const results = await runSuiteFile(run);
        out.files.push({
          file: run.file.path,
          stack: run.stack.name,
          placeholders: run.placeholders,
          tests: results.map((r) => ({
            name: r.test.name,
            line: r.test.line,
            passed: r.passed,
            ...(r.error !== undefined ? { error: r.error } : {}),
            monitors: r.monitors.map((m) => ({ monitor: m.expectation.monitor, raised: m.actual.length, missing: m.missing.length, unexpected: m.unexpected.length, lacking: m.content.flatMap((c) => c.lacking) })),
          })),
          report: renderReport(run.file.path, results, [...this.secrets]),
        });
        if (results.some((r) => !r.passed)) out.passed = false;
      }
      return this.clean(out);
    } catch (e) {
      if (e instanceof InvalidAlertTests) throw new StackProblem(e.problems.map((p) => this.redact(p)), { cause: e });
      throw typedError(e, { redact: (t) => this.redact(t) });
    }
  }

  /**
   * Each SLO the selected stacks declare (slo.Slo), with its figures over its window read
   * from the live service (`ods slo report --stack NAME --format json`).
   */
  async sloReport(options: { onEvent?: (event: AutomationEvent) => void } = {}): Promise<SloReportResult> {
    return this.run(options.onEvent, {}, async (session) => {
      const slos: SloFigures[] = [];
      const notApplied: string[] = [];
      for (const unit of session.units) {
        // The stack's default provider configuration, as `ods slo report --stack` reads it.
        const target = unit.targets.get("ods") ?? [...unit.targets.values()][0];
        if (!target) continue;
        const report = sloReportJson(await sloReport(target.client, Date.now(), declaredSloNames(unit.file)));
        slos.push(...(report.slos as unknown as SloFigures[]));
        notApplied.push(...report.notApplied);
      }
      return this.clean({ slos, notApplied });
    });
  }

  /**
   * Reconciles the selected stacks every interval, as `ods watch --on-change apply` does
   * for a branch, here for the workspace's directory as it is at each round.
   */
  watch(options: WatchOptions = {}): WatchHandle {
    const stop = new AbortController();
    const interval = options.intervalMs ?? 60_000;
    const self = this;
    let session: Session | undefined;
    const watcher = new Watcher({
      source: {
        open: async (signal): Promise<OpenedRound> => {
          session = await openSession(self.sessionOptions(self.options.synth !== false), self.hooks(undefined));
          const opened = session;
          if (signal.aborted) {
            await opened.close();
            throw new Error("stopped");
          }
          const revision = revisionOf(opened);
          return {
            revision,
            stacks: opened.units.map((unit) => sessionStack(unit, opened, { revision, parallelism: self.parallelism, requests: () => 0 })),
            close: async () => {
              session = undefined;
              await opened.close();
            },
          };
        },
      },
      schedule: { intervalMs: interval, jitter: 0, maxBackoffMs: interval },
      onChange: "apply",
      onDrift: options.onDrift ?? "report",
      annotate: false,
      lockTimeoutMs: options.lockTimeoutMs ?? 30_000,
      metrics: new WatchMetrics(),
      logFormat: "text",
      write: () => undefined,
      sourceName: this.dir,
      branch: "(working directory)",
      redact: (text) => self.redact(text),
    });
    async function* rounds(): AsyncGenerator<WatchRound> {
      let n = 0;
      try {
        while (!stop.signal.aborted) {
          const ok = await watcher.round(stop.signal);
          n += 1;
          yield self.clean({ round: n, ok, status: watcher.status() });
          if (stop.signal.aborted) break;
          await abortableSleep(interval, stop.signal);
        }
      } finally {
        await session?.close().catch(() => undefined);
      }
    }
    const iterator = rounds();
    return {
      [Symbol.asyncIterator]: () => iterator,
      stop: () => stop.abort(),
    };
  }

  private get parallelism(): number {
    return this.options.parallelism ?? 10;
  }

  private planRun(o: PlanOptions): { checkQueries?: boolean; parallelism: number; insights?: { days: number }; moveDetection?: boolean } {
    return {
      checkQueries: o.checkQueries,
      parallelism: this.parallelism,
      ...(o.backtestDays === false ? {} : { insights: { days: o.backtestDays ?? 7 } }),
      moveDetection: o.moveDetection,
    };
  }

  private async applyWith(saved: { file: string; parts: readonly (SavedPlan & { provider?: string })[] } | undefined, o: ApplyOptions, destroy: boolean, planOptions: PlanOptions = {}): Promise<ApplyResult> {
    const stop = new AbortController();
    const onAbort = (): void => stop.abort();
    if (o.signal?.aborted) stop.abort();
    o.signal?.addEventListener("abort", onAbort, { once: true });
    try {
      const base = this.sessionOptions(saved ? false : this.options.synth !== false);
      const selection = saved ? savedSelection(saved.file, saved.parts, base) : base;
      return await this.run(o.onEvent, { applying: true, options: selection }, async (session) => {
        const outcomes = await applySession(
          session,
          { ...this.planRun(planOptions), destroy, ...(saved ? { saved } : {}), autoApprove: o.autoApprove, allowEmpty: o.allowEmpty, warningsAsErrors: o.warningsAsErrors, stop: stop.signal },
          {
            print: (line) => this.told(o.onEvent, { type: "notice", text: line.trim() }),
            warn: (line) => this.told(o.onEvent, { type: line.startsWith("Warning: ") || line.startsWith("Error: ") ? "warning" : "notice", text: line }),
            showPlan: (sp) => this.told(o.onEvent, planEvent(sp)),
            confirm: async (question) => {
              if (!o.confirm) throw typedError(new (await import("../reconcile/stack")).StackError([`${question} The plan has changes: pass autoApprove: true or a confirm function, or apply a plan made by plan()`]), { applying: true });
              return o.confirm(question);
            },
            onEvent: (e: ApplyEvent) => this.told(o.onEvent, { type: "change", ...e }),
          },
        );
        for (const x of outcomes) if (x.summary) this.told(o.onEvent, { type: "summary", text: x.line });
        return this.clean(applyResult(outcomes, stop.signal.aborted));
      });
    } finally {
      o.signal?.removeEventListener("abort", onAbort);
    }
  }

  /** The session options of this workspace. */
  private sessionOptions(synth: boolean): SessionOptions {
    const o = this.options;
    return {
      stack: o.stacks ?? [],
      allStacks: o.allStacks,
      outDir: this.outDir,
      state: o.state === undefined ? undefined : path.resolve(this.dir, o.state),
      app: o.app,
      synth,
      cwd: this.dir,
      url: o.url,
      token: o.token,
      orgId: o.orgId,
    };
  }

  private hooks(onEvent: ((event: AutomationEvent) => void) | undefined): SessionHooks {
    const o = this.options;
    return {
      print: (text) => this.told(onEvent, { type: "target", text }),
      log: (text) => this.told(onEvent, { type: text.startsWith("Warning: ") ? "warning" : "notice", text }),
      hide: (values) => {
        for (const v of values) this.secrets.add(v);
      },
      variables: async (known) => {
        const files: VarInput[] = (o.varFiles ?? []).map((f) => ({ kind: "file", text: path.resolve(this.dir, f) }));
        const inputs = await readVariableInputs(files, known, o.env ?? process.env);
        const given: VariableAssignment[] = Object.entries(o.variables ?? {}).map(([name, value]) => ({ name, value, source: `the variables option (${name})` }));
        return { env: inputs.env, assignments: [...inputs.assignments, ...given] };
      },
      ...(o.env ? { env: o.env } : {}),
    };
  }

  /** Runs work on a session; the engine's errors become the API's typed errors, secrets hidden. */
  private async run<T>(onEvent: ((event: AutomationEvent) => void) | undefined, o: { applying?: boolean; options?: SessionOptions }, fn: (session: Session) => Promise<T>): Promise<T> {
    try {
      return await withSession(o.options ?? this.sessionOptions(this.options.synth !== false), this.hooks(onEvent), fn);
    } catch (e) {
      throw typedError(e, { applying: o.applying, redact: (t) => this.redact(t) });
    }
  }

  private told(onEvent: ((event: AutomationEvent) => void) | undefined, event: AutomationEvent): void {
    onEvent?.(this.clean(event));
  }

  private clean<T>(value: T): T {
    return redactResult(value, this.secrets);
  }

  private redact(text: string): string {
    return redactResult(text, this.secrets);
  }

  private savedParts(plans: readonly StackPlan[]): SavedPlan[] {
    const file = savedPlanFile(plannedParts(plans));
    return file.kind === "ods-plan-set" ? file.plans : [file];
  }
}

function isPlanResult(x: unknown): x is PlanResult {
  return typeof x === "object" && x !== null && Array.isArray((x as PlanResult).stacks) && "has_changes" in x;
}

function planEvent(sp: StackPlan): AutomationEvent {
  const text = sp.parts.length === 1 ? renderPlan(sp.parts[0].plan) : sp.parts.map((p) => `-- provider ${p.provider} (${p.target.url}) --\n${renderPlan(p.plan)}`).join("\n");
  return { type: "plan", stack: sp.unit.name, text, hasChanges: stackHasChanges(sp) };
}

/** A round's revision in a working directory: the digest of the synthesized stacks. */
function revisionOf(session: Session): string {
  const hash = crypto.createHash("sha256");
  for (const u of session.units) hash.update(fs.readFileSync(u.file));
  return hash.digest("hex");
}

