// The shell every HTML document of ods shares: one self-contained page (styles inline, no
// script, no font or image fetched), so it opens from a file, a CI artifact or a mail the
// same way; and the figure a chart sits in, with its text alternative beside the picture.

/** Text made safe for HTML content and attribute values. */
export function esc(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

const STYLE = `
:root { color-scheme: light; --fg: #1f2328; --muted: #59636e; --line: #d1d9e0; --bg-soft: #f6f8fa; --add: #1a7f37; --del: #cf222e; --chg: #9a6700; }
* { box-sizing: border-box; }
body { margin: 0; padding: 24px 32px 48px; font: 14px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); max-width: 1280px; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 18px; margin: 32px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 15px; margin: 24px 0 6px; } code, pre { font: 12px/1.45 ui-monospace, "SFMono-Regular", Menlo, monospace; }
pre { background: var(--bg-soft); border: 1px solid var(--line); border-radius: 6px; padding: 8px 12px; overflow-x: auto; white-space: pre; }
.muted { color: var(--muted); } .summary { font-weight: 600; }
table { border-collapse: collapse; margin: 6px 0; } th, td { border: 1px solid var(--line); padding: 3px 8px; text-align: left; vertical-align: top; font-size: 13px; }
th { background: var(--bg-soft); }
.action { font-weight: 600; } .action-create, .action-adopt { color: var(--add); } .action-delete, .action-forget { color: var(--del); }
.action-update, .action-replace, .action-rotate { color: var(--chg); }
.warning { border-left: 4px solid var(--chg); background: #fff8c5; padding: 6px 10px; margin: 6px 0; }
.refusal { border-left: 4px solid var(--del); background: #ffebe9; padding: 6px 10px; margin: 6px 0; }
.change { border: 1px solid var(--line); border-radius: 8px; padding: 4px 16px 12px; margin: 16px 0; }
.change > h3 { margin-top: 10px; }
figure.chart { margin: 12px 0; } .burns { display: flex; flex-wrap: wrap; gap: 0 16px; } .burns > figure.chart { width: 562px; } figure.chart > .panels { display: flex; flex-wrap: wrap; gap: 12px; }
figure.chart .panel { border: 1px solid var(--line); border-radius: 6px; background: #fff; }
figure.chart .panel svg { display: block; }
figcaption { font-size: 13px; color: var(--muted); margin-top: 4px; }
details > summary { cursor: pointer; color: var(--muted); font-size: 13px; }
.legend span { display: inline-block; margin-right: 12px; font-size: 12px; } .legend i { display: inline-block; width: 12px; height: 12px; margin-right: 4px; vertical-align: -2px; border: 2px solid; border-radius: 2px; }
`;

/** A whole document: `<title>`, the page's heading and body. */
export function page(title: string, body: string): string {
  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    // Nothing is fetched, whatever the page holds: a CSP makes that a property of the document.
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
    `<title>${esc(title)}</title>`,
    `<style>${STYLE}</style>`,
    "</head>",
    "<body>",
    body,
    "</body>",
    "</html>",
    "",
  ].join("\n");
}

export type ChartKind = "backtest" | "slo-budget" | "slo-burn" | "dashboard-layout";

/** A table as the text alternative of a chart (and anywhere else a page lists rows). */
export function table(head: readonly string[], rows: readonly (readonly string[])[]): string {
  const th = head.map((h) => `<th scope="col">${esc(h)}</th>`).join("");
  const body = rows.map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join("")}</tr>`).join("\n");
  return `<table><thead><tr>${th}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

export interface FigureInput {
  chart: ChartKind;
  address: string;
  /** Extra data attributes, e.g. `{ pair: "1h/5m" }` → `data-ods-pair`. */
  data?: Record<string, string>;
  /** One SVG per panel (the live definition beside the new one), each with its own label. */
  panels: { label: string; svg: string }[];
  caption: string;
  /** The figures behind the picture, for a reader who cannot see it. */
  details: string;
  legend?: string;
}

/** A chart: each panel an `role="img"` with its label, the caption, and the data folded under it. */
export function figure(f: FigureInput): string {
  const data = Object.entries(f.data ?? {})
    .map(([k, v]) => ` data-ods-${k}="${esc(v)}"`)
    .join("");
  const panels = f.panels.map((p) => `<div class="panel" role="img" aria-label="${esc(p.label)}">${p.svg}</div>`).join("\n");
  return [
    `<figure class="chart" data-ods-chart="${f.chart}" data-ods-address="${esc(f.address)}"${data}>`,
    `<div class="panels">\n${panels}\n</div>`,
    f.legend ?? "",
    `<figcaption>${esc(f.caption)}</figcaption>`,
    `<details><summary>Data of this chart</summary>\n${f.details}\n</details>`,
    "</figure>",
  ].join("\n");
}
