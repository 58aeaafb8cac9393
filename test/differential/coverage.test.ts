// The differential generator covers the whole model: every kind of RESOURCE_KINDS has its
// generator (kinds.ts), and the stacks drawn set every attribute a user can set and every
// shape of value the engines must agree on. A new kind or attribute fails here until the
// generator draws it.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RESOURCE_KINDS, validateDeclaration } from "../../src/resources";
import { Coverage, SHAPES } from "./coverage";
import { KIND_GENERATORS } from "./kinds";
import { applyStep, renderStack, scenarioArbitrary, type StepPlan } from "./stack-model";

/** Renders every step of many drawn scenarios, as the differential run does. */
function drawnCoverage(runs: number): Coverage {
  const coverage = new Coverage();
  for (const scenario of fc.sample(scenarioArbitrary(), { seed: 31, numRuns: runs })) {
    let current = scenario.stack;
    coverage.add(renderStack({ stack: current }, "cov", "cov-fx"));
    for (const changes of scenario.steps) {
      const plan: StepPlan = applyStep(current, changes, "cov", "cov-fx");
      coverage.add(renderStack(plan, "cov", "cov-fx"));
      coverage.addMoves(plan.moves);
      if (!plan.refusal) current = plan.stack;
    }
  }
  return coverage;
}

describe("the differential generator", () => {
  it("has one generator per resource kind, and none for a kind the model does not have", () => {
    expect(Object.keys(KIND_GENERATORS).sort()).toEqual(RESOURCE_KINDS.map((k) => k.typeName).sort());
  });

  it("sets every attribute a user can set, of every kind, and every shape of value", () => {
    const coverage = drawnCoverage(200);
    expect(coverage.missing()).toEqual([]);
    expect(SHAPES.filter((s) => !coverage.shapes.has(s))).toEqual([]);
  });

  it("moves every kind to a new address, with a moved block and without one", () => {
    const coverage = drawnCoverage(400);
    const expected = RESOURCE_KINDS.flatMap((k) => [`${k.typeName} with a moved block`, `${k.typeName} by natural key`]);
    expect(expected.filter((m) => !coverage.moves.has(m))).toEqual([]);
  });

  it("renders stacks whose references name only resources declared before them (no cycle)", () => {
    for (const scenario of fc.sample(scenarioArbitrary(), { seed: 7, numRuns: 30 })) {
      const stack = renderStack({ stack: scenario.stack }, "cyc", "cyc-fx") as { resource?: Record<string, Record<string, unknown>> };
      const seen = new Set<string>();
      for (const [type, byName] of Object.entries(stack.resource ?? {})) for (const name of Object.keys(byName)) seen.add(`${type}.${name}`);
      const declared = [...seen];
      for (const [type, byName] of Object.entries(stack.resource ?? {})) {
        for (const [name, block] of Object.entries(byName)) {
          const refs = [...JSON.stringify(block).matchAll(/\$\{(ods_[a-z_]+\.[a-z0-9]+)\./g)].map((m) => m[1]);
          for (const r of [...refs, ...(((block as { depends_on?: string[] }).depends_on) ?? [])]) {
            expect(declared, `${type}.${name} refers to ${r}`).toContain(r);
          }
        }
      }
    }
  });

  it("draws dashboards naming a monitor by reference, which its breaker makes 14 columns wide: refused though the id is unknown", () => {
    const breaker = KIND_GENERATORS.ods_dashboard.breakers.find((b) => b.attribute === "dashboard")!;
    const kind = RESOURCE_KINDS.find((k) => k.typeName === "ods_dashboard")!;
    let drawn = 0;
    for (const scenario of fc.sample(scenarioArbitrary(), { seed: 31, numRuns: 300 })) {
      const stack = renderStack({ stack: scenario.stack }, "cov", "cov-fx") as { resource?: Record<string, Record<string, Record<string, unknown>>> };
      for (const block of Object.values(stack.resource?.ods_dashboard ?? {})) {
        if (!String(block.dashboard).includes("${ods_monitor.")) continue;
        drawn++;
        const { "//": _meta, depends_on: _deps, provider: _provider, ...values } = block;
        const broken = breaker.break(values)!;
        expect(String(broken.dashboard)).toMatch(/"i":"monitors","x":\d+,"y":\d+,"w":14/);
        expect(validateDeclaration(kind, broken).map((i) => i.message)).toContainEqual(expect.stringMatching(/layout item "monitors": width "w" must be from 1 to 12, got 14/));
      }
    }
    expect(drawn).toBeGreaterThan(5);
  });
});
