// Plans as people and machines read them. Sensitive values never appear: they are shown
// as (sensitive), and so are secrets' fingerprints.
import { isNested, planSlos, resourceKind, type Attribute, type Attributes, type Values } from "../resources";
import { UNKNOWN } from "./expressions";
import { PLAN_FORMAT_VERSION, isChange, type Plan, type PlannedChange } from "./plan";
import { documentAttributeLines, documentChanges, pathChangesJson } from "./path-diff";

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

function attributeLines(change: PlannedChange): string[] {
  const kind = resourceKind(change.typeName);
  const attrs = kind?.attributes ?? {};
  const hidden = sensitiveNames(attrs, [...(change.marked ?? []), ...(change.sensitiveAttributes ?? [])]);
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
      lines.push(`      ~ ${name} = ${show(name, before)} -> ${show(name, after)}${forces}`);
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
  if (changes.length === 0) {
    out.push("No changes. The live service matches the configuration.");
    return `${out.join("\n")}\n`;
  }
  out.push("ods will perform the following actions:", "");
  for (const c of changes) {
    out.push(...headerLines(c));
    out.push(...attributeLines(c), "");
  }
  const count = (action: PlannedChange["action"]): number => changes.filter((c) => countedActions(c).includes(action)).length;
  out.push(
    `Plan: ${count("create")} to create, ${count("adopt")} to adopt, ${count("update")} to update, ${count("replace")} to replace, ${count("rotate")} to rotate, ${count("delete")} to delete, ${count("forget")} to forget, ${changes.filter((c) => c.previousAddress !== undefined).length} to move.`,
  );
  return `${out.join("\n")}\n`;
}

/** A change's first lines: what happens to it, and where it moved from (as Terraform says it). */
function headerLines(c: PlannedChange): string[] {
  const id = c.id ? ` (id ${c.id})` : "";
  if (c.action === "noop") return [`  # ${c.previousAddress} has moved to ${c.address}${id}`, `    ${c.address}`];
  const label = c.action === "adopt" && c.alsoUpdate ? `${VERB.adopt} and updated` : VERB[c.action];
  const moved = c.previousAddress !== undefined ? [`  # (moved from ${c.previousAddress})`] : [];
  return [`  # ${c.address} ${label}${id}`, ...moved, `  ${SYMBOL[c.action]} ${c.address}`];
}

/**
 * The actions a change is counted under in a plan's summary: its own, and for an
 * adoption what it also does (a token that cannot be read back is rotated as well).
 */
export function countedActions(c: PlannedChange): PlannedChange["action"][] {
  if (c.action !== "adopt") return [c.action];
  if (c.alsoRotate) return ["adopt", "rotate"];
  return c.alsoUpdate ? ["adopt", "update"] : ["adopt"];
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
        actions: c.action === "replace" ? ["delete", "create"] : countedActions(c),
        action: c.action,
        changed_attributes: c.changed,
        reasons: c.reasons,
        before,
        after,
        after_unknown: unknown,
        after_sensitive: [...new Set(sensitive)],
        ...documentChangesJson(c, attrs, alsoHidden),
        ...(c.insight ? c.insight.json : {}),
      };
    }),
  };
}
