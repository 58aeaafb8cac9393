// The readable report of `ods test`: each test passed or failed, and for a failure the
// expected alerts against the ones the monitors raised, as a diff.
import * as path from "node:path";
import { redactText } from "../../reconcile/redact";
import type { ActualAlert, TestResult } from "./run";
import type { ExpectedAlert } from "./test-file";

/** An offset from the test's start as `1h5m`, `15m`, `30s`. */
export function offsetText(ms: number): string {
  const sign = ms < 0 ? "-" : "";
  let rest = Math.abs(Math.round(ms / 1000));
  const parts: string[] = [];
  for (const [unit, seconds] of [["d", 86_400], ["h", 3600], ["m", 60], ["s", 1]] as const) {
    if (rest >= seconds) {
      parts.push(`${Math.floor(rest / seconds)}${unit}`);
      rest %= seconds;
    }
  }
  return sign + (parts.join("") || "0m");
}

function groupText(group: Record<string, unknown> | undefined): string {
  return group && Object.keys(group).length > 0 ? `, group ${Object.entries(group).map(([k, v]) => `${k}=${String(v)}`).join(" ")}` : "";
}

function expectedText(e: ExpectedAlert, toleranceMs: number): string {
  const tol = toleranceMs > 0 ? ` (±${offsetText(toleranceMs)})` : "";
  return `opens at ${offsetText(e.opensMs)}${tol}${e.closesMs !== undefined ? `, closes at ${offsetText(e.closesMs)}` : ""}${groupText(e.group)}`;
}

function actualText(a: ActualAlert): string {
  return `opens at ${offsetText(a.opensMs)}${a.closesMs !== undefined ? `, closes at ${offsetText(a.closesMs)}` : ", still open at the end"}${groupText(a.group)}`;
}

/** At most this much of a delivered body is printed: enough to see what it carried. */
const BODY_SHOWN = 2000;

/** The body a notification delivered, secrets hidden, shortened when long. */
function deliveredText(body: string | undefined, secrets: readonly string[]): string {
  if (body === undefined) return "(nothing was delivered)";
  const shown = redactText(body, secrets);
  return shown.length > BODY_SHOWN ? `${shown.slice(0, BODY_SHOWN)}... (${shown.length - BODY_SHOWN} more characters)` : shown;
}

/** `secrets`: the forms of the stack's sensitive values, shown as (sensitive) wherever they occur. */
export function renderReport(file: string, results: TestResult[], secrets: readonly string[] = []): string {
  const where = (line: number) => `${path.basename(file)}:${line}`;
  const out: string[] = [];
  for (const r of results) {
    out.push(`${r.passed ? "PASS" : "FAIL"}  ${r.test.name} (${where(r.test.line)})`);
    if (r.error) out.push(`  ${r.error}`);
    for (const m of r.monitors) {
      if (m.missing.length === 0 && m.unexpected.length === 0 && m.content.length === 0) continue;
      out.push(`  ${m.expectation.monitor}:`);
      for (const e of m.missing) out.push(`    - expected alert ${expectedText(e, m.expectation.toleranceMs)}`);
      for (const a of m.unexpected) out.push(`    + got alert ${actualText(a)}`);
      for (const c of m.content) {
        out.push(`    ~ the alert that ${actualText(c.actual)}: its notification lacks ${c.lacking.map((t) => JSON.stringify(t)).join(", ")}`);
        out.push(`      delivered: ${deliveredText(c.actual.notification, secrets)}`);
      }
      if (m.missing.length > 0 && m.unexpected.length === 0) {
        out.push(m.actual.length === 0 ? "    (the monitor raised no alert)" : `    (alerts raised: ${m.actual.map(actualText).join("; ")})`);
      }
    }
  }
  const failed = results.filter((r) => !r.passed).length;
  out.push(`${results.length} test${results.length === 1 ? "" : "s"}, ${results.length - failed} passed, ${failed} failed`);
  return `${out.join("\n")}\n`;
}
