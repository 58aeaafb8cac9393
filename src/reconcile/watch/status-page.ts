// The HTML page `ods watch` serves at `/`: what /status says, for a person. It is one
// self-contained document (its style inline, no script, no image, no font), refreshed by
// the browser itself (<meta http-equiv="refresh">), and served with a Content-Security-Policy
// that allows nothing but that one style block: whatever a repository or the service put
// in a name, a description or an error is escaped here, and could load nothing if it were not.
import { createHash } from "node:crypto";
import { REDACTED } from "../redact";
import type { DriftedObject } from "./drift";
import type { LastReconcile, PendingPlan, RoundResult, StackStatus, WatchStatus } from "./status";
// The one escaper of every HTML page: the redaction of secrets (redact.ts) looks for its forms.
import { esc } from "../html/page";

export interface StatusPageOptions {
  /** Seconds between the page's own reloads. */
  refreshSeconds: number;
  /** The time the page is made at (ages are counted from it). */
  now?: Date;
}

const CSS = `
:root{color-scheme:light dark;--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--bg:#fff;--soft:#f6f8fa;
--ok:#1a7f37;--info:#0969da;--warn:#9a6700;--bad:#cf222e;--off:#6e7781}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#8d96a0;--line:#30363d;--bg:#0d1117;--soft:#161b22}}
*{box-sizing:border-box}
body{margin:0;padding:1.5rem 2rem;font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
h1{font-size:1.4rem;margin:0 0 .25rem}h2{font-size:1.15rem;margin:0}h3{font-size:1rem;margin:1.25rem 0 .5rem}h4{font-size:.95rem;margin:.75rem 0 .25rem}
header{border-bottom:1px solid var(--line);padding-bottom:.75rem;margin-bottom:1rem}
header p{margin:.2rem 0;color:var(--muted)}
nav a{margin-right:1rem}
code,pre{font:12.5px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{background:var(--soft);border:1px solid var(--line);border-radius:6px;padding:.6rem .8rem;white-space:pre-wrap;word-break:break-all;margin:.25rem 0}
section.stack{border:1px solid var(--line);border-radius:8px;padding:1rem 1.25rem;margin:0 0 1.25rem}
.stack-head{display:flex;gap:.75rem;align-items:center;flex-wrap:wrap}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.15rem 1rem;margin:.75rem 0 0}
dt{color:var(--muted)}dd{margin:0}
table{border-collapse:collapse;width:100%;margin:.25rem 0}
th,td{border-bottom:1px solid var(--line);padding:.3rem .5rem;text-align:left;vertical-align:top}
th{color:var(--muted);font-weight:600}
td.num{text-align:right;font-variant-numeric:tabular-nums}
.badge{display:inline-block;border-radius:999px;padding:.05rem .6rem;font-size:.8rem;font-weight:600;color:#fff;background:var(--off)}
.r-in_sync,.r-converged_elsewhere{background:var(--ok)}.r-applied,.r-drift_corrected{background:var(--info)}
.r-planned,.r-drift_reported{background:var(--warn)}.r-failed{background:var(--bad)}
.error{color:var(--bad)}.muted{color:var(--muted)}
`;

/** The CSP of the page: its one style block (by hash), nothing else, not even from itself. */
export const STATUS_PAGE_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash("sha256").update(CSS).digest("base64")}'`,
  // The empty icon below: without it the browser asks for /favicon.ico.
  "img-src data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const RESULT_WORDS: Record<RoundResult, string> = {
  in_sync: "in sync",
  applied: "applied",
  planned: "planned, waiting for approval",
  drift_reported: "drift reported",
  drift_corrected: "drift corrected",
  converged_elsewhere: "converged elsewhere",
  failed: "failed",
  skipped: "skipped",
};

function badge(result: RoundResult): string {
  return `<span class="badge r-${result}">${esc(RESULT_WORDS[result] ?? result)}</span>`;
}

function shortRevision(revision: string | null): string {
  if (revision === null) return `<span class="muted">none yet</span>`;
  return `<code title="${esc(revision)}">${esc(revision.slice(0, 12))}</code>`;
}

/** `2026-11-29 06:30:34Z (12 s ago)`; the full ISO time in the element for machines. */
function when(iso: string | null, now: Date): string {
  if (iso === null) return `<span class="muted">never</span>`;
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return esc(iso);
  const seconds = Math.round((now.getTime() - t) / 1000);
  const ago = seconds >= 0 ? `${age(seconds)} ago` : `in ${age(-seconds)}`;
  const shown = new Date(t).toISOString().replace("T", " ").replace(/\.\d+Z$/, "Z");
  return `<time datetime="${esc(iso)}">${shown}</time> <span class="muted">(${ago})</span>`;
}

function age(seconds: number): string {
  if (seconds < 90) return `${seconds} s`;
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min`;
  if (seconds < 36 * 3600) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86400)} d`;
}

/** A drifted value: a secret as the bare word, anything else as JSON. */
function value(v: unknown): string {
  if (v === REDACTED) return `<span class="muted">${REDACTED}</span>`;
  return `<code>${esc(JSON.stringify(v) ?? "null")}</code>`;
}

function pendingSection(p: PendingPlan | null, now: Date): string {
  if (p === null) return `<h3>Pending plan</h3><p class="muted">none</p>`;
  return (
    `<h3>Pending plan</h3><div data-ods-section="pending-plan">` +
    `<p>Revision ${shortRevision(p.revision)}, ${p.changes} object(s) to change, saved ${when(p.savedAt, now)}. Apply exactly it with:</p>` +
    `<pre><code>${esc(p.command)}</code></pre>` +
    `<dl><dt>plan file</dt><dd><code>${esc(p.file)}</code></dd><dt>configuration</dt><dd><code>${esc(p.outDir)}</code></dd></dl></div>`
  );
}

function driftObject(o: DriftedObject): string {
  const reasons = o.reasons.length > 0 ? `<p class="muted">${o.reasons.map(esc).join("; ")}</p>` : "";
  const rows = o.attributes.map((a) => `<tr><td><code>${esc(a.path)}</code></td><td>${value(a.live)}</td><td>${value(a.desired)}</td></tr>`).join("");
  const table = o.attributes.length > 0 ? `<table><thead><tr><th>attribute</th><th>live</th><th>desired</th></tr></thead><tbody>${rows}</tbody></table>` : "";
  return (
    `<div data-ods-drifted="${esc(o.address)}"><h4><code>${esc(o.address)}</code> <span class="muted">${esc(o.kind)}, ` +
    `correcting it would ${esc(o.action)}</span></h4>${reasons}${table}</div>`
  );
}

function driftSection(drifted: readonly DriftedObject[]): string {
  if (drifted.length === 0) return `<h3>Drifted objects</h3><p class="muted">none</p>`;
  return `<h3>Drifted objects (${drifted.length})</h3><div data-ods-section="drift">${drifted.map(driftObject).join("")}</div>`;
}

function roundsSection(rounds: readonly LastReconcile[], now: Date): string {
  if (rounds.length === 0) return `<h3>Last rounds</h3><p class="muted">none yet</p>`;
  const rows = rounds
    .map(
      (r) =>
        `<tr><td>${when(r.at, now)}</td><td>${badge(r.result)}</td><td class="num">${r.changes}</td><td class="num">${r.drifted}</td>` +
        `<td class="num">${r.requests}</td><td class="num">${r.durationSeconds.toFixed(1)} s</td><td class="error">${r.error ? esc(r.error) : ""}</td></tr>`,
    )
    .join("");
  return (
    `<h3>Last rounds</h3><table data-ods-section="rounds"><thead><tr><th>time</th><th>outcome</th><th>changes</th><th>drifted</th>` +
    `<th>requests</th><th>duration</th><th>error</th></tr></thead><tbody>${rows}</tbody></table>`
  );
}

function stackSection(s: StackStatus, w: WatchStatus, now: Date): string {
  const last = s.lastReconcile;
  return (
    `<section class="stack" data-ods-stack="${esc(s.name)}"><div class="stack-head"><h2>${esc(s.name)}</h2>${last ? badge(last.result) : ""}</div>` +
    `<dl><dt>source</dt><dd>${esc(w.source)}, branch <code>${esc(w.branch)}</code></dd>` +
    // A planned revision counts as reconciled in /status: say that it is not applied yet.
    `<dt>revision reconciled</dt><dd>${shortRevision(s.revision)}${s.pendingPlan && s.pendingPlan.revision === s.revision ? ` <span class="muted">(planned, not applied: its plan waits for approval)</span>` : ""}</dd>` +
    `<dt>last success</dt><dd>${when(s.lastSuccessAt, now)}</dd>` +
    (s.failures > 0 ? `<dt>failed rounds in a row</dt><dd class="error">${s.failures}</dd>` : "") +
    (last?.error ? `<dt>last error</dt><dd class="error">${esc(last.error)}</dd>` : "") +
    `</dl>${pendingSection(s.pendingPlan, now)}${driftSection(s.drifted)}${roundsSection(s.recentRounds, now)}</section>`
  );
}

/** When the next round comes; while one runs, its start is newer than the time set for it. */
function nextRound(status: WatchStatus, now: Date): string {
  if (status.nextRoundAt === null) return "";
  if (status.lastRoundAt !== null && Date.parse(status.lastRoundAt) >= Date.parse(status.nextRoundAt)) return ", and is running";
  return `, next ${when(status.nextRoundAt, now)}`;
}

/** The whole page for one status. */
export function renderStatusPage(status: WatchStatus, options: StatusPageOptions): string {
  const now = options.now ?? new Date();
  const refresh = Math.max(1, Math.round(options.refreshSeconds));
  const stacks = status.stacks.length > 0 ? status.stacks.map((s) => stackSection(s, status, now)).join("") : `<p class="muted">No round has reconciled a stack yet.</p>`;
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta http-equiv="refresh" content="${refresh}"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<link rel="icon" href="data:,"><title>ods watch: ${esc(status.branch)}</title><style>${CSS}</style></head><body>` +
    `<header><h1>ods watch</h1>` +
    `<p>Following ${esc(status.source)}, branch <code>${esc(status.branch)}</code>, at ${shortRevision(status.revision)}.</p>` +
    `<p>Last round started ${when(status.lastRoundAt, now)}${nextRound(status, now)}.` +
    `${status.lastRoundError ? ` <span class="error">${esc(status.lastRoundError)}</span>` : ""}</p>` +
    `<p>This page reloads itself every ${refresh} s.</p><nav><a href="/status">/status (JSON)</a> <a href="/metrics">/metrics (Prometheus)</a> ` +
    `<a href="/healthz">/healthz</a> <a href="/readyz">/readyz</a></nav></header><main>${stacks}</main></body></html>\n`
  );
}
