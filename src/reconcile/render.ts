// Plans as people and machines read them. Sensitive values never appear: they are shown
// as (sensitive), and so are secrets' fingerprints.
import { isNested, planSlos, resourceKind, type Attribute, type Attributes, type Values } from "../resources";
import { UNKNOWN } from "./expressions";
import { PLAN_FORMAT_VERSION, countChanges, countedActions, isChange, type Plan, type PlannedChange } from "./plan";
import { documentAttributeLines, documentChanges, pathChangesJson } from "./path-diff";
import { knownPart, unknownShape, type OutputChange } from "./outputs";

const SYMBOL: Record<PlannedChange["action"], string> = {
  create: "+",
  adopt: "<=",
  update: "~",
  replace: "-/+",
  rotate: "+/-",
  delete: "-",
  forget: "-",
  noop: " ",
};

const VERB: Record<PlannedChange["action"], string> = {
  create: "will be created",
  adopt: "will be adopted (found live by its natural key)",
  update: "will be updated in place",
  replace: "must be replaced",
  rotate: "will be rotated (a new secret is issued)",
  delete: "will be deleted",
  forget: "will no longer be managed (nothing is deleted)",
  noop: "is up to date",
};

/** The attributes inside a nested attribute, or undefined for a plain one (displayValue masks their secrets). */
export function nestedAttributes(attr: Attribute | undefined): Attributes | undefined {
  return attr && isNested(attr) ? attr.attributes : undefined;
}

/** Attributes shown as (sensitive): sensitive in the schema, or marked for a sensitive value they took. */
function sensitiveNames(attrs: Attributes | undefined, marked: readonly string[] = []): Set<string> {
  const out = new Set<string>(marked);
  for (const [name, a] of Object.entries(attrs ?? {})) if (a.sensitive || a.secret) out.add(name);
  return out;
}

/** A value for display; secrets anywhere inside nested objects are masked too. */
export function displayValue(value: unknown, attrs?: Attributes): string {
  if (value === UNKNOWN) return "(known after apply)";
  if (value === undefined || value === null) return "null";
  if (typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => displayValue(v)).join(", ")}]`;
  if (typeof value === "object") {
    const hidden = sensitiveNames(attrs);
    const parts = Object.entries(value as Values)
      .filter(([, v]) => v !== null && v !== undefined)
      .map(([k, v]) => {
        return `${k} = ${hidden.has(k) ? "(sensitive)" : displayValue(v, nestedAttributes(attrs?.[k]))}`;
      });
    return `{ ${parts.join(", ")} }`;
  }
  return String(value);
}

/** The attributes of a change shown as (sensitive): by its kind's schema, or for a sensitive value they took. */
export function hiddenAttributes(change: PlannedChange): Set<string> {
  return sensitiveNames(resourceKind(change.typeName)?.attributes, [...(change.marked ?? []), ...(change.sensitiveAttributes ?? [])]);
}

/** One change as the plan text shows it: what happens to it, then its attributes. */
export function changeLines(change: PlannedChange): string[] {
  return [...headerLines(change), ...attributeLines(change)];
}

function attributeLines(change: PlannedChange): string[] {
  const kind = resourceKind(change.typeName);
  const attrs = kind?.attributes ?? {};
  const hidden = hiddenAttributes(change);
  const lines: string[] = [];
  const show = (name: string, v: unknown): string => {
    return hidden.has(name) ? "(sensitive)" : displayValue(v, nestedAttributes(attrs[name]));
  };
  if (change.action === "create") {
    for (const [name, v] of Object.entries(change.after ?? {})) {
      if (v === null || v === undefined) continue;
      const doc = documentAttributeLines("+", name, attrs[name], null, change.pendingDocuments?.[name] ?? v, hidden.has(name), "      ");
      if (doc) lines.push(...doc);
      else lines.push(`      + ${name} = ${show(name, v)}`);
    }
  } else if (change.action === "delete") {
    for (const name of ["id", ...kind?.naturalKey ?? []]) {
      const v = name === "id" ? change.id : change.before?.[name];
      if (v !== undefined && v !== null) lines.push(`      - ${name} = ${show(name, v)}`);
    }
  } else {
    for (const name of change.changed) {
      const forces = attrs[name]?.forcesReplacement && change.action === "replace" ? " # forces replacement" : "";
      const before = change.before?.[name];
      const after = change.after?.[name];
      const doc = documentAttributeLines("~", name, attrs[name], before, change.pendingDocuments?.[name] ?? after, hidden.has(name), "      ");
      if (doc) {
        lines.push(...doc.slice(0, 1).map((l) => `${l}${forces}`), ...doc.slice(1));
        continue;
      }
      lines.push(`      ~ ${name} = ${changedText(show(name, before), show(name, after))}${forces}`);
    }
  }
  for (const reason of change.reasons) lines.push(`        # ${reason}`);
  if (change.insight) lines.push(`        # ${change.insight.summary}`, ...change.insight.lines.map((l) => `        # ${l}`));
  return lines;
}

export function renderPlan(plan: Plan): string {
  const out: string[] = [];
  for (const w of plan.warnings) out.push(`Warning: ${w}`);
  const changes = plan.changes.filter(isChange);
  const outputs = plan.outputChanges ?? [];
  if (changes.length === 0 && outputs.length === 0) {
    out.push("No changes. The live service matches the configuration.");
    return `${out.join("\n")}\n`;
  }
  if (changes.length > 0) {
    out.push("ods will perform the following actions:", "");
    for (const c of changes) out.push(...changeLines(c), "");
    out.push(`Plan: ${summaryCounts(countChanges(changes))}.`);
  }
  if (outputs.length > 0) {
    if (changes.length > 0) out.push("");
    out.push("Changes to Outputs:", ...outputChangeLines(outputs));
    if (changes.length === 0) out.push("", "You can apply this plan to save these new output values to the state, without changing any live object.");
  }
  return `${out.join("\n")}\n`;
}

/** "1 to create, 0 to adopt, ...": every category, as the Plan line prints them. */
export function summaryCounts(counts: ReturnType<typeof countChanges>): string {
  return `${counts.create} to create, ${counts.adopt} to adopt, ${counts.update} to update, ${counts.replace} to replace, ${counts.rotate} to rotate, ${counts.delete} to delete, ${counts.forget} to forget, ${counts.move} to move`;
}

/** Values longer than this show only the span that changed, with some context around it. */
const LONG_VALUE = 120;
const CONTEXT = 30;

/**
 * "before -> after" of two displayed values. Long ones show the span that differs with
 * CONTEXT characters either side, the rest elided (…), and where it starts: a path
 * changed in a 1,600-character query reads as that path, not as both queries whole.
 */
export function changedText(before: string, after: string): string {
  if (Math.max(before.length, after.length) <= LONG_VALUE || /^\((sensitive|known after apply)\)$/.test(before) || /^\((sensitive|known after apply)\)$/.test(after)) {
    return `${before} -> ${after}`;
  }
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let tail = 0;
  while (tail < before.length - start && tail < after.length - start && before[before.length - 1 - tail] === after[after.length - 1 - tail]) tail++;
  const from = Math.max(0, start - CONTEXT);
  const span = (text: string): string => {
    const end = Math.min(text.length, text.length - tail + CONTEXT);
    return `${from > 0 ? "…" : ""}${text.slice(from, end)}${end < text.length ? "…" : ""}`;
  };
  return `${span(before)} -> ${span(after)} (changed at character ${start + 1} of ${before.length})`;
}

const OUTPUT_SYMBOL: Record<OutputChange["action"], string> = { create: "+", update: "~", delete: "-" };

/** One line per output change, as Terraform prints them; sensitive values hidden. */
export function outputChangeLines(changes: readonly OutputChange[]): string[] {
  return changes.map((o) => {
    const before = o.beforeSensitive ? "(sensitive)" : displayValue(o.before);
    const after = o.afterSensitive || (o.action === "delete" && o.beforeSensitive) ? "(sensitive)" : displayValue(o.after);
    if (o.action === "create") return `  + ${o.name} = ${after}`;
    if (o.action === "delete") return `  - ${o.name} = ${before} -> null`;
    return `  ${OUTPUT_SYMBOL[o.action]} ${o.name} = ${changedText(before, after)}`;
  });
}

/** A change's first lines: what happens to it, and where it moved from (as Terraform says it). */
function headerLines(c: PlannedChange): string[] {
  const id = c.id ? ` (id ${c.id})` : "";
  if (c.action === "noop") return [`  # ${c.previousAddress} has moved to ${c.address}${id}`, `    ${c.address}`];
  const label = c.action === "adopt" && c.alsoUpdate ? `${VERB.adopt} and updated` : VERB[c.action];
  const moved = c.previousAddress !== undefined ? [`  # (moved from ${c.previousAddress})`] : [];
  return [`  # ${c.address} ${label}${id}`, ...moved, `  ${SYMBOL[c.action]} ${c.address}`];
}


function jsonValues(values: Values | null, attrs: Attributes, unknown: string[], sensitive: string[], alsoHidden: readonly string[] = []): Values | null {
  if (!values) return null;
  const hidden = sensitiveNames(attrs, alsoHidden);
  const out: Values = {};
  for (const [k, v] of Object.entries(values)) {
    if (v === UNKNOWN) {
      unknown.push(k);
      continue;
    }
    const nested = nestedAttributes(attrs[k]);
    if (hidden.has(k) || (nested && hasSecretInside(nested))) {
      sensitive.push(k);
      out[k] = hidden.has(k) ? null : maskSecrets(v, nested!);
      continue;
    }
    out[k] = v;
  }
  return out;
}

function hasSecretInside(attrs: Attributes): boolean {
  return Object.values(attrs).some((a) => a.sensitive || a.secret || (isNested(a) && hasSecretInside(a.attributes)));
}

function maskSecrets(value: unknown, attrs: Attributes): unknown {
  if (!value || typeof value !== "object" || Array.isArray(value)) return value;
  const out: Values = {};
  for (const [k, v] of Object.entries(value as Values)) {
    const a = attrs[k];
    if (a && (a.sensitive || a.secret)) out[k] = v === null || v === undefined ? v : "(sensitive)";
    else if (a && isNested(a)) out[k] = maskSecrets(v, a.attributes);
    else out[k] = v;
  }
  return out;
}

/** `document_changes`: for each attribute holding a JSON document, its changes by path. */
function documentChangesJson(c: PlannedChange, attrs: Attributes, alsoHidden: readonly string[]): { document_changes?: Record<string, unknown> } {
  if (c.action === "noop" || c.action === "delete" || c.action === "forget") return {};
  const hidden = sensitiveNames(attrs, alsoHidden);
  const out: Record<string, unknown> = {};
  const names = c.action === "create" ? Object.keys(c.after ?? {}) : c.changed;
  for (const name of names) {
    const changes = documentChanges(attrs[name], c.action === "create" ? null : c.before?.[name], c.pendingDocuments?.[name] ?? c.after?.[name]);
    if (changes) out[name] = pathChangesJson(changes, hidden.has(name));
  }
  return Object.keys(out).length > 0 ? { document_changes: out } : {};
}

/** The versioned machine form of a plan (`ods plan --json`). */
export function planJson(plan: Plan): unknown {
  return {
    format_version: String(PLAN_FORMAT_VERSION),
    stack: plan.stack,
    warnings: plan.warnings,
    // The SLOs the changes belong to, once each (monitors generated by slo.Slo).
    slos: planSlos(plan.changes.map((c) => c.insight?.json)),
    output_changes: outputChangesJson(plan.outputChanges ?? []),
    resource_changes: plan.changes.map((c) => {
      const attrs = resourceKind(c.typeName)?.attributes ?? {};
      const unknown: string[] = [];
      const sensitive: string[] = [];
      const alsoHidden = [...(c.marked ?? []), ...(c.sensitiveAttributes ?? [])];
      const before = jsonValues(c.before, attrs, [], [], alsoHidden);
      const after = jsonValues(c.after, attrs, unknown, sensitive, alsoHidden);
      return {
        address: c.address,
        ...(c.previousAddress !== undefined ? { previous_address: c.previousAddress, moved_by: c.movedBy } : {}),
        type: c.typeName,
        construct_path: c.constructPath ?? null,
        id: c.id ?? null,
        actions: c.action === "replace" ? ["delete", "create"] : c.action === "noop" ? ["noop"] : countedActions(c),
        action: c.action,
        changed_attributes: c.changed,
        reasons: c.reasons,
        before,
        after,
        after_unknown: unknown,
        after_sensitive: [...new Set(sensitive)],
        ...documentChangesJson(c, attrs, alsoHidden),
        ...(c.oldSecret ? { old_secret_stops_working_at: c.oldSecret.stopsAt, rotation_grace_period: c.oldSecret.gracePeriod } : {}),
        ...(c.refusal ? { apply_refuses: c.refusal } : {}),
        ...(c.insight ? c.insight.json : {}),
      };
    }),
  };
}

/**
 * `output_changes` in Terraform's JSON plan shape: per output, its actions, values and
 * which are unknown or sensitive. A sensitive value is left out (null), never written.
 */
export function outputChangesJson(changes: readonly OutputChange[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const o of changes) {
    const afterHidden = o.afterSensitive || (o.action === "delete" && o.beforeSensitive);
    out[o.name] = {
      actions: [o.action],
      before: o.beforeSensitive ? null : o.before,
      after: afterHidden ? null : knownPart(o.after),
      after_unknown: unknownShape(o.after),
      before_sensitive: o.beforeSensitive,
      after_sensitive: afterHidden,
    };
  }
  return out;
}
