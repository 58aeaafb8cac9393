// Applying a plan: calls run concurrently (up to `parallelism`) in dependency order,
// creates and updates after what they depend on, deletes after what depends on them.
// State is written after every successful call, so a crash loses at most the call in
// flight, and that one is recovered by listing and adopting, never by a duplicate.
import type { OdsClient } from "../api";
import { changedAttributes, resourceKind, type ResourceKind, type Values, type WireObject } from "../resources";
import * as lifecycle from "../lifecycle";
import {
  LiveIndex,
  UNKNOWN,
  containsUnknown,
  engineValues,
  holdsSecret,
  instanceAttributes,
  liveValues,
  scopeOf,
  secretFingerprints,
  splitSensitive,
  type LifecycleContext,
} from "../lifecycle";
import { evaluate, valueAt, type Reference } from "./expressions";
import { runInOrder } from "./apply-order";
import { applyMoves } from "./moves";
import { listsOfPlan } from "./world";
import { countChanges, countedActions, type CountedAction, type Plan, type PlannedChange } from "./plan";
import type { LoadedStack, ManagedDeclaration } from "./stack";
import { sensitiveMarks, type SensitiveMarks } from "./sensitivity";
import type { ResourceState, StateFile } from "./state";

export interface ApplyEvent {
  address: string;
  action: PlannedChange["action"];
  phase: "start" | "done" | "failed" | "skipped";
  id?: string;
  message?: string;
}

export interface ApplySummary {
  created: number;
  updated: number;
  replaced: number;
  rotated: number;
  deleted: number;
  adopted: number;
  forgotten: number;
  /** State entries renamed by moves (each object kept, with its id). */
  moved: number;
  failed: number;
  skipped: number;
  /** Changes not started because the apply was asked to stop (SIGINT or SIGTERM). */
  notStarted: number;
  warnings: string[];
  errors: string[];
}

/** The apply summary's count for each of the plan's categories (also the past tense annotations use). */
export const DONE: Record<CountedAction, "created" | "adopted" | "updated" | "replaced" | "rotated" | "deleted" | "forgotten"> = {
  create: "created",
  adopt: "adopted",
  update: "updated",
  replace: "replaced",
  rotate: "rotated",
  delete: "deleted",
  forget: "forgotten",
};

export interface ApplyOptions {
  client: OdsClient;
  stack: LoadedStack;
  state: StateFile;
  /**
   * Saves the state (through its backend); called after every successful call. CHANGED
   * names the addresses set or removed since the last save; absent, anything may have.
   */
  persist: (state: StateFile, changed?: ReadonlySet<string>) => Promise<void>;
  plan: Plan;
  orgId?: string;
  parallelism?: number;
  onEvent?: (event: ApplyEvent) => void;
  /**
   * Aborted when the apply must stop (SIGINT or SIGTERM): no new call starts, the calls in
   * flight finish and are saved, and the rest is counted as not started.
   */
  stop?: AbortSignal;
}

/** Splits a live answer into what state keeps openly and what it keeps as sensitive. */
function stateValues(kind: ResourceKind, live: WireObject, declared: Values): { values: Values; sensitive: Record<string, string> } {
  return splitSensitive(kind, liveValues(kind, live, declared));
}

class ApplyRun {
  /** The plan's own lists when it was made in this process: nothing it listed is listed again. */
  private readonly live: LiveIndex;
  /** What each write answered: the service's word on the object right after its change. */
  private readonly answers = new Map<string, WireObject>();
  private readonly resolved = new Map<string, Values>();
  private readonly declarations: Map<string, ManagedDeclaration>;
  /** Attributes that take sensitive values through references, kept in state as marks. */
  private readonly marks: SensitiveMarks;
  readonly summary: ApplySummary = {
    created: 0, updated: 0, replaced: 0, rotated: 0, deleted: 0, adopted: 0, forgotten: 0, moved: 0, failed: 0, skipped: 0, notStarted: 0, warnings: [], errors: [],
  };

  /** The lifecycle's view of this run: an id in state is managed, so a lost answer never adopts it. */
  private readonly ctx: LifecycleContext;

  constructor(private readonly opts: ApplyOptions) {
    this.live = listsOfPlan(opts.plan) ?? new LiveIndex();
    this.ctx = {
      client: opts.client,
      live: this.live,
      isManaged: (kind, id) => (this.managedIds.get(`${kind.typeName}\u0000${id}`) ?? 0) > 0,
    };
    for (const r of Object.values(opts.state.resources)) this.countManaged(r, 1);
    this.declarations = new Map(opts.stack.resources.map((d) => [d.address, d]));
    this.marks = sensitiveMarks(opts.stack);
    for (const [address, r] of Object.entries(opts.state.resources)) {
      this.resolved.set(address, { ...r.values, ...r.engineValues, ...(r.sensitive ?? {}), id: r.id });
    }
  }

  private lookup = (ref: Reference): unknown => {
    if (ref.address.startsWith("data.")) return valueAt(this.opts.plan.dataValues[ref.address], ref.path) ?? UNKNOWN;
    const values = this.resolved.get(ref.address);
    if (!values) return UNKNOWN;
    const v = valueAt(values, ref.path);
    return v === undefined ? null : v;
  };

  /**
   * Records one result and writes the state. Writes are coalesced: results that arrive
   * while a write is pending share the next one, and each caller resumes only after a
   * write that includes its result (a whole-file rewrite per call would grow with N²).
   */
  /** How many state entries hold each (type, id): asked for every object a recovery lists. */
  private readonly managedIds = new Map<string, number>();

  private countManaged(r: ResourceState | undefined, by: 1 | -1): void {
    if (!r) return;
    const key = `${r.typeName}\u0000${r.id}`;
    this.managedIds.set(key, (this.managedIds.get(key) ?? 0) + by);
  }

  private record(address: string, entry: ResourceState | undefined): Promise<void> {
    this.countManaged(this.opts.state.resources[address], -1);
    this.countManaged(entry, 1);
    if (entry) {
      this.opts.state.resources[address] = entry;
      this.resolved.set(address, { ...entry.values, ...entry.engineValues, ...(entry.sensitive ?? {}), id: entry.id });
    } else {
      delete this.opts.state.resources[address];
      this.resolved.delete(address);
    }
    this.changed.add(address);
    return this.flush();
  }

  private dirty = false;
  /** Addresses recorded since the last save; undefined after a change of the whole state (moves). */
  private changed: Set<string> = new Set();
  private wholeChanged = false;
  private writing: Promise<void> | undefined;

  private entryFor(kind: ResourceKind, decl: ManagedDeclaration, values: Values, live: WireObject, prior?: ResourceState): ResourceState {
    const { values: liveVals, sensitive } = stateValues(kind, live, values);
    const kept = Object.keys(sensitive).length > 0 ? sensitive : prior?.sensitive;
    const id = kind.api.idOf(live);
    return {
      typeName: kind.typeName,
      id,
      values: liveVals,
      engineValues: engineValues(kind, values),
      secretFingerprints: secretFingerprints(kind, values, this.opts.state.fingerprintSalt),
      sensitive: kept,
      dependsOn: decl.dependsOn.filter((a) => !a.startsWith("data.")),
      // Stored as terraform-provider-ods stores it, so that Terraform sees no difference.
      attributes: instanceAttributes(kind, values, liveVals, id, kept),
      provider: prior?.provider,
      ...(this.marks.has(decl.address) ? { marked: [...this.marks.get(decl.address)!] } : {}),
      ...(kind.schemaVersion > 0 ? { schemaVersion: kind.schemaVersion } : {}),
    };
  }

  async run(change: PlannedChange): Promise<void> {
    const kind = resourceKind(change.typeName);
    if (!kind) throw new Error(`unknown type ${change.typeName}`);
    const prior = this.opts.state.resources[change.address];
    if (change.action === "delete" || change.action === "forget") {
      if (change.action === "delete" && change.id) await lifecycle.remove(this.ctx, kind, change.id);
      await this.record(change.address, undefined);
      this.count(change);
      return;
    }
    const decl = this.declarations.get(change.address);
    if (!decl) throw new Error(`internal: ${change.address} is not declared`);
    const values = evaluate(decl.values, this.lookup) as Values;
    if (containsUnknown(values)) {
      throw new Error(`${change.address}: a referenced value is still unknown (did a dependency fail?)`);
    }
    let live: WireObject;
    switch (change.action) {
      case "noop": {
        // Nothing to call; engine-only settings (allow_destroy, grace period) may have changed.
        const kept = prior ?? this.entryFor(kind, decl, values, { id: change.id } as WireObject);
        const next: ResourceState = {
          ...kept,
          engineValues: engineValues(kind, values),
          secretFingerprints: secretFingerprints(kind, values, this.opts.state.fingerprintSalt),
          dependsOn: decl.dependsOn.filter((a) => !a.startsWith("data.")),
          // The declared values (secrets, engine-only settings) as Terraform would store them;
          // this also completes an entry converted from the previous ods format.
          attributes: instanceAttributes(kind, values, kept.values, kept.id, kept.sensitive),
        };
        const marked = this.marks.get(decl.address);
        if (marked) next.marked = [...marked];
        else delete next.marked;
        // Write only when something the state keeps has changed.
        if (JSON.stringify(next) !== JSON.stringify(prior)) await this.record(change.address, next);
        return;
      }
      case "create": {
        // Found after a lost answer, it is brought to the declared values like any adoption.
        const made = await lifecycle.create(this.ctx, kind, values);
        // A create whose lost answer was recovered is still the create the plan counted.
        live = made.live;
        break;
      }
      case "adopt": {
        // The plan listed it (a saved plan's apply lists the kind again, once).
        const found = await this.live.loadById(this.opts.client, kind, scopeOf(kind, values), change.id ?? "");
        if (!found) throw new Error(`${change.address}: the object ${change.id} found while planning is gone; plan again`);
        live = await lifecycle.bringInLine(this.ctx, kind, found, values, { holdsSecret: holdsSecret(prior), differs: change.alsoUpdate === true });
        break;
      }
      case "update":
        live = await lifecycle.update(this.ctx, kind, change.id!, values, prior?.values, prior?.attributes);
        break;
      case "rotate": {
        // The intent goes to state before the call: if its answer is lost (a kill), the
        // next run finishes this rotation instead of rotating the old token twice.
        const interrupted = prior?.rotating === change.id;
        if (prior && !interrupted) await this.record(change.address, { ...prior, rotating: change.id! });
        live = await lifecycle.rotate(this.ctx, kind, change.id!, values, "change", { interrupted, observed: change.before ?? undefined });
        break;
      }
      case "replace":
        await lifecycle.remove(this.ctx, kind, change.id!);
        await this.record(change.address, undefined);
        live = (await lifecycle.create(this.ctx, kind, values)).live;
        break;
      default:
        throw new Error(`internal: unexpected action ${change.action as string}`);
    }
    this.answers.set(change.address, live);
    await this.record(change.address, this.entryFor(kind, decl, values, live, change.action === "rotate" || change.action === "replace" ? undefined : prior));
    this.count(change);
    this.opts.onEvent?.({ address: change.address, action: change.action, phase: "done", id: kind.api.idOf(live) });
  }

  /** Counts a change done under the plan's categories (countedActions), so that both summaries agree. */
  private count(change: PlannedChange): void {
    for (const a of countedActions(change)) this.summary[DONE[a]]++;
  }

  /**
   * Reports attributes that did not reach the declared value. Each write's answer is the
   * service's word on the object right after its change, so it is what is compared; only
   * where an answer does not show the declared values is the kind listed again (once per
   * kind and parent) to ask the service.
   */
  async checkConvergence(changes: PlannedChange[]): Promise<void> {
    const relisted = new Set<string>();
    for (const change of changes) {
      if (change.action === "delete" || change.action === "forget" || change.action === "noop") continue;
      const entry = this.opts.state.resources[change.address];
      const decl = this.declarations.get(change.address);
      const kind = resourceKind(change.typeName);
      if (!entry || !decl || !kind) continue;
      const values = evaluate(decl.values, this.lookup) as Values;
      const answer = this.answers.get(change.address);
      if (answer && kind.api.idOf(answer) === entry.id && changedAttributes(kind.attributes, values, liveValues(kind, answer, values)).length === 0) continue;
      const scope = scopeOf(kind, values);
      const key = `${kind.typeName}@${kind.scope ? (scope ?? "") : ""}`;
      if (!relisted.has(key)) {
        relisted.add(key);
        this.live.invalidate(kind, scope);
      }
      const live = await this.live.loadById(this.opts.client, kind, scope, entry.id);
      if (!live) {
        this.summary.warnings.push(`${change.address}: not found after apply (id ${entry.id})`);
        continue;
      }
      const diff = changedAttributes(kind.attributes, values, liveValues(kind, live, values));
      if (diff.length > 0) this.summary.warnings.push(`${change.address}: ${diff.join(", ")} did not converge (the service keeps another value)`);
    }
  }

  computeOutputs(): void {
    const outputs: StateFile["outputs"] = {};
    for (const o of this.opts.stack.outputs) {
      const v = evaluate(o.value, this.lookup);
      outputs[o.name] = { value: v === UNKNOWN ? null : v, sensitive: o.sensitive };
    }
    this.opts.state.outputs = outputs;
  }

  /** Saves the whole state (after changes not recorded address by address). */
  flushWhole(): Promise<void> {
    this.wholeChanged = true;
    return this.flush();
  }

  flush(): Promise<void> {
    this.dirty = true;
    if (!this.writing) {
      this.writing = (async () => {
        try {
          while (this.dirty) {
            // Let results of calls finishing at the same moment join this write.
            await new Promise<void>((resolve) => setImmediate(resolve));
            this.dirty = false;
            const changed = this.changed;
            const whole = this.wholeChanged;
            this.changed = new Set();
            this.wholeChanged = false;
            await this.opts.persist(this.opts.state, whole ? undefined : changed);
          }
        } finally {
          this.writing = undefined;
        }
      })();
    }
    return this.writing;
  }
}

/** Applies a plan; never throws for a failed resource (it is counted and reported). */
export async function applyPlan(opts: ApplyOptions): Promise<ApplySummary> {
  // The plan's moves come first, written before any call: they only rename state entries
  // (the plan made them on this state already; a state read anew gets them here).
  const moves = opts.plan.moves ?? [];
  applyMoves(opts.state, moves.filter((m) => opts.state.resources[m.from] !== undefined && opts.state.resources[m.to] === undefined));
  const run = new ApplyRun(opts);
  if (moves.length > 0) await run.flushWhole();
  // Counted as the plan counts them: each change that moved.
  run.summary.moved = countChanges(opts.plan.changes).move;
  const parallelism = Math.max(1, opts.parallelism ?? 10);
  const tasks = opts.plan.changes;
  await runInOrder(tasks, parallelism, {
    run: (c) => run.run(c),
    started: (c) => {
      if (c.action !== "noop") opts.onEvent?.({ address: c.address, action: c.action, phase: "start", id: c.id });
    },
    done: (c) => {
      if (c.action === "delete" || c.action === "forget") opts.onEvent?.({ address: c.address, action: c.action, phase: "done", id: c.id });
    },
    failed: (c, message) => {
      run.summary.failed++;
      run.summary.errors.push(`${c.address}: ${message}`);
      opts.onEvent?.({ address: c.address, action: c.action, phase: "failed", message });
    },
    skipped: (c, cause) => {
      run.summary.skipped++;
      opts.onEvent?.({ address: c.address, action: c.action, phase: "skipped", message: `skipped: ${cause} failed` });
    },
    unordered: (stuck) => run.summary.errors.push(`could not order: ${stuck.join(", ")}`),
    notStarted: (left) => {
      run.summary.notStarted += left.filter((c) => c.action !== "noop").length;
    },
  }, opts.stop);

  run.computeOutputs();
  await run.flush();
  if (run.summary.failed === 0 && !opts.stop?.aborted) await run.checkConvergence(tasks);
  return run.summary;
}
