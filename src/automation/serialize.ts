// The engine's plans, applies and drifts as the API's typed results (results.ts). The
// CLI's --json prints these same objects, so the two never disagree.
import { planJson } from "../reconcile/render";
import { redactText } from "../reconcile/redact";
import type { ApplySummary } from "../reconcile/apply";
import type { StackPlan } from "../reconcile/stack-plan";
import { stackHasChanges } from "../reconcile/stack-plan";
import type { StackApplyOutcome } from "../reconcile/session-apply";
import type { StackDrift } from "../reconcile/session-drift";
import type { ApplyCounts, ApplyResult, DriftResult, Json, PartPlan, PlanResult, StackFailure, StackPlanResult } from "./results";

/** One stack's plan, part by part, each with its target. */
export function stackPlanResult(sp: StackPlan): StackPlanResult {
  return {
    stack: sp.unit.name,
    plans: sp.parts.map((p) => ({
      ...(planJson(p.plan) as Omit<PartPlan, "target">),
      target: { provider: p.provider, url: p.target.url, organization: p.target.organization ?? null },
    })),
  };
}

export function planResult(plans: readonly StackPlan[], failures: readonly StackFailure[]): PlanResult {
  return { stacks: plans.map(stackPlanResult), errors: [...failures], has_changes: plans.some(stackHasChanges) };
}

/**
 * What `ods plan --json` prints: for one stack with one target, that part's plan (the
 * format's first shape, kept); else the whole result.
 */
export function planJsonDocument(result: PlanResult): PartPlan | PlanResult {
  if (result.stacks.length === 1 && result.errors.length === 0 && result.stacks[0].plans.length === 1) return result.stacks[0].plans[0];
  return result;
}

export function applyCounts(s: ApplySummary): ApplyCounts {
  return {
    created: s.created,
    adopted: s.adopted,
    updated: s.updated,
    replaced: s.replaced,
    rotated: s.rotated,
    deleted: s.deleted,
    forgotten: s.forgotten,
    moved: s.moved,
    failed: s.failed,
    skipped: s.skipped,
    not_started: s.notStarted,
  };
}

export function applyResult(outcomes: readonly StackApplyOutcome[], interrupted: boolean): ApplyResult {
  return {
    stacks: outcomes.map((o) => ({
      stack: o.stack,
      status: o.status,
      summary: o.line,
      counts: o.summary ? applyCounts(o.summary) : null,
      warnings: o.summary?.warnings ?? [],
      errors: o.summary?.errors ?? (o.error !== undefined ? [o.error instanceof Error ? o.error.message : String(o.error)] : []),
      plan: o.plan ? stackPlanResult(o.plan) : null,
    })),
    interrupted,
    failed: outcomes.some((o) => o.failed),
  };
}

export function driftResult(reports: readonly StackDrift[]): DriftResult {
  return {
    stacks: reports.map((r) => ({
      stack: r.stack,
      drifted: r.drifted.map((o) => ({
        address: o.address,
        id: o.id,
        type: o.type,
        provider: o.provider,
        deleted: o.deleted,
        attributes: o.attributes.map((a) => ({ name: a.name, before: toJson(a.before), after: toJson(a.after), sensitive: a.sensitive })),
        ...(o.advice !== undefined ? { advice: o.advice } : {}),
      })),
      warnings: [...r.warnings],
    })),
    has_drift: reports.some((r) => r.drifted.some((o) => o.deleted || o.attributes.length > 0)),
  };
}

function toJson(v: unknown): Json {
  return v === undefined ? null : (JSON.parse(JSON.stringify(v)) as Json);
}

/**
 * Every string of a result with the sensitive values a stack carries replaced by
 * "(sensitive)", as the CLI's output is: a secret reaches no result, whatever holds it.
 */
export function redactResult<T>(value: T, secrets: ReadonlySet<string>): T {
  if (secrets.size === 0) return value;
  const list = [...secrets];
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return redactText(v, list);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [redactText(k, list), walk(x)]));
    return v;
  };
  return walk(value) as T;
}
