// `ods export` writes the objects an slo.Slo generated back as that construct (recognised
// by the marker in its monitors' descriptions, and its dashboard's uid), and the code it
// writes declares the same monitors again.
import { TerraformStack, Testing } from "cdktf";
import * as ts from "typescript";
import { describe, expect, it } from "vitest";
import * as pkg from "../../src";
import { buildExport } from "../../src/export/export-model";
import type { LiveObject } from "../../src/export/org-snapshot";
import { renderConstructModule } from "../../src/export/write-typescript";
import { resourceKind, type Values } from "../../src/resources";

type Synth = { resource: Record<string, Record<string, Values>> };

/** The resources a scope's constructs synthesize (the provider block added). */
function synthesize(build: (stack: TerraformStack) => void): Synth {
  const stack = new TerraformStack(Testing.app(), "main");
  new pkg.provider.OdsProvider(stack, "ods", {});
  build(stack);
  return JSON.parse(Testing.synth(stack)) as Synth;
}

function live(typeName: string, id: string, values: Values): LiveObject {
  const kind = resourceKind(typeName)!;
  const { "//": _meta, ...rest } = values;
  return { kind, id, key: kind.naturalKey.map((k) => String(rest[k])), values: rest, read: rest };
}

const PROPS = {
  name: "Checkout availability",
  description: "Checkout requests that succeed.",
  dataset: "checkout-logs",
  badFilter: "status >= 500",
  objectivePercent: 99.9,
  windowDays: 28,
  alerting: { pageNotifierIds: ["ntf_pager"], ticketNotifierIds: ["ntf_mail"] },
  labels: { team: "payments" },
};

/** The organization as the service holds what the SLO wrote (ids in place of references). */
function organization(edit?: (monitors: Values[]) => void): LiveObject[] {
  const out = synthesize((stack) => new pkg.slo.Slo(stack, "checkout", PROPS));
  const monitors = Object.values(out.resource.ods_monitor);
  edit?.(monitors);
  return [
    live("ods_notifier", "ntf_pager", { name: "pager", properties: { email: { emails: ["pager@example.com"] } } }),
    live("ods_notifier", "ntf_mail", { name: "mail", properties: { email: { emails: ["sre@example.com"] } } }),
    ...monitors.map((m, i) => live("ods_monitor", `mon_${i}`, m)),
    ...Object.values(out.resource.ods_dashboard ?? {}).map((d) => live("ods_dashboard", String(d.uid), d)),
  ];
}

/** Runs an exported module: answers the monitors it declares. */
function runExported(code: string): Record<string, Values> {
  const js = ts.transpileModule(code, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
  const exports: Record<string, unknown> = {};
  const load = (name: string): unknown => (name === "cdktf-provider-ods" ? pkg : name === "constructs" ? require("constructs") : undefined);
  new Function("require", "exports", js)(load, exports);
  const Org = exports.Org as new (scope: TerraformStack, id: string) => unknown;
  return synthesize((stack) => new Org(stack, "org")).resource.ods_monitor;
}

const names = { className: "Org", moduleName: "org", stackName: "org" };

describe("export of an slo.Slo", () => {
  it("writes one slo.Slo in place of its monitors and dashboard, which declares the same monitors", () => {
    const objects = organization();
    const code = renderConstructModule(buildExport({ callerId: "usr_me", skipped: [], objects }), names);
    expect(code).toContain('new slo.Slo(this, "checkout", {');
    expect(code).toContain("pageNotifierIds: [pager.id],");
    expect(code).toContain("ticketNotifierIds: [mail.id],");
    expect(code).not.toContain("new monitor.Monitor");
    expect(code).not.toContain("new dashboard.Dashboard");
    const original = objects.filter((o) => o.kind.typeName === "ods_monitor").map((o) => o.values);
    const again = Object.values(runExported(code));
    const shape = (m: Values) => ({ name: m.name, apl_query: m.apl_query, threshold: m.threshold, range_minutes: m.range_minutes, interval_minutes: m.interval_minutes, notifier_ids: m.notifier_ids });
    // Which notifier each monitor sends to: the live id, or the reference to the exported notifier.
    const target = (ids: unknown): string[] => (ids as string[]).map((id) => (/pager/.test(id) ? "pager" : /mail/.test(id) ? "mail" : id));
    const text = (m: Values): string => String(m.description).split("ods-slo/v1")[0];
    expect(again.map((m) => ({ ...shape(m), notifier_ids: target(m.notifier_ids), description: text(m) }))).toEqual(
      original.map((m) => ({ ...shape(m), notifier_ids: target(m.notifier_ids), description: text(m) })),
    );
  });

  it("keeps an SLO whose monitor was changed outside the construct as monitors, and says why", () => {
    const objects = organization((monitors) => {
      monitors[0].threshold = 1;
    });
    const exp = buildExport({ callerId: "usr_me", skipped: [], objects });
    const code = renderConstructModule(exp, names);
    expect(code).not.toContain("new slo.Slo");
    expect(code).toContain("new monitor.Monitor");
    expect(code).toContain('SLO "Checkout availability" is exported as its monitors, not as an slo.Slo: a monitor was changed outside the construct');
  });
});
