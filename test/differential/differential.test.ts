// The two engines agree on generated stacks (docs/guides/differential-testing.md). A
// bounded set of seeds runs in `npm test`; `npm run test:differential`
// (ODS_DIFFERENTIAL=full) runs 200 seeds of up to 40 resources and three steps of changes.
// ODS_DIFFERENTIAL_SEED (with ODS_DIFFERENTIAL_PATH, as a failure prints it) replays one.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeTempDirs } from "../helpers/ods-cli";
import { hasTerraform } from "../terraform/harness";
import { Coverage } from "./coverage";
import { Engines, startService } from "./engines";
import { runSeed, type DifferentialEnv, type SeedOptions } from "./run";

const FULL = process.env.ODS_DIFFERENTIAL === "full";
const REPLAY = process.env.ODS_DIFFERENTIAL_SEED !== undefined ? Number(process.env.ODS_DIFFERENTIAL_SEED) : undefined;
const FROM = Number(process.env.ODS_DIFFERENTIAL_FROM ?? (FULL ? 1000 : 1));
const COUNT = REPLAY !== undefined ? 1 : Number(process.env.ODS_DIFFERENTIAL_SEEDS ?? (FULL ? 200 : 12));
/**
 * Seeds that once found a disagreement, run by `npm test` beside its range (which keeps it
 * within its time: the full run covers the breadth). 25: a move without a moved block once
 * the generator drew write-only credentials.
 */
const REGRESSION_SEEDS = [25];
const RANGE = Array.from({ length: COUNT }, (_, i) => FROM + i);
const SEEDS = REPLAY !== undefined ? [REPLAY] : FULL || process.env.ODS_DIFFERENTIAL_SEEDS ? RANGE : [...RANGE, ...REGRESSION_SEEDS.filter((s) => !RANGE.includes(s))];
// A replay draws at the size of the run that printed it: ODS_DIFFERENTIAL=full is part of the replay line.
const OPTIONS: SeedOptions = {
  maxResources: FULL ? 40 : 10,
  maxSteps: FULL ? 3 : 2,
  replayEnv: FULL ? "ODS_DIFFERENTIAL=full " : "",
  path: process.env.ODS_DIFFERENTIAL_PATH || undefined,
  shrinkLimitMs: Number(process.env.ODS_DIFFERENTIAL_SHRINK_SECONDS ?? (FULL ? 180 : 60)) * 1000,
};
/** Services are restarted now and then, so that lists stay the size of a few seeds. */
const SEEDS_PER_SERVICE = 10;

let engines: Engines;
let env: DifferentialEnv | undefined;
const coverage = new Coverage();
const failures: string[] = [];
const started = Date.now();

async function freshServices(): Promise<DifferentialEnv> {
  if (env) await Promise.all([env.ods.emulator.close(), env.terraform.emulator.close()]);
  env = { engines, ods: await startService(), terraform: await startService() };
  return env;
}

beforeAll(async () => {
  if (!hasTerraform) return;
  engines = await Engines.setUp();
}, 120_000);

afterAll(async () => {
  if (env) await Promise.all([env.ods.emulator.close(), env.terraform.emulator.close()]);
  removeTempDirs();
  if (!hasTerraform) return;
  const secs = ((Date.now() - started) / 1000).toFixed(0);
  console.log(
    [
      `differential: seeds ${SEEDS[0]}..${SEEDS[Math.min(SEEDS.length, RANGE.length) - 1]}${SEEDS.length > RANGE.length ? ` and ${SEEDS.slice(RANGE.length).join(", ")}` : ""} (${SEEDS.length}), up to ${OPTIONS.maxResources} resources and ${OPTIONS.maxSteps} steps of changes each, ${secs} s`,
      coverage.summary(),
      `failures: ${failures.length}`,
    ].join("\n"),
  );
});

describe.skipIf(!hasTerraform)("ods apply and terraform apply agree on generated stacks", () => {
  it.each(SEEDS)("seed %i", async (seed) => {
    if (SEEDS.indexOf(seed) % SEEDS_PER_SERVICE === 0 || !env) await freshServices();
    const seedStarted = Date.now();
    const report = await runSeed(env!, seed, OPTIONS, coverage);
    const done = SEEDS.indexOf(seed) + 1;
    // A line per seed: a long run cut short still tells how far it got.
    console.log(
      `differential: seed ${seed} ${report ? "DISAGREE" : "agree"} in ${((Date.now() - seedStarted) / 1000).toFixed(0)} s; ${done}/${SEEDS.length} seeds, ${failures.length + (report ? 1 : 0)} failures, ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
    if (done % 20 === 0) console.log(coverage.summary());
    if (report) {
      failures.push(report);
      console.error(report);
    }
    expect(report === undefined, `seed ${seed}: the engines disagree (report above)`).toBe(true);
  }, OPTIONS.shrinkLimitMs + 600_000);
});
