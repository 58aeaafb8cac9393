// One set of counts (issue 54): the Plan line `ods apply` prints and its `Apply complete`
// line use the same categories and agree for every run that is not interrupted: an
// adoption that also updates is "1 to adopt, 1 to update" and then "1 adopted, 1
// updated"; and over the differential's generated stacks (test/differential), step by step.
import fc from "fast-check";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { runOds, stackFlags, tempDir, writeStack } from "../helpers/ods-cli";
import { useRig } from "../lifecycle/helpers";
import { createFixture, variableValues } from "../differential/engines";
import { applyStep, renderStack, scenarioArbitrary, type StepPlan } from "../differential/stack-model";

const use = useRig();

const CATEGORIES = ["create", "adopt", "update", "replace", "rotate", "delete", "forget", "move"] as const;
const PAST = ["created", "adopted", "updated", "replaced", "rotated", "deleted", "forgotten", "moved"] as const;

/** The sums of every Plan line (one per provider configuration) of an `ods apply`'s output. */
function planned(out: string): number[] {
  const total = CATEGORIES.map(() => 0);
  const re = new RegExp(`^Plan: ${CATEGORIES.map((c) => `(\\d+) to ${c}`).join(", ")}\\.$`, "gm");
  for (const m of out.matchAll(re)) CATEGORIES.forEach((_, i) => (total[i] += Number(m[i + 1])));
  return total;
}

/** The counts of its Apply complete line (zeros when nothing was applied). */
function applied(out: string): number[] {
  const m = new RegExp(`^Apply complete: ${PAST.map((c) => `(\\d+) ${c}`).join(", ")}, (\\d+) failed`, "m").exec(out);
  return m ? PAST.map((_, i) => Number(m[i + 1])) : PAST.map(() => 0);
}

describe("the plan's and the apply's counts", () => {
  const env = (extra: Record<string, string> = {}): Record<string, string> => ({ ODS_URL: use.rig.emu.url, ODS_TOKEN: use.rig.emu.adminToken, ...extra });

  it("an adoption that also updates is counted as both, by the plan and by the apply", async () => {
    await use.rig.admin.createRole({ name: "counts-adopted", description: "made by hand" } as never);
    const dir = tempDir();
    writeStack(dir, { resource: { ods_role: { adopted: { name: "counts-adopted", description: "from git" } } } });
    const r = await runOds(["apply", "--auto-approve", ...stackFlags(dir)], { env: env() });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain("Plan: 0 to create, 1 to adopt, 1 to update,");
    expect(r.stdout).toContain("Apply complete: 0 created, 1 adopted, 1 updated,");
    expect(applied(r.stdout)).toEqual(planned(r.stdout));
  });

  it("agree on the differential's generated stacks, step by step", async () => {
    const seeds = [11, 12, 13, 14];
    let compared = 0;
    for (const seed of seeds) {
      const [scenario] = fc.sample(scenarioArbitrary({ maxResources: 8, maxSteps: 2 }), { seed, numRuns: 1 });
      const prefix = `pc${seed}`;
      const fixture = `${prefix}-fx`;
      await createFixture({ emulator: use.rig.emu, dataDir: "" }, fixture);
      const vars = Object.fromEntries(Object.entries(variableValues(prefix, fixture)).map(([k, v]) => [`TF_VAR_${k}`, v]));
      const dir = tempDir();
      const file = path.join(dir, "cdktf.out", "stacks", "main", "cdk.tf.json");
      fs.mkdirSync(path.dirname(file), { recursive: true });
      let current = scenario.stack;
      for (let i = 0; i <= scenario.steps.length; i++) {
        const step: StepPlan = i === 0 ? { stack: current } : applyStep(current, scenario.steps[i - 1], prefix, fixture);
        // Moves are written as blocks: a refusal is not a run whose counts are compared.
        fs.writeFileSync(file, JSON.stringify(renderStack({ ...step, moves: step.moves?.map((m) => ({ ...m, written: true })) }, prefix, fixture)));
        const r = await runOds(["apply", "--auto-approve", "--no-backtest", ...stackFlags(dir)], { env: env(vars), timeoutMs: 120_000 });
        if (r.code !== 0) {
          // A step the generator breaks on purpose is refused before any write.
          expect(step.refusal, `seed ${seed} step ${i} failed:\n${r.stdout}${r.stderr}`).toBeDefined();
          expect(r.stdout).not.toMatch(/^Apply complete/m);
          continue;
        }
        expect(applied(r.stdout), `seed ${seed} step ${i}:\n${r.stdout}`).toEqual(planned(r.stdout));
        compared++;
        current = step.stack;
      }
    }
    expect(compared).toBeGreaterThanOrEqual(seeds.length);
  }, 600_000);
});
