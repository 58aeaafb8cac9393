// One differential run: a generated stack and its steps of changes, applied by `ods apply`
// into one emulator and by `terraform apply` into another. After each step: both engines
// did the same (applied, or refused naming the same attribute), planned the same counts,
// left the same live objects, and each plans no change on the state the other wrote.
import fc from "fast-check";
import * as fs from "node:fs";
import { resourceKind, sameValue } from "../../src/resources";
import { readStateFile, tempDir } from "../helpers/ods-cli";
import { Coverage } from "./coverage";
import { createFixture, Engines, odsCounts, replaceIds, snapshot, stopProviders, terraformCounts, variableValues, type RunOutput, type Service, type Snapshot, type Workspace } from "./engines";
import { applyStep, guardedDatasetChanges, renderStack, scenarioArbitrary, type Scenario, type StepPlan } from "./stack-model";

export interface DifferentialEnv {
  engines: Engines;
  /** `ods apply` writes here. */
  ods: Service;
  /** `terraform apply` writes here. */
  terraform: Service;
}

export class Disagreement extends Error {
  constructor(step: number, what: string, readonly stackJson: unknown) {
    super(`step ${step}: ${what}`);
    this.name = "Disagreement";
  }
}

const tail = (r: RunOutput): string => `exit ${r.code}\n${r.out.split("\n").slice(-40).join("\n")}`;

/** Both outputs, for a message. */
function both(o: RunOutput, t: RunOutput): string {
  return `\n--- ods: ${tail(o)}\n--- terraform: ${tail(t)}`;
}

/** A secret the stack set, seen in an engine's output. */
function leakIn(out: string, secretValue: string): string | undefined {
  if (out.includes(secretValue)) return "the sensitive variable's value";
  if (/secret-\d+-\d+/.test(out)) return `a write-only secret (${/secret-\d+-\d+/.exec(out)![0].replace(/\d+$/, "…")})`;
  if (/\/services\/T0\/B\d+\/XXXX/.test(out)) return "a webhook URL that carries its credential";
  return undefined;
}

function diffSnapshots(a: Snapshot, b: Snapshot): string | undefined {
  const lines: string[] = [];
  for (const type of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const [x, y] = [JSON.stringify(a[type] ?? []), JSON.stringify(b[type] ?? [])];
    if (x === y) continue;
    const xs = (a[type] ?? []).map((o) => JSON.stringify(o));
    const ys = (b[type] ?? []).map((o) => JSON.stringify(o));
    for (const o of xs) if (!ys.includes(o)) lines.push(`  ${type} only after ods:       ${o}`);
    for (const o of ys) if (!xs.includes(o)) lines.push(`  ${type} only after terraform: ${o}`);
  }
  return lines.length > 0 ? lines.join("\n") : undefined;
}

let runs = 0;

/** Runs one scenario; throws a Disagreement (fast-check then shrinks the scenario). */
export async function checkScenario(env: DifferentialEnv, scenario: Scenario, label: string, coverage: Coverage): Promise<void> {
  const prefix = `${label}x${runs++}`;
  const fixture = `${prefix}-fx`;
  await Promise.all([createFixture(env.ods, fixture), createFixture(env.terraform, fixture)]);
  const cache = tempDir("ods-diff-cache-");
  const vars = variableValues(prefix, fixture);
  const secretValue = Object.values(vars)[0];
  const wo = env.engines.workspace(env.ods, vars, cache);
  const wt = env.engines.workspace(env.terraform, vars, cache);
  try {
    let current = scenario.stack;
    for (let i = 0; i <= scenario.steps.length; i++) {
      const plan: StepPlan = i === 0 ? { stack: scenario.stack } : applyStep(current, scenario.steps[i - 1], prefix, fixture);
      if (!plan.refusal && i > 0) {
        const guarded = guardedDatasetChanges(current, plan.stack).find((g) => !g.allowed);
        if (guarded) plan.refusal = { address: guarded.address, attribute: "allow_destroy", injected: false };
      }
      const stack = renderStack(plan, prefix, fixture);
      coverage.add(stack);
      coverage.addMoves(plan.moves);
      const settingsOnly = i === 0 || plan.refusal ? 0 : engineSettingEdits(renderStack({ stack: current }, prefix, fixture), stack);
      const withBlocks = (): Record<string, unknown> => renderStack({ ...plan, moves: plan.moves?.map((m) => ({ ...m, written: true })) }, prefix, fixture);
      await step(i, plan, stack, wo, wt, prefix, secretValue, settingsOnly, () => renderStack({ stack: current }, prefix, fixture), withBlocks);
      if (!plan.refusal) current = plan.stack;
    }
  } finally {
    stopProviders(cache);
    for (const d of [wo.dir, wt.dir, cache]) fs.rmSync(d, { recursive: true, force: true });
  }
}

type Blocks = Record<string, Record<string, Record<string, unknown>>>;

/**
 * Resources whose only changes Terraform sees and ods does not (engine-differences.md):
 * an engine-only setting (allow_destroy, a grace period; a rotation trigger rotates),
 * which Terraform's state records, and an attribute going between unset and the service's
 * default ("" for a description), which Terraform's state tells apart. Terraform plans an
 * in-place update for them; ods records them without a change.
 */
function engineSettingEdits(before: Record<string, unknown>, after: Record<string, unknown>): number {
  let n = 0;
  const [b, a] = [(before.resource ?? {}) as Blocks, (after.resource ?? {}) as Blocks];
  for (const [type, byName] of Object.entries(a)) {
    const kind = resourceKind(type);
    if (!kind) continue;
    for (const [name, next] of Object.entries(byName)) {
      const prev = b[type]?.[name];
      if (!prev) continue;
      let terraformOnly = 0;
      let both = 0;
      for (const k of new Set([...Object.keys(prev), ...Object.keys(next)])) {
        if (JSON.stringify(prev[k]) === JSON.stringify(next[k])) continue;
        const attr = kind.attributes[k];
        // Meta-arguments (provider, depends_on) are no attribute change in either engine.
        if (!attr) continue;
        // A declared default is planned for an unset value by both engines: no change.
        if (attr.default !== undefined && sameValue(attr, prev[k] ?? attr.default, next[k] ?? attr.default)) continue;
        if ((attr.engineOnly && k !== kind.rotation?.trigger) || sameValue(attr, prev[k], next[k])) terraformOnly++;
        else both++;
      }
      if (terraformOnly > 0 && both === 0) n++;
    }
  }
  return n;
}

/** Terraform's lines for a change it carried out (`terraform apply` went past its plan). */
const APPLIED_SOMETHING = /(Creation|Destruction|Modifications) complete after/;

/**
 * On purpose (engine-differences.md): a plain output of a value that is unknown at plan
 * (the secret of a token created or replaced in the same run) is refused by Terraform only
 * when the output is evaluated at apply, after the changes before it; ods refuses it at
 * plan, with nothing applied. The step is still a refusal by both, naming the output; the
 * Terraform side is then brought back to the last accepted stack, so that the steps after
 * it start from the same objects in both services.
 */
async function resyncAfterLateRefusal(plan: StepPlan, t: RunOutput, wt: Workspace, previous: () => Record<string, unknown>): Promise<string | undefined> {
  if (plan.refusal?.address !== "output.leak" || !APPLIED_SOMETHING.test(t.out)) return undefined;
  wt.write(previous());
  const back = await wt.terraform("apply", "-auto-approve");
  return back.code === 0 ? undefined : `terraform could not return to the last accepted stack after refusing the output late:\n${tail(back)}`;
}

/** Each managed address's id in a workspace's state (none before the first apply). */
function idsIn(w: Workspace): Record<string, string> {
  if (!fs.existsSync(w.stateFile)) return {};
  return Object.fromEntries(Object.entries(readStateFile(w.stateFile).resources).map(([address, r]) => [address, r.id]));
}

/**
 * A step that renames addresses without moved blocks, where the engines differ on purpose
 * (engine-differences.md): ods moves the objects by natural key (or refuses before any
 * write); terraform refuses at plan, or plans without writing. Neither may lose an
 * object or fail after writing. Then the moved blocks are written, as the refusal says,
 * and both engines apply the stack with them (the step's result is compared as usual).
 */
async function unwrittenMoves(plan: StepPlan, stack: Record<string, unknown>, wo: Workspace, wt: Workspace, withBlocks: Record<string, unknown>, fail: (what: string) => never): Promise<[RunOutput, RunOutput]> {
  wo.write(stack);
  wt.write(stack);
  const terraformWrites = (): number => wt.service.emulator.requests().filter((r) => r.method !== "GET").length;
  const before = terraformWrites();
  const [o, tp] = await Promise.all([wo.ods("apply", "--auto-approve"), wt.terraform("plan")]);
  if (tp.code !== 0 && tp.code !== 1) fail(`terraform plan of moves without moved blocks exited ${tp.code}:\n${tail(tp)}`);
  if (terraformWrites() !== before) fail(`terraform plan wrote to the service`);
  if (o.code !== 0 && /: \w+ complete\b|Apply complete/.test(o.out)) fail(`ods failed after writing, on moves without moved blocks:\n${tail(o)}`);
  if (process.env.ODS_DIFFERENTIAL_VERBOSE) console.log(`moves without moved blocks (${plan.moves!.map((m) => `${m.from} -> ${m.to}`).join(", ")}): ods ${o.code === 0 ? "applied" : "refused"}, terraform plan exit ${tp.code}`);
  wo.write(withBlocks);
  wt.write(withBlocks);
  // ods applied the moves already: its second apply must find them done. Its answer carries
  // the first apply's output too, where a move that also replaced the object says so.
  const [again, applied] = await Promise.all([wo.ods("apply", "--auto-approve"), wt.terraform("apply", "-auto-approve")]);
  return [{ code: again.code, out: `${o.out}\n${again.out}` }, applied];
}

async function step(i: number, plan: StepPlan, stack: Record<string, unknown>, wo: Workspace, wt: Workspace, prefix: string, secretValue: string, settingsOnly: number, previous: () => Record<string, unknown>, withBlocks: () => Record<string, unknown>): Promise<void> {
  const fail = (what: string): never => {
    throw new Disagreement(i, what, stack);
  };
  const idsBefore = [idsIn(wo), idsIn(wt)];
  const unwritten = !plan.refusal && (plan.moves ?? []).some((m) => !m.written);
  let o: RunOutput;
  let t: RunOutput;
  if (unwritten) {
    [o, t] = await unwrittenMoves(plan, stack, wo, wt, withBlocks(), fail);
  } else {
    wo.write(stack);
    wt.write(stack);
    [o, t] = await Promise.all([wo.ods("apply", "--auto-approve"), wt.terraform("apply", "-auto-approve")]);
  }
  for (const [engine, r] of [["ods", o], ["terraform", t]] as const) {
    const leak = leakIn(r.out, secretValue);
    if (leak) fail(`${engine} printed ${leak}${both(o, t)}`);
  }
  if (plan.refusal) {
    const { address, attribute } = plan.refusal;
    if (o.code === 0 || t.code === 0) fail(`expected both engines to refuse (${address}: ${attribute}); ods ${o.code === 0 ? "applied" : "refused"}, terraform ${t.code === 0 ? "applied" : "refused"}${both(o, t)}`);
    const names = (out: string): boolean => new RegExp(`\\b${attribute}\\b`).test(out);
    if (!names(o.out) || !names(t.out)) fail(`both refused, but not both named "${attribute}" (ods: ${names(o.out)}, terraform: ${names(t.out)})${both(o, t)}`);
    if (/: \w+ complete\b|Apply complete/.test(o.out)) fail(`ods applied changes before refusing${both(o, t)}`);
    const resync = await resyncAfterLateRefusal(plan, t, wt, previous);
    if (resync) fail(resync);
  } else {
    if (o.code !== 0 || t.code !== 0) fail(`${o.code !== 0 && t.code !== 0 ? "both engines" : o.code !== 0 ? "ods" : "terraform"} failed on a valid stack${both(o, t)}`);
    const [co, ct] = [odsCounts(o.out), terraformCounts(t.out)];
    if (!co || !ct) return fail(`no plan counts in the output${both(o, t)}`);
    co.change += settingsOnly;
    if (process.env.ODS_DIFFERENTIAL_VERBOSE) console.log(`${prefix} step ${i}: ods ${JSON.stringify(co)}, terraform ${JSON.stringify(ct)}`);
    // After moves without blocks, ods's second apply finds them done: only the engines' moved states are compared.
    if (!unwritten && JSON.stringify(co) !== JSON.stringify(ct)) fail(`plan counts differ: ods ${JSON.stringify(co)}, terraform ${JSON.stringify(ct)}${both(o, t)}`);
    // A move keeps the object: the same id at the new address, in both engines' states.
    for (const [engine, w, ids] of [["ods", wo, idsBefore[0]], ["terraform", wt, idsBefore[1]]] as const) {
      const now = idsIn(w);
      for (const m of plan.moves ?? []) {
        const to = plan.moves!.reduce((at, n) => (n.from === at ? n.to : at), m.from);
        if (ids[m.from] !== undefined && now[to] !== undefined && now[to] !== ids[m.from] && !replacedOnPurpose(o, t, to, unwritten)) fail(`${engine}: ${m.from} moved to ${to} with a new id (${ids[m.from]} -> ${now[to]})${both(o, t)}`);
      }
    }
  }
  const [so, st] = await Promise.all([snapshot(wo.service, prefix), snapshot(wt.service, prefix)]);
  const diff = diffSnapshots(so.objects, st.objects);
  if (diff) fail(`live objects differ:\n${diff}${both(o, t)}`);
  if (plan.refusal) return;
  // One state, two engines: each plans nothing on what the other wrote.
  const [to, ot, oo, tt] = await Promise.all([
    wo.terraform("plan", "-detailed-exitcode"),
    wt.ods("plan", "--detailed-exitcode"),
    wo.ods("output", "--json", "--show-sensitive"),
    wt.terraform("output", "-json"),
  ]);
  if (to.code !== 0) fail(`terraform plans ${to.code === 2 ? "changes" : "an error"} on the state ods wrote:\n${tail(to)}`);
  if (ot.code !== 0) fail(`ods plans ${ot.code === 2 ? "changes" : "an error"} on the state terraform wrote:\n${ot.out}`);
  for (const [engine, r] of [["ods output", oo], ["terraform output", tt]] as const) if (r.code !== 0) fail(`${engine} failed:\n${tail(r)}`);
  const [fromOds, fromTf] = [outputsOf(oo, so.keyOfId, (v) => v), outputsOf(tt, st.keyOfId, (v) => (v as { value: unknown }).value)];
  if (JSON.stringify(fromOds) !== JSON.stringify(fromTf)) fail(`outputs differ: ods ${JSON.stringify(fromOds)}, terraform ${JSON.stringify(fromTf)}`);
}

/** Whether both engines planned the moved object's replacement (the step also changed what forces it). */
function replacedOnPurpose(o: RunOutput, t: RunOutput, address: string, unwritten: boolean): boolean {
  const escaped = address.replace(/\./g, "\\.");
  // ods may also find the object the new natural key names already live (a dataset field
  // that ingest made) and adopt it where terraform replaces: a new id on purpose in both.
  // A move without a moved block that also changes the natural key cannot be told from a
  // delete and a create, so ods's first apply (its output comes first) creates it anew.
  const odsAnew = unwritten ? "|will be created" : "";
  return (
    new RegExp(`# ${escaped} (must be replaced|will be rotated|will be adopted \\(found live by its natural key\\)${odsAnew})`).test(o.out) &&
    new RegExp(`# ${escaped} must be replaced|# ${escaped} will be updated in-place`).test(t.out)
  );
}

/** Outputs by name, ids as the natural keys of what they name, issued token secrets as one word. */
function outputsOf(r: RunOutput, keyOfId: ReadonlyMap<string, string>, valueOf: (entry: unknown) => unknown): Record<string, unknown> {
  const parsed = JSON.parse(r.out.slice(r.out.indexOf("{"))) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(parsed).sort()) {
    const v = replaceIds(valueOf(parsed[name]), keyOfId);
    out[name] = typeof v === "string" && v.startsWith("odst_") ? "(an issued token)" : v;
  }
  return out;
}

export interface SeedOptions {
  maxResources: number;
  maxSteps: number;
  /** Replays the shrunk counterexample of a failure (fast-check's path). */
  path?: string;
  /** Time a failing seed may spend shrinking. */
  shrinkLimitMs: number;
  /** Settings the replay line repeats (the size of the draws). */
  replayEnv: string;
}

/** Runs one seed; answers the failure report (seed, path, minimal stack), or undefined when the engines agree. */
export async function runSeed(env: DifferentialEnv, seed: number, opts: SeedOptions, coverage: Coverage): Promise<string | undefined> {
  const arb = scenarioArbitrary({ maxResources: opts.maxResources, maxSteps: opts.maxSteps });
  let last: Disagreement | undefined;
  let failedAt: number | undefined;
  let cutShort = false;
  const details = await fc.check(
    fc.asyncProperty(arb, async (scenario) => {
      // Past the shrinking budget every candidate passes unrun: fast-check then ends with
      // the smallest failing scenario it has (a time limit of its own would also cut the
      // first run, and report a slow seed as a failure).
      if (failedAt !== undefined && Date.now() - failedAt > opts.shrinkLimitMs) {
        cutShort = true;
        return;
      }
      try {
        await checkScenario(env, scenario, `d${seed}`, coverage);
      } catch (err) {
        failedAt ??= Date.now();
        last = err instanceof Disagreement ? err : undefined;
        throw err;
      }
    }),
    { seed, numRuns: 1, path: opts.path, endOnFailure: opts.path !== undefined },
  );
  if (!details.failed) return undefined;
  const minimal = details.counterexample?.[0];
  return [
    `seed ${seed}: the engines disagree (${details.numShrinks} shrinks${cutShort ? ", shrinking cut short by the time limit" : ""})`,
    `replay: ${opts.replayEnv}ODS_DIFFERENTIAL_SEED=${seed} ODS_DIFFERENTIAL_PATH=${details.counterexamplePath ?? ""} npx vitest run test/differential/differential.test.ts`,
    String(details.errorInstance instanceof Error ? details.errorInstance.message : details.errorInstance),
    `minimal scenario: ${JSON.stringify(minimal)}`,
    last ? `stack of the failing step:\n${JSON.stringify(last.stackJson, null, 1)}` : "",
  ].join("\n");
}
