// Parts of a document or query known only after apply are placeholders: the rest of the
// value is checked all the same, by the model's validation (synth, ods plan, the provider).
import { TerraformStack, Testing } from "cdktf";
import { describe, expect, it } from "vitest";
import { DashboardChart, OdsDashboard, monitor, provider } from "../../src";
import { resourceKind, validateDeclaration } from "../../src/resources";
import { PLACEHOLDER, withPlaceholders } from "../../src/resources/placeholders";

const dashboardKind = resourceKind("ods_dashboard")!;
const monitorKind = resourceKind("ods_monitor")!;

function doc(width: unknown, monitors: string): string {
  return `{"name": "D", "owner": "X-AXIOM-EVERYONE", "charts": [{"id": "m", "type": "MonitorList", "monitors": [${monitors}]}],
    "layout": [{"i": "m", "x": 0, "y": 0, "w": ${String(width)}, "h": 2}], "refreshTime": 60, "schemaVersion": 2,
    "timeWindowStart": "qr-now-1h", "timeWindowEnd": "qr-now"}`;
}

describe("placeholders for unknown parts", () => {
  it("keep JSON text parseable: inside a string, as a whole value, and never for Terraform's $${ escape", () => {
    expect(withPlaceholders(`{"a": "x-\${ods_monitor.m.id}", "b": \${var.n}}`, true)).toBe(`{"a": "x-${PLACEHOLDER}", "b": "${PLACEHOLDER}"}`);
    expect(withPlaceholders(`{"a": "\\"\${f({"k": "}"})}"}`, true)).toBe(`{"a": "\\"${PLACEHOLDER}"}`);
    expect(withPlaceholders("literal $${not} one")).toBe("literal $${not} one");
  });

  it("a dashboard naming a monitor by reference is still checked: a 14-column item is refused", () => {
    const issues = validateDeclaration(dashboardKind, { uid: "d", dashboard: doc(14, `"\${ods_monitor.m.id}"`) });
    expect(issues.map((i) => i.message)).toEqual([`layout item "m": width "w" must be from 1 to 12, got 14`]);
    expect(validateDeclaration(dashboardKind, { uid: "d", dashboard: doc(12, `"\${ods_monitor.m.id}"`) })).toEqual([]);
    // A width from a variable is unknown: not refused before it is known.
    expect(validateDeclaration(dashboardKind, { uid: "d", dashboard: doc("${var.width}", `"\${ods_monitor.m.id}"`) })).toEqual([]);
    // A document that is one expression is checked once known.
    expect(validateDeclaration(dashboardKind, { uid: "d", dashboard: "${jsonencode(local.doc)}" })).toEqual([]);
  });

  it("a query with an unknown part: a match monitor's aggregation is refused, a threshold query's source may be unknown", () => {
    const base = { name: "m", interval_minutes: 5, range_minutes: 5 };
    const match = validateDeclaration(monitorKind, { ...base, type: "MatchEvent", apl_query: "['${var.ds}'] | summarize count()" });
    expect(match.map((i) => i.message).join("\n")).toMatch(/"summarize" is not allowed/);
    expect(validateDeclaration(monitorKind, { ...base, type: "MatchEvent", apl_query: "['logs'] | ${var.stage}" })).toEqual([]);
    expect(validateDeclaration(monitorKind, { ...base, type: "Threshold", operator: "Above", threshold: 1, apl_query: "${var.q}" })).toEqual([]);
  });

  it("cdktf synth refuses the builder's 14-column monitor list naming a monitor of the same stack", () => {
    const app = Testing.app();
    const stack = new TerraformStack(app, "prod");
    new provider.OdsProvider(stack, "ods", {});
    const m = new monitor.Monitor(stack, "errors", {
      name: "errors",
      type: "Threshold",
      aplQuery: "['logs'] | summarize count() by bin(_time, 1m)",
      operator: "Above",
      threshold: 1,
      intervalMinutes: 5,
      rangeMinutes: 5,
    });
    new OdsDashboard(stack, "health", { uid: "health", name: "Health", charts: [DashboardChart.monitorList({ id: "alerts", monitorIds: [m.id], width: 14 })] });
    expect(() => app.synth()).toThrow(/\[prod\/health[^\]]*\].*layout item "alerts": width "w" must be from 1 to 12, got 14/s);
  });
});
