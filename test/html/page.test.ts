// The page shell: a sensitive value is hidden in its HTML-escaped form too (the page escapes
// text before the CLI's output redaction sees it), and a figure carries what a test or a
// screen reader looks for.
import { describe, expect, it } from "vitest";
import { esc, figure } from "../../src/reconcile/html/page";
import { redactText, secretForms } from "../../src/reconcile/redact";

describe("the HTML page", () => {
  it("hides a sensitive value holding HTML's special characters once escaped into the page", () => {
    const secret = `p<ss&"word'9`;
    const page = `<pre>${esc(`url = "https://x/${secret}"`)}</pre>`;
    // Escaped, the value no longer reads as itself: only its escaped form finds it.
    expect(page).not.toContain(secret);
    const hidden = redactText(page, secretForms(secret));
    expect(hidden).toContain("(sensitive)");
    expect(hidden).not.toContain(esc(secret));
    expect(hidden).not.toContain("ss&amp;");
  });

  it("gives a figure its chart kind, address, labelled image and data table", () => {
    const html = figure({ chart: "backtest", address: 'ods_monitor.a"b', panels: [{ label: "value <10>", svg: "<svg></svg>" }], caption: "c", details: "<table></table>" });
    expect(html).toContain('data-ods-chart="backtest"');
    expect(html).toContain('data-ods-address="ods_monitor.a&quot;b"');
    expect(html).toContain('role="img" aria-label="value &lt;10&gt;"');
    expect(html).toContain("<figcaption>c</figcaption>");
  });
});
