// A generated stack and its sequence of changes, as plain choices fast-check can shrink,
// and their rendering into cdk.tf.json as cdktf synthesizes it (read by `ods plan
// --no-synth` and by terraform alike). Rendering is deterministic and total: a resource
// refers only to resources before it, and a reference whose target is gone (removed by a
// change, or by shrinking) falls back to another target or to the fixture dataset, so
// every draft renders to a stack.
import fc from "fast-check";
import type { Values } from "../../src/resources";
import { KIND_GENERATORS, type Breaker } from "./kinds";
import { RenderContext, VARIABLES, type Rendered } from "./render-context";

/** One resource: `key` fixes its address, `uid` its names (a rename draws a new uid). */
export interface ResourceDraft {
  type: string;
  key: number;
  uid: number;
  /** Through the second provider configuration (`ods.b`). */
  alias: boolean;
  /** Explicit depends_on: picks among the resources before it. */
  dependsOn: number[];
  draft: unknown;
}

type NewResource = Omit<ResourceDraft, "key" | "uid">;

export type OutputDraft = { form: "token" | "name" | "id" | "secret_var" | "interpolated"; pick: number };

export type Change =
  | { op: "edit"; target: number; resource: NewResource }
  | { op: "rename"; target: number }
  /** A new address for the same object (a renamed construct): with a moved block, or without one. */
  | { op: "move"; target: number; written: boolean }
  | { op: "remove"; target: number }
  | { op: "add"; resource: NewResource }
  /** Makes the step invalid: one breaker of the target's kind, or a plain output of a secret. */
  | { op: "break"; target: number; which: number; output: boolean };

export interface StackDraft {
  resources: ResourceDraft[];
  outputs: OutputDraft[];
}

export interface Scenario {
  stack: StackDraft;
  /** Each step applies its changes to the stack of the step before it (if that one was applied). */
  steps: Change[][];
}

export const MAX_RESOURCES = 40;

const newResource = (maxDeps: number): fc.Arbitrary<NewResource> =>
  fc.oneof(
    ...Object.entries(KIND_GENERATORS).map(([type, g]) =>
      fc.record({ type: fc.constant(type), alias: fc.nat({ max: 3 }).map((n) => n === 0), dependsOn: fc.array(fc.nat({ max: 40 }), { maxLength: maxDeps }), draft: g.draft }),
    ),
  );

const changeArb: fc.Arbitrary<Change> = fc.oneof(
  { arbitrary: fc.record({ op: fc.constant("edit" as const), target: fc.nat({ max: 40 }), resource: newResource(1) }), weight: 4 },
  { arbitrary: fc.record({ op: fc.constant("rename" as const), target: fc.nat({ max: 40 }) }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant("move" as const), target: fc.nat({ max: 40 }), written: fc.boolean() }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant("remove" as const), target: fc.nat({ max: 40 }) }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant("add" as const), resource: newResource(1) }), weight: 2 },
  { arbitrary: fc.record({ op: fc.constant("break" as const), target: fc.nat({ max: 40 }), which: fc.nat({ max: 5 }), output: fc.boolean() }), weight: 1 },
);

const outputArb: fc.Arbitrary<OutputDraft> = fc.record({ form: fc.constantFrom("token", "name", "id", "secret_var", "interpolated"), pick: fc.nat({ max: 40 }) });

/** Keys and uids are positions at first; later ones are drawn past every existing one. */
function numbered(resources: NewResource[]): ResourceDraft[] {
  return resources.map((r, i) => ({ ...r, key: i, uid: i }));
}

export function scenarioArbitrary(opts: { maxResources?: number; maxSteps?: number; maxChangesPerStep?: number } = {}): fc.Arbitrary<Scenario> {
  return fc.record({
    stack: fc.record({
      resources: fc.array(newResource(2), { minLength: 1, maxLength: opts.maxResources ?? MAX_RESOURCES }).map(numbered),
      outputs: fc.array(outputArb, { maxLength: 3 }),
    }),
    steps: fc.array(fc.array(changeArb, { minLength: 1, maxLength: opts.maxChangesPerStep ?? 3 }), { maxLength: opts.maxSteps ?? 3 }),
  });
}

/** What a step should do: be applied, or be refused naming an attribute (or an output). */
export interface StepPlan {
  stack: StackDraft;
  /**
   * Set when the step must be refused: the attribute (or output name) both engines must
   * name; `injected` when the generator broke that attribute's value (else the change
   * itself is refused, e.g. a guarded delete).
   */
  refusal?: { address: string; attribute: string; injected: boolean };
  /** Addresses the step moves; `written`: the stack says so with a moved block. */
  moves?: PlannedMove[];
}

export interface PlannedMove {
  from: string;
  to: string;
  written: boolean;
}

/** A resource's address: its kind's stem and its key. */
function addressOf(r: Pick<ResourceDraft, "type" | "key">): string {
  return `${r.type}.${KIND_GENERATORS[r.type].stem}${r.key}`;
}

/** Applies one step's changes; a `break` marks the step as one both engines must refuse. */
export function applyStep(stack: StackDraft, changes: Change[], prefix: string, fixtureDataset: string): StepPlan {
  let resources = [...stack.resources];
  let outputs = [...stack.outputs];
  let next = Math.max(-1, ...resources.map((r) => Math.max(r.key, r.uid))) + 1;
  let breakChange: Extract<Change, { op: "break" }> | undefined;
  const moves: PlannedMove[] = [];
  for (const c of changes) {
    if (c.op === "add" || (c.op === "edit" && !resources.some((r) => r.type === c.resource.type))) {
      if (resources.length < MAX_RESOURCES) resources.push({ ...c.resource, key: next, uid: next++ });
    } else if (c.op === "edit") {
      // The edit's own draft is of some kind: it replaces the draft of a resource of that kind.
      const sameKind = resources.filter((r) => r.type === c.resource.type);
      const target = sameKind[c.target % sameKind.length];
      resources = resources.map((r) => (r === target ? { ...r, alias: c.resource.alias, dependsOn: c.resource.dependsOn, draft: c.resource.draft } : r));
    } else if (resources.length === 0) {
      continue;
    } else if (c.op === "rename") {
      const target = resources[c.target % resources.length];
      resources = resources.map((r) => (r === target ? { ...r, uid: next++ } : r));
    } else if (c.op === "move") {
      const target = resources[c.target % resources.length];
      const moved = { ...target, key: next++ };
      moves.push({ from: addressOf(target), to: addressOf(moved), written: c.written });
      resources = resources.map((r) => (r === target ? moved : r));
    } else if (c.op === "remove") {
      // Never the last one: ods refuses to empty a stack without --allow-empty (engine-differences.md).
      if (resources.length > 1) resources = resources.filter((_, i) => i !== c.target % resources.length);
    } else {
      breakChange = c;
    }
  }
  outputs = outputs.slice(0, 3);
  const after: StackDraft = { resources, outputs };
  const moved = moves.length > 0 ? { moves } : {};
  if (!breakChange) return { stack: after, ...moved };
  return { stack: after, refusal: refusalOf(after, breakChange, prefix, fixtureDataset), ...moved };
}

function refusalOf(stack: StackDraft, c: Extract<Change, { op: "break" }>, prefix: string, fixtureDataset: string): StepPlan["refusal"] {
  if (c.output) return { address: "output.leak", attribute: "leak", injected: true };
  const rendered = renderResources(stack, prefix, fixtureDataset);
  if (rendered.length === 0) return { address: "output.leak", attribute: "leak", injected: true };
  const target = rendered[c.target % rendered.length];
  const applicable = KIND_GENERATORS[target.typeName].breakers.filter((b: Breaker) => b.break(target.values) !== undefined);
  if (applicable.length === 0) return { address: "output.leak", attribute: "leak", injected: true };
  return { address: target.address, attribute: applicable[c.which % applicable.length].attribute, injected: true };
}

interface RenderedResource extends Rendered {
  draft: ResourceDraft;
  dependsOn: string[];
}

function renderResources(stack: StackDraft, prefix: string, fixtureDataset: string): RenderedResource[] {
  const out: RenderedResource[] = [];
  for (const r of stack.resources) {
    const g = KIND_GENERATORS[r.type];
    const ctx = new RenderContext(prefix, r.uid, out, fixtureDataset, r.alias);
    const values = g.render(r.draft, ctx);
    const allowed = ctx.candidates();
    for (const d of r.dependsOn) if (allowed.length > 0) ctx.dependsOn.add(allowed[d % allowed.length].address);
    out.push({ address: addressOf(r), typeName: r.type, values, alias: r.alias, draft: r, dependsOn: [...ctx.dependsOn].sort() });
  }
  return out;
}

/** The JSON of a stack: what cdktf writes to cdktf.out/stacks/NAME/cdk.tf.json. */
export function renderStack(plan: StepPlan, prefix: string, fixtureDataset: string): Record<string, unknown> {
  const rendered = renderResources(plan.stack, prefix, fixtureDataset);
  const resource: Record<string, Record<string, Values>> = {};
  for (const r of rendered) {
    const [type, name] = r.address.split(".");
    let values = r.values;
    if (plan.refusal?.injected && plan.refusal.address === r.address) {
      const breaker = KIND_GENERATORS[type].breakers.find((b) => b.attribute === plan.refusal!.attribute && b.break(values) !== undefined);
      values = breaker!.break(values)!;
    }
    (resource[type] ??= {})[name] = {
      "//": { metadata: { path: `main/${name}`, uniqueId: name } },
      ...values,
      ...(r.dependsOn.length > 0 ? { depends_on: r.dependsOn } : {}),
      ...(r.draft.alias ? { provider: "ods.b" } : {}),
    };
  }
  const output: Record<string, { value: string; sensitive?: boolean }> = {};
  plan.stack.outputs.forEach((o, i) => {
    const value = outputValue(o, rendered);
    if (value) output[`out${i}`] = value;
  });
  if (plan.refusal?.injected && plan.refusal.address === "output.leak") {
    // A plain output of a secret: Terraform refuses it, and so must ods.
    const token = rendered.find((r) => r.typeName === "ods_api_token");
    output.leak = { value: token ? `\${${token.address}.token}` : `\${var.${VARIABLES.secret}}` };
  }
  return {
    "//": { metadata: { version: "0.21.0", stackName: "main", backend: "local" } },
    terraform: { required_providers: { ods: { source: "registry.terraform.io/ods/ods" } } },
    provider: { ods: [{}, { alias: "b" }] },
    variable: {
      [VARIABLES.team]: { type: "string", default: "platform" },
      [VARIABLES.secret]: { type: "string", sensitive: true },
      [VARIABLES.fixtureDataset]: { type: "string" },
    },
    ...(Object.keys(resource).length > 0 ? { resource } : {}),
    ...(Object.keys(output).length > 0 ? { output } : {}),
    ...(plan.moves?.some((m) => m.written) ? { moved: plan.moves.filter((m) => m.written).map(({ from, to }) => ({ from, to })) } : {}),
  };
}

function outputValue(o: OutputDraft, rendered: RenderedResource[]): { value: string; sensitive?: boolean } | undefined {
  const of = (type: string): RenderedResource | undefined => {
    const all = rendered.filter((r) => r.typeName === type);
    return all.length > 0 ? all[o.pick % all.length] : undefined;
  };
  switch (o.form) {
    case "token": {
      const t = of("ods_api_token");
      return t ? { value: `\${${t.address}.token}`, sensitive: true } : undefined;
    }
    case "secret_var":
      return { value: `\${var.${VARIABLES.secret}}`, sensitive: true };
    case "name": {
      const d = of("ods_dataset") ?? of("ods_notifier");
      return d ? { value: `\${${d.address}.name}` } : undefined;
    }
    case "id": {
      const r = of("ods_role") ?? of("ods_user");
      return r ? { value: `\${${r.address}.id}` } : undefined;
    }
    default: {
      const d = of("ods_dataset");
      return d ? { value: `team \${var.${VARIABLES.team}} reads \${${d.address}.name}` } : undefined;
    }
  }
}

/**
 * Addresses of datasets a step deletes or replaces, with whether that is allowed: a
 * removal by the stack applied before (the configuration is gone), a replacement (a
 * rename) by the configuration being applied.
 */
export function guardedDatasetChanges(before: StackDraft, after: StackDraft): { address: string; allowed: boolean }[] {
  const out: { address: string; allowed: boolean }[] = [];
  const allows = (r: ResourceDraft): boolean => (r.draft as { allowDestroy?: boolean }).allowDestroy === true;
  for (const b of before.resources.filter((r) => r.type === "ods_dataset")) {
    // A moved dataset (a new key, the same uid) is the same object.
    const a = after.resources.find((r) => r.key === b.key) ?? after.resources.find((r) => r.type === b.type && r.uid === b.uid);
    if (a && a.uid === b.uid) continue;
    out.push({ address: addressOf(b), allowed: a ? allows(a) : allows(b) });
  }
  return out;
}
