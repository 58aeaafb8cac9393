// `ods plan --format markdown`: a plan that reads well as a pull-request comment. Per
// stack: where it writes, the counts, a table of the changes, each monitor's backtest and
// each SLO as mermaid charts, and the full plan text folded away. Sensitive values are
// hidden as in every other plan output.
//
// A comment has a size limit (GitHub's is 65,536 characters): a plan that would pass it
// leaves out detail in the stated order of SHORTENING, says at the top what it left out,
// and where the whole plan is (docs/guides/gitops.md, "Plans on pull requests").
import { COUNTED_ACTIONS, countChanges, isChange, type PlannedChange } from "../reconcile/plan";
import type { OutputChange } from "../reconcile/outputs";
import { outputChangeLines, renderPlan } from "../reconcile/render";
import { documentChanges, pathChangeLabel } from "../reconcile/path-diff";
import { resourceKind } from "../resources";
import type { StackPlan } from "../reconcile/stack-plan";

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

/** GitHub's limit on a comment's body, in characters (a UTF-16 length is never fewer). */
export const COMMENT_LIMIT = 65_536;

/** How much of the plan a rendering keeps. */
interface Detail {
  fullText: boolean;
  liveLines: boolean;
  /** Charts kept, counted over the whole comment in order. */
  charts: number;
  /** Rows of each stack's table kept. */
  rows: number;
  /** Notes (a backtest's, a rotation's) of each stack kept; a refusal is always kept. */
  notes: number;
}

const ALL = Number.POSITIVE_INFINITY;
/** Charts, table rows and notes a shortened comment keeps. */
export const KEPT_CHARTS = 10;
export const KEPT_ROWS = 100;
export const KEPT_NOTES = 50;

/**
 * The stated order (documented in the guide): each step leaves out more than the one
 * before, and the first that fits is the comment. Past the last one, whole blocks are cut
 * from the end.
 */
const SHORTENING: readonly Detail[] = [
  { fullText: true, liveLines: true, charts: ALL, rows: ALL, notes: ALL },
  { fullText: false, liveLines: true, charts: ALL, rows: ALL, notes: ALL },
  { fullText: false, liveLines: false, charts: ALL, rows: ALL, notes: ALL },
  { fullText: false, liveLines: false, charts: KEPT_CHARTS, rows: ALL, notes: ALL },
  { fullText: false, liveLines: false, charts: KEPT_CHARTS, rows: KEPT_ROWS, notes: ALL },
  { fullText: false, liveLines: false, charts: KEPT_CHARTS, rows: KEPT_ROWS, notes: KEPT_NOTES },
];

/** What a rendering left out, for the note at the top. */
interface Omitted {
  fullText: boolean;
  liveLines: number;
  charts: number;
  rows: number;
  notes: number;
  cut: boolean;
}

export interface MarkdownPlanOptions {
  /** Where CI saved the HTML plan: linked at the top. */
  htmlUrl?: string;
  /** Most characters the comment may have (COMMENT_LIMIT). */
  limit?: number;
}

/**
 * The `--html-url` (or ODS_PLAN_HTML_URL) as it is linked: an http(s) URL without
 * credentials. The error names the flag and never repeats the value, which could hold one.
 */
export function htmlPlanUrl(value: string, source: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${source}: expected an absolute http or https URL (of the HTML plan CI saved)`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error(`${source}: expected an http or https URL, got a ${url.protocol} URL`);
  if (url.username !== "" || url.password !== "") throw new Error(`${source}: the URL carries credentials, which the comment would show to every reader; link a URL without them`);
  // href percent-encodes spaces and angle brackets, so the autolink below cannot be ended early.
  return url.href;
}

/** The options of `ods plan --format markdown` from its flag, else the environment (empty: no link). */
export function markdownPlanOptions(format: string, htmlUrlFlag: string | undefined, env: NodeJS.ProcessEnv): MarkdownPlanOptions {
  if (htmlUrlFlag !== undefined && format !== "markdown") throw new Error("--html-url: only with --format markdown (it links the HTML plan from the pull-request comment)");
  if (htmlUrlFlag !== undefined) return { htmlUrl: htmlPlanUrl(htmlUrlFlag, "--html-url") };
  const fromEnv = env.ODS_PLAN_HTML_URL;
  return fromEnv ? { htmlUrl: htmlPlanUrl(fromEnv, "ODS_PLAN_HTML_URL") } : {};
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function omittedNote(o: Omitted, limit: number, htmlUrl: string | undefined): string[] {
  const parts: string[] = [];
  if (o.fullText) parts.push("the folded full plan text");
  if (o.liveLines > 0) parts.push(`the live definition's lines in ${plural(o.liveLines, "chart")}`);
  if (o.charts > 0) parts.push(`${plural(o.charts, "chart")} after the first ${KEPT_CHARTS}`);
  if (o.rows > 0) parts.push(`${plural(o.rows, "table row")} after the first ${KEPT_ROWS} of a stack (marked "… and K more")`);
  if (o.notes > 0) parts.push(`${plural(o.notes, "note")} (backtests, SLOs, rotations) after the first ${KEPT_NOTES} of a stack`);
  if (o.cut) parts.push("the end of the comment (cut where it reached the limit)");
  if (parts.length === 0) return [];
  const where = htmlUrl ? "the full plan linked above, and the output of `ods plan` in the CI job, have all of it" : "the output of `ods plan` (or `--format json`) in the CI job has all of it";
  return [`> **Shortened** to stay under the comment limit of ${limit.toLocaleString("en-US")} characters. Left out: ${parts.join("; ")}. ${where[0].toUpperCase()}${where.slice(1)}.`, ""];
}

/** One stack's part of the comment, as blocks (a block is never split: a fence stays whole). */
function stackBlocks(sp: StackPlan, detail: Detail, omitted: Omitted, charts: { shown: number }): string[] {
  const out: string[] = [];
  out.push(`### Stack \`${sp.unit.name}\``, "");
  for (const p of sp.parts) {
    const org = p.target.organization;
    out.push(`- Target \`${p.provider}\`: ${p.target.url}, organization ${org ? `${org.name ? `**${cell(org.name)}** ` : ""}(\`${org.id}\`)` : "unknown"}`);
  }
  out.push("", `**Plan:** ${planCounts(sp)}`, "");
  const changes = changesOf(sp);
  if (changes.length > 0) {
    const kept = changes.slice(0, detail.rows);
    const more = changes.length - kept.length;
    omitted.rows += more;
    out.push("| Action | Address | Attributes |", "| --- | --- | --- |");
    for (const c of kept) out.push(`| ${actionCell(c)} | \`${c.address}\` | ${cell(c.changed.map((name) => attributeCell(c, name)).join(", ")) || " "} |`);
    if (more > 0) out.push(`| … | and ${plural(more, "more change")} | |`);
    // Apply refuses the whole stack for one of these: never left out.
    for (const c of changes.filter((x) => x.refusal)) out.push("", `**\`${c.address}\`**: **apply will refuse it** (and so apply nothing): ${cell(c.refusal!)}`);
    const noted = changes.filter((x) => x.oldSecret || x.insight);
    const keptNotes = new Set(noted.slice(0, detail.notes));
    omitted.notes += noted.length - keptNotes.size;
    for (const c of changes.filter((x) => x.oldSecret && keptNotes.has(x))) out.push("", `**\`${c.address}\`**: ${cell(c.oldSecret!.text)}`);
    for (const c of changes.filter((x) => x.insight && keptNotes.has(x))) {
      const insight = c.insight!;
      out.push("", `**\`${c.address}\`**: ${cell(insight.summary)}`);
      for (const chart of insight.mermaid ?? []) {
        if (charts.shown >= detail.charts) {
          omitted.charts++;
          continue;
        }
        charts.shown++;
        if (!detail.liveLines && chart.withoutLive !== chart.markdown) omitted.liveLines++;
        out.push("", detail.liveLines ? chart.markdown : chart.withoutLive);
      }
      if (insight.markdown) out.push("", insight.markdown);
    }
    if (noted.length > keptNotes.size) out.push("", `… and ${plural(noted.length - keptNotes.size, "more note")}`);
  }
  const outputs = outputChangesOf(sp);
  if (outputs.length > 0) out.push("", "**Changes to Outputs:**", "", fenced(outputChangeLines(outputs).join("\n")));
  if (changes.length > 0 || outputs.length > 0) {
    if (detail.fullText) {
      const text = sp.parts.map((p) => (sp.parts.length > 1 ? `-- provider ${p.provider} --\n` : "") + renderPlan(p.plan)).join("\n");
      out.push("", "<details><summary>Full plan</summary>", "", fenced(text), "", "</details>");
    } else omitted.fullText = true;
  }
  out.push("");
  return out;
}

function rendering(plans: StackPlan[], failures: { stack: string; error: string }[], detail: Detail): { blocks: string[]; omitted: Omitted } {
  const omitted: Omitted = { fullText: false, liveLines: 0, charts: 0, rows: 0, notes: 0, cut: false };
  const charts = { shown: 0 };
  const blocks = plans.flatMap((sp) => stackBlocks(sp, detail, omitted, charts));
  for (const f of failures) blocks.push(`### Stack \`${f.stack}\`: error`, "", fenced(f.error), "");
  return { blocks, omitted };
}

function document(head: string[], omitted: Omitted, limit: number, htmlUrl: string | undefined, blocks: string[]): string {
  return [...head, ...omittedNote(omitted, limit, htmlUrl), ...blocks].join("\n");
}

export function markdownPlan(plans: StackPlan[], failures: { stack: string; error: string }[], options: MarkdownPlanOptions = {}): string {
  const limit = options.limit ?? COMMENT_LIMIT;
  const head = ["## ods plan", "", ...(options.htmlUrl ? [`Full plan with charts: <${options.htmlUrl}>`, ""] : [])];
  let last: { blocks: string[]; omitted: Omitted } | undefined;
  for (const detail of SHORTENING) {
    last = rendering(plans, failures, detail);
    const text = document(head, last.omitted, limit, options.htmlUrl, last.blocks);
    if (text.length <= limit) return text;
  }
  // Past the last step: whole blocks from the end, until the rest and the note fit.
  const { blocks, omitted } = last!;
  omitted.cut = true;
  const tail = ["", "… (cut here to fit the comment limit)"];
  let length = document(head, omitted, limit, options.htmlUrl, [...blocks, ...tail]).length;
  // Each block is joined by one line break: the length falls by the block's and that one.
  while (blocks.length > 0 && length > limit) length -= blocks.pop()!.length + 1;
  return document(head, omitted, limit, options.htmlUrl, [...blocks, ...tail]);
}
