// `ods plan --format markdown`: a plan that reads well as a pull-request comment. Per
// stack: where it writes, the counts, a table of the changes, and the full plan text
// folded away. Sensitive values are hidden as in every other plan output.
import { COUNTED_ACTIONS, countChanges, isChange, type PlannedChange } from "../reconcile/plan";
import type { OutputChange } from "../reconcile/outputs";
import { outputChangeLines, renderPlan } from "../reconcile/render";
import { documentChanges, pathChangeLabel } from "../reconcile/path-diff";
import { resourceKind } from "../resources";
import type { StackPlan } from "./stack-runner";

const LABEL: Record<PlannedChange["action"], string> = {
  create: "to create",
  adopt: "to adopt",
  update: "to update",
  replace: "to replace",
  rotate: "to rotate",
  delete: "to delete",
  forget: "to forget",
  noop: "unchanged",
};

function changesOf(sp: StackPlan): PlannedChange[] {
  return sp.parts.flatMap((p) => p.plan.changes.filter(isChange));
}

function outputChangesOf(sp: StackPlan): OutputChange[] {
  return sp.parts.flatMap((p) => p.plan.outputChanges ?? []);
}

/** "2 to create, 1 to delete": only the actions the plan has (the categories of the Plan line). */
export function planCounts(sp: StackPlan): string {
  const counts = countChanges(changesOf(sp));
  const parts = COUNTED_ACTIONS.filter((a) => counts[a] > 0).map((a) => `${counts[a]} ${LABEL[a]}`);
  if (counts.move > 0) parts.push(`${counts.move} to move`);
  const outputs = outputChangesOf(sp).length;
  if (outputs > 0) parts.push(`${outputs} output${outputs > 1 ? "s" : ""} to change`);
  return parts.length > 0 ? parts.join(", ") : "no changes";
}

/** The action of a row; a moved object says from where (a move alone is "move"). */
function actionCell(c: PlannedChange): string {
  if (c.previousAddress === undefined) return c.action;
  const from = `moved from \`${c.previousAddress}\`${c.movedBy === "natural key" ? " (found by natural key)" : ""}`;
  return c.action === "noop" ? `move: ${from}` : `${c.action}, ${from}`;
}

/** An attribute in the table; a JSON document with the paths that change (`dashboard: charts[c1].name, layout[c1].w`). */
function attributeCell(c: PlannedChange, name: string): string {
  const changes = documentChanges(resourceKind(c.typeName)?.attributes[name], c.before?.[name], c.pendingDocuments?.[name] ?? c.after?.[name]);
  if (!changes || changes.length === 0) return name;
  const shown = changes.slice(0, 5).map(pathChangeLabel);
  return `${name}: ${shown.join(", ")}${changes.length > shown.length ? ` and ${changes.length - shown.length} more` : ""}`;
}

/** Table cells hold no pipes or line breaks. */
function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\r?\n/g, " ");
}

/** A fence longer than any run of backticks inside, so that the text cannot close it. */
function fenced(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}text\n${text.trimEnd()}\n${fence}`;
}

export function markdownPlan(plans: StackPlan[], failures: { stack: string; error: string }[]): string {
  const out: string[] = ["## ods plan", ""];
  for (const sp of plans) {
    out.push(`### Stack \`${sp.unit.name}\``, "");
    for (const p of sp.parts) {
      const org = p.target.organization;
      out.push(`- Target \`${p.provider}\`: ${p.target.url}, organization ${org ? `${org.name ? `**${cell(org.name)}** ` : ""}(\`${org.id}\`)` : "unknown"}`);
    }
    out.push("", `**Plan:** ${planCounts(sp)}`, "");
    const changes = changesOf(sp);
    if (changes.length > 0) {
      out.push("| Action | Address | Attributes |", "| --- | --- | --- |");
      for (const c of changes) out.push(`| ${actionCell(c)} | \`${c.address}\` | ${cell(c.changed.map((name) => attributeCell(c, name)).join(", ")) || " "} |`);
      for (const c of changes.filter((x) => x.refusal)) out.push("", `**\`${c.address}\`**: **apply will refuse it** (and so apply nothing): ${cell(c.refusal!)}`);
      for (const c of changes.filter((x) => x.oldSecret)) out.push("", `**\`${c.address}\`**: ${cell(c.oldSecret!.text)}`);
      for (const c of changes.filter((x) => x.insight)) {
        out.push("", `**\`${c.address}\`**: ${cell(c.insight!.summary)}`);
        if (c.insight!.markdown) out.push("", c.insight!.markdown);
      }
    }
    const outputs = outputChangesOf(sp);
    if (outputs.length > 0) out.push("", "**Changes to Outputs:**", "", fenced(outputChangeLines(outputs).join("\n")));
    if (changes.length > 0 || outputs.length > 0) {
      const text = sp.parts.map((p) => (sp.parts.length > 1 ? `-- provider ${p.provider} --\n` : "") + renderPlan(p.plan)).join("\n");
      out.push("", "<details><summary>Full plan</summary>", "", fenced(text), "", "</details>");
    }
    out.push("");
  }
  for (const f of failures) out.push(`### Stack \`${f.stack}\`: error`, "", fenced(f.error), "");
  return out.join("\n");
}
