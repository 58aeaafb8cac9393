// Unit tests of the monitor kind: what synth refuses (naming the attribute), the wire
// body, the match-monitor operator rule, the bin_auto warning and the notifier-id check.
import { describe, expect, it } from "vitest";
import type { OdsClient } from "../../src/api";
import { OdsApiError } from "../../src/api";
import { changedAttributes, fromWire, normalizeValues, toWire, validateDeclaration, type Values } from "../../src/resources";
import { aplStages, callsFunction } from "../../src/resources/apl-stages";
import { monitor } from "../../src/resources/monitor";
import { liveValues, plannedValues, UNKNOWN } from "../../src/lifecycle";

const threshold: Values = {
  name: "High error rate",
  type: "Threshold",
  apl_query: "['app'] | where status >= 500 | summarize count() by bin(_time, 1m)",
  operator: "Above",
  threshold: 10,
  interval_minutes: 5,
  range_minutes: 5,
};

function issues(values: Values): string[] {
  return validateDeclaration(monitor, values).map((i) => `${i.path.join(".")}: ${i.message}`);
}

describe("ods_monitor validation at synth", () => {
  it("accepts a complete threshold monitor", () => {
    expect(issues(threshold)).toEqual([]);
  });

  it("refuses an unknown operator, naming the attribute and the allowed ones", () => {
    const [issue] = issues({ ...threshold, operator: "GreaterThan" });
    expect(issue).toMatch(/^operator: expected one of "Below", .*"AboveOrBelow", got "GreaterThan"/);
  });

  it("refuses a zero interval and a fractional range", () => {
    expect(issues({ ...threshold, interval_minutes: 0 })).toEqual(["interval_minutes: expected a number >= 1, got 0"]);
    expect(issues({ ...threshold, range_minutes: 1.5 })).toEqual(["range_minutes: expected a whole number, got 1.5"]);
  });

  it("bounds second_delay, compare_days and tolerance as the service does", () => {
    expect(issues({ ...threshold, second_delay: 86_401 })).toEqual(["second_delay: expected a number <= 86400, got 86401"]);
    const anomaly = { ...threshold, type: "AnomalyDetection", compare_days: 8, tolerance: 101 };
    expect(issues(anomaly)).toEqual(["compare_days: expected a number <= 7, got 8", "tolerance: expected a number <= 100, got 101"]);
  });

  it("requires each type's own settings", () => {
    expect(issues({ ...threshold, operator: undefined, threshold: undefined })).toEqual([
      "operator: is required for a Threshold monitor",
      "threshold: is required for a Threshold monitor",
    ]);
    expect(issues({ ...threshold, type: "AnomalyDetection" })).toEqual([
      "compare_days: is required for a AnomalyDetection monitor",
      "tolerance: is required for a AnomalyDetection monitor",
    ]);
  });

  it("refuses a match monitor whose query aggregates, naming the operator and where it is", () => {
    const match = { name: "panics", type: "MatchEvent", apl_query: "['app']\n| where msg contains \"a | b\"\n| summarize count()", interval_minutes: 1, range_minutes: 1 };
    const [issue] = issues(match);
    expect(issue).toMatch(/^apl_query: a MatchEvent monitor .* only where, extend, .*project-reorder; "summarize" is not allowed/);
    expect(issue).toMatch(/\(line 3, column 3\)$/);
    expect(issues({ ...match, apl_query: "['app'] | where level == 'error' | project-away secret | parse-kv msg as (a:string)" })).toEqual([]);
  });

  it("refuses a threshold or anomaly query that does not aggregate", () => {
    expect(issues({ ...threshold, apl_query: "['app'] | where status >= 500" })).toEqual([
      "apl_query: a Threshold monitor compares aggregated values, so its query must aggregate, e.g. \"['logs'] | summarize count() by bin(_time, 1m)\"",
    ]);
  });

  it("needs both halves of N of M, with N at most M", () => {
    expect(issues({ ...threshold, trigger_after_n_positive_results: 2 })[0]).toMatch(/^trigger_from_n_runs: is required/);
    expect(issues({ ...threshold, trigger_after_n_positive_results: 4, trigger_from_n_runs: 3 })).toEqual([
      "trigger_after_n_positive_results: expected at most trigger_from_n_runs (3), got 4",
    ]);
  });

  it("refuses a notifier listed twice (the service keeps it once, which would read back as a change)", () => {
    expect(issues({ ...threshold, notifier_ids: ["n1", "n2", "n1"] })).toEqual(['notifier_ids: expected each notifier once, got "n1" twice']);
  });

  it("lets a query or notifier id built from references through until it is known", () => {
    expect(issues({ ...threshold, type: "MatchEvent", apl_query: "${var.q}", notifier_ids: ["${ods_notifier.a.id}"] })).toEqual([]);
  });
});

describe("ods_monitor wire mapping and comparison", () => {
  it("sends the contract's camelCase names and reads them back", () => {
    const body = toWire(monitor.attributes, { ...threshold, notifier_ids: ["n1"], second_delay: 30, alert_on_no_data: true, trigger_after_n_positive_results: 2, trigger_from_n_runs: 3 });
    expect(body).toEqual({
      name: "High error rate", type: "Threshold", aplQuery: threshold.apl_query, operator: "Above", threshold: 10,
      intervalMinutes: 5, rangeMinutes: 5, secondDelay: 30, alertOnNoData: true, notifierIds: ["n1"],
      triggerAfterNPositiveResults: 2, triggerFromNRuns: 3,
    });
    const back = fromWire(monitor.attributes, { ...body, id: "m1", updatedAt: "2026-01-01T00:00:00Z" });
    expect(back).toMatchObject({ id: "m1", apl_query: threshold.apl_query, notifier_ids: ["n1"], updated_at: "2026-01-01T00:00:00Z" });
  });

  it("compares notifier ids in any order and unset booleans with the service's false", () => {
    const live = fromWire(monitor.attributes, { ...toWire(monitor.attributes, threshold), notifierIds: ["b", "a"], resolvable: false });
    expect(changedAttributes(monitor.attributes, { ...threshold, notifier_ids: ["a", "b"], resolvable: null }, live)).toEqual([]);
    expect(changedAttributes(monitor.attributes, { ...threshold, notifier_ids: ["a", "b"], threshold: 11 }, live)).toEqual(["threshold"]);
  });

  it("reads no value into fields the monitor's type does not use (the service answers zeros there)", () => {
    const live = { id: "m2", name: "p", type: "MatchEvent", aplQuery: "['a']", operator: "", threshold: 0, compareDays: 0, tolerance: 0, triggerAfterNPositiveResults: 1, triggerFromNRuns: 1 };
    const values = liveValues(monitor, live);
    expect(values).toMatchObject({ operator: null, threshold: null, compare_days: null, tolerance: null });
    expect(normalizeValues(monitor.attributes, values)).toEqual({ id: "m2", name: "p", type: "MatchEvent", apl_query: "['a']" });
    expect(liveValues(monitor, { ...live, type: "Threshold", operator: "Above", threshold: 0 })).toMatchObject({ operator: "Above", threshold: 0 });
    // Declared anyway: shown as the service keeps it, so that the declaration compares equal.
    const declared = { name: "p", type: "MatchEvent", apl_query: "['a']", operator: "Above", interval_minutes: 1, range_minutes: 1 };
    expect(liveValues(monitor, { ...live, operator: "Above" }, declared)).toMatchObject({ operator: "Above", threshold: null });
  });

  it("replaces on a change of type only", () => {
    const forcing = Object.entries(monitor.attributes).filter(([, a]) => a.forcesReplacement).map(([n]) => n);
    expect(forcing).toEqual(["type"]);
  });

  it("plans updated_at as known after apply when the monitor changes, and keeps it when nothing does", () => {
    const prior = { ...threshold, id: "m1", updated_at: "2026-01-01T00:00:00Z" };
    const plan = (anyChange: boolean): Values =>
      plannedValues(monitor, { declared: threshold, prior, objectIsNew: false, anyChange, everyAttribute: true });
    expect(plan(true).updated_at).toBe(UNKNOWN);
    expect(plan(true).id).toBe("m1");
    expect(plan(false).updated_at).toBe("2026-01-01T00:00:00Z");
  });
});

describe("query reading", () => {
  it("splits stages on pipes outside strings, brackets and comments", () => {
    const apl = "['a|b'] // x | y\n| extend s = strcat('|', \"|\") | project-away [\"c|d\"]";
    expect(aplStages(apl).map((s) => s.operator)).toEqual(["extend", "project-away"]);
  });

  it("finds a call outside strings and comments", () => {
    expect(callsFunction("['a'] | where m == 'bin_auto(' // bin_auto(\n| summarize count()", "bin_auto")).toBeUndefined();
    expect(callsFunction("['a']\n| summarize count() by bin_auto (_time)", "bin_auto")).toEqual({ line: 2, column: 24 });
  });
});

/** A client answering only what the monitor's plan check calls. */
function fakeClient(opts: { notifiers: string[]; compileError?: OdsApiError }): OdsClient {
  return {
    queryAplTabular: async () => {
      if (opts.compileError) throw opts.compileError;
      return { tables: [] };
    },
    listNotifiers: async () => opts.notifiers.map((id) => ({ id, name: id, properties: {} })),
  } as unknown as OdsClient;
}

describe("ods_monitor plan check", () => {
  const check = monitor.planCheck!;
  const scope = { seesWholePlan: true };

  it("names a notifier id that does not exist, and passes ids known only after apply (the part asked on every plan)", async () => {
    const problem = await check.liveCheck!(fakeClient({ notifiers: ["n1"] }), { ...threshold, notifier_ids: ["n1", "n-gone"] }, scope);
    expect(problem).toEqual({ attribute: "notifier_ids.1", message: expect.stringMatching(/no notifier has the id "n-gone"/) });
    expect(await check.liveCheck!(fakeClient({ notifiers: [] }), { ...threshold, notifier_ids: [UNKNOWN] }, scope)).toBeUndefined();
  });

  it("checks the query's shape once a query built from references is known", async () => {
    const client = fakeClient({ notifiers: [] });
    expect(await check.check(client, { ...threshold, apl_query: "['app'] | where status >= 500" }, scope)).toMatchObject({ attribute: "apl_query", message: expect.stringMatching(/must aggregate/) });
    expect(await check.check(client, { ...threshold, type: "MatchEvent", apl_query: "['app'] | top 3 by n" }, scope)).toMatchObject({ message: expect.stringMatching(/"top" is not allowed/) });
  });

  it("reports where the service fails to compile the query", async () => {
    const compileError = new OdsApiError({ kind: "http", status: 400, method: "POST", path: "/v1/datasets/_apl", message: "bad", detail: { line: 1, column: 9, message: "unexpected token" } });
    const problem = await check.check(fakeClient({ notifiers: [], compileError }), threshold, scope);
    expect(problem).toEqual({ attribute: "apl_query", line: 1, column: 9, message: "unexpected token" });
  });

  it("warns about bin_auto in a threshold query only", () => {
    const apl = "['app'] | summarize count() by bin_auto(_time)";
    const [warning] = check.warnings!({ ...threshold, apl_query: apl });
    expect(warning).toMatchObject({ attribute: "apl_query", line: 1, column: 32, message: expect.stringMatching(/use bin\(_time, <width>\)/) });
    expect(check.warnings!({ ...threshold, type: "AnomalyDetection", apl_query: apl })).toEqual([]);
  });
});
