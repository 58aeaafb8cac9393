// `ods plan --format html`: the plan as one page a reviewer opens from a CI artifact. Per
// stack: its targets, the counts, the warnings, a table of the changes, then each change
// with its diff as the text plan shows it (sensitive values hidden the same way) and its
// pictures: a monitor's backtest, an SLO's budget and burn rates, a dashboard's layout.
import { resourceKind } from "../../resources";
import { outputChangeLines, changeLines, hiddenAttributes } from "../render";
import { isChange, type Plan, type PlannedChange } from "../plan";
import { backtestFigure, sloFiguresHtml } from "./insight-figures";
import { layoutFigure } from "./layout-figure";
import { esc, page, table } from "./page";

/** What the page reads of a stack's plan (the CLI's StackPlan has this shape). */
export interface HtmlStackPlan {
  unit: { name: string };
  parts: { provider: string; target: { url: string; organization?: { id: string; name?: string } }; plan: Plan }[];
}

export interface HtmlPlanOptions<S extends HtmlStackPlan> {
  /** The counts line of a stack, worded as every other plan format words it. */
  counts: (sp: S) => string;
}

function changesOf(sp: HtmlStackPlan): PlannedChange[] {
  return sp.parts.flatMap((p) => p.plan.changes.filter(isChange));
}

function actionText(c: PlannedChange): string {
  if (c.previousAddress === undefined) return c.action;
  const from = `moved from ${c.previousAddress}${c.movedBy === "natural key" ? " (found by natural key)" : ""}`;
  return c.action === "noop" ? `move: ${from}` : `${c.action}, ${from}`;
}

/** The layout previews of a change: one per document attribute it writes that a grid can show. */
function layoutFigures(c: PlannedChange): string[] {
  if (!["create", "update", "replace", "adopt"].includes(c.action)) return [];
  const attrs = resourceKind(c.typeName)?.attributes ?? {};
  const hidden = hiddenAttributes(c);
  const names = c.action === "create" ? Object.keys(c.after ?? {}) : c.changed;
  return names.flatMap((name) => {
    const fig = layoutFigure(c.address, attrs[name], c.action === "create" ? undefined : c.before?.[name], c.pendingDocuments?.[name] ?? c.after?.[name], hidden.has(name));
    return fig ? [fig] : [];
  });
}

/** A change's section: heading, what apply would refuse or retire, the diff, the pictures. */
function changeSection(c: PlannedChange, anchor: string, slosShown: Set<string>): string {
  const out: string[] = [`<section class="change" id="${anchor}">`, `<h3><code>${esc(c.address)}</code> <span class="action action-${c.action}">${esc(actionText(c))}</span></h3>`];
  if (c.refusal) out.push(`<p class="refusal"><strong>Apply will refuse it</strong> (and so apply nothing): ${esc(c.refusal)}</p>`);
  if (c.oldSecret) out.push(`<p class="warning">${esc(c.oldSecret.text)}</p>`);
  if (c.insight) out.push(`<p class="summary">${esc(c.insight.summary)}</p>`);
  out.push(`<pre>${esc(changeLines(c).join("\n"))}</pre>`);
  const charts = c.insight?.charts;
  const slo = charts?.slo;
  if (slo?.declared && !slosShown.has(slo.path)) {
    // An SLO's monitors each carry it: drawn once (by construct path), under the first of them the plan changes.
    slosShown.add(slo.path);
    out.push(...sloFiguresHtml(c.address, slo));
  } else if (!slo && charts?.backtest) {
    const fig = backtestFigure(c.address, charts.backtest, c.insight!.summary);
    if (fig) out.push(fig);
  }
  out.push(...layoutFigures(c), "</section>");
  return out.join("\n");
}

function stackSection<S extends HtmlStackPlan>(sp: S, index: number, options: HtmlPlanOptions<S>, slosShown: Set<string>): string {
  const out: string[] = [`<h2>Stack <code>${esc(sp.unit.name)}</code></h2>`, "<ul>"];
  for (const p of sp.parts) {
    const org = p.target.organization;
    out.push(`<li>Target <code>${esc(p.provider)}</code>: ${esc(p.target.url)}, organization ${org ? `${org.name ? `<strong>${esc(org.name)}</strong> ` : ""}(<code>${esc(org.id)}</code>)` : "unknown"}</li>`);
  }
  out.push("</ul>", `<p class="summary">Plan: ${esc(options.counts(sp))}</p>`);
  for (const w of sp.parts.flatMap((p) => p.plan.warnings)) out.push(`<p class="warning">Warning: ${esc(w)}</p>`);
  const changes = changesOf(sp);
  const anchor = (i: number) => `s${index}-c${i}`;
  if (changes.length > 0) {
    const rows = changes.map((c, i) => `<tr><td class="action action-${c.action}">${esc(actionText(c))}</td><td><a href="#${anchor(i)}"><code>${esc(c.address)}</code></a></td><td>${esc(c.changed.join(", "))}</td></tr>`);
    out.push(`<table><thead><tr><th scope="col">Action</th><th scope="col">Address</th><th scope="col">Attributes</th></tr></thead><tbody>\n${rows.join("\n")}\n</tbody></table>`);
    changes.forEach((c, i) => out.push(changeSection(c, anchor(i), slosShown)));
  }
  const outputs = sp.parts.flatMap((p) => p.plan.outputChanges ?? []);
  if (outputs.length > 0) out.push("<h3>Changes to Outputs</h3>", `<pre>${esc(outputChangeLines(outputs).join("\n"))}</pre>`);
  if (changes.length === 0 && outputs.length === 0) out.push("<p>No changes. The live service matches the configuration.</p>");
  return out.join("\n");
}

/** The whole plan of every stack as one self-contained HTML document. */
export function htmlPlan<S extends HtmlStackPlan>(plans: readonly S[], failures: readonly { stack: string; error: string }[], options: HtmlPlanOptions<S>): string {
  const slosShown = new Set<string>();
  const body: string[] = ["<h1>ods plan</h1>"];
  body.push(`<p class="muted">${plans.length} stack${plans.length === 1 ? "" : "s"} planned${failures.length > 0 ? `, ${failures.length} could not be planned` : ""}. Charts are drawn from the service's data over the backtest window; each has its figures under "Data of this chart".</p>`);
  if (plans.length > 1) body.push(table(["stack", "plan"], plans.map((sp) => [sp.unit.name, options.counts(sp)])));
  plans.forEach((sp, i) => body.push(stackSection(sp, i, options, slosShown)));
  for (const f of failures) body.push(`<h2>Stack <code>${esc(f.stack)}</code>: error</h2>`, `<pre class="refusal">${esc(f.error)}</pre>`);
  return page("ods plan", body.join("\n"));
}
